package deadlinecheck

import (
	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// notesOnly is the Workload watch's filter: it drops the updates that
// change nothing a decision reads (notesOnlyUpdate), so that the check's
// own ETA writes do not each reconcile the ClusterQueue again.
var notesOnly = predicate.TypedFuncs[*kueue.Workload]{
	UpdateFunc: func(e event.TypedUpdateEvent[*kueue.Workload]) bool {
		return !notesOnlyUpdate(e.ObjectOld, e.ObjectNew)
	},
}

// notesOnlyUpdate reports whether a Workload update changed only what the
// check writes for people while a workload waits: the ETA annotations
// (ETAAnnotations) and the Pending note (isPendingNote) of an admission
// check that stays Pending. Every other change (spec, labels, other annotations, conditions,
// admission, a check's state) counts, and so does any change of an object
// being deleted. The resourceVersion and managed fields are not compared.
func notesOnlyUpdate(old, cur *kueue.Workload) bool {
	if old == nil || cur == nil || cur.DeletionTimestamp != nil {
		return false
	}
	a, b := old.DeepCopy(), cur.DeepCopy()
	for _, wl := range []*kueue.Workload{a, b} {
		wl.ResourceVersion, wl.ManagedFields = "", nil
		for _, k := range ETAAnnotations {
			delete(wl.Annotations, k)
		}
		if len(wl.Annotations) == 0 {
			wl.Annotations = nil
		}
	}
	if len(a.Status.AdmissionChecks) != len(b.Status.AdmissionChecks) {
		return false
	}
	for i := range a.Status.AdmissionChecks {
		x, y := &a.Status.AdmissionChecks[i], &b.Status.AdmissionChecks[i]
		if x.Name == y.Name && x.State == kueue.CheckStatePending && y.State == kueue.CheckStatePending &&
			isPendingNote(x.Message) && isPendingNote(y.Message) {
			y.Message = x.Message
		}
	}
	return equality.Semantic.DeepEqual(a, b)
}
