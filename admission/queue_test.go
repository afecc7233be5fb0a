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

func TestQueueBadInput(t *testing.T) {
	var q Queue
	if err := q.Insert(Job{ID: 1, Deadline: 10}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		err   error
		field string
	}{
		{"duplicate ID", q.Insert(Job{ID: 1, Deadline: 20}), "NewJob.ID"},
		{"NaN deadline", q.Insert(Job{ID: 2, Deadline: math.NaN()}), "NewJob.Deadline"},
		{"-Inf deadline", q.Insert(Job{ID: 2, Deadline: math.Inf(-1)}), "NewJob.Deadline"},
		{"Inf arrival", q.Insert(Job{ID: 2, Arrival: math.Inf(1)}), "NewJob.Arrival"},
		{"negative JCT", q.Insert(Job{ID: 2, JCT: -1}), "NewJob.JCT"},
		{"SetJCT unknown", q.SetJCT(7, 1), "ID"},
		{"SetJCT NaN", q.SetJCT(1, math.NaN()), "Queue[0].JCT"},
		{"SetJCT Inf", q.SetJCT(1, math.Inf(1)), "Queue[0].JCT"},
		{"SetJCT beyond MaxDuration", q.SetJCT(1, 2*MaxDuration), "Queue[0].JCT"},
		{"JCT beyond MaxDuration", q.Insert(Job{ID: 2, JCT: math.MaxFloat64}), "NewJob.JCT"},
		{"negative Tasks", q.Insert(Job{ID: 2, Tasks: -1}), "NewJob.Tasks"},
		{"RunningUntil NaN", q.Insert(Job{ID: 2, RunningUntil: math.NaN()}), "NewJob.RunningUntil"},
		{"RunningUntil +Inf", q.Insert(Job{ID: 2, RunningUntil: math.Inf(1)}), "NewJob.RunningUntil"},
		{"SetProgress unknown", q.SetProgress(7, 1, 0), "ID"},
		{"SetProgress negative tasks", q.SetProgress(1, -1, 0), "Queue[0].Tasks"},
		{"SetProgress RunningUntil NaN", q.SetProgress(1, 1, math.NaN()), "Queue[0].RunningUntil"},
	}
	for _, tt := range tests {
		var ve *ValueError
		if !errors.Is(tt.err, ErrBadInput) || !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: err = %v, want field %q", tt.name, tt.err, tt.field)
		}
	}
	if q.Len() != 1 || q.Jobs()[0].JCT != 0 || q.Jobs()[0].Tasks != 0 || q.Jobs()[0].RunningUntil != 0 {
		t.Errorf("queue changed by bad input: %+v", q.Jobs())
	}
	if err := q.SetProgress(1, 3, math.Inf(-1)); err != nil || q.Jobs()[0].Tasks != 3 || !math.IsInf(q.Jobs()[0].RunningUntil, -1) {
		t.Errorf("SetProgress: %v, %+v", err, q.Jobs()[0])
	}
}

// TestQueueJobsEditsAreKept: a JCT, Tasks or RunningUntil written into the
// slice Jobs returned stays in the queue across Insert and Remove, and
// Queue.Decide sees it, as Checker.Decide over the same slice does.
func TestQueueJobsEditsAreKept(t *testing.T) {
	var q Queue
	for i, dl := range []float64{10, 20, 30} {
		if err := q.Insert(Job{ID: int64(i + 1), Deadline: dl, JCT: 1}); err != nil {
			t.Fatal(err)
		}
	}
	js := q.Jobs()
	js[0].JCT, js[1].Tasks, js[2].RunningUntil = 9, 4, 7 // job 1 now leaves 1 s of slack
	newJob := Job{ID: 9, Deadline: 5, JCT: 2}            // before every job: pushes job 1 late
	var c Checker
	want, _ := c.Decide(q.Jobs(), newJob, 0, Options{Mode: ModeStrict})
	got, err := q.Decide(newJob, 0, Options{Mode: ModeStrict})
	if err != nil || got.Admit || got.BlockingID != 1 || want.Admit || want.BlockingID != 1 {
		t.Fatalf("tree %+v %v, pass %+v", got, err, want)
	}
	if err := q.Insert(Job{ID: 4, Deadline: 40}); err != nil {
		t.Fatal(err)
	}
	q.Remove(4)
	js = q.Jobs()
	if js[0].JCT != 9 || js[1].Tasks != 4 || js[2].RunningUntil != 7 {
		t.Fatalf("edits lost: %+v", js)
	}
}
