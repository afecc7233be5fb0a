package tally

import (
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// Watch feeds the tally from the scheduler's shared informers: pods (Set,
// Delete), nodes (SetNode, DeleteNode) and batch/v1 Jobs (OwnerChanged).
// Call it from a plugin's factory, before the scheduler starts the
// informers; their initial lists arrive as adds.
func (t *Tally) Watch(f informers.SharedInformerFactory) error {
	if _, err := f.Core().V1().Pods().Informer().AddEventHandler(t.PodHandler()); err != nil {
		return err
	}
	if _, err := f.Core().V1().Nodes().Informer().AddEventHandler(handler(t.SetNode, func(n *v1.Node) { t.DeleteNode(n.Name) })); err != nil {
		return err
	}
	owner := func(j *batchv1.Job) { t.OwnerChanged(j.UID) }
	_, err := f.Batch().V1().Jobs().Informer().AddEventHandler(handler(owner, owner))
	return err
}

// PodHandler is the pod informer's handler: Set on adds, updates and
// resyncs, Delete on deletes.
func (t *Tally) PodHandler() cache.ResourceEventHandler {
	return handler(t.Set, func(p *v1.Pod) { t.Delete(p.UID) })
}

// handler calls set on adds, updates and resyncs of objects of type T and
// del on their deletes (tombstones unwrapped).
func handler[T any](set, del func(T)) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if o, ok := obj.(T); ok {
				set(o)
			}
		},
		UpdateFunc: func(_, obj any) {
			if o, ok := obj.(T); ok {
				set(o)
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if o, ok := obj.(T); ok {
				del(o)
			}
		},
	}
}
