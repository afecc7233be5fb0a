package deadlinecheck

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// finished is a workload the check made Ready at ready that finished
// (reason) at fin, with run time annotation run.
func finished(ready, fin time.Time, reason, run string) *kueue.Workload {
	wl := workload("f", kueue.CheckStateReady, cond(kueue.WorkloadFinished, metav1.ConditionTrue, fin))
	wl.Status.Conditions[0].Reason = reason
	wl.Status.AdmissionChecks[0].LastTransitionTime = metav1.NewTime(ready)
	wl.Annotations = map[string]string{}
	if run != "" {
		wl.Annotations[RuntimeAnnotation] = run
	}
	return wl
}

func TestObservedDelay(t *testing.T) {
	ok := kueue.WorkloadFinishedReasonSucceeded
	for name, tc := range map[string]struct {
		wl   *kueue.Workload
		want time.Duration
		ok   bool
	}{
		// Ready at t0, finished 25 s later, a run of 12 s: 13 s.
		"run time annotation": {finished(t0, t0.Add(25*time.Second), ok, "12s"), 13 * time.Second, true},
		// The etl model: lognormal of mean 600 s, std 60 s; median
		// e^μ = 600 / √(1 + 0.01) = 597.022 s; finished 610 s after Ready:
		// 12.978 s.
		"model median": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(610*time.Second), ok, "")
			wl.Annotations[JobTypeAnnotation] = "etl"
			return wl
		}(), 12978 * time.Millisecond, true},
		"faster than its run time": {finished(t0, t0.Add(5*time.Second), ok, "12s"), 0, true},
		"failed":                   {finished(t0, t0.Add(25*time.Second), kueue.WorkloadFinishedReasonFailed, "12s"), 0, false},
		"no run time":              {finished(t0, t0.Add(25*time.Second), ok, ""), 0, false},
		"bad run time":             {finished(t0, t0.Add(25*time.Second), ok, "soon"), 0, false},
		"ready after finish":       {finished(t0.Add(time.Minute), t0, ok, "1s"), 0, false},
		"not finished": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
			wl.Status.Conditions[0].Status = metav1.ConditionFalse
			return wl
		}(), 0, false},
		"check not Ready": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
			wl.Status.AdmissionChecks[0].State = kueue.CheckStateRetry
			return wl
		}(), 0, false},
		"other check": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
			wl.Status.AdmissionChecks[0].Name = "other"
			return wl
		}(), 0, false},
		"ran twice": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
			wl.Status.AccumulatedPastExecutionTimeSeconds = ptr(int32(4))
			return wl
		}(), 0, false},
		"requeued": {func() *kueue.Workload {
			wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
			wl.Status.RequeueState = &kueue.RequeueState{Count: ptr(int32(1))}
			return wl
		}(), 0, false},
	} {
		got, found := ObservedDelay(tc.wl, nil, time.Time{}, testCheck, testModels())
		if found != tc.ok || found && (got.Delay != tc.want || !got.Finished.Equal(tc.wl.Status.Conditions[0].LastTransitionTime.Time)) {
			t.Errorf("%s: ObservedDelay = %+v, %v; want %v, %v", name, got, found, tc.want, tc.ok)
		}
	}
	// Ready at t0, Finished 25 s later, a run of 12 s. The Job completed
	// 21 s after Ready: 9 s, ending then. A completion after Finished, or
	// before Ready, is not taken.
	wl := finished(t0, t0.Add(25*time.Second), ok, "12s")
	for _, tc := range []struct {
		completed time.Time
		want      time.Duration
		end       time.Time
		ok        bool
	}{
		{t0.Add(21 * time.Second), 9 * time.Second, t0.Add(21 * time.Second), true},
		{t0.Add(25 * time.Second), 13 * time.Second, t0.Add(25 * time.Second), true},
		{t0.Add(26 * time.Second), 13 * time.Second, t0.Add(25 * time.Second), true},
		{t0.Add(5 * time.Second), 0, t0.Add(5 * time.Second), true},
		{t0.Add(-time.Second), 0, time.Time{}, false},
	} {
		got, found := ObservedDelay(wl, nil, tc.completed, testCheck, testModels())
		if found != tc.ok || found && (got.Delay != tc.want || !got.Finished.Equal(tc.end)) {
			t.Errorf("completed %v: ObservedDelay = %+v, %v; want %v ending %v, %v", tc.completed.Sub(t0), got, found, tc.want, tc.end, tc.ok)
		}
	}
}

// admittedAt is a workload the check made Ready at ready, admitted and
// not finished, with run time annotation run.
func admittedAt(ready time.Time, run string) *kueue.Workload {
	wl := workload("r", kueue.CheckStateReady, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, ready))
	wl.Status.AdmissionChecks[0].LastTransitionTime = metav1.NewTime(ready)
	wl.Annotations = map[string]string{RuntimeAnnotation: run}
	return wl
}

// admittedWith is admittedAt(t0, "12s") changed by change.
func admittedWith(change func(*kueue.Workload)) *kueue.Workload {
	wl := admittedAt(t0, "12s")
	change(wl)
	return wl
}

func TestRunningDelay(t *testing.T) {
	now := t0.Add(25 * time.Second)
	for name, tc := range map[string]struct {
		wl   *kueue.Workload
		want time.Duration
		ok   bool
	}{
		// Ready at t0, still running 25 s later, a run of 12 s: at least 13 s.
		"past its run time":   {admittedAt(t0, "12s"), 13 * time.Second, true},
		"within its run time": {admittedAt(t0, "30s"), 0, false},
		"finished": {admittedWith(func(wl *kueue.Workload) {
			wl.Status.Conditions = append(wl.Status.Conditions, cond(kueue.WorkloadFinished, metav1.ConditionTrue, now))
		}), 0, false},
		"not admitted": {admittedWith(func(wl *kueue.Workload) {
			wl.Status.Conditions[0].Status = metav1.ConditionFalse
		}), 0, false},
		"evicted": {admittedWith(func(wl *kueue.Workload) {
			wl.Status.Conditions = append(wl.Status.Conditions, cond(kueue.WorkloadEvicted, metav1.ConditionTrue, now))
		}), 0, false},
		"requeued": {admittedWith(func(wl *kueue.Workload) {
			wl.Status.RequeueState = &kueue.RequeueState{Count: ptr(int32(1))}
		}), 0, false},
		"check not Ready": {admittedWith(func(wl *kueue.Workload) {
			wl.Status.AdmissionChecks[0].State = kueue.CheckStatePending
		}), 0, false},
		"no run time":     {admittedAt(t0, ""), 0, false},
		"ready after now": {admittedAt(now.Add(time.Minute), "1s"), 0, false},
	} {
		if tc.wl.Annotations[RuntimeAnnotation] == "" {
			delete(tc.wl.Annotations, RuntimeAnnotation)
		}
		got, found := RunningDelay(tc.wl, nil, testCheck, testModels(), now)
		if found != tc.ok || found && (got.Delay != tc.want || !got.Running || !got.Finished.Equal(now)) {
			t.Errorf("%s: RunningDelay = %+v, %v; want %v, %v", name, got, found, tc.want, tc.ok)
		}
	}
}

func obsOf(delays ...float64) []DelayObservation {
	out := make([]DelayObservation, len(delays))
	for i, d := range delays {
		out[i] = DelayObservation{Finished: t0.Add(time.Duration(i) * time.Second), Delay: time.Duration(d * float64(time.Second))}
	}
	return out
}

// running marks observations as running past their run time.
func running(obs []DelayObservation) []DelayObservation {
	for i := range obs {
		obs[i].Running = true
	}
	return obs
}

func TestEstimateDelay(t *testing.T) {
	twelve := obsOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 30)
	nine := obsOf(1, 2, 3, 4, 5, 6, 7, 8, 9)
	for name, tc := range map[string]struct {
		obs    []DelayObservation
		q      float64
		window int
		want   time.Duration
	}{
		"too few: the prior":  {obsOf(1, 2, 3), 0.97, 50, 7 * time.Second},
		"median of 1..11, 30": {twelve, 0.5, 50, 7 * time.Second}, // 6.5 s, up to 7
		// tct.Percentile: rank 0.97·(12−1) = 10.67, between 11 and 30:
		// 11 + 0.67·19 = 23.73 s, up to 24 s.
		"p97 of 1..11, 30": {twelve, 0.97, 50, 24 * time.Second},
		"max":              {twelve, 1, 50, 30 * time.Second},
		"window: the latest 10 (3..11, 30), median": {twelve, 0.5, 10, 8 * time.Second}, // 7.5 s
		// 9 finished: too few; running 12.2 s beyond its run time on one
		// still running: 13 s, above the prior of 7 s.
		"too few finished, one running late":        {append(nine, running(obsOf(12.2))...), 0.97, 50, 13 * time.Second},
		"too few finished, running below the prior": {append(obsOf(1, 2, 3), running(obsOf(5))...), 0.97, 50, 7 * time.Second},
		// 9 finished, the largest 9 s, none running: 9 s, above the prior.
		"too few finished, one late": {nine, 0.97, 50, 9 * time.Second},
		// 10 finished (1..10) and 2 running (20, 40): the p97 rank
		// 0.97·11 = 10.67, between 20 and 40: 33.4 s, up to 34 s.
		"running count once 10 finished": {append(obsOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), running(obsOf(20, 40))...), 0.97, 50, 34 * time.Second},
	} {
		got, err := EstimateDelay(tc.obs, tc.q, tc.window, 7*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != tc.want {
			t.Errorf("%s: EstimateDelay = %v, want %v", name, got, tc.want)
		}
	}
}

func TestEstimateDelayBadInput(t *testing.T) {
	for name, tc := range map[string]struct {
		obs    []DelayObservation
		q      float64
		window int
	}{
		"quantile 0":       {nil, 0, 50},
		"quantile above 1": {nil, 1.5, 50},
		"quantile NaN":     {nil, math.NaN(), 50},
		"window too small": {nil, 0.9, MinDelayObservations - 1},
		"window too large": {nil, 0.9, MaxDelayWindow + 1},
		"negative delay":   {obsOf(-1), 0.9, 50},
		"delay above 1 h":  {obsOf(3601), 0.9, 50},
	} {
		if _, err := EstimateDelay(tc.obs, tc.q, tc.window, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// propEstimateDelay checks EstimateDelay on any observations: bad ones
// are an error, never a panic; otherwise the estimate does not depend on
// the observations' order, lies between the smallest and the largest
// delay of the window (rounded up to the second), is the prior or the
// largest delay below MinDelayObservations finished ones, and does not
// fall when q rises.
func propEstimateDelay(t *rapid.T) {
	n := rapid.IntRange(0, 80).Draw(t, "n")
	obs := make([]DelayObservation, n)
	bad := false
	for i := range obs {
		obs[i] = DelayObservation{
			Finished: t0.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "finished")) * time.Second),
			Delay:    time.Duration(rapid.Int64Range(-int64(time.Second), int64(2*time.Hour)).Draw(t, "delay")),
			Running:  rapid.IntRange(0, 3).Draw(t, "running") == 0,
		}
		bad = bad || obs[i].Delay < 0 || obs[i].Delay > time.Hour
	}
	q := rapid.Float64Range(0.01, 1).Draw(t, "q")
	window := rapid.IntRange(MinDelayObservations, 100).Draw(t, "window")
	prior := time.Duration(rapid.IntRange(0, 60).Draw(t, "prior")) * time.Second
	got, err := EstimateDelay(obs, q, window, prior)
	if bad {
		if err == nil {
			t.Fatal("no error on a delay outside [0s, 1h]")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if finished, late := split(obs); finished < MinDelayObservations {
		if want := max(prior, ceilSecond(late)); got != want {
			t.Fatalf("%d finished, the largest delay %v: %v, want %v", finished, late, got, want)
		}
		return
	}
	shuffled := append([]DelayObservation(nil), obs...)
	r := rand.New(rand.NewPCG(uint64(n), 1))
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if again, _ := EstimateDelay(shuffled, q, window, prior); again != got {
		t.Fatalf("order changes the estimate: %v, then %v", got, again)
	}
	lo, hi := time.Duration(1<<62), time.Duration(0)
	for _, o := range obs {
		lo, hi = min(lo, o.Delay), max(hi, o.Delay)
	}
	if got < lo.Truncate(time.Second) || got > hi.Truncate(time.Second)+time.Second {
		t.Fatalf("estimate %v outside [%v, %v]", got, lo, hi)
	}
	q2 := rapid.Float64Range(q, 1).Draw(t, "q2")
	if higher, _ := EstimateDelay(obs, q2, window, prior); higher < got {
		t.Fatalf("quantile %v gives %v, below %v at %v", q2, higher, got, q)
	}
}

func TestPropEstimateDelay(t *testing.T) { rapid.Check(t, propEstimateDelay) }
func FuzzEstimateDelay(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propEstimateDelay)) }

// propObservedDelay checks ObservedDelay on any workload (workloadGen) and
// any completion time: no panic, and an observation only for a
// successfully finished workload whose check is Ready, with a delay in
// [0, end − Ready], ending at the completion if it is not after Kueue's
// Finished, and never more than without the completion.
func propObservedDelay(t *rapid.T) {
	wl := workloadGen().Draw(t, "workload")
	if rapid.Bool().Draw(t, "succeeded?") {
		for i := range wl.Status.Conditions {
			if wl.Status.Conditions[i].Type == kueue.WorkloadFinished {
				wl.Status.Conditions[i].Reason = kueue.WorkloadFinishedReasonSucceeded
			}
		}
	}
	wl.Status.AdmissionChecks[0].LastTransitionTime = metav1.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 7200).Draw(t, "ready ago")) * time.Second))
	var completed time.Time
	if rapid.Bool().Draw(t, "completion known?") {
		completed = t0.Add(time.Duration(rapid.IntRange(-7200, 7200).Draw(t, "completed")) * time.Second)
	}
	o, ok := ObservedDelay(wl, nil, completed, testCheck, testModels())
	without, okWithout := ObservedDelay(wl, nil, time.Time{}, testCheck, testModels())
	if !ok {
		return
	}
	st := CheckState(wl, testCheck)
	if st == nil || st.State != kueue.CheckStateReady {
		t.Fatalf("an observation for a check %+v", st)
	}
	span := o.Finished.Sub(st.LastTransitionTime.Time)
	if o.Delay < 0 || o.Delay > span {
		t.Fatalf("delay %v outside [0, %v]", o.Delay, span)
	}
	fin := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadFinished).LastTransitionTime.Time
	wantEnd := fin
	if !completed.IsZero() && !completed.After(fin) {
		wantEnd = completed
	}
	if !o.Finished.Equal(wantEnd) {
		t.Fatalf("completed %v, Finished %v: the observation ends at %v", completed, fin, o.Finished)
	}
	if !okWithout || o.Delay > without.Delay {
		t.Fatalf("with the completion %v, %v; without %v, %v", o, ok, without, okWithout)
	}
}

func TestPropObservedDelay(t *testing.T) { rapid.Check(t, propObservedDelay) }
func FuzzObservedDelay(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propObservedDelay)) }

// propRunningDelay checks RunningDelay on any workload (workloadGen): no
// panic, and an observation only for an admitted, unfinished workload
// whose check is Ready, running, with a delay in (0, now − Ready].
func propRunningDelay(t *rapid.T) {
	wl := workloadGen().Draw(t, "workload")
	wl.Status.AdmissionChecks[0].LastTransitionTime = metav1.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 7200).Draw(t, "ready ago")) * time.Second))
	o, ok := RunningDelay(wl, nil, testCheck, testModels(), t0)
	if !ok {
		return
	}
	st := CheckState(wl, testCheck)
	if st == nil || st.State != kueue.CheckStateReady || !o.Running ||
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) ||
		!apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
		t.Fatalf("an observation %+v for a check %+v, conditions %+v", o, st, wl.Status.Conditions)
	}
	if span := t0.Sub(st.LastTransitionTime.Time); o.Delay <= 0 || o.Delay > span {
		t.Fatalf("delay %v outside (0, %v]", o.Delay, span)
	}
}

func TestPropRunningDelay(t *testing.T) { rapid.Check(t, propRunningDelay) }
func FuzzRunningDelay(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propRunningDelay)) }
