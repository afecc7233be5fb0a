// Package des is the small discrete-event engine shared by the examples: a
// deterministic event queue ordered by time, then by the order events were
// pushed. Simulations keep their own state and interpret Event.Kind and the
// integer payloads themselves.
//
// Times are float64 seconds. A NaN time has no place in that order, so Push
// refuses it with an error matching ErrBadTime and queues nothing; ±Inf are
// ordered like any other time (−Inf first, +Inf last).
//
// # Limits
//
// A Queue holds whatever is pushed, 40 bytes an event, and grows by append;
// it has no bound of its own. Each simulation bounds its pending events
// through its own validated sizes (hadoopsim's MaxSlots, MaxJobs and
// MaxTasks; one pending event per client, VCPU or slot in the others), and
// Push and Pop cost O(log pending).
package des

import (
	"errors"
	"fmt"
	"math"
)

// ErrBadTime is matched (errors.Is) by Push's error for a NaN event time.
var ErrBadTime = errors.New("des: bad event time")

// A TimeError reports an event time Push refused.
type TimeError struct {
	Event Event
}

func (e *TimeError) Error() string {
	return fmt.Sprintf("des: Event.Time = %v (kind %d, A %d, B %d): must be a number", e.Event.Time, e.Event.Kind, e.Event.A, e.Event.B)
}

// Is reports whether target is ErrBadTime.
func (e *TimeError) Is(target error) bool { return target == ErrBadTime }

// An Event happens at Time (seconds of simulated time). Kind, A and B are for
// the simulation to interpret (for example Kind = task finished, A = job,
// B = slot).
type Event struct {
	Time float64
	Kind int
	A, B int
	seq  uint64
}

// Queue is a min-heap of events. Events with equal Time pop in push order, so
// a run is reproducible bit for bit. The zero value is an empty queue.
type Queue struct {
	h   []Event
	seq uint64
	now float64
}

// Now returns the time of the last popped event (0 before the first).
func (q *Queue) Now() float64 { return q.now }

// Len returns the number of pending events.
func (q *Queue) Len() int { return len(q.h) }

// Push schedules e. Pushing an event earlier than Now is allowed and pops next.
// A NaN e.Time gives a *TimeError (matching ErrBadTime) and leaves the queue
// unchanged, so the pop order stays a total order.
func (q *Queue) Push(e Event) error {
	if math.IsNaN(e.Time) {
		return &TimeError{Event: e}
	}
	e.seq = q.seq
	q.seq++
	q.h = append(q.h, e)
	q.up(len(q.h) - 1)
	return nil
}

// Peek returns the next event without removing it; ok is false when empty.
func (q *Queue) Peek() (e Event, ok bool) {
	if len(q.h) == 0 {
		return Event{}, false
	}
	return q.h[0], true
}

// Pop removes and returns the next event and advances Now to its time; ok is
// false when the queue is empty.
func (q *Queue) Pop() (e Event, ok bool) {
	n := len(q.h)
	if n == 0 {
		return Event{}, false
	}
	e = q.h[0]
	q.h[0] = q.h[n-1]
	q.h = q.h[:n-1]
	if n > 1 {
		q.down(0)
	}
	if e.Time > q.now {
		q.now = e.Time
	}
	return e, true
}

// Reset empties the queue and sets Now to 0, keeping its storage.
func (q *Queue) Reset() {
	q.h = q.h[:0]
	q.seq = 0
	q.now = 0
}

func (q *Queue) less(i, j int) bool {
	a, b := &q.h[i], &q.h[j]
	if a.Time != b.Time {
		return a.Time < b.Time
	}
	return a.seq < b.seq
}

func (q *Queue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			return
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *Queue) down(i int) {
	n := len(q.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			return
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
}
