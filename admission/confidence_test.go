package admission

import (
	"errors"
	"math"
	"testing"
)

// confQueue: job 1 (deadline 100) before and job 2 (deadline 175) after a new
// job with deadline 150, four samples each, now = 0.
//
//	sample          0    1    2    3
//	job 1          20   40   60   80   prefix 20 40 60 80       ≤ 100: all
//	new            10   20   30   90   prefix 30 60 90 170      ≤ 150: T T T F
//	job 2         150   50   50    0   prefix 180 110 140 170   ≤ 175: F T T T
//	job 2 without the new job:         prefix 170 90 110 80     ≤ 175: all
//
// Marginals: new 3/4, job 2 3/4; jointly (samples 1 and 2) 2/4.
func confQueue() ([]Job, Job) {
	q := []Job{
		{ID: 1, Deadline: 100, Samples: []float64{20, 40, 60, 80}},
		{ID: 2, Deadline: 175, Samples: []float64{150, 50, 50, 0}},
		{ID: 3, Deadline: math.Inf(1)}, // no samples needed
	}
	return q, Job{ID: 4, Deadline: 150, Samples: []float64{10, 20, 30, 90}}
}

func TestDecideConfidenceHandWorked(t *testing.T) {
	q, job := confQueue()
	tests := []struct {
		p        float64
		admit    bool
		blocking int64
	}{
		{0, true, 0},
		{0.5, true, 0},   // P = 0.5 ≥ 0.5
		{0.6, false, 4},  // tie between new and job 2 at 0.75: the earlier, new
		{1, false, 4},    // job 2 is still protected (1 ≥ 1 without the new job)
		{0.75, false, 4}, // marginals reach 0.75, the joint 0.5 does not
	}
	var c Workspace
	for _, tt := range tests {
		d, err := c.Decide(q, job, 0, Options{Mode: ModeConfidence, Confidence: tt.p})
		if err != nil {
			t.Fatal(err)
		}
		if d.Admit != tt.admit || d.BlockingID != tt.blocking || d.Probability != 0.5 || d.NewIndex != 1 {
			t.Fatalf("p=%v: %+v", tt.p, d)
		}
		if tt.admit != (d.Reason == ReasonFits) || (!tt.admit && d.Reason != ReasonLowConfidence) {
			t.Errorf("p=%v: reason %v", tt.p, d.Reason)
		}
		want := []Check{
			{ID: 1, Deadline: 100, JCT: 50, Prefix: 50, Slack: 50, PMeet: 1},
			{ID: 4, Deadline: 150, JCT: 37.5, Prefix: 87.5, Slack: 62.5, PMeet: 0.75, New: true, Protected: true},
			{ID: 2, Deadline: 175, JCT: 62.5, Prefix: 150, Slack: 25, PMeet: 0.75, Protected: true},
		}
		if len(d.Checked) != len(want) {
			t.Fatalf("p=%v: Checked %+v", tt.p, d.Checked)
		}
		for i := range want {
			if d.Checked[i] != want[i] {
				t.Errorf("p=%v: Checked[%d] = %+v, want %+v", tt.p, i, d.Checked[i], want[i])
			}
		}
	}
	// Job 2 is not protected once p exceeds its chance without the new job:
	// with deadline 165 it meets in samples 1, 2, 3 only (3/4) without it.
	q[1].Deadline = 165
	d, err := c.Decide(q, job, 0, Options{Mode: ModeConfidence, Confidence: 0.8})
	if err != nil || d.Checked[2].Protected || d.Probability != 0.75 || d.Admit {
		t.Fatalf("p=0.8, job 2 below target: %+v, %v", d, err)
	}
	d, err = c.Decide(q, job, 0, Options{Mode: ModeConfidence, Confidence: 0.7})
	if err != nil || !d.Checked[2].Protected || d.Probability != 0.5 || d.Admit || d.BlockingID != 2 {
		// new 0.75 > job 2's marginal 0.5 (samples 1, 2): job 2 blocks
		t.Fatalf("p=0.7: %+v, %v", d, err)
	}
}

func TestDecideConfidenceBadInput(t *testing.T) {
	q, job := confQueue()
	nan, inf := math.NaN(), math.Inf(1)
	withNew := func(f func(*Job)) Job { j := job; j.Samples = append([]float64(nil), job.Samples...); f(&j); return j }
	withQ := func(k int, f func(*Job)) []Job {
		out := append([]Job(nil), q...)
		out[k].Samples = append([]float64(nil), q[k].Samples...)
		f(&out[k])
		return out
	}
	tests := []struct {
		name   string
		queue  []Job
		newJob Job
		now, p float64
		field  string
	}{
		{"p NaN", q, job, 0, nan, "Options.Confidence"},
		{"p negative", q, job, 0, -0.1, "Options.Confidence"},
		{"p above 1", q, job, 0, 1.01, "Options.Confidence"},
		{"now Inf", q, job, inf, 0.5, "now"},
		{"new no samples", q, withNew(func(j *Job) { j.Samples = nil }), 0, 0.5, "NewJob.Samples"},
		{"new sample NaN", q, withNew(func(j *Job) { j.Samples[2] = nan }), 0, 0.5, "NewJob.Samples[2]"},
		{"new sample negative", q, withNew(func(j *Job) { j.Samples[0] = -1 }), 0, 0.5, "NewJob.Samples[0]"},
		{"new deadline NaN", q, withNew(func(j *Job) { j.Deadline = nan }), 0, 0.5, "NewJob.Deadline"},
		{"queued short", withQ(0, func(j *Job) { j.Samples = j.Samples[:3] }), job, 0, 0.5, "Queue[0].Samples"},
		{"queued missing", withQ(1, func(j *Job) { j.Samples = nil }), job, 0, 0.5, "Queue[1].Samples"},
		{"queued sample Inf", withQ(1, func(j *Job) { j.Samples[3] = inf }), job, 0, 0.5, "Queue[1].Samples[3]"},
		{"queued out of order", withQ(0, func(j *Job) { j.Deadline = 500 }), job, 0, 0.5, "Queue[1]"},
		{"duplicate ID", withQ(0, func(j *Job) { j.ID = 4 }), job, 0, 0.5, "NewJob.ID"},
		// Issue 19, defect 6: the sample mean overflowed, giving JCT and
		// Prefix +Inf, Slack -Inf with PMeet 1.
		{"samples MaxFloat64", nil, Job{ID: 1, Deadline: math.MaxFloat64, Samples: []float64{math.MaxFloat64, math.MaxFloat64}}, 0, 0.5, "NewJob.Samples[0]"},
		{"sample beyond MaxDuration", q, withNew(func(j *Job) { j.Samples[1] = 2 * MaxDuration }), 0, 0.5, "NewJob.Samples[1]"},
		{"queue bad, new without deadline", withQ(0, func(j *Job) { j.Arrival = nan }), withNew(func(j *Job) { j.Deadline = inf }), 0, 0.5, "Queue[0].Arrival"},
	}
	for _, tt := range tests {
		d, err := decide(tt.queue, tt.newJob, tt.now, Options{Mode: ModeConfidence, Confidence: tt.p})
		var ve *ValueError
		if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field || d.Admit {
			t.Errorf("%s: %+v, %v; want field %q", tt.name, d, err, tt.field)
		}
	}
	// Via Decide and Options.
	d, err := decide(q, job, 0, Options{Mode: ModeConfidence, Confidence: 0.5})
	if err != nil || !d.Admit || d.Mode != ModeConfidence || d.Probability != 0.5 {
		t.Errorf("Decide in confidence mode: %+v, %v", d, err)
	}
}

func TestStrings(t *testing.T) {
	if ModeWave.String() != "wave" || ModeStrict.String() != "strict" || ModePaper.String() != "paper" || ModeConfidence.String() != "confidence" || Mode(9).String() != "Mode(9)" {
		t.Error("Mode.String")
	}
	for r, want := range map[Reason]string{ReasonFits: "fits", ReasonNoDeadline: "no-deadline", ReasonNewJobLate: "new-job-late",
		ReasonQueuedJobHurt: "queued-job-hurt", ReasonLowConfidence: "low-confidence", Reason(-1): "Reason(-1)"} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q", int(r), r.String(), want)
		}
	}
}
