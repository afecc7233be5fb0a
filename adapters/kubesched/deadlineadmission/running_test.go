package deadlineadmission

import (
	"context"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// deadlinePod is a pod without an owner (its own job) created at t0,
// with a deadline and a run-time estimate.
func deadlinePod(name string, deadline, runtime time.Duration) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name),
		CreationTimestamp: metav1.NewTime(t0),
		Annotations: map[string]string{
			annotation.Deadline: t0.Add(deadline).Format(time.RFC3339),
			annotation.Runtime:  runtime.String(),
		}}}
}

// TestRunningJobs: the jobs PreFilter protects are those with a pod bound
// (through the informer's handler) or assumed (Reserve) on a node, until
// the pod is deleted or the assumption forgotten. Job a runs 1 h with its
// deadline at 1.5 h; job b, the same, fits only while a does not run
// (finish 2 h > 1.5 h), and a is never reported as b's obstacle once gone.
// With "shared", the profile's other plugin (ProgressShare, on the same
// tally) reads the tally's changes after every event: the plugin still
// sees each of them.
func TestRunningJobs(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(map[bool]string{false: "alone", true: "shared"}[shared], func(t *testing.T) { testRunningJobs(t, shared) })
	}
}

func testRunningJobs(t *testing.T, shared bool) {
	tl := tally.New("", "", owner.Resolver{}.Job)
	pl := NewOn(&Args{Mode: ModeStrict}, nil, clocktesting.NewFakePassiveClock(t0), tl)
	a := deadlinePod("a", 90*time.Minute, time.Hour)
	b := deadlinePod("b", 90*time.Minute, time.Hour)
	h := pl.PodHandler()
	h.OnAdd(a, true)
	admits := func() bool {
		_, st := pl.PreFilter(context.Background(), nil, b, nil)
		return st.IsSuccess()
	}
	steps := []struct {
		name  string
		event func()
		want  bool
	}{
		{"a pending", func() {}, true},
		{"a assumed", func() { pl.Reserve(context.Background(), nil, a, "n1") }, false},
		{"a's binding failed", func() { pl.Unreserve(context.Background(), nil, a, "n1") }, true},
		{"a bound", func() {
			bound := a.DeepCopy()
			bound.Spec.NodeName = "n1"
			h.OnUpdate(a, bound)
		}, false},
		{"a succeeded", func() {
			done := a.DeepCopy()
			done.Spec.NodeName, done.Status.Phase = "n1", v1.PodSucceeded
			h.OnUpdate(a, done)
		}, true},
		{"a bound again (the informer's view replayed)", func() {
			bound := a.DeepCopy()
			bound.Spec.NodeName = "n1"
			h.OnUpdate(a, bound)
		}, false},
		{"a deleted", func() { h.OnDelete(a) }, true},
	}
	for _, s := range steps {
		s.event()
		if shared {
			tl.Read(func(v *tally.View) { v.Changes(func(types.UID, *tally.Job) {}) })
		}
		if got := admits(); got != s.want {
			t.Fatalf("%s: b admitted = %v, want %v", s.name, got, s.want)
		}
	}
	// A pod of a running job passes without a decision: its job was
	// admitted when its first pod was.
	bound := b.DeepCopy()
	bound.Spec.NodeName = "n1"
	h.OnAdd(bound, false)
	if _, st := pl.PreFilter(context.Background(), nil, b, nil); !st.IsSuccess() {
		t.Fatalf("a pod of a running job: %v", st.Message())
	}
}

// BenchmarkPreFilter decides a deadline job beside 10,000 running pods of
// 1,000 jobs, 100 of them with deadlines: the cost of one scheduling cycle
// of a deadline pod. In "informer" the pending pod came through the pod
// informer as well (as in the scheduler), so the plugin reads its job from
// the tally; in "unheld" the tally does not hold it and PreFilter maps it.
func BenchmarkPreFilter(b *testing.B) {
	for _, held := range []bool{true, false} {
		name := map[bool]string{true: "informer", false: "unheld"}[held]
		b.Run(name, func(b *testing.B) {
			pl := New(&Args{Mode: ModeStrict}, nil, clocktesting.NewFakePassiveClock(t0))
			h := pl.PodHandler()
			for j := range 1000 {
				for i := range 10 {
					p := deadlinePod(fmt.Sprintf("j%04d-%d", j, i), 100*time.Hour, time.Hour)
					if j%10 != 0 {
						p.Annotations = nil
					}
					p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: fmt.Sprintf("j%04d", j), UID: types.UID(fmt.Sprintf("job-%04d", j)), Controller: ptr.To(true)}}
					p.Spec.NodeName = fmt.Sprintf("n%04d", (j*10+i)%1000)
					h.OnAdd(p, true)
				}
			}
			pod := deadlinePod("new", 200*time.Hour, time.Hour)
			if held {
				h.OnAdd(pod, true)
			}
			ctx := context.Background()
			// The first cycle maps every job the informer brought (the
			// tally maps lazily, on its first read) and grows the buffers.
			if _, st := pl.PreFilter(ctx, nil, pod, nil); !st.IsSuccess() {
				b.Fatal(st.Message())
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, st := pl.PreFilter(ctx, nil, pod, nil); !st.IsSuccess() {
					b.Fatal(st.Message())
				}
			}
		})
	}
}
