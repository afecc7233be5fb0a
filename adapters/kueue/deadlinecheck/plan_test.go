package deadlinecheck

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func fixed(seconds float64) *RunTime {
	return &RunTime{Pod: jct.Lognormal{Mu: math.Log(seconds)}, Exact: seconds, Source: "test"}
}

// A run time exactly as long as the time to the deadline meets it (e^ln 30
// is 30.000000000000004 s, so the model's exact value is used): Ready, as
// kube-scheduler's DeadlineAdmission admits it too.
func TestPlanExactTie(t *testing.T) {
	w := Workload{Key: "ns/x", UID: "x", Created: t0, Phase: Deciding, Deadline: t0.Add(30 * time.Second), Pods: 1, Slots: 1, RunTime: fixed(30)}
	outs, err := Plan(Queue{Name: "cq"}, []Workload{w}, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[0].Verdict; v == nil || v.State != kueue.CheckStateReady {
		t.Errorf("%+v, want Ready", v)
	}
}

func testConfig() Config {
	return Config{Confidence: 0.9, Samples: 200, MinRetry: 10 * time.Second, MaxRetry: 10 * time.Minute}
}

// A ClusterQueue of 4 one-cpu slots, run times fixed (σ = 0) so that every
// number is worked out by hand (seconds after now):
//
//	A promised: 2 pods of 400 s, run 100 s: own 300, fluid 2·300/4 = 150, deadline 1000
//	B deciding: 2 pods of 600 s: own 600, fluid 300, deadline 700
//	C deciding: 4 pods of 600 s: own 600, fluid 600, deadline 950
//	D waiting:  1 pod of 100 s, no deadline: fluid 25
//	E waiting:  1 pod of 500 s, deadline 100: hopeless
//	F waiting:  malformed deadline
//	G deciding: 1 pod of 200 s, no deadline: fluid 50
//	H deciding: deadline, no run-time model
//
// Decisions, in EDF order E(100) B(700) C(950) | D F G H (no deadline, by
// arrival). B: alone 600 ≤ 700; in the queue B 300 ≤ 700, A 450 ≤ 1000:
// Ready. C: alone 600 ≤ 950; B 300, C 900 ≤ 950, A 1050 > 1000: Retry,
// protects A, after min(first promised finish = A's 300, latest start
// 950 − 600 = 350). E and F wait for quota and will be rejected:
// deactivated now.
//
// ETAs, in Kueue's order (equal priorities, by queue time: D −200, E −100,
// F −90, then C, requeued now, from 300 s): A (half the quota) runs to
// 300, B (half) to 600, G (a quarter) to 200: over-committed until 300.
// At 300 D starts (to 400); E and F, being deactivated, are placed there
// too but take nothing; C needs the whole quota, free at 600 (to 1200).
func planFixture() []Workload {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	bad := &InputError{Field: "annotation " + DeadlineAnnotation, Value: "soon", Reason: "not a time"}
	ws := []Workload{
		{Key: "ns/a", UID: "a", Created: at(-500), Phase: Promised, Deadline: at(1000), Pods: 2, Executed: 100 * time.Second, Slots: 4, RunTime: fixed(400)},
		{Key: "ns/b", UID: "b", Created: at(-400), Phase: Deciding, Deadline: at(700), Pods: 2, Slots: 4, RunTime: fixed(600)},
		{Key: "ns/c", UID: "c", Created: at(-300), Phase: Deciding, Deadline: at(950), Pods: 4, Slots: 4, RunTime: fixed(600)},
		{Key: "ns/d", UID: "d", Created: at(-200), Phase: Waiting, Pods: 1, Slots: 4, RunTime: fixed(100)},
		{Key: "ns/e", UID: "e", Created: at(-100), Phase: Waiting, Deadline: at(100), Pods: 1, Slots: 4, RunTime: fixed(500)},
		{Key: "ns/f", UID: "f", Created: at(-90), Phase: Waiting, Pods: 1, Slots: 4, RunTime: fixed(10), Problem: bad},
		{Key: "ns/g", UID: "g", Created: at(-80), Phase: Deciding, Pods: 1, Slots: 4, RunTime: fixed(200)},
		{Key: "ns/h", UID: "h", Created: at(-70), Phase: Deciding, Deadline: at(5000), Pods: 1, Slots: 4, Problem: ErrNoEstimate},
	}
	for i := range ws {
		ws[i].QueueTime = ws[i].Created
	}
	return ws
}

func TestPlanWorkedExample(t *testing.T) {
	for _, strict := range []bool{false, true} {
		outs, err := Plan(Queue{Name: "cq", StrictFIFO: strict}, planFixture(), t0, testConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkWorkedExample(t, outs)
	}
}

func checkWorkedExample(t *testing.T, outs []Outcome) {
	t.Helper()
	type want struct {
		state      kueue.CheckState
		reason     Reason
		after      time.Duration
		msg        string
		eta        *ETA
		note       string
		protect    string
		deactivate bool
	}
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	lateE := "even started now with the quota to itself it would finish 2026-11-24T12:08:20Z (p50) / 2026-11-24T12:08:20Z (p90), after its deadline 2026-11-24T12:01:40Z: P(on time) = 0.00 < 0.90 (test, 1 pod)"
	badF := `annotation schedkit.io/deadline = "soon": not a time`
	wants := map[string]want{
		"ns/a": {},
		"ns/b": {state: kueue.CheckStateReady, reason: ReasonFits,
			msg: "Ready: predicted finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:11:40Z; P(it and the 1 later admitted deadline in ClusterQueue cq hold) = 1.00 >= 0.90"},
		"ns/c": {state: kueue.CheckStateRetry, reason: ReasonHurts, after: 300 * time.Second, protect: "ns/a",
			msg: "Retry in 5m0s: admitting it now would push admitted ns/a past its deadline 2026-11-24T12:16:40Z: P(ns/a on time) = 0.00 < 0.90; alone it would finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:15:50Z",
			eta: &ETA{StartP50: at(600), StartP90: at(600), FinishP50: at(1200), FinishP90: at(1200), Deadline: at(950)}},
		"ns/d": {eta: &ETA{StartP50: at(300), StartP90: at(300), FinishP50: at(400), FinishP90: at(400)},
			note: "Pending: predicted start 2026-11-24T12:05:00Z (p50) / 2026-11-24T12:05:00Z (p90), finish 2026-11-24T12:06:40Z (p50) / 2026-11-24T12:06:40Z (p90)"},
		// Waiting for quota and hopeless: deactivated now, with its ETA.
		"ns/e": {state: kueue.CheckStateRejected, reason: ReasonLateAlone, msg: "Rejected: " + lateE, deactivate: true,
			eta:  &ETA{StartP50: at(300), StartP90: at(300), FinishP50: at(800), FinishP90: at(800), Deadline: at(100)},
			note: "Rejected and deactivated while waiting for quota: " + lateE},
		"ns/f": {state: kueue.CheckStateRejected, reason: ReasonBadInput, msg: "Rejected: " + badF, deactivate: true,
			eta:  &ETA{StartP50: at(300), StartP90: at(300)},
			note: "Rejected and deactivated while waiting for quota: " + badF},
		"ns/g": {state: kueue.CheckStateReady, reason: ReasonNoDeadline,
			msg: "Ready: no schedkit.io/deadline annotation, so no deadline to protect"},
		"ns/h": {state: kueue.CheckStateRejected, reason: ReasonNoEstimate,
			msg: "Rejected: deadline 2026-11-24T13:23:20Z but " + ErrNoEstimate.Error()},
	}
	for _, o := range outs {
		w, ok := wants[o.Key]
		if !ok {
			t.Errorf("unexpected outcome %+v", o)
			continue
		}
		if w.state == "" {
			if o.Verdict != nil {
				t.Errorf("%s: verdict %+v, want none", o.Key, *o.Verdict)
			}
		} else if v := o.Verdict; v == nil {
			t.Errorf("%s: no verdict, want %s", o.Key, w.state)
		} else {
			if v.State != w.state || v.Reason != w.reason || v.RequeueAfter != w.after || v.Protects != w.protect {
				t.Errorf("%s: verdict %s/%s after %v protecting %q, want %s/%s after %v protecting %q", o.Key, v.State, v.Reason, v.RequeueAfter, v.Protects, w.state, w.reason, w.after, w.protect)
			}
			if v.Message != w.msg {
				t.Errorf("%s: message\n%s\nwant\n%s", o.Key, v.Message, w.msg)
			}
		}
		if o.Deactivate != w.deactivate {
			t.Errorf("%s: deactivate %v, want %v", o.Key, o.Deactivate, w.deactivate)
		}
		switch {
		case w.eta == nil && o.ETA != nil:
			t.Errorf("%s: ETA %+v, want none", o.Key, *o.ETA)
		case w.eta != nil && (o.ETA == nil || *o.ETA != *w.eta):
			t.Errorf("%s: ETA %+v, want %+v", o.Key, o.ETA, *w.eta)
		}
		if o.Note != w.note {
			t.Errorf("%s: note %q, want %q", o.Key, o.Note, w.note)
		}
	}
	if len(outs) != len(wants) {
		t.Errorf("%d outcomes, want %d", len(outs), len(wants))
	}
}

// A deadline already past: Rejected naming it and the annotation it came
// from (deactivated at once while waiting for quota).
func TestPlanDeadlinePassed(t *testing.T) {
	w := Workload{Key: "ns/x", UID: "x", Created: t0.Add(-time.Hour), Phase: Deciding, Deadline: t0.Add(-30 * time.Minute),
		DeadlineFrom: `annotation schedkit.io/deadline = "30m" on Job ns/x`, Pods: 1, Slots: 4, RunTime: fixed(60)}
	want := `Rejected: its deadline 2026-11-24T11:30:00Z has already passed (annotation schedkit.io/deadline = "30m" on Job ns/x)`
	for _, phase := range []Phase{Deciding, Waiting} {
		w.Phase = phase
		outs, err := Plan(Queue{Name: "cq"}, []Workload{w}, t0, testConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		v := outs[0].Verdict
		if v == nil || v.State != kueue.CheckStateRejected || v.Reason != ReasonDeadlinePassed || v.Message != want {
			t.Fatalf("%v: %+v, want Rejected %q", phase, v, want)
		}
		if outs[0].Deactivate != (phase == Waiting) {
			t.Errorf("%v: deactivate %v", phase, outs[0].Deactivate)
		}
	}
	// A deadline exactly now has passed too.
	w.Deadline = t0
	if outs, _ := Plan(Queue{Name: "cq"}, []Workload{w}, t0, testConfig(), nil); outs[0].Verdict == nil || outs[0].Verdict.Reason != ReasonDeadlinePassed {
		t.Errorf("deadline now: %+v", outs[0].Verdict)
	}
}

// A deactivated workload the check had rejected gets its rejection back on
// the check, and nothing else.
func TestPlanRestoresRejection(t *testing.T) {
	ws := []Workload{
		{Key: "ns/x", UID: "x", Phase: Deactivated, Rejection: "Rejected: late", CheckMessage: "Reset to Pending after eviction. Previously: Rejected"},
		{Key: "ns/y", UID: "y", Phase: Deactivated},
	}
	outs, err := Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := outs[0]; o.Note != "Rejected and deactivated by Kueue: late" || o.Verdict != nil || o.ETA != nil || o.Deactivate {
		t.Errorf("x: %+v", o)
	}
	if o := outs[1]; o.Note != "" || o.Verdict != nil || o.ETA != nil {
		t.Errorf("y (deactivated by a user): %+v", o)
	}
}

// Lognormal run times: the confidence decides. One pod of median 100 s
// and σ = 0.5 has its 90th percentile at 100·e^(0.5·1.2816) = 189.8 s: with
// 150 s to its deadline it fails at p = 0.9 and passes at p = 0.5.
func TestPlanConfidence(t *testing.T) {
	w := Workload{Key: "ns/x", UID: "x", Created: t0, Phase: Deciding, Deadline: t0.Add(150 * time.Second),
		Pods: 1, Slots: 1, RunTime: &RunTime{Pod: jct.Lognormal{Mu: math.Log(100), Sigma: 0.5}, Source: "test"}}
	cfg := testConfig()
	cfg.Samples = 4000
	outs, err := Plan(Queue{Name: "cq"}, []Workload{w}, t0, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[0].Verdict; v == nil || v.State != kueue.CheckStateRejected || v.Reason != ReasonLateAlone {
		t.Fatalf("p = 0.9: %+v, want Rejected LateAlone", outs[0].Verdict)
	}
	// P(X ≤ 150) = Φ(ln 1.5 / 0.5) = Φ(0.811) = 0.791.
	if !strings.Contains(outs[0].Verdict.Message, "P(on time) = 0.7") && !strings.Contains(outs[0].Verdict.Message, "P(on time) = 0.8") {
		t.Errorf("message %q: want P(on time) near 0.79", outs[0].Verdict.Message)
	}
	cfg.Confidence = 0.5
	outs, err = Plan(Queue{Name: "cq"}, []Workload{w}, t0, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[0].Verdict; v == nil || v.State != kueue.CheckStateReady {
		t.Fatalf("p = 0.5: %+v, want Ready", outs[0].Verdict)
	}
}

// A workload with a deadline whose pod never fits the quota is rejected
// (deactivated while it waits); one without a deadline only gets a note.
func TestPlanNeverFits(t *testing.T) {
	ws := []Workload{
		{Key: "ns/x", UID: "x", Phase: Waiting, Deadline: t0.Add(time.Hour), Pods: 1, Pod: rl("cpu", "8"), Slots: 0, RunTime: fixed(10)},
		{Key: "ns/y", UID: "y", Phase: Waiting, Pods: 1, Pod: rl("cpu", "8"), Slots: 0, RunTime: fixed(10)},
	}
	outs, err := Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := outs[0]; o.Verdict == nil || o.Verdict.Reason != ReasonNeverFits || !o.Deactivate || o.ETA != nil ||
		o.Note != "Rejected and deactivated while waiting for quota: its pod (cpu 8) does not fit ClusterQueue cq's nominal quota even once, so it can never meet its deadline 2026-11-24T13:00:00Z" {
		t.Errorf("x: %+v", o)
	}
	// With quota reserved (borrowed: Slots 0 is then impossible through
	// Map, but Plan stays safe) it is Rejected.
	ws[0].Phase = Deciding
	outs, err = Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[0].Verdict; v == nil || v.Reason != ReasonNeverFits || v.State != kueue.CheckStateRejected {
		t.Errorf("x deciding: %+v", v)
	}
	if outs[1].Verdict != nil || outs[1].ETA != nil || outs[1].Note != "Pending: no ETA, its pod (cpu 8) does not fit ClusterQueue cq's nominal quota" {
		t.Errorf("y: %+v", outs[1])
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := Config{Confidence: math.NaN(), Samples: 0, MinRetry: 0, MaxRetry: 48 * time.Hour}
	err := bad.Validate()
	for _, f := range []string{"confidence = NaN", "samples = 0", "min-retry = 0s", "max-retry = 48h0m0s"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("Validate() = %v, want it to name %q", err, f)
		}
	}
	if _, err := Plan(Queue{Name: "cq"}, nil, t0, bad, nil); err == nil {
		t.Error("Plan accepted a bad config")
	}
	for _, c := range []Config{
		{Confidence: 0, Samples: 1, MinRetry: time.Second, MaxRetry: time.Second},
		{Confidence: 1.5, Samples: 1, MinRetry: time.Second, MaxRetry: time.Second},
		{Confidence: 1, Samples: MaxSamples + 1, MinRetry: time.Second, MaxRetry: time.Second},
		{Confidence: 1, Samples: 1, MinRetry: time.Minute, MaxRetry: time.Second},
	} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	var ie *InputError
	if errors.As(bad.Validate(), &ie) {
		t.Error("config errors are not input errors")
	}
}

// A promised workload already late without the new one is not protected
// (admission's rule: one doomed job must not block every admission), so the
// new one is Ready although it delays it further. Found by
// TestPlanSafetyProperties at an exact tie, where rounding made the
// promised workload late by 1e-14 s.
func TestPlanLatePromisedNotProtected(t *testing.T) {
	ws := []Workload{
		// 441 s of work on 7 slots: done at 63 s, deadline 62 s.
		{Key: "ns/late", UID: "late", Phase: Promised, Deadline: t0.Add(62 * time.Second), Pods: 1, Slots: 7, RunTime: fixed(441)},
		{Key: "ns/new", UID: "new", Phase: Deciding, Deadline: t0.Add(time.Second), Pods: 1, Slots: 1, RunTime: fixed(1)},
	}
	outs, err := Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[1].Verdict; v == nil || v.State != kueue.CheckStateReady {
		t.Errorf("new: %+v, want Ready", v)
	}
	// On time before (deadline 63.5 s): protected, and the new one's second
	// would make it late, so the new one waits.
	ws[0].Deadline = t0.Add(63500 * time.Millisecond)
	outs, err = Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := outs[1].Verdict; v == nil || v.State != kueue.CheckStateRetry || v.Protects != "ns/late" {
		t.Errorf("new: %+v, want Retry protecting ns/late", v)
	}
}

// TestAtRounding: the ETA's times are whole seconds; a p50 (at) rounds to
// the nearest, a p90 (atUp) rounds up, and float error below a
// millisecond moves neither.
func TestAtRounding(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tt := range []struct {
		x        float64
		p50, p90 int64 // seconds after now
	}{
		{0, 0, 0},
		{5, 5, 5},
		{5.0000000001, 5, 5},
		{4.9999999999, 5, 5},
		{5.4, 5, 6},
		{5.5, 6, 6},
		{5.9, 6, 6},
		{-0.4, 0, 0},
		{-1.6, -2, -1},
		{1e30, int64(maxOffset), int64(maxOffset)},
	} {
		if got := at(now, tt.x).Sub(now); got != time.Duration(tt.p50)*time.Second {
			t.Errorf("at(now, %v) = now%+v, want %+ds", tt.x, got, tt.p50)
		}
		if got := atUp(now, tt.x).Sub(now); got != time.Duration(tt.p90)*time.Second {
			t.Errorf("atUp(now, %v) = now%+v, want %+ds", tt.x, got, tt.p90)
		}
	}
}
