package deadlinecheck

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"
)

// A workloadStore stands in for the manager's informer cache of
// Workloads in the benchmarks: controller-runtime's fake client answers a
// List by encoding and decoding every object (JSON), which at 15,000
// Workloads costs more than the reconcile it serves, while the cache
// answers from its indexes with the objects it holds, shallow-copied into
// the list's items (UnsafeDisableDeepCopy). The store holds one object
// per Workload, indexed as the manager's cache is (IndexWorkloadQueue,
// IndexWorkloadClusterQueue), and takes each write's result at once, as
// an informer takes its watch event (a real cache takes it a moment
// later).
type workloadStore struct {
	mu    sync.Mutex
	byUID map[types.UID]*kueue.Workload
	idx   map[string]map[string]map[types.UID]bool // index → value → workloads
}

var storeIndexes = map[string]func(client.Object) []string{
	IndexWorkloadQueue:        WorkloadQueueIndex,
	IndexWorkloadClusterQueue: WorkloadClusterQueueIndex,
}

// put replaces the store's object of wl's UID with wl.
func (s *workloadStore) put(wl *kueue.Workload) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byUID == nil {
		s.byUID, s.idx = map[types.UID]*kueue.Workload{}, map[string]map[string]map[types.UID]bool{}
	}
	if old := s.byUID[wl.UID]; old != nil {
		for name, f := range storeIndexes {
			for _, v := range f(old) {
				delete(s.idx[name][v], wl.UID)
			}
		}
	}
	s.byUID[wl.UID] = wl
	for name, f := range storeIndexes {
		if s.idx[name] == nil {
			s.idx[name] = map[string]map[types.UID]bool{}
		}
		for _, v := range f(wl) {
			if s.idx[name][v] == nil {
				s.idx[name][v] = map[types.UID]bool{}
			}
			s.idx[name][v][wl.UID] = true
		}
	}
}

// list fills l with the Workloads whose index value is v.
func (s *workloadStore) list(l *kueue.WorkloadList, index, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	uids := s.idx[index][v]
	l.Items = make([]kueue.Workload, 0, len(uids))
	for uid := range uids {
		l.Items = append(l.Items, *s.byUID[uid])
	}
}

// cachedClient is fakeBuilder's client over objs with the Workload reads
// answered from a workloadStore that every Workload write updates.
func cachedClient(tb testing.TB, objs ...client.Object) client.WithWatch {
	s := &workloadStore{}
	refresh := func(ctx context.Context, c client.Client, ns, name string) error {
		wl := &kueue.Workload{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, wl); err != nil {
			return err
		}
		s.put(wl)
		return nil
	}
	apply := applyAsMerge(nil)
	c := fakeBuilder(tb, interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			l, ok := list.(*kueue.WorkloadList)
			if !ok {
				return c.List(ctx, list, opts...)
			}
			lo := (&client.ListOptions{}).ApplyOptions(opts)
			if lo.FieldSelector == nil || len(lo.FieldSelector.Requirements()) != 1 {
				return fmt.Errorf("workload list by %v: the store answers one index", lo.FieldSelector)
			}
			req := lo.FieldSelector.Requirements()[0]
			s.list(l, req.Field, req.Value)
			return nil
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			if err := c.Patch(ctx, obj, patch, opts...); err != nil {
				return err
			}
			if wl, ok := obj.(*kueue.Workload); ok {
				s.put(wl.DeepCopy())
			}
			return nil
		},
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, ac runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			if err := apply(ctx, c, sub, ac, opts...); err != nil {
				return err
			}
			if w, ok := ac.(*kueueac.WorkloadApplyConfiguration); ok {
				return refresh(ctx, c, *w.Namespace, *w.Name)
			}
			return nil
		},
	}, objs...).Build()
	for _, o := range objs {
		if wl, ok := o.(*kueue.Workload); ok {
			if err := refresh(context.Background(), c, wl.Namespace, wl.Name); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return c
}
