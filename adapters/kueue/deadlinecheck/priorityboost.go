package deadlinecheck

import (
	"math"
	"strconv"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// EDF order in Kueue's queue (Options.EDFPriorityBoost, flag
// -edf-priority-boost). Kueue v0.19 orders a ClusterQueue's queue by
// effective priority: spec.priority plus the integer in the Workload's
// annotation kueue.x-k8s.io/priority-boost, which Kueue reads only with
// its PriorityBoost feature gate (alpha, off by default), for external
// controllers to move a workload in the queue. With the option on, the
// check writes on every workload waiting for quota behind it that has a
// deadline the boost DeadlineBoost(deadline): the earlier the deadline,
// the larger the boost, so that among workloads of one spec.priority
// Kueue's queue is in earliest-deadline-first order, the order the
// deadline check decides in and the schedkit-scheduler's queue sort
// uses. Workloads of different spec.priority are ordered by the sum: a
// deadline one second earlier outweighs one unit of spec.priority.
//
// The boost is written with the workload's ETA (the same PATCH; the
// ETA writer writes first ETAs first), on waiting workloads only:
// those holding quota keep theirs, so that nothing is written while
// Kueue admits them. A workload without a deadline (or with a
// malformed one) gets no boost and has one the check wrote removed:
// with the option on, the check owns the annotation on the workloads
// behind it. The check's replay of Kueue's queue orders by the
// effective priority it writes (Workload.Priority), so the ETAs follow
// the EDF order; an arrival still to come is placed by the deadline it
// comes with, at or ahead of its place (arrivals.go). Its cost: the
// arrivals' priorities are then nearly all distinct, so the replay's
// queue holds maxArrivalBlocks runs of max(64, pending) arrival slots
// instead of one per spec.priority in use, up to nine times the queue
// positions. A sample of the replay costs 1.3–1.4 times the same sample
// with every arrival at one priority (BenchmarkETASimulation, boosted
// against arrivals: doc.go).

// PriorityBoostAnnotation is Kueue's priority-boost annotation
// (PriorityBoost feature gate, Kueue v0.17 on).
const PriorityBoostAnnotation = "kueue.x-k8s.io/priority-boost"

// DeadlineBoost is the priority boost that puts a deadline in EDF order:
// 2³¹−1 less the deadline in Unix seconds rounded up, within [0, 2³¹−1].
// An earlier deadline gets a larger boost; deadlines within one second
// (k−1, k] get the same boost, so Kueue orders them by its queue
// timestamp. Deadlines after 2038-01-19T03:14:07Z get 0, those before
// 1970 the largest boost. The zero time (no deadline) gets 0.
func DeadlineBoost(deadline time.Time) int32 {
	if deadline.IsZero() {
		return 0
	}
	s := deadline.Unix()
	if deadline.Nanosecond() > 0 {
		s++
	}
	return int32(math.MaxInt32 - min(max(s, 0), math.MaxInt32))
}

// boostOf returns the boost the check writes on wl as it sees it (w) and
// whether it manages the annotation there: only with the option on, and
// only on a workload waiting for quota.
func (r *queueReconciler) boostOf(w Workload) (boost int32, has, manage bool) {
	if !r.edfBoost || w.Phase != Waiting {
		return 0, false, false
	}
	if !w.HasDeadline() {
		return 0, false, true
	}
	return DeadlineBoost(w.Deadline), true, true
}

// boostDue reports whether wl's annotation is not yet the boost the
// check writes on it.
func (r *queueReconciler) boostDue(wl *kueue.Workload, w Workload) bool {
	b, has, manage := r.boostOf(w)
	if !manage {
		return false
	}
	cur, had := wl.Annotations[PriorityBoostAnnotation]
	return had != has || has && cur != FormatBoost(b)
}

// withBoost adds to w.Priority the boost the check writes on it (on every
// workload with a deadline when the option is on: the one it waits with,
// or will wait with if sent back to the queue).
func (r *queueReconciler) withBoost(w *Workload) {
	if r.edfBoost && w.HasDeadline() {
		w.Boost = DeadlineBoost(w.Deadline)
		w.Priority += int64(w.Boost)
	}
}

// FormatBoost is a boost as the annotation holds it: its decimal digits.
func FormatBoost(b int32) string { return strconv.FormatInt(int64(b), 10) }
