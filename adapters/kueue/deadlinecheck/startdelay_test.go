package deadlinecheck

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

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
		got, found := ObservedDelay(tc.wl, nil, testCheck, testModels())
		if found != tc.ok || found && (got.Delay != tc.want || !got.Finished.Equal(tc.wl.Status.Conditions[0].LastTransitionTime.Time)) {
			t.Errorf("%s: ObservedDelay = %+v, %v; want %v, %v", name, got, found, tc.want, tc.ok)
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

func TestEstimateDelay(t *testing.T) {
	twelve := obsOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 30)
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
// delay of the window (rounded up to the second), is the prior below
// MinDelayObservations, and does not fall when q rises.
func propEstimateDelay(t *rapid.T) {
	n := rapid.IntRange(0, 80).Draw(t, "n")
	obs := make([]DelayObservation, n)
	bad := false
	for i := range obs {
		obs[i] = DelayObservation{
			Finished: t0.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "finished")) * time.Second),
			Delay:    time.Duration(rapid.Int64Range(-int64(time.Second), int64(2*time.Hour)).Draw(t, "delay")),
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
	if n < MinDelayObservations {
		if got != prior {
			t.Fatalf("%d observations: %v, want the prior %v", n, got, prior)
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

// propObservedDelay checks ObservedDelay on any workload (workloadGen):
// no panic, and an observation only for a successfully finished workload
// whose check is Ready, with a delay in [0, Finished − Ready].
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
	o, ok := ObservedDelay(wl, nil, testCheck, testModels())
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
}

func TestPropObservedDelay(t *testing.T) { rapid.Check(t, propObservedDelay) }
func FuzzObservedDelay(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propObservedDelay)) }
