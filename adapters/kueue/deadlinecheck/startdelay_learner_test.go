package deadlinecheck

import (
	"fmt"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

func TestPropDelayLearner(t *testing.T) { rapid.Check(t, propDelayLearner) }

// propDelayLearner: fed by the watch (each workload offered any number of
// times, finished or not, in batches taken by reconciles), the learner's
// start delay is always EstimateDelay over the observations of every
// distinct finished workload offered so far, as if all were listed at
// once, and the lower bounds of the admitted ones listed that run late at
// the reconcile's now; a workload offered again after it was taken is not
// counted twice. Its ETA draws are delayDraws over the latest window of
// those observations with the late ones, and over the latest window of
// those that waited (an ETA annotation) with the late ones that waited.
func propDelayLearner(t *rapid.T) {
	window := rapid.IntRange(MinDelayObservations, 14).Draw(t, "window")
	q := rapid.SampledFrom([]float64{0.5, 0.9, 0.97, 1}).Draw(t, "q")
	l := newDelayLearner(q, window)
	key := etaPassKey{queue: "cq", check: testCheck}
	n := rapid.IntRange(0, 60).Draw(t, "workloads")
	wls := make([]*kueue.Workload, n)
	hadETA := map[types.UID]bool{}
	for i := range wls {
		fin := t0.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "finish")) * time.Second)
		ready := fin.Add(-time.Duration(rapid.IntRange(0, 40).Draw(t, "span")) * time.Second)
		wl := finished(ready, fin, kueue.WorkloadFinishedReasonSucceeded, "2s")
		wl.UID = types.UID(fmt.Sprint("uid-", i))
		wl.Status.Admission = &kueue.Admission{ClusterQueue: "cq"}
		if rapid.IntRange(0, 3).Draw(t, "waited") > 0 {
			wl.Annotations[StartP50Annotation] = "2026-01-01T00:00:00Z"
			hadETA[wl.UID] = true
		}
		if rapid.IntRange(0, 4).Draw(t, "running") == 0 {
			wl.Status.Conditions[0].Status = metav1.ConditionFalse
			if rapid.Bool().Draw(t, "admitted") {
				wl.Status.Conditions = append(wl.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, ready))
			}
		}
		wls[i] = wl
	}
	counted := map[types.UID]bool{}
	var all []DelayObservation
	none := func(*kueue.Workload) *metav1.ObjectMeta { return nil }
	for range rapid.IntRange(1, 6).Draw(t, "reconciles") {
		for range rapid.IntRange(0, 20).Draw(t, "events") {
			if n == 0 {
				break
			}
			wl := wls[rapid.IntRange(0, n-1).Draw(t, "offered")]
			l.offer(wl)
			if o, ok := ObservedDelay(wl, nil, time.Time{}, testCheck, testModels()); ok && !counted[wl.UID] {
				counted[wl.UID] = true
				if o.Waited != hadETA[wl.UID] {
					t.Fatalf("%s: waited %v, has an ETA %v", wl.UID, o.Waited, hadETA[wl.UID])
				}
				all = append(all, o)
			}
		}
		now := t0.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "now")) * time.Second)
		var late []DelayObservation
		for _, wl := range wls {
			if o, ok := RunningDelay(wl, nil, testCheck, testModels(), now); ok {
				if o.Waited != hadETA[wl.UID] {
					t.Fatalf("%s running: waited %v, has an ETA %v", wl.UID, o.Waited, hadETA[wl.UID])
				}
				late = append(late, o)
			}
		}
		still := func(_ int, wl *kueue.Workload) (lateStill, bool) {
			return runningStill(wl, nil, testCheck, testModels())
		}
		notKnown := func(*kueue.Workload) time.Time { return time.Time{} }
		got, err := l.startDelay(key, l.take("cq"), wls, testModels(), none, notKnown, still, 7*time.Second, now)
		want, werr := EstimateDelay(append(slices.Clip(all), late...), q, window, 7*time.Second)
		if err != nil || werr != nil || got != want {
			t.Fatalf("learner %v, %v; over all %d observations %v, %v", got, err, len(all), want, werr)
		}
		latest := func(keep func(DelayObservation) bool) []DelayObservation {
			var xs []DelayObservation
			for _, o := range all {
				if keep(o) {
					xs = append(xs, o)
				}
			}
			slices.SortFunc(xs, compareObservations)
			return xs[max(0, len(xs)-window):]
		}
		waited := func(o DelayObservation) bool { return o.Waited }
		var lateWaited []DelayObservation
		for _, o := range late {
			if o.Waited {
				lateWaited = append(lateWaited, o)
			}
		}
		n := rapid.IntRange(1, 9).Draw(t, "samples")
		gotD, err := l.draws(key, n, 5)
		wantD, werr := delayDraws(append(latest(func(DelayObservation) bool { return true }), late...), append(latest(waited), lateWaited...), n, 5)
		if err != nil || werr != nil || !near(gotD.ready, wantD.ready) || !near(gotD.wait, wantD.wait) || !near(gotD.leads, wantD.leads) {
			t.Fatalf("draws %+v, %v; over the latest observations %+v, %v", gotD, err, wantD, werr)
		}
	}
}
