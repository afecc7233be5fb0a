package replay

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// An etaWatch keeps the first ETA each Workload carried, by the UID of the
// Workload's owners (the replay's Jobs), as a watch of the namespace's
// Workloads delivers it: Seen is when the API server's watch brought the
// write, not when the replay's next poll (every second, listing every Job
// and Workload, seconds on a loaded control plane) would have read it.
type etaWatch struct {
	mu    sync.Mutex
	first map[types.UID]*ETA
}

// watchETAs watches the Workloads of namespace ns until ctx ends, again
// whenever the watch closes (a new watch begins with every Workload as it
// is). The first watch is open when it returns.
func watchETAs(ctx context.Context, c client.WithWatch, ns string) *etaWatch {
	w := &etaWatch{first: map[types.UID]*ETA{}}
	open := func() watch.Interface {
		wi, err := c.Watch(ctx, &kueue.WorkloadList{}, client.InNamespace(ns))
		if err != nil {
			return nil
		}
		return wi
	}
	wi := open()
	go func() {
		for {
			if wi != nil {
				w.drain(ctx, wi)
				wi.Stop()
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
				wi = open()
			}
		}
	}()
	return w
}

// drain notes the Workloads wi brings until it closes or ctx ends.
func (w *etaWatch) drain(ctx context.Context, wi watch.Interface) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return
			}
			if wl, ok := ev.Object.(*kueue.Workload); ok {
				w.note(wl)
			}
		}
	}
}

// note keeps wl's ETA for its owners that have none yet.
func (w *etaWatch) note(wl *kueue.Workload) {
	e := readETA(wl.Annotations)
	if e == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ref := range wl.OwnerReferences {
		if _, ok := w.first[ref.UID]; !ok {
			w.first[ref.UID] = e
		}
	}
}

// of returns the first ETA seen on a Workload owned by uid, nil if none
// (or w is nil).
func (w *etaWatch) of(uid types.UID) *ETA {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first[uid]
}
