package des

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestQueueOrder(t *testing.T) {
	var q Queue
	for i, tm := range []float64{3, 1, 3, 2} {
		if err := q.Push(Event{Time: tm, A: i}); err != nil {
			t.Fatal(err)
		}
	}
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
	if _, ok := q.Peek(); ok {
		t.Fatal("Peek on empty queue reported ok")
	}
	q.Push(Event{Time: 9})
	q.Reset()
	if q.Len() != 0 || q.Now() != 0 {
		t.Fatalf("after Reset: Len %d, Now %v", q.Len(), q.Now())
	}
}

// TestPushBadTimes is Push's bad-input table: a NaN time is refused with an
// error naming the field and leaves the queue as it was; ±Inf are ordered.
func TestPushBadTimes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		time    float64
		wantErr error
	}{
		{"NaN", math.NaN(), ErrBadTime},
		{"-NaN", math.Copysign(math.NaN(), -1), ErrBadTime},
		{"+Inf", math.Inf(1), nil},
		{"-Inf", math.Inf(-1), nil},
		{"MaxFloat64", math.MaxFloat64, nil},
		{"subnormal", 5e-324, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var q Queue
			q.Push(Event{Time: 1, A: 1})
			err := q.Push(Event{Time: tt.time, Kind: 7, A: 2})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("Push(%v) = %v, want %v", tt.time, err, tt.wantErr)
			}
			if err != nil {
				var te *TimeError
				if !errors.As(err, &te) || te.Event.Kind != 7 {
					t.Fatalf("error %v does not carry the event", err)
				}
				if q.Len() != 1 {
					t.Fatalf("refused event queued: Len %d", q.Len())
				}
			}
		})
	}
}

// eventTime draws times including the extremes: NaN, ±Inf, ±MaxFloat64,
// subnormals, −0 (which ties with 0 and pops in push order), 1e±300 and
// many ties.
func eventTime() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Map(rapid.IntRange(0, 5), func(i int) float64 { return float64(i) }),
		rapid.Float64(),
		rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 5e-324, -5e-324,
			0, math.Copysign(0, -1), 2.2250738585072014e-308, 1e300, -1e300, math.Nextafter(math.MaxFloat64, 0)}),
	)
}

// propQueue: whatever is pushed, the accepted events pop sorted by time, ties
// in push order; NaN times are refused; Now never decreases.
func propQueue(t *rapid.T) {
	times := rapid.SliceOf(eventTime()).Draw(t, "times")
	var q Queue
	type acc struct {
		time float64
		i    int
	}
	var want []acc
	for i, tm := range times {
		err := q.Push(Event{Time: tm, A: i})
		if math.IsNaN(tm) != (err != nil) {
			t.Fatalf("Push(%v) = %v", tm, err)
		}
		if err == nil {
			want = append(want, acc{tm, i})
		}
	}
	slices.SortStableFunc(want, func(a, b acc) int { return cmp.Compare(a.time, b.time) })
	now := q.Now()
	for k := 0; q.Len() > 0; k++ {
		e, _ := q.Pop()
		if e.A != want[k].i {
			t.Fatalf("pop %d: event %d (time %v), want %d (time %v)", k, e.A, e.Time, want[k].i, want[k].time)
		}
		if q.Now() < now {
			t.Fatalf("Now went back from %v to %v", now, q.Now())
		}
		now = q.Now()
	}
}

func TestPropQueue(t *testing.T) { rapid.Check(t, propQueue) }
func FuzzQueue(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQueue)) }

func TestPushPopAllocateNothing(t *testing.T) {
	var q Queue
	for range 64 {
		q.Push(Event{Time: 1})
	}
	q.Reset()
	if n := testing.AllocsPerRun(100, func() {
		for i := range 64 {
			q.Push(Event{Time: float64(i % 7)})
		}
		for q.Len() > 0 {
			q.Pop()
		}
	}); n != 0 {
		t.Fatalf("%v allocations per 64 pushes and pops", n)
	}
}
