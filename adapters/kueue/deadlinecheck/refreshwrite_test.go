package deadlinecheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestReconcileConflictFreshCopy: the verdict for x is refused because
// "Kueue" changed x after the cache showed it. A change no decision reads
// (a condition's message) gets the verdict written onto a freshly read
// copy, with no requeue, and the ClusterQueue's decisions wait until the
// cache shows it; a change of the deadline leaves the conflict to requeue.
func TestReconcileConflictFreshCopy(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*kueue.Workload)
		status bool // the change is to the status
		want   kueue.CheckState
	}{
		{"condition message", func(w *kueue.Workload) { w.Status.Conditions[0].Message = "quota reserved again" }, true, kueue.CheckStateReady},
		{"deadline", func(w *kueue.Workload) { w.Annotations[DeadlineAnnotation] = "2h" }, false, kueue.CheckStatePending},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := false
			cl := fakeBuilder(t, interceptor.Funcs{SubResourceApply: func(ctx context.Context, cl client.Client, sub string, o runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
				if !changed {
					changed = true
					w := &kueue.Workload{}
					if err := cl.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "x"}, w); err != nil {
						return err
					}
					c.change(w)
					var err error
					if c.status {
						err = cl.Status().Update(ctx, w)
					} else {
						err = cl.Update(ctx, w)
					}
					if err != nil {
						return err
					}
				}
				return applyAsMerge(nil)(ctx, cl, sub, o, opts...)
			}}, append(cluster(), wl("x", 1, kueue.CheckStatePending, true, fixedType("1h")))...).Build()
			g := newRig(t, cl)
			g.r.reader = cl
			res := g.reconcile(t)
			st := CheckState(g.workload(t, "x"), testCheck)
			if st.State != c.want {
				t.Fatalf("x: %s %q, want %s", st.State, st.Message, c.want)
			}
			if c.want == kueue.CheckStatePending {
				if res.RequeueAfter != staleRetry {
					t.Errorf("requeue after %v, want %v", res.RequeueAfter, staleRetry)
				}
				return
			}
			if res.RequeueAfter == staleRetry {
				t.Errorf("requeued as for a conflict")
			}
			// The cache still showing x Pending, at any version, holds the
			// queue's decisions back for at most staleFor.
			old := g.workload(t, "x")
			old.ResourceVersion = "5" // neither the version decided on nor the one written over
			CheckState(old, testCheck).State = kueue.CheckStatePending
			if stale, _ := g.r.stale([]*kueue.Workload{old}); !stale {
				t.Errorf("a cache without the verdict is not stale")
			}
			g.clock.SetTime(t0.Add(staleFor + time.Second))
			if stale, _ := g.r.stale([]*kueue.Workload{old}); stale {
				t.Errorf("still stale after %v", staleFor)
			}
		})
	}
}

// TestSameInputs: what a verdict (sameInputs) and an ETA (sameForETA)
// written onto a fresh copy may differ in.
func TestSameInputs(t *testing.T) {
	base := func() *kueue.Workload {
		w := wl("x", 1, kueue.CheckStatePending, true, fixedType("1h"))
		w.ResourceVersion = "1"
		return w
	}
	for _, c := range []struct {
		name      string
		change    func(*kueue.Workload)
		same, eta bool
	}{
		{"resourceVersion", func(w *kueue.Workload) { w.ResourceVersion = "2" }, true, true},
		{"an ETA annotation", func(w *kueue.Workload) { w.Annotations[StartP50Annotation] = "2026-11-27T10:00:00Z" }, true, true},
		{"a condition's message and time", func(w *kueue.Workload) {
			w.Status.Conditions[0].Message, w.Status.Conditions[0].LastTransitionTime = "again", metav1.Unix(5, 0)
		}, true, true},
		{"another check's state", func(w *kueue.Workload) {
			w.Status.AdmissionChecks = append(w.Status.AdmissionChecks, kueue.AdmissionCheckState{Name: "other", State: kueue.CheckStateReady})
		}, true, true},
		{"the deadline", func(w *kueue.Workload) { w.Annotations[DeadlineAnnotation] = "2h" }, false, false},
		{"quota no longer reserved", func(w *kueue.Workload) { w.Status.Conditions[0].Status = metav1.ConditionFalse }, false, false},
		{"evicted", func(w *kueue.Workload) {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadEvicted, metav1.ConditionTrue, t0))
		}, false, false},
		{"admitted", func(w *kueue.Workload) {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
		}, false, false},
		{"PodsReady false added", func(w *kueue.Workload) {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadPodsReady, metav1.ConditionFalse, t0))
		}, false, true},
		{"evicted false added", func(w *kueue.Workload) {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadEvicted, metav1.ConditionFalse, t0))
		}, false, true},
		{"the admission", func(w *kueue.Workload) { w.Status.Admission = nil }, false, false},
		{"deactivated", func(w *kueue.Workload) { w.Spec.Active = new(false) }, false, false},
		{"the check's state", func(w *kueue.Workload) { CheckState(w, testCheck).State = kueue.CheckStateReady }, false, false},
		{"the check's message", func(w *kueue.Workload) { CheckState(w, testCheck).Message = "Pending: soon" }, false, false},
		{"being deleted", func(w *kueue.Workload) { w.DeletionTimestamp = &metav1.Time{} }, false, false},
		{"requeued", func(w *kueue.Workload) { w.Status.RequeueState = &kueue.RequeueState{} }, false, false},
	} {
		cur := base()
		c.change(cur)
		if got := sameInputs(base(), cur, testCheck); got != c.same {
			t.Errorf("%s: sameInputs = %v, want %v", c.name, got, c.same)
		}
		if got := sameForETA(base(), cur, testCheck); got != c.eta {
			t.Errorf("%s: sameForETA = %v, want %v", c.name, got, c.eta)
		}
	}
}

// TestETAWriteFreshCopy: an ETA computed on p reaches the ETA writer
// after p changed. A change that leaves p waiting (Kueue's QuotaReserved
// message as the free quota moves, a PodsReady false condition from its
// Job's reconciler) gets the ETA written onto a freshly read copy; its
// quota reserved, or its deadline changed, leaves the conflict (the next
// reconcile computes its ETA again).
func TestETAWriteFreshCopy(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*kueue.Workload)
		status bool
		wrote  bool
	}{
		{"condition message", func(w *kueue.Workload) {
			w.Status.Conditions[0].Message = "couldn't assign flavors: insufficient unused quota, 1 more needed"
		}, true, true},
		{"PodsReady false added", func(w *kueue.Workload) {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadPodsReady, metav1.ConditionFalse, t0))
		}, true, true},
		{"quota reserved", func(w *kueue.Workload) {
			w.Status.Conditions[0].Status = metav1.ConditionTrue
		}, true, false},
		{"deadline", func(w *kueue.Workload) { w.Annotations[DeadlineAnnotation] = "3h" }, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := heldQueue(t)
			g.r.reader = g.c
			ctx := context.Background()
			old := g.workload(t, "p")
			old.Status.Conditions = []metav1.Condition{cond(kueue.WorkloadQuotaReserved, metav1.ConditionFalse, t0)}
			old.Status.Conditions[0].Message = "couldn't assign flavors: insufficient unused quota, 2 more needed"
			if err := g.c.Status().Update(ctx, old); err != nil {
				t.Fatal(err)
			}
			cur := old.DeepCopy()
			c.change(cur)
			var err error
			if c.status {
				err = g.c.Status().Update(ctx, cur)
			} else {
				err = g.c.Update(ctx, cur)
			}
			if err != nil {
				t.Fatal(err)
			}
			at := t0.Add(time.Hour)
			e := &ETA{StartP50: at, StartP90: at, FinishP50: at, FinishP90: at}
			task := etaTask{cq: "cq", check: testCheck, wl: old, w: Workload{Key: "ns/p", Phase: Waiting}, o: Outcome{Key: "ns/p", ETA: e}, now: t0}
			wrote, err := g.r.actETA(ctx, task, nil)
			got := g.workload(t, "p").Annotations[StartP50Annotation]
			if c.wrote && (!wrote || err != nil || got != "2026-11-24T13:00:00Z") {
				t.Errorf("wrote %v, %v; start p50 %q, want 13:00:00 written", wrote, err, got)
			}
			if !c.wrote && (wrote || !apierrors.IsConflict(err) || got == "2026-11-24T13:00:00Z") {
				t.Errorf("wrote %v, %v; start p50 %q, want a conflict and nothing written", wrote, err, got)
			}
		})
	}
}

// TestETAWriteFreshTries: "Kueue" rewrites p's QuotaReserved message just
// before each of the check's first n ETA writes, so that each is refused.
// The ETA is written on the fresh copy after the last refusal when n is at
// most etaFreshTries; past that, the writer gives up with the conflict
// after 1 + etaFreshTries attempts.
func TestETAWriteFreshTries(t *testing.T) {
	for _, n := range []int{1, etaFreshTries, etaFreshTries + 1, 100} {
		attempts := 0
		cl := fakeBuilder(t, interceptor.Funcs{Patch: func(ctx context.Context, c client.WithWatch, o client.Object, patch client.Patch, opts ...client.PatchOption) error {
			if o.GetName() == "p" {
				attempts++
				if attempts <= n {
					w := &kueue.Workload{}
					if err := c.Get(ctx, client.ObjectKeyFromObject(o), w); err != nil {
						return err
					}
					w.Status.Conditions[0].Message = fmt.Sprintf("couldn't assign flavors: %d more needed", attempts)
					if err := c.Status().Update(ctx, w); err != nil {
						return err
					}
				}
			}
			return c.Patch(ctx, o, patch, opts...)
		}}, append(cluster(), func() client.Object {
			p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
			p.Status.Conditions = []metav1.Condition{cond(kueue.WorkloadQuotaReserved, metav1.ConditionFalse, t0)}
			return p
		}())...).Build()
		g := newRig(t, cl)
		g.r.reader = cl
		ctx := context.Background()
		p := g.workload(t, "p")
		at := t0.Add(time.Hour)
		e := &ETA{StartP50: at, StartP90: at, FinishP50: at, FinishP90: at}
		task := etaTask{cq: "cq", check: testCheck, wl: p, w: Workload{Key: "ns/p", Phase: Waiting}, o: Outcome{Key: "ns/p", ETA: e}, now: t0}
		wrote, err := g.r.actETA(ctx, task, nil)
		got := g.workload(t, "p").Annotations[StartP50Annotation]
		if n <= etaFreshTries {
			if !wrote || err != nil || got != "2026-11-24T13:00:00Z" || attempts != n+1 {
				t.Errorf("n = %d: wrote %v, %v after %d attempts; start p50 %q, want 13:00:00 written at attempt %d", n, wrote, err, attempts, got, n+1)
			}
			continue
		}
		if wrote || !apierrors.IsConflict(err) || got != "" || attempts != 1+etaFreshTries {
			t.Errorf("n = %d: wrote %v, %v after %d attempts; start p50 %q, want a conflict after %d", n, wrote, err, attempts, got, 1+etaFreshTries)
		}
	}
}
