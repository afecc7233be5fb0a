package deadlinecheck

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// benchObjects is one ClusterQueue of 64 cpu behind the check as the
// manager's cache lists it: n one-pod Workloads of job type "spread"
// (lognormal, mean 600 s, sd 180 s) with deadlines an hour and more
// ahead: the quota's 64 (or a quarter of n, if fewer) admitted and
// running for two minutes (Ready), one holding quota and awaiting its
// decision (the new workload), the rest waiting for quota.
func benchObjects(n int) ([]*kueue.Workload, corev1.ResourceList, *v1alpha1.DeadlineParameters) {
	p := params(v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{
		{Name: "spread", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600, StdDevSeconds: 180}},
	}})
	wls := make([]*kueue.Workload, n)
	running := min(n/4, 64)
	for i := range wls {
		state := kueue.CheckStatePending
		if i < running {
			state = kueue.CheckStateReady
		}
		w := wl(fmt.Sprintf("w%05d", i), 1, state, i <= running, map[string]string{
			DeadlineAnnotation: formatTime(t0.Add(time.Duration(3600+60*i) * time.Second)), JobTypeAnnotation: "spread",
		})
		w.UID = types.UID(fmt.Sprintf("uid-%d", i))
		w.ResourceVersion = fmt.Sprint(i + 1)
		w.CreationTimestamp = metav1.NewTime(t0.Add(-time.Duration(n-i) * time.Second))
		if i < running {
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0.Add(-2*time.Minute)))
		}
		wls[i] = w
	}
	return wls, rl("cpu", "64", "memory", "1Ti"), p
}

// BenchmarkDecideOne is the computing of one reconcile that decides one
// new workload, from the listed Workloads to the outcomes: each
// workload's view (viewCache: a lookup for one that did not change) and
// the decisions in the kept plan (decide in the cache's scratch). "same
// second" reconciles at one instant; "next second" a second later each
// time, so that the running workloads' executed time, and with it their
// samples and the promised queue, change (every pending workload's
// deadline moves a second closer). 1,000 samples. cpu-ns/op is the
// process's CPU time (user and system, garbage collection included) per
// reconcile, which a loaded machine does not inflate as it does ns/op.
func BenchmarkDecideOne(b *testing.B) {
	for _, n := range []int{100, 1000, 15000} {
		wls, quota, p := benchObjects(n)
		cfg := DefaultConfig()
		for _, next := range []bool{false, true} {
			name := map[bool]string{false: "same-second", true: "next-second"}[next]
			b.Run(fmt.Sprintf("workloads=%d/%s", n, name), func(b *testing.B) {
				cache := NewWorkCache()
				step := benchDecideStep(wls, quota, p, cfg, cache)
				step(b, t0)
				now := t0
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					if next {
						now = now.Add(time.Second)
					}
					step(b, now)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// benchDecideStep is one reconcile's views and decisions over wls, its
// view cache and views kept across calls.
func benchDecideStep(wls []*kueue.Workload, quota corev1.ResourceList, p *v1alpha1.DeadlineParameters, cfg Config, cache *WorkCache) func(*testing.B, time.Time) {
	vc := &viewCache{}
	var views []Workload
	none := func(*kueue.Workload) (*metav1.ObjectMeta, error) { return nil, nil }
	return func(b *testing.B, now time.Time) {
		vc.begin(quota, p)
		views = views[:0]
		for i, wl := range wls {
			if w, ok, _ := vc.view(i, wl, false, testCheck, now, none); ok {
				views = append(views, w)
			}
		}
		vc.end()
		outs, _, err := decide(Queue{Name: "cq"}, views, now, cfg, cache, true)
		if err != nil {
			b.Fatal(err)
		}
		if v := outs[min(len(outs)/4, 64)].Verdict; v == nil || v.State != kueue.CheckStateReady {
			b.Fatalf("the new workload: %+v, want Ready", v)
		}
	}
}

// cpuTime is the process's CPU time so far (getrusage: user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkETAPass is one ETA pass over the ClusterQueue of
// BenchmarkDecideOne after its decisions: the replay of Kueue's admission
// for every pending workload, 1,000 samples (the reconcile runs it at
// most every etaEvery per ClusterQueue and check), with the scratch the
// ClusterQueue's first pass left.
func BenchmarkETAPass(b *testing.B) {
	for _, n := range []int{100, 1000, 15000} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			// The ClusterQueue's scratch after its first pass.
			pass := etaPassOf(b, n, DefaultConfig().Samples)
			pass()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				pass()
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// etaPassOf returns one ETA pass over the ClusterQueue of benchObjects(n)
// after its decisions, samples samples, each call with the scratch of the
// last.
func etaPassOf(tb testing.TB, n, samples int) func() (outs []Outcome) {
	views, works, outs := etaBenchInputs(tb, n, samples)
	var sc etaScratch
	return func() []Outcome {
		if err := etas(Queue{Name: "cq"}, views, works, outs, t0, samples, 0.9, etaDelay{}, arrivalInput{}, &sc); err != nil {
			tb.Fatal(err)
		}
		return outs
	}
}

// etaBenchInputs returns the views of the ClusterQueue of benchObjects(n)
// and its decisions' samples and outcomes, samples samples.
func etaBenchInputs(tb testing.TB, n, samples int) ([]Workload, []*work, []Outcome) {
	wls, quota, p := benchObjects(n)
	cfg := DefaultConfig()
	cfg.Samples = samples
	models := CompileModels(p)
	var views []Workload
	for _, wl := range wls {
		if w, ok := Map(wl, nil, testCheck, quota, models, t0); ok {
			views = append(views, w)
		}
	}
	outs, works, err := decide(Queue{Name: "cq"}, views, t0, cfg, NewWorkCache(), false)
	if err != nil {
		tb.Fatal(err)
	}
	return views, works, outs
}
