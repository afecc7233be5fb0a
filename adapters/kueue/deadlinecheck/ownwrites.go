package deadlinecheck

import (
	"slices"

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
// check writes while a workload waits and never reads back: the ETA
// annotations (ETAAnnotations), Kueue's priority boost
// (PriorityBoostAnnotation: the check either ignores it or computes it
// from the deadline, priorityboost.go) and the Pending note
// (isPendingNote) of an admission check that stays Pending. Every other change (spec, labels, other annotations, conditions,
// admission, a check's state) counts, and so does any change of an object
// being deleted. The resourceVersion and managed fields are not compared.
// It copies no more than the two objects' top-level structs (no deep
// copy): it runs on every Workload event.
func notesOnlyUpdate(old, cur *kueue.Workload) bool {
	if old == nil || cur == nil || cur.DeletionTimestamp != nil {
		return false
	}
	if !sameBesideETAs(old.Annotations, cur.Annotations) || !sameChecksBesideNotes(old.Status.AdmissionChecks, cur.Status.AdmissionChecks) {
		return false
	}
	a, b := *old, *cur
	for _, wl := range []*kueue.Workload{&a, &b} {
		wl.ResourceVersion, wl.ManagedFields, wl.Annotations = "", nil, nil
		wl.Status.AdmissionChecks = nil
	}
	return equality.Semantic.DeepEqual(&a, &b)
}

// sameBesideETAs reports whether two annotation maps hold the same keys
// and values but for the ETA annotations and the priority boost.
func sameBesideETAs(a, b map[string]string) bool {
	n := 0
	for k, v := range a {
		if isNoteKey(k) {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
		n++
	}
	for k := range b {
		if !isNoteKey(k) {
			n--
		}
	}
	return n == 0
}

// sameChecksBesideNotes reports whether two lists of admission check
// states are the same but for the Pending notes of checks Pending in both.
func sameChecksBesideNotes(a, b []kueue.AdmissionCheckState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Name == y.Name && x.State == kueue.CheckStatePending && y.State == kueue.CheckStatePending &&
			isPendingNote(x.Message) && isPendingNote(y.Message) {
			x.Message = y.Message
		}
		if !equality.Semantic.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// isNoteKey reports whether an annotation is one notesOnlyUpdate leaves
// out.
func isNoteKey(k string) bool {
	return k == PriorityBoostAnnotation || slices.Contains(ETAAnnotations[:], k)
}
