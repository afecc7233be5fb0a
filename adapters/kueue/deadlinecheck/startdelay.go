package deadlinecheck

import (
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

// A DelayObservation is the control plane's time on one finished workload.
type DelayObservation struct {
	Finished time.Time     // Kueue's Finished condition
	Delay    time.Duration // from the check's Ready to Finished, less the run time
}

// ObservedDelay returns the time the control plane added to wl, a workload
// the named check made Ready that then finished successfully: from the
// check's Ready to Kueue's Finished condition (both whole seconds), less
// its pods' run time — the model's exact time, else its median e^μ (its
// pods run in parallel on the quota reserved for all of them) — and never
// below 0. ok is false when wl has not finished successfully, its check is
// not Ready, it was evicted or requeued after the decision (it then ran
// more than once), it has no run-time model, or its Ready comes after its
// finish. owner is its controlling owner's metadata (nil: none or unknown),
// as Map reads the run time.
func ObservedDelay(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, models Models) (DelayObservation, bool) {
	fin := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadFinished)
	st := CheckState(wl, check)
	if fin == nil || fin.Status != metav1.ConditionTrue || fin.Reason != kueue.WorkloadFinishedReasonSucceeded ||
		st == nil || st.State != kueue.CheckStateReady {
		return DelayObservation{}, false
	}
	if acc := wl.Status.AccumulatedPastExecutionTimeSeconds; acc != nil && *acc > 0 || wl.Status.RequeueState != nil {
		return DelayObservation{}, false
	}
	var w Workload
	rt, err := runTime(readAnnotations(wl, owner), models, wl.Spec.MaximumExecutionTimeSeconds, &w)
	if err != nil {
		return DelayObservation{}, false
	}
	run := rt.Exact
	if run == 0 {
		run = math.Exp(rt.Pod.Mu)
	}
	span := fin.LastTransitionTime.Sub(st.LastTransitionTime.Time)
	if span < 0 || math.IsInf(run, 0) || math.IsNaN(run) {
		return DelayObservation{}, false
	}
	d := max(span.Seconds()-run, 0)
	return DelayObservation{Finished: fin.LastTransitionTime.Time, Delay: time.Duration(math.Round(d*1000)) * time.Millisecond}, true
}

// EstimateDelay returns the q-quantile (tct.Percentile: linear between
// closest ranks) of the delays of the latest window observations by finish
// time (ties by delay), rounded up to the second, or prior when there are
// fewer than MinDelayObservations. It is pure and does not depend on the
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
	if len(obs) < MinDelayObservations {
		return prior, nil
	}
	s := slices.Clone(obs)
	slices.SortFunc(s, func(a, b DelayObservation) int {
		if c := a.Finished.Compare(b.Finished); c != 0 {
			return c
		}
		return int(a.Delay - b.Delay)
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

// delayLearner keeps, per ClusterQueue and check, the observations of the
// finished workloads it still lists (a finished workload never changes, so
// each is read once).
type delayLearner struct {
	q      float64
	window int
	mu     sync.Mutex
	seen   map[etaPassKey]map[types.UID]delayObservationOrNone
	last   map[etaPassKey]time.Duration
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

type delayObservationOrNone struct {
	o  DelayObservation
	ok bool
}

func newDelayLearner(q float64, window int) *delayLearner {
	return &delayLearner{q: q, window: window, seen: map[etaPassKey]map[types.UID]delayObservationOrNone{}, last: map[etaPassKey]time.Duration{}}
}

// startDelay returns the start delay the key's decisions use: the estimate
// over the finished workloads in wls (owner reads their owners), prior
// when too few. Only the workloads listed now are kept.
func (l *delayLearner) startDelay(key etaPassKey, wls []*kueue.Workload, models Models, owner func(*kueue.Workload) *metav1.ObjectMeta, prior time.Duration) (time.Duration, error) {
	l.mu.Lock()
	old := l.seen[key]
	l.mu.Unlock()
	next := map[types.UID]delayObservationOrNone{}
	var obs []DelayObservation
	for _, wl := range wls {
		if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			continue
		}
		e, ok := old[wl.UID]
		if !ok {
			o, found := ObservedDelay(wl, owner(wl), key.check, models)
			e = delayObservationOrNone{o: o, ok: found}
		}
		next[wl.UID] = e
		if e.ok {
			obs = append(obs, e.o)
		}
	}
	l.mu.Lock()
	l.seen[key] = next
	l.mu.Unlock()
	return EstimateDelay(obs, l.q, l.window, prior)
}

// decisionConfig is the configuration key's decisions use: r.cfg, with the
// learnt start delay when the learner is on.
func (r *queueReconciler) decisionConfig(ctx context.Context, key etaPassKey, wls []*kueue.Workload, models Models) (Config, error) {
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
	d, err := r.delays.startDelay(key, wls, models, owner, cfg.StartDelay)
	if err != nil {
		return cfg, err
	}
	cfg.StartDelay = min(d, time.Hour)
	if r.delays.changed(key, cfg.StartDelay) {
		ctrl.LoggerFrom(ctx).Info("start delay", "clusterQueue", key.queue, "check", key.check, "startDelay", cfg.StartDelay.String())
	}
	return cfg, nil
}
