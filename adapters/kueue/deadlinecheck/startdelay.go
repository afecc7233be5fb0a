package deadlinecheck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/tct"
)

// The start delay learnt online (-start-delay-quantile): Config.StartDelay
// stands for the time the control plane adds to a workload from the
// check's Ready to its finish beyond its pods' run time (Kueue admitting
// it, the job's controller creating its pods, the scheduler binding them,
// the nodes starting them, the job completing). That time is not a
// constant: it grows with the work the control plane has queued (on the
// simulated cluster of adapters/cluster, p50 5 s and p90 8–23 s from one
// load to another). With a quantile q set, each ClusterQueue's check
// measures it on the workloads it made Ready that then finished
// (ObservedDelay) and decides with its q-quantile over the latest
// DelayWindow of them (EstimateDelay): a workload made Ready with slack s
// beyond its run time misses its deadline only when its own delay exceeds
// s ≥ the estimate, which happens to at most a share 1 − q of the
// workloads the estimate was taken over. Until MinDelayObservations
// workloads have finished, -start-delay is used.
//
// The workloads that finish first are the fastest: taken alone, they
// give an estimate below the delay of the workloads still running. So a
// workload the check made Ready that is admitted and has run past its
// run time without finishing counts too (RunningDelay), with the time it
// has run beyond its run time so far — a lower bound of its delay, the
// censored observation of survival analysis: it lifts the estimate as
// soon as workloads run late. Until MinDelayObservations have finished,
// the estimate is the prior or the largest delay observed (finished, or
// a running one's bound), whichever is larger: a workload that ran late
// keeps the estimate up after it finishes.

// Bounds of the learnt start delay.
const (
	// MinDelayObservations is how many finished workloads of a
	// ClusterQueue the estimate needs; fewer: Config.StartDelay.
	MinDelayObservations = 10
	// DefaultDelayWindow is how many of the latest finished workloads the
	// estimate is taken over, by default.
	DefaultDelayWindow = 50
	// MaxDelayWindow bounds DelayWindow.
	MaxDelayWindow = 10_000
)

// A DelayObservation is the control plane's time on one workload: a
// finished one (ObservedDelay) or, Running, one still running past its
// run time (RunningDelay).
type DelayObservation struct {
	// Finished is Kueue's Finished condition; for a running workload,
	// the time it was observed.
	Finished time.Time
	// Delay is from the check's Ready to Finished, less the run time; for
	// a running workload, a lower bound of it.
	Delay   time.Duration
	Running bool
	// Decide is from Kueue's QuotaReserved to the check's Ready (the
	// check's time on the workload once it holds quota), Admit from the
	// check's Ready to Kueue's Admitted; each 0 when a condition is
	// missing or out of order. The ETA adds them to a pending workload's
	// start (etaDelay).
	Decide, Admit time.Duration
	// Waited: the check gave the workload an ETA (its ETA annotations are
	// set), so it waited for quota or was sent to Retry. A pending
	// workload's ETA draws its delay from these (etaDelay).
	Waited bool
}

// ObservedDelay returns the time the control plane added to wl, a workload
// the named check made Ready that then finished successfully: from the
// check's Ready to its end (both whole seconds), less its pods' run time —
// the model's exact time, else its median e^μ (its pods run in parallel
// on the quota reserved for all of them) — and never below 0. Its end is
// completed, when its owner completed (a batch/v1 Job's
// status.completionTime: the instant its deadline is judged on), if that
// is known (not zero) and not after Kueue's Finished condition; else the
// Finished condition, which comes when Kueue's job reconciler has seen the
// completion (on the simulated cluster of adapters/cluster 1 s after it at
// the median, 4 s at the 90th percentile). ok is false when wl has not
// finished successfully, its check is not Ready, it was evicted or
// requeued after the decision (it then ran more than once), it has no
// run-time model, or its Ready comes after its end. owner is its
// controlling owner's metadata (nil: none or unknown), as Map reads the
// run time.
func ObservedDelay(wl *kueue.Workload, owner *metav1.ObjectMeta, completed time.Time, check kueue.AdmissionCheckReference, models Models) (DelayObservation, bool) {
	fin := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadFinished)
	st := CheckState(wl, check)
	if fin == nil || fin.Status != metav1.ConditionTrue || fin.Reason != kueue.WorkloadFinishedReasonSucceeded ||
		st == nil || st.State != kueue.CheckStateReady {
		return DelayObservation{}, false
	}
	if acc := wl.Status.AccumulatedPastExecutionTimeSeconds; acc != nil && *acc > 0 || wl.Status.RequeueState != nil {
		return DelayObservation{}, false
	}
	end := fin.LastTransitionTime.Time
	if !completed.IsZero() && !completed.After(end) {
		end = completed
	}
	return beyondRun(wl, owner, st.LastTransitionTime.Time, end, models, false)
}

// RunningDelay returns the time wl, a workload the named check made Ready
// that Kueue admitted and that has not finished, has run at now beyond
// its pods' run time (read as ObservedDelay reads it): a lower bound of
// the delay ObservedDelay will give when it finishes. ok is false when
// wl has finished, its check is not Ready, it is not admitted, it was
// evicted or requeued after the decision, it has no run-time model, or
// it has not yet run past its run time (the bound is then 0, which says
// nothing).
func RunningDelay(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, models Models, now time.Time) (DelayObservation, bool) {
	l, ok := runningStill(wl, owner, check, models)
	if !ok {
		return DelayObservation{}, false
	}
	return l.late(now)
}

// runningStill is what RunningDelay reads of wl, its owner and the models
// (all of it but now): ok is false when RunningDelay is false at every
// now.
func runningStill(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, models Models) (lateStill, bool) {
	st := CheckState(wl, check)
	if st == nil || st.State != kueue.CheckStateReady ||
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) ||
		!apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) ||
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadEvicted) {
		return lateStill{}, false
	}
	if acc := wl.Status.AccumulatedPastExecutionTimeSeconds; acc != nil && *acc > 0 || wl.Status.RequeueState != nil {
		return lateStill{}, false
	}
	return beyondStill(wl, owner, st.LastTransitionTime.Time, models)
}

// late is RunningDelay at now of a workload whose still part is l.
func (l lateStill) late(now time.Time) (DelayObservation, bool) {
	o, ok := l.at(now, true)
	if !ok || o.Delay <= 0 {
		return DelayObservation{}, false
	}
	return o, true
}

// beyondRun is the time from ready to end less wl's pods' run time — the
// model's exact time, else its median e^μ (its pods run in parallel on
// the quota reserved for all of them) — never below 0, at the
// millisecond; ok is false without a run-time model or with end before
// ready.
func beyondRun(wl *kueue.Workload, owner *metav1.ObjectMeta, ready, end time.Time, models Models, running bool) (DelayObservation, bool) {
	l, ok := beyondStill(wl, owner, ready, models)
	if !ok {
		return DelayObservation{}, false
	}
	return l.at(end, running)
}

// A lateStill is what beyondRun reads of a workload, its owner and the
// models: all but the end.
type lateStill struct {
	ready         time.Time
	run           float64 // the pods' run time, seconds
	decide, admit time.Duration
	waited        bool
}

// beyondStill is beyondRun without the end; ok is false without a usable
// run-time model.
func beyondStill(wl *kueue.Workload, owner *metav1.ObjectMeta, ready time.Time, models Models) (lateStill, bool) {
	var w Workload
	rt, err := runTime(readAnnotations(wl, owner), models, wl.Spec.MaximumExecutionTimeSeconds, &w)
	if err != nil {
		return lateStill{}, false
	}
	run := rt.Exact
	if run == 0 {
		run = math.Exp(rt.Pod.Mu)
	}
	if math.IsInf(run, 0) || math.IsNaN(run) {
		return lateStill{}, false
	}
	l := lateStill{ready: ready, run: run}
	l.waited = hasETA(wl)
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil && c.Status == metav1.ConditionTrue {
		l.decide = min(max(ready.Sub(c.LastTransitionTime.Time), 0), time.Hour)
	}
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadAdmitted); c != nil && c.Status == metav1.ConditionTrue {
		l.admit = min(max(c.LastTransitionTime.Sub(ready), 0), time.Hour)
	}
	return l, true
}

// at is beyondRun at end.
func (l lateStill) at(end time.Time, running bool) (DelayObservation, bool) {
	span := end.Sub(l.ready)
	if span < 0 {
		return DelayObservation{}, false
	}
	d := max(span.Seconds()-l.run, 0)
	return DelayObservation{Finished: end, Delay: time.Duration(math.Round(d*1000)) * time.Millisecond, Running: running, Decide: l.decide, Admit: l.admit, Waited: l.waited}, true
}

// EstimateDelay returns the q-quantile (tct.Percentile: linear between
// closest ranks) of the delays of the latest window observations by finish
// time (ties by delay), running ones with their lower bound, rounded up to
// the second; with fewer than MinDelayObservations finished ones, prior or
// the largest delay observed (finished or running) rounded up to the
// second, whichever is larger. It is pure and does not depend on the
// order of obs.
func EstimateDelay(obs []DelayObservation, q float64, window int, prior time.Duration) (time.Duration, error) {
	if !(q > 0 && q <= 1) {
		return 0, fmt.Errorf("start-delay-quantile = %v: must be in (0, 1]", q)
	}
	if window < MinDelayObservations || window > MaxDelayWindow {
		return 0, fmt.Errorf("start-delay-window = %d: must be in [%d, %d]", window, MinDelayObservations, MaxDelayWindow)
	}
	var errs []error
	for i, o := range obs {
		if o.Delay < 0 || o.Delay > time.Hour {
			errs = append(errs, fmt.Errorf("observation %d: delay = %v: must be in [0s, 1h]", i, o.Delay))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	if finished, longest := split(obs); finished < MinDelayObservations {
		return max(prior, ceilSecond(longest)), nil
	}
	s := slices.Clone(obs)
	slices.SortFunc(s, func(a, b DelayObservation) int {
		if c := a.Finished.Compare(b.Finished); c != 0 {
			return c
		}
		return cmp.Compare(a.Delay, b.Delay)
	})
	s = s[max(0, len(s)-window):]
	xs := make([]float64, len(s))
	for i, o := range s {
		xs[i] = o.Delay.Seconds()
	}
	v, err := tct.Percentile(xs, 100*q)
	if err != nil {
		return 0, err
	}
	return time.Duration(math.Ceil(v)) * time.Second, nil
}

// split counts the finished observations and returns the largest delay
// of them all (0: none).
func split(obs []DelayObservation) (finished int, longest time.Duration) {
	for _, o := range obs {
		longest = max(longest, o.Delay)
		if !o.Running {
			finished++
		}
	}
	return finished, longest
}

// ceilSecond rounds d ≥ 0 up to the second.
func ceilSecond(d time.Duration) time.Duration { return (d + time.Second - 1).Truncate(time.Second) }

// delayLearner keeps, per ClusterQueue and check, the observations of the
// latest window finished workloads, and apart those of the latest window
// that waited (DelayObservation.Waited) for the ETA's draws. The Workload watch offers it each
// workload once, when it is seen finished (offer); a reconcile observes
// only the workloads offered since the last one (take, startDelay), so
// its cost grows with the workloads that finished, not with those listed.
// An observation stays among the latest window after its workload is
// deleted.
type delayLearner struct {
	q      float64
	window int
	mu     sync.Mutex
	// offered holds, per ClusterQueue, the finished workloads offered and
	// not yet taken; seen, the UIDs offered while their workload exists.
	offered map[string][]*kueue.Workload
	seen    map[types.UID]bool
	// obs holds the latest window observations by finish time (ties by
	// delay), in that order; est their estimate.
	obs map[etaPassKey][]DelayObservation
	// waited holds the latest window observations that waited, in the
	// same order.
	waited map[etaPassKey][]DelayObservation
	est    map[etaPassKey]time.Duration
	last   map[etaPassKey]time.Duration
	// late holds the lower bounds of the workloads running late at the
	// last startDelay, for the ETA's draws.
	late map[etaPassKey][]DelayObservation
}

// changed records d as key's start delay and reports whether it differs
// from the last one.
func (l *delayLearner) changed(key etaPassKey, d time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	old, ok := l.last[key]
	l.last[key] = d
	return !ok || old != d
}

func newDelayLearner(q float64, window int) *delayLearner {
	return &delayLearner{q: q, window: window, offered: map[string][]*kueue.Workload{}, seen: map[types.UID]bool{},
		obs: map[etaPassKey][]DelayObservation{}, waited: map[etaPassKey][]DelayObservation{}, est: map[etaPassKey]time.Duration{}, last: map[etaPassKey]time.Duration{},
		late: map[etaPassKey][]DelayObservation{}}
}

// offer keeps wl for its ClusterQueue's next reconcile if it has finished
// and holds quota in one, once per workload. wl is the watch's object: it
// is read, never changed.
func (l *delayLearner) offer(wl *kueue.Workload) {
	if wl.Status.Admission == nil || !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[wl.UID] {
		return
	}
	l.seen[wl.UID] = true
	cq := string(wl.Status.Admission.ClusterQueue)
	l.offered[cq] = append(l.offered[cq], wl)
}

// forget drops a deleted workload's UID.
func (l *delayLearner) forget(uid types.UID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, uid)
}

// take returns the workloads offered for a ClusterQueue since the last
// take.
func (l *delayLearner) take(cq string) []*kueue.Workload {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.offered[cq]
	delete(l.offered, cq)
	return out
}

// startDelay returns the start delay the key's decisions use at now: the
// estimate over its latest window finished observations, after adding
// those of fresh, the finished workloads taken for its ClusterQueue, and
// over the lower bounds of the workloads in wls it made Ready that run
// past their run time (owner reads their owners, completed their owners'
// completion times); prior when too few. The
// estimate is kept and reused while no observation is added and none runs
// late.
func (l *delayLearner) startDelay(key etaPassKey, fresh, wls []*kueue.Workload, models Models, owner func(*kueue.Workload) *metav1.ObjectMeta,
	completed func(*kueue.Workload) time.Time, still func(int, *kueue.Workload) (lateStill, bool), prior time.Duration, now time.Time) (time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	obs := l.obs[key]
	added := false
	for _, wl := range fresh {
		o, ok := ObservedDelay(wl, owner(wl), completed(wl), key.check, models)
		if !ok {
			continue
		}
		o.Delay = min(o.Delay, time.Hour) // the longest StartDelay
		obs = insertLatest(obs, o, l.window)
		if o.Waited {
			l.waited[key] = insertLatest(l.waited[key], o, l.window)
		}
		added = true
	}
	l.obs[key] = obs
	late := runningLate(key.check, wls, still, now)
	l.late[key] = late
	if d, ok := l.est[key]; ok && !added && len(late) == 0 {
		return d, nil
	}
	d, err := EstimateDelay(append(slices.Clip(obs), late...), l.q, l.window, prior)
	if err != nil {
		return 0, err
	}
	if len(late) == 0 {
		l.est[key] = d
	} else {
		delete(l.est, key)
	}
	return d, nil
}

// runningLate returns the RunningDelay lower bounds of the workloads in
// wls the named check made Ready that run past their run time at now,
// each at most an hour (the longest StartDelay); still gives the part of
// RunningDelay that does not depend on now of the workload at a position
// of wls (runningStill, kept by the reconciler's viewCache).
func runningLate(check kueue.AdmissionCheckReference, wls []*kueue.Workload, still func(int, *kueue.Workload) (lateStill, bool), now time.Time) []DelayObservation {
	var late []DelayObservation
	for i, wl := range wls {
		if st := CheckState(wl, check); st == nil || st.State != kueue.CheckStateReady {
			continue // read no owner for a workload that cannot count
		}
		l, ok := still(i, wl)
		if !ok {
			continue
		}
		if o, ok := l.late(now); ok {
			o.Delay = min(o.Delay, time.Hour)
			late = append(late, o)
		}
	}
	return late
}

// insertLatest inserts o into obs, ordered by compareObservations, and
// keeps the latest window of them.
func insertLatest(obs []DelayObservation, o DelayObservation, window int) []DelayObservation {
	at, _ := slices.BinarySearchFunc(obs, o, compareObservations)
	obs = slices.Insert(obs, at, o)
	if len(obs) > window {
		obs = slices.Delete(obs, 0, len(obs)-window)
	}
	return obs
}

// compareObservations orders observations by finish time, ties by delay,
// as EstimateDelay takes the latest.
func compareObservations(a, b DelayObservation) int {
	if c := a.Finished.Compare(b.Finished); c != 0 {
		return c
	}
	return cmp.Compare(a.Delay, b.Delay)
}

// decisionConfig is the configuration key's decisions use: r.cfg, with the
// learnt start delay when the learner is on.
func (r *queueReconciler) decisionConfig(ctx context.Context, key etaPassKey, fresh, wls []*kueue.Workload, vc *viewCache, own ownCopies, now time.Time) (Config, error) {
	cfg := r.cfg
	if r.delays == nil {
		return cfg, nil
	}
	owner := func(wl *kueue.Workload) *metav1.ObjectMeta {
		m, err := r.owner(ctx, wl)
		if err != nil {
			return nil
		}
		return m
	}
	read := r.ownerReader(ctx)
	still := func(i int, wl *kueue.Workload) (lateStill, bool) {
		seen := own.seen(wl)
		return vc.late(i, seen, seen != wl, key.check, read)
	}
	completed := func(wl *kueue.Workload) time.Time { return r.completion(ctx, wl) }
	d, err := r.delays.startDelay(key, fresh, wls, vc.models, owner, completed, still, cfg.StartDelay, now)
	if err != nil {
		return cfg, err
	}
	cfg.StartDelay = min(d, time.Hour)
	if r.delays.changed(key, cfg.StartDelay) {
		ctrl.LoggerFrom(ctx).Info("start delay", "clusterQueue", key.queue, "check", key.check, "startDelay", cfg.StartDelay.String())
	}
	return cfg, nil
}

// draws returns the ETA's delay draws for key (delayDraws over the
// observations of its last startDelay, and over those that waited), nil
// with too few.
func (l *delayLearner) draws(key etaPassKey, n int, decided float64) (etaDelay, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	late := l.late[key]
	waited := slices.Clip(l.waited[key])
	for _, o := range late {
		if o.Waited {
			waited = append(waited, o)
		}
	}
	return delayDraws(append(slices.Clip(l.obs[key]), late...), waited, n, decided)
}

// etaDelay is the control plane's delay key's ETA pass takes: cfg's
// StartDelay, drawn from the learnt delays when the learner is on.
func (r *queueReconciler) etaDelay(key etaPassKey, cfg Config) (etaDelay, error) {
	if r.delays == nil {
		return etaDelay{decided: seconds(cfg.StartDelay)}, nil
	}
	return r.delays.draws(key, cfg.Samples, seconds(cfg.StartDelay))
}
