package admission

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestQueueKeepsEDFOrder(t *testing.T) {
	var q Queue
	in := []Job{
		{ID: 5, Arrival: 3, Deadline: math.Inf(1)},
		{ID: 1, Arrival: 0, Deadline: 200},
		{ID: 2, Arrival: 1, Deadline: 100},
		{ID: 3, Arrival: 2, Deadline: 100},
		{ID: 4, Arrival: 2, Deadline: math.Inf(1)},
		{ID: 0, Arrival: 2, Deadline: 100},
	}
	for _, j := range in {
		if err := q.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	ids := func() []int64 {
		var out []int64
		for _, j := range q.Jobs() {
			out = append(out, j.ID)
		}
		return out
	}
	if got, want := ids(), []int64{2, 0, 3, 1, 4, 5}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if err := q.SetJCT(3, 42); err != nil || q.Jobs()[2].JCT != 42 {
		t.Fatalf("SetJCT: %v, %+v", err, q.Jobs()[2])
	}
	if !q.Remove(0) || q.Remove(0) || q.Len() != 5 {
		t.Fatal("Remove(0) twice")
	}
	if got, want := ids(), []int64{2, 3, 1, 4, 5}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	q.Reset()
	if q.Len() != 0 {
		t.Fatal("Reset left jobs")
	}
}

// queueOfOne is a Queue holding job 1 (deadline 10, no tasks), the state
// the bad-input tests check a refused call leaves unchanged.
func queueOfOne(t *testing.T) *Queue {
	t.Helper()
	var q Queue
	if err := q.Insert(Job{ID: 1, Deadline: 10}); err != nil {
		t.Fatal(err)
	}
	return &q
}

func TestQueueBadInput(t *testing.T) {
	q := queueOfOne(t)
	tests := []struct {
		name  string
		err   error
		field string
		is    error // a sentinel the error also matches, or nil
	}{
		{"duplicate ID", q.Insert(Job{ID: 1, Deadline: 20}), "Job.ID", nil},
		{"NaN deadline", q.Insert(Job{ID: 2, Deadline: math.NaN()}), "Job.Deadline", nil},
		{"-Inf deadline", q.Insert(Job{ID: 2, Deadline: math.Inf(-1)}), "Job.Deadline", nil},
		{"Inf arrival", q.Insert(Job{ID: 2, Arrival: math.Inf(1)}), "Job.Arrival", nil},
		{"negative JCT", q.Insert(Job{ID: 2, JCT: -1}), "Job.JCT", nil},
		{"SetJCT unknown", q.SetJCT(7, 1), "ID", ErrUnknownJob},
		{"SetJCT NaN", q.SetJCT(1, math.NaN()), "Queue[0].JCT", nil},
		{"SetJCT Inf", q.SetJCT(1, math.Inf(1)), "Queue[0].JCT", nil},
		{"SetJCT beyond MaxDuration", q.SetJCT(1, 2*MaxDuration), "Queue[0].JCT", nil},
		{"JCT beyond MaxDuration", q.Insert(Job{ID: 2, JCT: math.MaxFloat64}), "Job.JCT", nil},
		{"negative Tasks", q.Insert(Job{ID: 2, Tasks: -1}), "Job.Tasks", nil},
		{"nil model with tasks", q.Insert(Job{ID: 2, Tasks: 1}), "Job.Model", nil},
		{"typed nil model with tasks", q.Insert(Job{ID: 2, Tasks: 1, Model: (*exp2)(nil)}), "Job.Model", nil},
		{"running tasks", q.Insert(Job{ID: 2, Running: 1, RunningUntil: 3}), "Job.Running", nil},
		{"Start unknown", q.Start(7, 0, 1), "ID", ErrUnknownJob},
		{"Start no pending task", q.Start(1, 0, 1), "Job.Tasks", ErrNoPendingTask},
		{"Start slot negative", q.Start(1, -1, 1), "slot", nil},
		{"Start slot MaxSlots", q.Start(1, MaxSlots, 1), "slot", nil},
		{"Start plannedEnd NaN", q.Start(1, 0, math.NaN()), "plannedEnd", nil},
		{"End free slot", q.End(0, true), "slot", nil},
		{"End slot beyond", q.End(5, true), "slot", nil},
		{"End slot negative", q.End(-1, false), "slot", nil},
	}
	for _, tt := range tests {
		var ve *ValueError
		if !errors.Is(tt.err, ErrBadInput) || !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: err = %v, want field %q", tt.name, tt.err, tt.field)
		}
		if tt.is != nil && !errors.Is(tt.err, tt.is) {
			t.Errorf("%s: err = %v does not match %v", tt.name, tt.err, tt.is)
		}
	}
	if j, ok := q.Status(1); q.Len() != 1 || !ok || j.JCT != 0 || j.Tasks != 0 || j.Running != 0 {
		t.Errorf("queue changed by bad input: %+v", q.Jobs())
	}
}

// TestQueueStartEnd works a job's progress by hand: its pending count, its
// running tasks and their latest planned end, through starts, a failed
// task and ends in any order, and the slots wave mode plans busy.
func TestQueueStartEnd(t *testing.T) {
	var q Queue
	if err := q.Insert(Job{ID: 7, Deadline: 100, Tasks: 4, Model: flat(10)}); err != nil {
		t.Fatal(err)
	}
	want := func(step string, tasks, running int, until float64) {
		t.Helper()
		j, ok := q.Status(7)
		if !ok || j.Tasks != tasks || j.Running != running || j.RunningUntil != until {
			t.Errorf("%s: %+v, want %d pending, %d running until %v", step, j, tasks, running, until)
		}
		if js := q.Jobs(); len(js) != 1 || js[0].ID != j.ID || js[0].Tasks != j.Tasks || js[0].Running != j.Running || js[0].RunningUntil != j.RunningUntil {
			t.Errorf("%s: Jobs %+v, Status %+v", step, js, j)
		}
	}
	want("queued", 4, 0, 0)
	for slot, end := range []float64{12, 15, 11} {
		if err := q.Start(7, slot, end); err != nil {
			t.Fatal(err)
		}
	}
	want("three started", 1, 3, 15)
	if err := q.Start(7, 1, 20); err == nil {
		t.Error("a second task started on a busy slot")
	}
	if err := q.End(0, true); err != nil { // not the latest: RunningUntil stays
		t.Fatal(err)
	}
	want("one done", 1, 2, 15)
	if err := q.End(1, false); err != nil { // the latest failed: back to pending
		t.Fatal(err)
	}
	want("latest failed", 2, 1, 11)
	c, err := q.cluster(&Options{Cluster: rs(1, 1, 0.5, 1)})
	if err != nil || c[2] != (Slot{R: 0.5, Busy: true, FreeAt: 11}) || c[0].Busy || c[1].Busy || c[3].Busy {
		t.Errorf("cluster %+v, %v: only slot 2 busy until 11", c, err)
	}
	if _, err := q.cluster(&Options{Cluster: rs(1, 1)}); err == nil {
		t.Error("a task on slot 2 of a two-slot cluster went unreported")
	}
	if err := q.End(2, true); err != nil {
		t.Fatal(err)
	}
	want("all ended", 2, 0, 0)
	if err := q.Start(7, 3, 30); err != nil {
		t.Fatal(err)
	}
	if !q.Remove(7) || q.busy != 0 || q.slots[3].v != -1 {
		t.Errorf("Remove left slot 3 %+v, %d busy", q.slots[3], q.busy)
	}
	if err := q.End(3, true); err == nil {
		t.Error("a removed job's task ended")
	}
}
