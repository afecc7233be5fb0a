package deadlinecheck

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// With a rejection writer, a reconcile writes the verdict of a workload
// holding quota and returns, leaving the deactivations of a burst of
// malformed workloads waiting for quota to the writer, which writes each
// once (its rejection in RejectionAnnotation, spec.active false).
func TestRejectionWriterDeactivatesInBackground(t *testing.T) {
	objs := append(cluster(), wl("good", 1, kueue.CheckStatePending, true, fixedType("2h")))
	var bad []string
	for i := range 20 {
		name := fmt.Sprintf("bad-%02d", i)
		objs = append(objs, wl(name, 1, kueue.CheckStatePending, false, map[string]string{DeadlineAnnotation: "soon"}))
		bad = append(bad, name)
	}
	g := newRig(t, newFakeClient(t, objs...))
	g.r.rejectionWriter = newRejectionWriter(g.r)
	g.reconcile(t)
	if st := CheckState(g.workload(t, "good"), testCheck); st.State != kueue.CheckStateReady {
		t.Fatalf("good: %s %q, want Ready from the reconcile", st.State, st.Message)
	}
	for _, b := range bad {
		if w := g.workload(t, b); w.Spec.Active != nil && !*w.Spec.Active {
			t.Fatalf("%s deactivated by the reconcile, not the writer", b)
		}
	}
	g.reconcile(t) // hands the same deactivations over again: each written once

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- g.r.rejectionWriter.Start(ctx) }()
	defer func() { cancel(); <-done }()
	// One event per decision and deactivation, the last write of each.
	deadline := time.Now().Add(10 * time.Second)
	for len(g.rec.Events) < 1+len(bad) {
		if time.Now().After(deadline) {
			t.Fatalf("%d events, want %d", len(g.rec.Events), 1+len(bad))
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a second write of one would come now
	if n := len(g.rec.Events); n != 1+len(bad) {
		t.Errorf("%d events, want one per decision and deactivation (%d)", n, 1+len(bad))
	}
	want := `Rejected: annotation schedkit.io/deadline = "soon"`
	for _, b := range bad {
		w := g.workload(t, b)
		if r := w.Annotations[RejectionAnnotation]; w.Spec.Active == nil || *w.Spec.Active || !strings.HasPrefix(r, want) {
			t.Errorf("%s: active %v, rejection %q", b, w.Spec.Active, r)
		}
		if st := CheckState(w, testCheck); st.State != kueue.CheckStatePending || !strings.HasPrefix(st.Message, "Rejected and deactivated while waiting for quota: ") {
			t.Errorf("%s: check %s %q", b, st.State, st.Message)
		}
	}
}

// A deactivation whose workload changed after the reconcile computed it
// (here: a label; in a cluster, say, Kueue reserving quota) is not sent:
// the cache already shows it would fail. The others are written, two
// writes each (the check's message, then the patch).
func TestRejectionWriterSkipsChanged(t *testing.T) {
	objs := cluster()
	for i := range 3 {
		objs = append(objs, wl(fmt.Sprintf("bad-%d", i), 1, kueue.CheckStatePending, false, map[string]string{DeadlineAnnotation: "soon"}))
	}
	var writes atomic.Int32
	c := interceptor.NewClient(newFakeClient(t, objs...), interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			writes.Add(1)
			return c.Patch(ctx, obj, p, opts...)
		},
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			writes.Add(1)
			return c.SubResource(sub).Apply(ctx, obj, opts...)
		},
	})
	g := newRig(t, c)
	g.r.rejectionWriter = newRejectionWriter(g.r)
	g.reconcile(t)
	changed := g.workload(t, "bad-1")
	changed.Labels = map[string]string{"changed": "yes"}
	if err := g.c.Update(context.Background(), changed); err != nil {
		t.Fatal(err)
	}

	writes.Store(0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- g.r.rejectionWriter.Start(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(g.rec.Events) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d events, want 2", len(g.rec.Events))
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the changed one's write would come now
	cancel()
	<-done
	if n := len(g.rec.Events); n != 2 {
		t.Errorf("%d events, want 2 (the unchanged workloads')", n)
	}
	if n := writes.Load(); n != 4 {
		t.Errorf("%d writes, want 4 (two for each unchanged workload, none for the changed one)", n)
	}
	for i, want := range []bool{true, false, true} {
		w := g.workload(t, fmt.Sprintf("bad-%d", i))
		if got := w.Spec.Active != nil && !*w.Spec.Active; got != want {
			t.Errorf("bad-%d: deactivated %v, want %v (resourceVersion %s)", i, got, want, w.ResourceVersion)
		}
	}
}
