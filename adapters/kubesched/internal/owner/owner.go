// Package owner finds a pod's owning batch/v1 Job through the scheduler's
// informer cache, for package podjob's mapping (which stays free of
// listers, so that its tests and fuzz targets build without client-go).
package owner

import (
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// A Resolver finds a pod's owning batch/v1 Job through the scheduler's
// informer cache and maps the pod with podjob.Of. The zero Resolver (no lister)
// reads the pod's own annotations only.
type Resolver struct {
	Jobs batchlisters.JobLister
}

// NewResolver returns a Resolver on the handle's shared informer factory.
// It registers a batch/v1 Job informer, which the scheduler starts with the
// others; the scheduler's service account needs get, list and watch on
// jobs.batch (config/rbac/role.yaml).
func NewResolver(h fwk.Handle) Resolver {
	return Resolver{Jobs: h.SharedInformerFactory().Batch().V1().Jobs().Lister()}
}

// Owner returns the pod's owning Job, or nil when it has none, the lister
// does not know it or the Resolver has no lister.
func (r Resolver) Owner(pod *v1.Pod) *batchv1.Job {
	if r.Jobs == nil {
		return nil
	}
	name, ok := podjob.Owner(pod)
	if !ok {
		return nil
	}
	j, err := r.Jobs.Jobs(pod.Namespace).Get(name)
	if err != nil {
		return nil
	}
	return j
}

// Job maps the pod with podjob.Of, its owner looked up.
func (r Resolver) Job(pod *v1.Pod) podjob.Job { return podjob.Of(pod, r.Owner(pod)) }

// Deadline returns the pod's job deadline with podjob.DeadlineOf, its owner
// looked up.
func (r Resolver) Deadline(pod *v1.Pod) (time.Time, bool, *podjob.AnnotationError) {
	return podjob.DeadlineOf(pod, r.Owner(pod))
}
