package admission

import (
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// limitQueue is MaxJobs+1 deadline jobs in EDF order, each with one
// sample, every JCT and sample at MaxDuration/MaxJobs so that the prefix
// sums reach MaxDuration.
func limitQueue() []Job {
	q := make([]Job, MaxJobs+1)
	d := MaxDuration / MaxJobs
	for i := range q {
		q[i] = Job{ID: int64(i + 1), Arrival: 0, Deadline: 2 * MaxDuration, JCT: d, Samples: []float64{d}}
	}
	return q
}

// TestLimits runs each of admission's size limits at the limit and one
// beyond: MaxJobs in every mode's queue and in a Queue, MaxSamples in
// confidence mode, MaxSlots and MaxPlannedTasks in wave mode. At the limit
// the decision is finite and, with a warmed Workspace, allocation-free; one
// beyond is refused naming the field.
func TestLimits(t *testing.T) {
	queue := limitQueue()
	newJob := Job{ID: 0, Arrival: 0, Deadline: 3 * MaxDuration, JCT: 1, Samples: []float64{1}}
	var c Workspace
	for _, mode := range []Mode{ModeStrict, ModePaper, ModeConfidence} {
		opt := Options{Mode: mode, Confidence: 0.5}
		d, err := c.Decide(queue[:MaxJobs], newJob, 0, opt)
		if err != nil || !d.Admit || len(d.Checked) != MaxJobs+1 || notFinite(d) {
			t.Fatalf("%v at MaxJobs: admit %v, %d checks, %v", mode, d.Admit, len(d.Checked), err)
		}
		if !raceEnabled {
			if n := testing.AllocsPerRun(2, func() { c.Decide(queue[:MaxJobs], newJob, 0, opt) }); n != 0 {
				t.Errorf("%v at MaxJobs, warmed: %v allocations", mode, n)
			}
		}
		_, err = c.Decide(queue, newJob, 0, opt)
		wantField(t, err, "len(queue)")
	}

	var q Queue
	for _, j := range queue[:MaxJobs] {
		if err := q.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	wantField(t, q.Insert(queue[MaxJobs]), "Queue.Len")
	if d, err := q.Decide(newJob, 0, Options{Mode: ModeStrict}); err != nil || !d.Admit || notFinite(d) {
		t.Fatalf("Queue.Decide at MaxJobs: %v, %v", d.Admit, err)
	}

	samples := make([]float64, MaxSamples+1)
	for s := range samples {
		samples[s] = float64(s % 100)
	}
	withSamples := func(n int) []Job {
		return []Job{{ID: 1, Deadline: 1000, Samples: samples[:n]}}
	}
	big := Job{ID: 2, Deadline: 500, Samples: samples[:MaxSamples]}
	if d, err := c.Decide(withSamples(MaxSamples), big, 0, Options{Mode: ModeConfidence, Confidence: 0.5}); err != nil || notFinite(d) {
		t.Fatalf("DecideConfidence at MaxSamples: %+v, %v", d.Probability, err)
	}
	big.Samples = samples
	_, err := c.Decide(withSamples(MaxSamples+1), big, 0, Options{Mode: ModeConfidence, Confidence: 0.5})
	wantField(t, err, "len(NewJob.Samples)")

	// Wave mode at MaxSlots slots and MaxPlannedTasks tasks: about 1.2 s of
	// CPU a decision, ten times that under the race detector, so there only
	// the refusals run (CI runs this test without it too).
	cluster := make([]Slot, MaxSlots+1)
	for i := range cluster {
		cluster[i] = Slot{R: 1, Busy: true, FreeAt: float64(i % 7)}
	}
	wave := Options{Mode: ModeWave, Cluster: cluster[:MaxSlots]}
	job := Job{ID: 1, Deadline: MaxDuration, Tasks: MaxPlannedTasks, Model: linear{A: 1}}
	if !raceEnabled {
		var d Decision
		got := testkit.Allocated(func() { d, err = c.Decide(nil, job, 0, wave) })
		if err != nil || !d.Admit || notFinite(d) {
			t.Fatalf("wave at MaxSlots and MaxPlannedTasks: %+v, %v", d, err)
		}
		t.Logf("wave at MaxSlots and MaxPlannedTasks: %.1f MiB", float64(got)/(1<<20))
		if got > 100<<20 {
			t.Errorf("wave at the limits allocated %d B, over 100 MiB", got)
		}
		if n := testing.AllocsPerRun(1, func() { c.Decide(nil, job, 0, wave) }); n != 0 {
			t.Errorf("wave at the limits, warmed: %v allocations", n)
		}
	}
	wave.Cluster = cluster
	_, err = c.Decide(nil, job, 0, wave)
	wantField(t, err, "Options.Cluster")
	job.Tasks++
	wave.Cluster = cluster[:MaxSlots]
	_, err = c.Decide(nil, job, 0, wave)
	wantField(t, err, "NewJob.Tasks")
}
