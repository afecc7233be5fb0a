package job

import (
	"cmp"
	"math"
	"testing"
)

type flat float64

func (f flat) TCT(float64) float64 { return float64(f) }

// TestCheck: each clause of the entry contract, in its order; the first
// fault is the one reported.
func TestCheck(t *testing.T) {
	ok := Job{ID: 1, Arrival: 0, Deadline: 10, Tasks: 2, Model: flat(1)}
	tests := []struct {
		name  string
		edit  func(*Job)
		field string
	}{
		{"valid", func(*Job) {}, ""},
		{"no deadline", func(j *Job) { j.Deadline = NoDeadline() }, ""},
		{"no tasks, no model", func(j *Job) { j.Tasks, j.Model = 0, nil }, ""},
		{"past deadline", func(j *Job) { j.Deadline = -5 }, ""},
		{"NaN arrival", func(j *Job) { j.Arrival = math.NaN() }, "Arrival"},
		{"+Inf arrival", func(j *Job) { j.Arrival = math.Inf(1) }, "Arrival"},
		{"NaN deadline", func(j *Job) { j.Deadline = math.NaN() }, "Deadline"},
		{"-Inf deadline", func(j *Job) { j.Deadline = math.Inf(-1) }, "Deadline"},
		{"negative tasks", func(j *Job) { j.Tasks = -1 }, "Tasks"},
		{"nil model", func(j *Job) { j.Model = nil }, "Model"},
		{"typed nil model", func(j *Job) { j.Model = (*flat)(nil) }, "Model"},
		{"negative Read90", func(j *Job) { j.Read90 = -1 }, "Read90"},
		{"+Inf Read90", func(j *Job) { j.Read90 = math.Inf(1) }, "Read90"},
		{"NaN JCT", func(j *Job) { j.JCT = math.NaN() }, "JCT"},
		{"JCT beyond MaxDuration", func(j *Job) { j.JCT = 2 * MaxDuration }, "JCT"},
		{"running", func(j *Job) { j.Running = 1 }, "Running"},
		{"first fault wins", func(j *Job) { j.Tasks, j.JCT = -1, -1 }, "Tasks"},
	}
	for _, tt := range tests {
		j := ok
		tt.edit(&j)
		f, good := Check(&j)
		if good != (tt.field == "") || f.Field != tt.field {
			t.Errorf("%s: Check = %+v, %v; want field %q", tt.name, f, good, tt.field)
		}
	}
}

// TestCompareEDF: deadline first (no deadline last), then arrival, then ID.
func TestCompareEDF(t *testing.T) {
	jobs := []Job{
		{ID: 3, Arrival: 0, Deadline: 5},
		{ID: 1, Arrival: 1, Deadline: 5},
		{ID: 2, Arrival: 1, Deadline: 5},
		{ID: 0, Arrival: 0, Deadline: NoDeadline()},
	}
	for i := range jobs {
		for k := range jobs {
			if got, want := CompareEDF(&jobs[i], &jobs[k]), cmp.Compare(i, k); got != want {
				t.Errorf("CompareEDF(%+v, %+v) = %d, want %d", jobs[i], jobs[k], got, want)
			}
		}
	}
}
