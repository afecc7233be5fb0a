package preempt

import "math"

// Recency order (GP Algorithm 1 line 8, "reverse order running tasks by start
// time"): a task comes before another when it started later; ties go to the
// lower Job, then the lower Task.ID, then the lower index in Cluster.Tasks, so
// the order is total and every decision is deterministic.

// newer reports whether task a comes before task b in recency order.
func newer(ts []Task, a, b int32) bool {
	x, y := &ts[a], &ts[b]
	if x.Start != y.Start {
		return x.Start > y.Start
	}
	if x.Job != y.Job {
		return x.Job < y.Job
	}
	if x.ID != y.ID {
		return x.ID < y.ID
	}
	return a < b
}

// siftDown restores the heap property below i in h[:n] for a heap whose root
// is the oldest task (the last in recency order).
func siftDown(ts []Task, h []int32, i, n int) {
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && newer(ts, h[l], h[r]) {
			m = r
		}
		if !newer(ts, h[i], h[m]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func heapify(ts []Task, h []int32) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(ts, h, i, len(h))
	}
}

// sortRecent sorts h into recency order (newest first) by heapsort: no
// allocation, O(len(h)·log len(h)).
func sortRecent(ts []Task, h []int32) {
	heapify(ts, h)
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		siftDown(ts, h, 0, n)
	}
}

// partialRecent moves the m newest tasks of c to c[:m], sorted newest first,
// and leaves the rest in c[m:] unordered. It keeps a bounded heap of m
// tasks: O(len(c)·log m) time, no allocation.
func partialRecent(ts []Task, c []int32, m int) {
	if m >= len(c) {
		sortRecent(ts, c)
		return
	}
	if m <= 0 {
		return
	}
	h := c[:m]
	heapify(ts, h)
	for i := m; i < len(c); i++ {
		if newer(ts, c[i], h[0]) {
			h[0], c[i] = c[i], h[0]
			siftDown(ts, h, 0, m)
		}
	}
	for n := m - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		siftDown(ts, h, 0, n)
	}
}

// CompareRecency compares two tasks in recency order, the order in which GP
// takes the tasks it does not take for starvation (Algorithm 1 step 2,
// ReasonMostRecent; see GP): it returns −1 when a comes first (a started
// later, or at the same time in a lower Job, or in the same Job with a
// lower ID), +1 when b comes first, and 0 when both have the same Start,
// Job and ID (GP then takes the lower index in Cluster.Tasks). Sorting a
// Cluster's tasks by CompareRecency, then by index, gives the order of
// GP's most-recent victims among them. Only Start, Job and ID are read:
// Start must be in [−MaxTime, MaxTime] and Job ≥ 0; otherwise it returns 0
// and an error matching ErrBadInput naming "a.Start", "a.Job", "b.Start"
// or "b.Job".
func CompareRecency(a, b Task) (int, error) {
	if err := checkRecency("a", a); err != nil {
		return 0, err
	}
	if err := checkRecency("b", b); err != nil {
		return 0, err
	}
	ts := [2]Task{a, b}
	switch {
	case a.Start == b.Start && a.Job == b.Job && a.ID == b.ID:
		return 0, nil
	case newer(ts[:], 0, 1):
		return -1, nil
	}
	return 1, nil
}

// checkRecency checks the fields of t that recency order reads.
func checkRecency(name string, t Task) error {
	if !(math.Abs(t.Start) <= MaxTime) {
		return bad(name+".Start", t.Start, "must be in [-MaxTime, MaxTime]")
	}
	if t.Job < 0 {
		return bad(name+".Job", t.Job, "must be ≥ 0")
	}
	return nil
}
