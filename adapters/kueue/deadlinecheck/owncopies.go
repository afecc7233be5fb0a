package deadlinecheck

import (
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// ownCopies are the deep copies of the cache's Workloads one reconcile
// writes through. The reconcile lists the cache's own objects, which
// nothing may change, and copies only the workloads it writes to (or
// hands to a background writer): a reconcile of a long queue copies what
// it decides, not the queue. A workload written by one of a ClusterQueue's
// checks is read by the next one as written (its resourceVersion and
// check states), as one shared copy would be. Used by the reconcile's own
// goroutine only.
type ownCopies map[types.UID]*kueue.Workload

// of returns the reconcile's copy of wl, made on the first call.
func (o *ownCopies) of(wl *kueue.Workload) *kueue.Workload {
	if c, ok := (*o)[wl.UID]; ok {
		return c
	}
	if *o == nil {
		*o = ownCopies{}
	}
	c := wl.DeepCopy()
	(*o)[wl.UID] = c
	return c
}

// seen returns the reconcile's copy of wl if it has one, else wl.
func (o ownCopies) seen(wl *kueue.Workload) *kueue.Workload {
	if c, ok := o[wl.UID]; ok {
		return c
	}
	return wl
}
