package deadlinecheck

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// completion returns when wl's controlling owner completed, if it is a
// batch/v1 Job that has (its status.completionTime, read from the API
// server once per finished workload: ObservedDelay's end); zero for any
// other owner, a Job not complete or replaced, or a read that fails (the
// learner then takes Kueue's Finished condition).
func (r *queueReconciler) completion(ctx context.Context, wl *kueue.Workload) time.Time {
	ref := metav1.GetControllerOf(wl)
	if r.reader == nil || ref == nil || ref.APIVersion != "batch/v1" || ref.Kind != "Job" {
		return time.Time{}
	}
	cctx, cancel := context.WithTimeout(ctx, ownerTimeout)
	defer cancel()
	var job batchv1.Job
	if err := r.reader.Get(cctx, client.ObjectKey{Namespace: wl.Namespace, Name: ref.Name}, &job); err != nil || job.UID != ref.UID || job.Status.CompletionTime == nil {
		return time.Time{}
	}
	return job.Status.CompletionTime.Time
}
