package deadlinecheck

import (
	"context"
	"math"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// etaSlicePause is how soon a ClusterQueue is reconciled again while its
// ETA pass is in progress: each reconcile decides, then advances the pass
// by one slice.
const etaSlicePause = 10 * time.Millisecond

// advanceETAs does this reconcile's part of a ClusterQueue's check's ETA
// pass and gives outs their ETAs. It starts a pass over ws when none is
// in progress and one is due (etaDue), advances the one in progress by
// at most etaSlice predicted starts, and keeps its ETAs when it ends.
// outs get the ETAs of a pass started and ended in this reconcile as the
// pass computed them, else those of the last pass that ended (recallETAs;
// none before the first has ended). more reports a pass still in
// progress; later is recallETAs's.
func (r *queueReconciler) advanceETAs(ctx context.Context, key etaPassKey, q Queue, ws []Workload, works []*work, outs []Outcome, now time.Time, cfg Config) (more bool, later time.Duration, err error) {
	sc := r.etaScratchOf(key)
	t0 := time.Now()
	started := false
	if !sc.inProgress() && r.etaDue(key, now, ws, outs) {
		delay, err := r.etaDelay(key, cfg)
		if err != nil {
			return false, 0, err
		}
		if r.writes != nil {
			delay.pace = walkPace{skip: r.writes.skip(), requeue: r.requeueBatch.Seconds()}
			if r.writes.changed(delay.pace.skip) {
				ctrl.LoggerFrom(ctx).Info("ETA skip cost", "clusterQueue", key.queue, "seconds", delay.pace.skip)
			}
		}
		var arr arrivalInput
		if r.arrivals != nil {
			arr = r.arrivals.input(key, cfg.Seed, sc.marks)
			sc.marks = arr.marks
		}
		sc.startPass(q, ws, works, outs, now, r.cfg.Samples, cfg.Confidence, delay, arr)
		started = true
	}
	if sc.inProgress() {
		budget := r.etaSlice
		if budget <= 0 {
			budget = math.MaxInt
		}
		done, err := sc.step(budget)
		r.metrics.timed("etas", t0)
		if err != nil {
			return false, 0, err
		}
		if done {
			r.rememberETAs(key, sc.now, now, sc.ws, sc.outs)
			if started {
				sc.results(outs)
				return false, 0, nil
			}
		}
		more = !done
	}
	return more, r.recallETAs(key, now, ws, outs), nil
}
