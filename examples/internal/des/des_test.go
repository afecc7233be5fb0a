package des

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestQueueOrder(t *testing.T) {
	var q Queue
	q.Push(Event{Time: 3, A: 0})
	q.Push(Event{Time: 1, A: 1})
	q.Push(Event{Time: 3, A: 2})
	q.Push(Event{Time: 2, A: 3})
	var got []int
	for q.Len() > 0 {
		e, _ := q.Pop()
		got = append(got, e.A)
	}
	if want := []int{1, 3, 0, 2}; !slices.Equal(got, want) {
		t.Fatalf("pop order %v, want %v", got, want)
	}
	if q.Now() != 3 {
		t.Fatalf("Now = %v, want 3", q.Now())
	}
	if _, ok := q.Pop(); ok {
		t.Fatal("Pop on empty queue reported ok")
	}
}

// Popped events come out sorted by time, ties in push order.
func TestQueueSortsStably(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		times := rapid.SliceOf(rapid.IntRange(0, 5)).Draw(t, "times")
		var q Queue
		for i, tm := range times {
			q.Push(Event{Time: float64(tm), A: i})
		}
		prevT, prevA := -1.0, -1
		for q.Len() > 0 {
			e, _ := q.Pop()
			if e.Time < prevT || (e.Time == prevT && e.A < prevA) {
				t.Fatalf("event (%v,%d) after (%v,%d)", e.Time, e.A, prevT, prevA)
			}
			prevT, prevA = e.Time, e.A
		}
	})
}
