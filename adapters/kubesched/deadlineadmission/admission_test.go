package deadlineadmission

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func dur(d time.Duration) metav1.Duration { return metav1.Duration{Duration: d} }

func TestValidateArgs(t *testing.T) {
	good := &Args{Mode: ModeStrict, JobTypes: []JobType{{Name: "etl", Runtime: dur(time.Hour)}}}
	if err := good.Validate(nil); err != nil {
		t.Fatalf("good args: %v", err)
	}
	bad := &Args{
		Mode:           "Lenient",
		DefaultRuntime: dur(-time.Minute),
		JobTypes: []JobType{
			{Name: "etl", Runtime: dur(time.Hour)},
			{Name: "etl", Runtime: dur(0)},
			{Name: "Not_A_Label", Runtime: dur(time.Hour)},
		},
	}
	err := bad.Validate(nil)
	if err == nil {
		t.Fatal("bad args accepted")
	}
	for _, want := range []string{
		`mode: Unsupported value: "Lenient"`,
		"defaultRuntime: Invalid value",
		`jobTypes[1].name: Duplicate value: "etl"`,
		"jobTypes[1].runtime: Invalid value",
		`jobTypes[2].name: Invalid value: "Not_A_Label"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not report %q", err, want)
		}
	}
}

func TestDecodeArgs(t *testing.T) {
	args, err := DecodeArgs(nil)
	if err != nil || args.Mode != ModeStrict || len(args.JobTypes) != 0 {
		t.Fatalf("nil args = %+v, %v; want strict defaults", args, err)
	}
	args, err = DecodeArgs(&runtime.Unknown{Raw: []byte(`{"mode":"Paper","jobTypes":[{"name":"etl","runtime":"20m"}],"defaultRuntime":"1h"}`)})
	if err != nil || args.Mode != ModePaper || args.JobTypes[0].Runtime.Duration != 20*time.Minute || args.DefaultRuntime.Duration != time.Hour {
		t.Fatalf("decoded %+v, %v", args, err)
	}
	if _, err := DecodeArgs(&runtime.Unknown{Raw: []byte(`{"mode":"x","jobTypes":[{"name":"","runtime":"0s"}]}`)}); err == nil ||
		!strings.Contains(err.Error(), "mode") || !strings.Contains(err.Error(), "jobTypes[0].name") || !strings.Contains(err.Error(), "jobTypes[0].runtime") {
		t.Fatalf("bad args error %v does not name every field", err)
	}
}

func TestEstimate(t *testing.T) {
	args := &Args{JobTypes: []JobType{{Name: "etl", Runtime: dur(20 * time.Minute)}}, DefaultRuntime: dur(time.Hour)}
	tests := []struct {
		name    string
		job     podjob.Job
		want    time.Duration
		source  string
		wantErr string
	}{
		{"annotation", podjob.Job{HasRuntime: true, Runtime: 5 * time.Minute, JobType: "etl"}, 5 * time.Minute, annotation.Runtime, ""},
		{"job type", podjob.Job{JobType: "etl"}, 20 * time.Minute, "job type etl", ""},
		{"default", podjob.Job{}, time.Hour, "defaultRuntime", ""},
		{"unknown job type", podjob.Job{Ref: "Job ns/j", JobType: "ml"}, 0, "", `Job ns/j has schedkit.io/job-type="ml", which the DeadlineAdmission args do not list`},
		{"malformed", podjob.Job{Problems: map[string]*podjob.AnnotationError{annotation.Runtime: {Object: "pod ns/p", Annotation: annotation.Runtime, Value: "x", Reason: "bad"}}}, 0, "", `pod ns/p: annotation schedkit.io/runtime="x": bad`},
	}
	for _, tt := range tests {
		got, source, err := Estimate(tt.job, args)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want || source != tt.source {
			t.Errorf("%s: %v from %q (%v), want %v from %q", tt.name, got, source, err, tt.want, tt.source)
		}
	}
	if _, _, err := Estimate(podjob.Job{Ref: "Pod ns/p"}, &Args{}); err == nil || err.Error() != "Pod ns/p has a deadline but no run-time estimate: set schedkit.io/runtime or schedkit.io/job-type" {
		t.Errorf("no estimate: %v", err)
	}
}

func dj(name string, deadline time.Duration, runtime time.Duration) podjob.Job {
	key := types.UID(name)
	j := podjob.Job{Key: key, ID: podjob.IDOf(key), Ref: "Job ns/" + name, Created: t0.Add(-time.Hour), Deadline: t0.Add(deadline), HasDeadline: true}
	if runtime > 0 {
		j.Runtime, j.HasRuntime = runtime, true
	}
	return j
}

// TestDecision works the scenario's numbers by hand: a has 30 min left of
// 40 min run time (started 10 min ago) and its deadline in 40 min.
func TestDecision(t *testing.T) {
	args := &Args{Mode: ModeStrict}
	running := []RunningJob{{Job: dj("a", 40*time.Minute, 40*time.Minute), Started: t0.Add(-10 * time.Minute)}}
	tests := []struct {
		name  string
		job   podjob.Job
		admit bool
		msg   string
	}{
		// b first in EDF order: 15 ≤ 20; then a: 15 + 30 = 45 > 40.
		{"hurts a", dj("b", 20*time.Minute, 15*time.Minute), false,
			"admitting Job ns/b would make running Job ns/a finish at 2026-07-01T12:45:00Z (in 45m0s), 5m0s after its deadline 2026-07-01T12:40:00Z; rejected to protect Job ns/a"},
		// c first: 15 > 10.
		{"late itself", dj("c", 10*time.Minute, 15*time.Minute), false,
			"Job ns/c would finish at 2026-07-01T12:15:00Z (in 15m0s, after 0 running deadline jobs ahead of it in EDF order), 5m0s after its deadline 2026-07-01T12:10:00Z"},
		// a first: 30 ≤ 40; then d: 30 + 60 = 90 > 80.
		{"late behind a", dj("d", 80*time.Minute, time.Hour), false,
			"Job ns/d would finish at 2026-07-01T13:30:00Z (in 1h30m0s, after 1 running deadline job ahead of it in EDF order), 10m0s after its deadline 2026-07-01T13:20:00Z"},
		// a: 30 ≤ 40; e: 30 + 30 = 60 ≤ 60 (exactly on time).
		{"fits exactly", dj("e", time.Hour, 30*time.Minute), true, ""},
	}
	for _, tt := range tests {
		in, err := MakeInput(tt.job, tt.job.Runtime, running, args, t0)
		if err != nil {
			t.Fatal(err)
		}
		d, err := new(admission.Workspace).Decide(in.Queue, in.New, in.Now, admission.Options{Mode: admission.ModeStrict})
		if err != nil {
			t.Fatal(err)
		}
		if d.Admit != tt.admit || Message(d, in) != tt.msg {
			t.Errorf("%s: admit %v message\n %q\nwant admit %v message\n %q", tt.name, d.Admit, Message(d, in), tt.admit, tt.msg)
		}
	}
	// Paper mode checks only the new job: b is admitted.
	in, _ := MakeInput(tests[0].job, 15*time.Minute, running, args, t0)
	if d, _ := new(admission.Workspace).Decide(in.Queue, in.New, in.Now, admission.Options{Mode: admission.ModePaper}); !d.Admit {
		t.Errorf("paper mode rejected b: %+v", d)
	}
}

func genRunning(t *rapid.T) []RunningJob {
	n := rapid.IntRange(0, 8).Draw(t, "running")
	out := make([]RunningJob, n)
	for i := range out {
		name := fmt.Sprintf("r%d", i)
		j := dj(name, time.Duration(rapid.IntRange(-60, 600).Draw(t, "deadline"))*time.Minute, time.Duration(rapid.IntRange(0, 300).Draw(t, "runtime"))*time.Minute)
		j.HasDeadline = rapid.IntRange(0, 4).Draw(t, "hasDeadline") > 0
		j.Created = t0.Add(-time.Duration(rapid.IntRange(0, 100).Draw(t, "created")) * time.Minute)
		out[i] = RunningJob{Job: j, Started: t0.Add(-time.Duration(rapid.IntRange(0, 400).Draw(t, "started")) * time.Minute)}
	}
	return out
}

// propMakeInput: the queue is in admission's EDF order and holds exactly
// the running deadline jobs; each JCT is the remaining run time, in
// [0, estimate]; the input order of running jobs does not matter.
func propMakeInput(t *rapid.T) {
	args := &Args{Mode: ModeStrict, DefaultRuntime: dur(time.Duration(rapid.IntRange(0, 60).Draw(t, "default")) * time.Minute)}
	running := genRunning(t)
	newJob := dj("new", time.Hour, 10*time.Minute)
	in, err := MakeInput(newJob, 10*time.Minute, running, args, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range running {
		if r.Job.HasDeadline {
			want++
		}
	}
	if len(in.Queue) != want {
		t.Fatalf("queue has %d jobs, want the %d running deadline jobs", len(in.Queue), want)
	}
	for i, q := range in.Queue {
		if i > 0 && admission.CompareEDF(in.Queue[i-1], q) >= 0 {
			t.Fatalf("queue not in EDF order at %d", i)
		}
		r := running[slices.IndexFunc(running, func(r RunningJob) bool { return r.Job.ID == q.ID })]
		est, _, err := Estimate(r.Job, args)
		if err != nil {
			est = 0
		}
		wantJCT := math.Max(0, (est - t0.Sub(r.Started)).Seconds())
		if q.JCT != wantJCT || q.JCT < 0 || q.JCT > est.Seconds() {
			t.Fatalf("job %s: JCT %v, want %v (estimate %v, started %v)", r.Job.Ref, q.JCT, wantJCT, est, r.Started)
		}
	}
	shuffled := rapid.Permutation(running).Draw(t, "shuffled")
	again, err := MakeInput(newJob, 10*time.Minute, shuffled, args, t0)
	if err != nil || !slices.EqualFunc(in.Queue, again.Queue, func(a, b admission.Job) bool { return a.ID == b.ID && a.JCT == b.JCT }) {
		t.Fatalf("input order changed the queue: %v vs %v (%v)", in.Queue, again.Queue, err)
	}
	if _, err := new(admission.Workspace).Decide(in.Queue, in.New, in.Now, admission.Options{Mode: admission.ModeStrict}); err != nil {
		t.Fatalf("admission rejects the mapped input: %v", err)
	}
}

func TestPropMakeInput(t *testing.T) { rapid.Check(t, propMakeInput) }
