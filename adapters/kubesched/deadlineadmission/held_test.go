package deadlineadmission

import (
	"context"
	"fmt"
	"time"

	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// perCycle is the decision as a cycle computes it from scratch: every job
// of the tally with a running pod and a deadline, started at its earliest
// pod's start, mapped by MakeInput (remaining time, EDF sort) and decided
// by admission.Workspace.Decide, with the same message. It returns the
// status's code and message.
func perCycle(pl *DeadlineAdmission, pod *v1.Pod, now time.Time) (string, string) {
	var running []RunningJob
	var job podjob.Job
	admitted, mapped := false, false
	pl.tally.Read(func(v *tally.View) {
		if j := v.Job(podjob.JobKey(pod)); j != nil && j.Running > 0 {
			admitted = true
		}
		job, mapped = v.Mapped(pod)
		v.EachJob(func(_ types.UID, j *tally.Job) {
			if j.Running > 0 && j.Attr.HasDeadline {
				start, _ := j.EarliestStart(now)
				running = append(running, RunningJob{Job: j.Attr, Started: start})
			}
		})
	})
	if admitted {
		return "Success", ""
	}
	if !mapped {
		job = pl.jobs.Job(pod)
	}
	est, _, err := estimate(job, pl.args)
	if err != nil {
		return fwkCode(2), err.Error()
	}
	in, err := MakeInput(job, est, running, pl.args, now)
	if err != nil {
		return "Error", err.Error()
	}
	d, err := new(admission.Workspace).Decide(in.Queue, in.New, in.Now, admission.Options{Mode: pl.mode})
	if err != nil {
		return "Error", err.Error()
	}
	if d.Admit {
		return "Success", ""
	}
	return fwkCode(2), Message(d, in)
}

// fwkCode names UnschedulableAndUnresolvable as the status prints it.
func fwkCode(int) string { return "UnschedulableAndUnresolvable" }

// genPod draws a pod of one of a few jobs: its deadline, estimate (the
// runtime annotation, a job type, none, or a malformed one), node, start
// time and phase.
func genPod(t *rapid.T, name string) *v1.Pod {
	p := deadlinePod(name, time.Duration(rapid.OneOf(rapid.IntRange(-60, 400), rapid.IntRange(60, 240)).Draw(t, "deadline"))*time.Minute,
		time.Duration(rapid.OneOf(rapid.IntRange(1, 300), rapid.IntRange(30, 120)).Draw(t, "runtime"))*time.Minute)
	p.CreationTimestamp = metav1.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "created")) * time.Minute))
	switch rapid.IntRange(0, 9).Draw(t, "estimate") {
	case 0:
		delete(p.Annotations, annotation.Runtime)
	case 1:
		delete(p.Annotations, annotation.Runtime)
		p.Annotations[annotation.JobType] = rapid.SampledFrom([]string{"etl", "unknown"}).Draw(t, "jobType")
	case 2:
		p.Annotations[annotation.Runtime] = "soon"
	case 3:
		delete(p.Annotations, annotation.Deadline)
	}
	if job := rapid.IntRange(0, 3).Draw(t, "job"); job > 0 {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: fmt.Sprintf("j%d", job), UID: types.UID(fmt.Sprintf("job-%d", job)), Controller: ptr.To(true)}}
	}
	if rapid.Bool().Draw(t, "bound") {
		p.Spec.NodeName = "n1"
	}
	if rapid.Bool().Draw(t, "started") {
		p.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(time.Duration(rapid.Int64Range(-400*60, 20*60).Draw(t, "start")) * time.Second)))
	}
	if rapid.IntRange(0, 5).Draw(t, "succeeded") == 0 {
		p.Status.Phase = v1.PodSucceeded
	}
	return p
}

// propHeld: through random pod events (adds, updates, deletes, Reserve and
// Unreserve, another plugin reading the shared tally's changes) and
// decisions at random times, PreFilter's status equals the per-cycle
// computation's (perCycle), code and message.
func propHeld(t *rapid.T) {
	args := &Args{
		Mode:           rapid.SampledFrom([]string{ModeStrict, ModePaper}).Draw(t, "mode"),
		JobTypes:       []JobType{{Name: "etl", Runtime: dur(45 * time.Minute)}},
		DefaultRuntime: dur(time.Duration(rapid.IntRange(0, 2).Draw(t, "default")) * 30 * time.Minute),
	}
	tl := tally.New("", "", owner.Resolver{}.Job)
	clock := clocktesting.NewFakePassiveClock(t0)
	pl := NewOn(args, nil, clock, tl)
	h := pl.PodHandler()
	ctx := context.Background()
	pods := map[string]*v1.Pod{}
	name := func(t *rapid.T) string { return fmt.Sprintf("p%d", rapid.IntRange(0, 7).Draw(t, "pod")) }
	t.Repeat(map[string]func(*rapid.T){
		"set": func(t *rapid.T) {
			n := name(t)
			p := genPod(t, n)
			if old, ok := pods[n]; ok {
				h.OnUpdate(old, p)
			} else {
				h.OnAdd(p, false)
			}
			pods[n] = p
		},
		"delete": func(t *rapid.T) {
			n := name(t)
			if p, ok := pods[n]; ok {
				h.OnDelete(p)
				delete(pods, n)
			}
		},
		"reserve": func(t *rapid.T) {
			if p, ok := pods[name(t)]; ok {
				pl.Reserve(ctx, nil, p, "n2")
			}
		},
		"unreserve": func(t *rapid.T) {
			if p, ok := pods[name(t)]; ok {
				pl.Unreserve(ctx, nil, p, "n2")
			}
		},
		"other": func(t *rapid.T) {
			tl.Read(func(v *tally.View) { v.Changes(func(types.UID, *tally.Job) {}) })
		},
		"decide": func(t *rapid.T) {
			now := t0.Add(time.Duration(rapid.OneOf(rapid.Int64Range(-10*60, 60*60), rapid.Int64Range(-10*60, 400*60)).Draw(t, "now"))*time.Second +
				time.Duration(rapid.SampledFrom([]int64{0, 1, 5e8}).Draw(t, "ns")))
			clock.SetTime(now)
			var pod *v1.Pod
			if p, ok := pods[name(t)]; ok && rapid.Bool().Draw(t, "pooled") {
				pod = p
			} else {
				pod = genPod(t, "new")
				pod.Spec.NodeName, pod.Status = "", v1.PodStatus{}
				if _, ok := pod.Annotations[annotation.Runtime]; ok && rapid.Bool().Draw(t, "short") {
					// Short enough to fit before a running job it may hurt.
					pod.Annotations[annotation.Runtime] = (time.Duration(rapid.IntRange(1, 60).Draw(t, "shortRuntime")) * time.Minute).String()
				}
			}
			if _, has, _ := pl.jobs.Deadline(pod); !has {
				return
			}
			_, st := pl.PreFilter(ctx, nil, pod, nil)
			code, msg := st.Code().String(), st.Message()
			wantCode, wantMsg := perCycle(pl, pod, now)
			if code != wantCode || msg != wantMsg {
				t.Fatalf("PreFilter at %v: %s %q, per cycle %s %q", now, code, msg, wantCode, wantMsg)
			}
		},
	})
}

func TestPropHeld(t *testing.T) { rapid.Check(t, propHeld) }

// TestHeldHurt: a running job the new one would make late is named in the
// message as the per-cycle computation names it. y runs 90 min from t0
// with its deadline at 100 min; the new job (30 min, deadline 50 min)
// comes first in EDF order and would finish y at 120 min.
func TestHeldHurt(t *testing.T) {
	pl := New(&Args{Mode: ModeStrict}, nil, clocktesting.NewFakePassiveClock(t0))
	y := deadlinePod("y", 100*time.Minute, 90*time.Minute)
	y.Spec.NodeName = "n1"
	pl.PodHandler().OnAdd(y, true)
	n := deadlinePod("new", 50*time.Minute, 30*time.Minute)
	_, st := pl.PreFilter(context.Background(), nil, n, nil)
	code, msg := perCycle(pl, n, t0)
	want := "admitting Pod ns/new would make running Pod ns/y finish at 2026-07-01T14:00:00Z (in 2h0m0s), 20m0s after its deadline 2026-07-01T13:40:00Z; rejected to protect Pod ns/y"
	if st.Code().String() != code || st.Message() != msg || msg != want {
		t.Fatalf("PreFilter %v %q, per cycle %s %q, want %q", st.Code(), st.Message(), code, msg, want)
	}
}

// BenchmarkPreFilterHeld decides a deadline pod (held by the tally) beside
// n running deadline jobs of one pod each, half of them started: "held"
// decides on the kept admission.RunningSet, "per-cycle" reads, converts
// and sorts the running jobs on every cycle (MakeInput's path, which the
// plugin keeps for shared job IDs), as the plugin did for every cycle.
func BenchmarkPreFilterHeld(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, perCycle := range []bool{false, true} {
			b.Run(fmt.Sprintf("running=%d/%s", n, map[bool]string{false: "held", true: "per-cycle"}[perCycle]), func(b *testing.B) {
				pl := New(&Args{Mode: ModeStrict}, nil, clocktesting.NewFakePassiveClock(t0))
				h := pl.PodHandler()
				for i := range n {
					p := deadlinePod(fmt.Sprintf("r%05d", i), time.Duration(1000+i)*time.Hour, time.Hour)
					p.Spec.NodeName = "n1"
					if i%2 == 0 {
						p.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(-time.Duration(i) * time.Second)))
					}
					h.OnAdd(p, true)
				}
				pod := deadlinePod("new", time.Duration(2000+n)*time.Hour, time.Hour)
				h.OnAdd(pod, true)
				ctx := context.Background()
				if _, st := pl.PreFilter(ctx, nil, pod, nil); !st.IsSuccess() {
					b.Fatal(st.Message())
				}
				if perCycle {
					pl.runningJobs.unheld++ // not exact: the per-cycle path
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
}
