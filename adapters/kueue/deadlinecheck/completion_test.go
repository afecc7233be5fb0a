package deadlinecheck

import (
	"context"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestCompletion reads a finished workload's Job's completion time: only
// from the batch/v1 Job that controls it, with its UID, once complete.
func TestCompletion(t *testing.T) {
	done := metav1.NewTime(t0.Add(21 * time.Second))
	job := func(name string, uid types.UID, completed *metav1.Time) *batchv1.Job {
		return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: uid}, Status: batchv1.JobStatus{CompletionTime: completed}}
	}
	owned := func(apiVersion, kind, name string, uid types.UID) *kueue.Workload {
		wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: "wl-" + name, Namespace: "ns"}}
		if kind != "" {
			wl.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: ptr(true)}}
		}
		return wl
	}
	c := newFakeClient(t, job("done", "u1", &done), job("running", "u2", nil), job("replaced", "u4", &done))
	r := &queueReconciler{reader: c}
	for _, tc := range []struct {
		name string
		wl   *kueue.Workload
		want time.Time
	}{
		{"complete Job", owned("batch/v1", "Job", "done", "u1"), done.Time},
		{"Job still running", owned("batch/v1", "Job", "running", "u2"), time.Time{}},
		{"Job gone", owned("batch/v1", "Job", "gone", "u3"), time.Time{}},
		{"Job replaced by another of the name", owned("batch/v1", "Job", "replaced", "u3"), time.Time{}},
		{"other kind", owned("jobset.x-k8s.io/v1alpha2", "JobSet", "done", "u1"), time.Time{}},
		{"no owner", owned("", "", "done", ""), time.Time{}},
	} {
		if got := r.completion(context.Background(), tc.wl); !got.Equal(tc.want) {
			t.Errorf("%s: completion %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := (&queueReconciler{}).completion(context.Background(), owned("batch/v1", "Job", "done", "u1")); !got.IsZero() {
		t.Errorf("no reader: completion %v, want none", got)
	}
}
