package leastworklost

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// podUpdated forgets the victims of a preemptor once it is bound, and the
// requests kept for it while it was nominated (nominatedOn). A victim's
// own updates (the DisruptionTarget condition the eviction writes, its
// deletion timestamp) keep it among the evicted: an update delivered after
// the eviction must not make a victim that is still in the snapshot look as
// if it were staying, or the preemptor would choose it a second time.
func (pl *LeastWorkLostPreemption) podUpdated(obj any) {
	if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName != "" {
		pl.victims.Delete(p.UID)
		pl.nominatedRequests.Delete(p.UID)
	}
}

// podDeleted forgets a pod that is gone, as a preemptor, as a victim and
// as a nominated pod.
func (pl *LeastWorkLostPreemption) podDeleted(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	if p, ok := obj.(*v1.Pod); ok {
		pl.victims.Delete(p.UID)
		pl.evicted.Delete(p.UID)
		pl.nominatedRequests.Delete(p.UID)
	}
}
