package deadlinecheck

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestNotesOnlyUpdate: the Workload watch drops exactly the updates that
// change only the ETA annotations, the priority boost or a Pending
// check's Pending note.
func TestNotesOnlyUpdate(t *testing.T) {
	base := func() *kueue.Workload {
		return &kueue.Workload{
			ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns", ResourceVersion: "1",
				Annotations: map[string]string{DeadlineAnnotation: "1h", StartP50Annotation: "2026-11-27T10:00:00Z"}},
			Spec: kueue.WorkloadSpec{QueueName: "lq"},
			Status: kueue.WorkloadStatus{AdmissionChecks: []kueue.AdmissionCheckState{
				{Name: "deadline", State: kueue.CheckStatePending, Message: "Pending: ETA start p50 10:00"},
			}},
		}
	}
	for _, c := range []struct {
		name   string
		change func(*kueue.Workload)
		notes  bool
	}{
		{"resourceVersion only", func(w *kueue.Workload) {}, true},
		{"an ETA annotation moved", func(w *kueue.Workload) { w.Annotations[StartP50Annotation] = "2026-11-27T10:05:00Z" }, true},
		{"ETA annotations added", func(w *kueue.Workload) { w.Annotations[FinishP90Annotation] = "2026-11-27T11:00:00Z" }, true},
		{"ETA annotations removed, none left", func(w *kueue.Workload) {
			delete(w.Annotations, StartP50Annotation)
			delete(w.Annotations, DeadlineAnnotation)
		}, false},
		{"the priority boost added", func(w *kueue.Workload) { w.Annotations[PriorityBoostAnnotation] = "351962047" }, true},
		{"the priority boost and a label", func(w *kueue.Workload) {
			w.Annotations[PriorityBoostAnnotation] = "1"
			w.Labels = map[string]string{"a": "b"}
		}, false},
		{"the Pending note changed", func(w *kueue.Workload) { w.Status.AdmissionChecks[0].Message = "Pending: ETA start p50 10:05" }, true},
		{"a rejection note", func(w *kueue.Workload) { w.Status.AdmissionChecks[0].Message = deactivatedNote("Rejected: late") }, false},
		{"the deadline annotation", func(w *kueue.Workload) { w.Annotations[DeadlineAnnotation] = "2h" }, false},
		{"another annotation added", func(w *kueue.Workload) { w.Annotations["x"] = "" }, false},
		{"the deadline annotation swapped for another", func(w *kueue.Workload) {
			delete(w.Annotations, DeadlineAnnotation)
			w.Annotations["x"] = "1h"
		}, false},
		{"a second check added", func(w *kueue.Workload) {
			w.Status.AdmissionChecks = append(w.Status.AdmissionChecks, kueue.AdmissionCheckState{Name: "other", State: kueue.CheckStatePending})
		}, false},
		{"the Pending note and the check's time", func(w *kueue.Workload) {
			w.Status.AdmissionChecks[0].Message = "Pending: ETA start p50 10:05"
			w.Status.AdmissionChecks[0].LastTransitionTime = metav1.Unix(1, 0)
		}, false},
		{"a label", func(w *kueue.Workload) { w.Labels = map[string]string{"a": "b"} }, false},
		{"the check's state", func(w *kueue.Workload) { w.Status.AdmissionChecks[0].State = kueue.CheckStateReady }, false},
		{"a condition", func(w *kueue.Workload) {
			w.Status.Conditions = []metav1.Condition{{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue}}
		}, false},
		{"deactivated", func(w *kueue.Workload) { w.Spec.Active = new(false) }, false},
		{"being deleted", func(w *kueue.Workload) { w.DeletionTimestamp = &metav1.Time{} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			old, cur := base(), base()
			cur.ResourceVersion = "2"
			c.change(cur)
			if got := notesOnlyUpdate(old, cur); got != c.notes {
				t.Errorf("notesOnlyUpdate = %v, want %v", got, c.notes)
			}
		})
	}
}
