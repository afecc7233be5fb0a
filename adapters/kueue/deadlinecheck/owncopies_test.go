package deadlinecheck

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// The reconcile writes through its own copies, never through the objects
// it lists: here the List of Workloads hands out, as the manager's cache
// does with UnsafeDisableDeepCopy, struct copies sharing their maps and
// slices with objects kept across calls, and after a reconcile that
// writes Ready, Rejected, a deactivation and ETAs those objects are as
// they were listed.
func TestReconcileLeavesListedObjects(t *testing.T) {
	shared := map[string]*kueue.Workload{} // name → the "cache's" object
	before := map[string]*kueue.Workload{} // name → its copy when first listed
	funcs := interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, opts ...client.ListOption) error {
		if err := c.List(ctx, l, opts...); err != nil {
			return err
		}
		wls, ok := l.(*kueue.WorkloadList)
		if !ok {
			return nil
		}
		o := client.ListOptions{}
		o.ApplyOptions(opts)
		if o.UnsafeDisableDeepCopy == nil || !*o.UnsafeDisableDeepCopy {
			return nil
		}
		for i := range wls.Items {
			name := wls.Items[i].Name
			if _, ok := shared[name]; !ok {
				shared[name] = wls.Items[i].DeepCopy()
				before[name] = wls.Items[i].DeepCopy()
			}
			wls.Items[i] = *shared[name]
		}
		return nil
	}}
	objs := append(cluster(),
		wl("b", 1, kueue.CheckStatePending, true, fixedType("2026-11-24T12:11:40Z")),
		wl("hopeless", 1, kueue.CheckStatePending, true, fixedType("5m")),
		wl("malformed", 1, kueue.CheckStatePending, false, map[string]string{DeadlineAnnotation: "tomorrow"}),
		wl("waiting", 2, kueue.CheckStatePending, false, fixedType("3h")),
	)
	g := newRig(t, fakeBuilder(t, funcs, objs...).Build())
	g.reconcile(t)
	if st := CheckState(g.workload(t, "b"), testCheck); st.State != kueue.CheckStateReady {
		t.Fatalf("b: %s, want Ready (the reconcile wrote nothing)", st.State)
	}
	if len(shared) != 4 {
		t.Fatalf("%d workloads listed without deep copies, want 4", len(shared))
	}
	for name, o := range shared {
		if !equality.Semantic.DeepEqual(o, before[name]) {
			t.Errorf("%s: the listed object was changed:\n%+v\nwas\n%+v", name, o, before[name])
		}
	}
}

// ownCopies gives one deep copy per workload, the same on every call, and
// seen returns it in place of the listed object once it exists.
func TestOwnCopies(t *testing.T) {
	a := wl("a", 1, kueue.CheckStatePending, true, fixedType("1h"))
	var own ownCopies
	if own.seen(a) != a {
		t.Fatal("seen before any copy is not the listed object")
	}
	c := own.of(a)
	if c == a || own.of(a) != c || own.seen(a) != c {
		t.Fatalf("of: %p, again %p, seen %p, listed %p", c, own.of(a), own.seen(a), a)
	}
	c.Annotations["x"] = "y"
	if _, ok := a.Annotations["x"]; ok {
		t.Fatal("the copy shares the listed object's annotations")
	}
}
