package preempt

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// propCompareRecency: on a cluster whose jobs neither starve others nor are
// protected, GP freeing every slot takes its victims in the order of
// sorting the tasks by CompareRecency, then by index; CompareRecency is
// antisymmetric; and on any Start and Job it either compares or returns an
// error matching ErrBadInput naming the bad field.
func propCompareRecency(t *rapid.T) {
	c := genCluster(t, true)
	for j := range c.Jobs {
		c.Jobs[j].NoPreempt = false
	}
	d, err := GP(c, len(c.Tasks), GPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(c.Tasks))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		r, err := CompareRecency(c.Tasks[a], c.Tasks[b])
		if err != nil {
			t.Fatal(err)
		}
		if back, _ := CompareRecency(c.Tasks[b], c.Tasks[a]); back != -r {
			t.Fatalf("CompareRecency(%+v, %+v) = %d but %d the other way", c.Tasks[a], c.Tasks[b], r, back)
		}
		return r
	})
	if len(d.Victims) != len(idx) {
		t.Fatalf("GP took %d victims of %d tasks", len(d.Victims), len(idx))
	}
	for i, v := range d.Victims {
		if v.Task != idx[i] || v.Reason != ReasonMostRecent {
			t.Fatalf("victim %d: GP took task %d (%v), the recency sort has task %d", i, v.Task, v.Reason, idx[i])
		}
	}

	a := Task{Start: quantity().Draw(t, "a.Start"), Job: count().Draw(t, "a.Job")}
	if rapid.Bool().Draw(t, "negative start") {
		a.Start = -a.Start
	}
	b := c.Now
	r, err := CompareRecency(a, Task{Start: b})
	switch {
	case !(math.Abs(a.Start) <= MaxTime):
		wantField(t, err, "a.Start")
	case a.Job < 0:
		wantField(t, err, "a.Job")
	case err != nil:
		t.Fatalf("CompareRecency(%+v, {Start %v}): %v", a, b, err)
	case (r < 0) != (a.Start > b || a.Start == b && a.Job < 0) || (r == 0) != (a.Start == b && a.Job == 0 && a.ID == 0):
		t.Fatalf("CompareRecency(%+v, {Start %v}) = %d", a, b, r)
	}
	if _, err := CompareRecency(Task{}, a); err != nil && !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %v does not match ErrBadInput", err)
	}
}

func TestPropCompareRecency(t *testing.T) { rapid.Check(t, propCompareRecency) }
func FuzzCompareRecency(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propCompareRecency)) }

// TestCompareRecency: hand-worked comparisons and the bad inputs.
func TestCompareRecency(t *testing.T) {
	for _, c := range []struct {
		a, b Task
		want int
	}{
		{Task{Start: 10}, Task{Start: 5}, -1},                      // a started later
		{Task{Start: -3600}, Task{Start: 0}, 1},                    // b started later
		{Task{Start: 5, Job: 1}, Task{Start: 5, Job: 2}, -1},       // same start: lower job
		{Task{Start: 5, Job: 2, ID: 1}, Task{Start: 5, Job: 2}, 1}, // same job: lower ID
		{Task{Start: 5, Job: 2, ID: 7, Slots: 3}, Task{Start: 5, Job: 2, ID: 7, Slots: 1}, 0},
		{Task{Start: MaxTime}, Task{Start: -MaxTime}, -1},
	} {
		if got, err := CompareRecency(c.a, c.b); err != nil || got != c.want {
			t.Errorf("CompareRecency(%+v, %+v) = %d, %v, want %d", c.a, c.b, got, err, c.want)
		}
	}
	for _, c := range []struct {
		name  string
		a, b  Task
		field string
	}{
		{"NaN a.Start", Task{Start: math.NaN()}, Task{}, "a.Start"},
		{"a.Start beyond MaxTime", Task{Start: math.Nextafter(MaxTime, math.Inf(1))}, Task{}, "a.Start"},
		{"-Inf b.Start", Task{}, Task{Start: math.Inf(-1)}, "b.Start"},
		{"negative a.Job", Task{Job: -1}, Task{}, "a.Job"},
		{"negative b.Job", Task{}, Task{Job: math.MinInt}, "b.Job"},
		{"both bad: a first", Task{Job: -1}, Task{Start: math.NaN()}, "a.Job"},
	} {
		got, err := CompareRecency(c.a, c.b)
		wantField(t, err, c.field)
		if got != 0 {
			t.Errorf("%s: %d with the error, want 0", c.name, got)
		}
	}
}
