package deadlinecheck

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
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
	if len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for _, c := range a.Conditions {
		if d := apimeta.FindStatusCondition(b.Conditions, c.Type); d == nil || d.Status != c.Status {
			return false
		}
	}
	x, y := CheckState(old, check), CheckState(cur, check)
	return x != nil && y != nil && x.State == y.State && x.Message == y.Message
}

// fresh reads the workload w writes from the API server, past the cache;
// nil when there is no reader, the read fails, or the workload changed
// where a decision reads.
func (w *writer) fresh(ctx context.Context, check kueue.AdmissionCheckReference) *kueue.Workload {
	if w.r.reader == nil || w.refreshed {
		return nil
	}
	w.refreshed = true
	cur := &kueue.Workload{}
	if err := w.r.reader.Get(ctx, client.ObjectKeyFromObject(w.wl), cur); err != nil || !sameInputs(w.wl, cur, check) {
		return nil
	}
	return cur
}

// actFresh writes an ETA task refused with a conflict once more, onto a
// copy read from the API server, when the workload changed only where no
// decision reads (sameInputs: still waiting, its check still in the same
// state with the same message). A workload waiting for quota changes
// often (Kueue rewrites its QuotaReserved condition's message as the free
// quota moves), and an ETA reaches the ETA writer seconds after the
// reconcile that computed it: without this, its ETA could wait for a
// reconcile whose ETA arrives before the next change. conflict is the
// first attempt's error, returned when there is no such copy; it reports
// whether either attempt wrote.
func (w *writer) actFresh(ctx context.Context, t etaTask, conflict error) (bool, error) {
	cur := w.fresh(ctx, t.check)
	if cur == nil {
		return w.writes > 0, conflict
	}
	w1 := writer{r: w.r, wl: cur, refreshed: true}
	err := w1.act(ctx, t.cq, t.check, t.w, t.o, t.now)
	return w.writes+w1.writes > 0, err
}
