package deadlinecheck

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"
	"weak"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestOldPassesFreed: as a ClusterQueue's queue shrinks, pass after pass,
// the check keeps no older ETA pass's block of ETAs or string of notes
// alive than the last two (the last that ended, whose ETAs a reconcile
// recalls, and the one before it, whose outcomes the next pass starts
// from). Reused scratch slices cut shorter keep their elements past the
// new length; those must not hold an outcome, a workload or samples of
// a plan that is over.
func TestOldPassesFreed(t *testing.T) {
	objs := cluster()
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	objs = append(objs, a)
	const n = 40
	for i := range n {
		p := wl(fmt.Sprintf("p%02d", i), 1, kueue.CheckStatePending, false, fixedType("100h"))
		p.CreationTimestamp = metav1.NewTime(t0.Add(time.Duration(i) * time.Millisecond))
		objs = append(objs, p)
	}
	g := newRig(t, newFakeClient(t, objs...))
	ctx := context.Background()
	var etas []weak.Pointer[ETA]
	var notes []weak.Pointer[byte]
	for pass := range n / 2 {
		g.clock.SetTime(t0.Add(time.Duration(pass) * time.Minute))
		g.reconcile(t)
		found := false
		for _, p := range g.r.etaPasses {
			for _, m := range p.byID {
				if m.eta != nil && m.note != "" {
					etas = append(etas, weak.Make(m.eta))
					notes = append(notes, weak.Make(unsafe.StringData(m.note)))
					found = true
					break
				}
			}
		}
		if !found {
			t.Fatalf("pass %d: no pending workload with an ETA and a note", pass)
		}
		// The two latest pending workloads leave the queue.
		for _, i := range []int{n - 1 - 2*pass, n - 2 - 2*pass} {
			w := &kueue.Workload{}
			if err := g.c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: fmt.Sprintf("p%02d", i)}, w); err != nil {
				t.Fatal(err)
			}
			if err := g.c.Delete(ctx, w); err != nil {
				t.Fatal(err)
			}
		}
	}
	runtime.GC()
	runtime.GC()
	var alive []int
	for i := range len(etas) - 2 {
		if etas[i].Value() != nil || notes[i].Value() != nil {
			alive = append(alive, i)
		}
	}
	if len(alive) > 0 {
		t.Errorf("of %d passes, %d older than the last two are still reachable: %v", len(etas), len(alive), alive)
	}
	runtime.KeepAlive(g)
}
