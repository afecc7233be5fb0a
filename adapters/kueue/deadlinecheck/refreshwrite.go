package deadlinecheck

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A verdict refused with a conflict (the workload changed since the cache
// showed it) is written again, once, onto a copy read from the API server
// when the change left everything the decision read as it was (sameInputs):
// Kueue changes a workload it has just reserved quota for (its conditions'
// reasons, messages and times, other checks' states), and requeueing the
// whole ClusterQueue for that costs a reconcile per refusal. Any other
// change (spec, annotations but the ETAs, admission, the status of a
// condition, requeue state, pods finished, the check's own state) leaves
// the conflict to requeue as before.

// staleFor bounds how long a verdict written onto a freshly read copy
// holds its ClusterQueue's decisions back (stale) until the cache shows
// it: the cache may show a version between the one decided on and the one
// written over, which neither resourceVersion names.
const staleFor = 10 * time.Second

// sameInputs reports whether cur differs from old, the workload a verdict
// was decided on, only where no decision reads: the resourceVersion,
// managed fields, ETA annotations, and the reasons, messages and times of
// conditions and of other checks' states.
func sameInputs(old, cur *kueue.Workload, check kueue.AdmissionCheckReference) bool {
	if !sameBesideConditions(old, cur, check) || len(old.Status.Conditions) != len(cur.Status.Conditions) {
		return false
	}
	for _, c := range old.Status.Conditions {
		if d := apimeta.FindStatusCondition(cur.Status.Conditions, c.Type); d == nil || d.Status != c.Status {
			return false
		}
	}
	return true
}

// phaseConditions are the conditions whose truth sets a workload's phase
// (Map): quota reserved, evicted, admitted, finished.
var phaseConditions = [...]string{kueue.WorkloadQuotaReserved, kueue.WorkloadEvicted, kueue.WorkloadAdmitted, kueue.WorkloadFinished}

// sameForETA reports whether an ETA computed on old may be written onto
// cur: they differ only where sameInputs allows, or in conditions that
// leave the workload in its phase (phaseConditions as true or not true as
// they were). Kueue adds conditions to a workload waiting for quota
// (QuotaReserved false as it tries it, PodsReady false from its Job's
// reconciler), each a new resourceVersion; an ETA that waited for a
// reconcile after each would come seconds late, and the next ETA pass
// moves any ETA such a change moves.
func sameForETA(old, cur *kueue.Workload, check kueue.AdmissionCheckReference) bool {
	if !sameBesideConditions(old, cur, check) {
		return false
	}
	for _, t := range phaseConditions {
		if apimeta.IsStatusConditionTrue(old.Status.Conditions, t) != apimeta.IsStatusConditionTrue(cur.Status.Conditions, t) {
			return false
		}
	}
	return true
}

// sameBesideConditions is sameInputs but for the conditions.
func sameBesideConditions(old, cur *kueue.Workload, check kueue.AdmissionCheckReference) bool {
	if cur.UID != old.UID || cur.DeletionTimestamp != nil || !equality.Semantic.DeepEqual(old.Spec, cur.Spec) ||
		!sameBesideETAs(old.Annotations, cur.Annotations) || !equality.Semantic.DeepEqual(old.OwnerReferences, cur.OwnerReferences) {
		return false
	}
	a, b := &old.Status, &cur.Status
	if !equality.Semantic.DeepEqual(a.Admission, b.Admission) || !equality.Semantic.DeepEqual(a.RequeueState, b.RequeueState) ||
		!equality.Semantic.DeepEqual(a.ReclaimablePods, b.ReclaimablePods) ||
		!equality.Semantic.DeepEqual(a.AccumulatedPastExecutionTimeSeconds, b.AccumulatedPastExecutionTimeSeconds) {
		return false
	}
	x, y := CheckState(old, check), CheckState(cur, check)
	return x != nil && y != nil && x.State == y.State && x.Message == y.Message
}

// fresh reads the workload w writes from the API server, past the cache;
// nil when there is no reader, the read fails, or the workload changed
// where a decision reads (sameInputs; for an ETA, sameForETA).
func (w *writer) fresh(ctx context.Context, check kueue.AdmissionCheckReference) *kueue.Workload {
	if w.r.reader == nil || w.refreshed {
		return nil
	}
	w.refreshed = true
	same := sameInputs
	if !w.decision {
		same = sameForETA
	}
	cur := &kueue.Workload{}
	if err := w.r.reader.Get(ctx, client.ObjectKeyFromObject(w.wl), cur); err != nil || !same(w.wl, cur, check) {
		return nil
	}
	return cur
}

// actFresh writes an ETA task refused with a conflict again, onto a copy
// read from the API server, when the workload changed only in ways that
// leave it in its phase (sameForETA against the workload the ETA was
// computed on: its check still in the same state with the same message),
// at most etaFreshTries times. A workload waiting for quota changes often
// (Kueue rewrites its QuotaReserved condition's message as the free quota
// moves, every second or two), and on a loaded control plane a write
// takes as long: a fresh copy is itself often out of date by the time its
// write arrives. Without this, its ETA would wait for a reconcile whose
// ETA arrives before the next change. conflict is the first attempt's
// error, returned (or the last attempt's) when there is no such copy; it
// reports whether any attempt wrote.
func (w *writer) actFresh(ctx context.Context, t etaTask, conflict error) (bool, error) {
	writes := w.writes
	for range etaFreshTries {
		cur := w.fresh(ctx, t.check)
		if cur == nil {
			break
		}
		w1 := writer{r: w.r, wl: cur, refreshed: true}
		err := w1.act(ctx, t.cq, t.check, t.w, t.o, t.now)
		writes += w1.writes
		if !apierrors.IsConflict(err) {
			return writes > 0, err
		}
		conflict = err
		w.refreshed = false
	}
	return writes > 0, conflict
}

// etaFreshTries bounds the fresh copies one ETA write is tried on.
const etaFreshTries = 3
