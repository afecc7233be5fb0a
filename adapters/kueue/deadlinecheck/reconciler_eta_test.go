package deadlinecheck

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"
)

// heldQueue is a rig whose quota a holds (admitted at t0, 600 s on all 4
// cpu) with p waiting behind it (deadline in 2 h): p starts at 12:10:00.
func heldQueue(t *testing.T) *rig {
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
	return newRig(t, newFakeClient(t, append(cluster(), a, p)...))
}

// With an ETA interval, a reconcile between ETA passes decides at once
// and leaves ETAs as the last pass wrote them; a workload arriving in
// between keeps no ETA until the next pass, which comes when the interval
// has passed (the reconcile asks to be called then); a workload
// deactivated in between gets its ETA with its deactivation.
func TestReconcileETAInterval(t *testing.T) {
	g := heldQueue(t)
	g.r.etaEvery = 10 * time.Second
	g.reconcile(t)
	if got := g.workload(t, "p").Annotations[StartP50Annotation]; got != "2026-11-24T12:10:00Z" {
		t.Fatalf("p's start %q, want a's finish 12:10:00", got)
	}

	// 3 s later n arrives, waiting: no pass, no ETA for it yet.
	g.clock.SetTime(t0.Add(3 * time.Second))
	ctx := context.Background()
	n := wl("n", 1, kueue.CheckStatePending, false, fixedType("3h"))
	n.CreationTimestamp = metav1.NewTime(t0)
	if err := g.c.Create(ctx, n); err != nil {
		t.Fatal(err)
	}
	if res := g.reconcile(t); res.RequeueAfter != 7*time.Second {
		t.Errorf("requeue after %v, want the 7 s until the next ETA pass", res.RequeueAfter)
	}
	if w := g.workload(t, "n"); w.Annotations[StartP50Annotation] != "" || CheckState(w, testCheck).Message != "" {
		t.Errorf("n got an ETA between passes: %v / %q", w.Annotations, CheckState(w, testCheck).Message)
	}

	// The next pass, 10 s after the first: n gets its ETA (after a).
	g.clock.SetTime(t0.Add(10 * time.Second))
	g.reconcile(t)
	w := g.workload(t, "n")
	if w.Annotations[StartP50Annotation] != "2026-11-24T12:10:00Z" || !strings.HasPrefix(CheckState(w, testCheck).Message, "Pending: predicted start") {
		t.Errorf("n after the next pass: %v / %q", w.Annotations, CheckState(w, testCheck).Message)
	}

	// 2 s later late arrives, hopeless: deactivated at once, with its ETA.
	g.clock.SetTime(t0.Add(12 * time.Second))
	late := wl("late", 1, kueue.CheckStatePending, false, fixedType("5m"))
	late.CreationTimestamp = metav1.NewTime(t0)
	if err := g.c.Create(ctx, late); err != nil {
		t.Fatal(err)
	}
	g.reconcile(t)
	lw := g.workload(t, "late")
	if lw.Spec.Active == nil || *lw.Spec.Active || lw.Annotations[StartP50Annotation] == "" {
		t.Errorf("late: active %v, annotations %v: want deactivated with its ETA", lw.Spec.Active, lw.Annotations)
	}
}

// A workload the check makes Ready keeps the ETA annotations it waited
// with, at its verdict and while it is admitted and runs: the check does
// not write to it while Kueue admits it and its Job's controller starts it.
func TestReconcileReadyKeepsETA(t *testing.T) {
	g := heldQueue(t)
	g.reconcile(t)
	want := g.workload(t, "p").Annotations
	if want[StartP50Annotation] != "2026-11-24T12:10:00Z" {
		t.Fatalf("p's start %q, want a's finish 12:10:00", want[StartP50Annotation])
	}
	ctx := context.Background()
	if err := g.c.Delete(ctx, g.workload(t, "a")); err != nil {
		t.Fatal(err)
	}
	p := g.workload(t, "p")
	reserved := wl("p", 1, kueue.CheckStatePending, true, nil)
	p.Status.Conditions, p.Status.Admission = reserved.Status.Conditions, reserved.Status.Admission
	if err := g.c.Status().Update(ctx, p); err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"verdict", "admitted"} {
		g.clock.SetTime(g.clock.Now().Add(time.Minute))
		g.reconcile(t)
		p = g.workload(t, "p")
		if st := CheckState(p, testCheck); st.State != kueue.CheckStateReady {
			t.Fatalf("%s: p %s %q, want Ready", step, st.State, st.Message)
		}
		for _, k := range ETAAnnotations {
			if p.Annotations[k] != want[k] {
				t.Errorf("%s: %s = %q, want the ETA it waited with, %q", step, k, p.Annotations[k], want[k])
			}
		}
		p.Status.Conditions = append(p.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, g.clock.Now()))
		if err := g.c.Status().Update(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestETAAnnotationsBeforeNote: a waiting workload's first ETA is written
// as its annotations first, then as the Pending note that repeats it (each
// write is a round trip through the API server and Kueue's webhooks); the
// note is still written when the workload already carried an older
// Pending note, which the new annotations alone would make look current.
func TestETAAnnotationsBeforeNote(t *testing.T) {
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
	CheckState(p, testCheck).Message = "Pending: an older note"
	var writes []string
	cl := fakeBuilder(t, interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, o client.Object, patch client.Patch, opts ...client.PatchOption) error {
			writes = append(writes, "patch "+o.GetName())
			return c.Patch(ctx, o, patch, opts...)
		},
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, o runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			writes = append(writes, "apply "+*o.(*kueueac.WorkloadApplyConfiguration).Name)
			return applyAsMerge(nil)(ctx, c, sub, o, opts...)
		},
	}, append(cluster(), a, p)...).Build()
	g := newRig(t, cl)
	g.reconcile(t)
	if want := []string{"patch p", "apply p"}; !slices.Equal(writes, want) {
		t.Errorf("writes %q, want %q", writes, want)
	}
	got := g.workload(t, "p")
	if s := got.Annotations[StartP50Annotation]; s != "2026-11-24T12:10:00Z" {
		t.Errorf("p's start %q, want a's finish 12:10:00", s)
	}
	if m := CheckState(got, testCheck).Message; !strings.Contains(m, "12:10:00") {
		t.Errorf("p's note %q, want the new ETA's", m)
	}
}

// With a slice smaller than the pass, the pass runs over the reconciles
// that follow (each asking to be called again etaSlicePause later), each
// deciding first: a workload holding quota gets its verdict in the
// first, and a hopeless workload arriving meanwhile is deactivated at
// once, without an ETA; the ETAs land when the pass ends, those of the
// queue as it was when the pass started; a workload arriving meanwhile
// gets its ETA from the next pass.
func TestReconcileETASlices(t *testing.T) {
	g := heldQueue(t)
	g.r.etaSlice = 1 // one unit a reconcile
	ctx := context.Background()
	v := wl("v", 1, kueue.CheckStatePending, true, fixedType("3h"))
	if err := g.c.Create(ctx, v); err != nil {
		t.Fatal(err)
	}
	if res := g.reconcile(t); res.RequeueAfter != etaSlicePause {
		t.Fatalf("first reconcile: requeue after %v, want %v (the pass goes on)", res.RequeueAfter, etaSlicePause)
	}
	if st := CheckState(g.workload(t, "v"), testCheck); st.State == kueue.CheckStatePending {
		t.Errorf("v's check %s %q: want its verdict in the first reconcile", st.State, st.Message)
	}
	if got := g.workload(t, "p").Annotations[StartP50Annotation]; got != "" {
		t.Errorf("p's start %q before the pass ended", got)
	}
	n := wl("n", 1, kueue.CheckStatePending, false, fixedType("3h"))
	if err := g.c.Create(ctx, n); err != nil {
		t.Fatal(err)
	}
	// A hopeless arrival is deactivated at once, not waiting for the
	// pass, without an ETA (the pass in progress goes on).
	late := wl("late", 1, kueue.CheckStatePending, false, fixedType("5m"))
	if err := g.c.Create(ctx, late); err != nil {
		t.Fatal(err)
	}
	if res := g.reconcile(t); res.RequeueAfter != etaSlicePause {
		t.Fatalf("requeue after %v, want %v (the pass goes on)", res.RequeueAfter, etaSlicePause)
	}
	if lw := g.workload(t, "late"); lw.Spec.Active == nil || *lw.Spec.Active || lw.Annotations[StartP50Annotation] != "" {
		t.Errorf("late: active %v, annotations %v: want deactivated at once, without an ETA", lw.Spec.Active, lw.Annotations)
	}
	units := g.r.cfg.Samples + 1 // a sample of the replay each (p alone pending), then p's quantiles
	reconciles := 2
	for reconciles < 2*units {
		reconciles++
		if res := g.reconcile(t); res.RequeueAfter != etaSlicePause {
			break
		}
	}
	if reconciles != units {
		t.Errorf("the pass ended in reconcile %d, want %d (one unit each)", reconciles, units)
	}
	if got := g.workload(t, "p").Annotations[StartP50Annotation]; got != "2026-11-24T12:10:00Z" {
		t.Errorf("p's start %q after the pass, want a's finish 12:10:00", got)
	}
	if w := g.workload(t, "n"); w.Annotations[StartP50Annotation] != "" {
		t.Errorf("n, arrived during the pass, got an ETA from it: %v", w.Annotations)
	}
	for range 4 * units {
		if res := g.reconcile(t); res.RequeueAfter != etaSlicePause {
			break
		}
	}
	if w := g.workload(t, "n"); w.Annotations[StartP50Annotation] == "" {
		t.Errorf("n has no ETA after the next pass: %v", w.Annotations)
	}
}
