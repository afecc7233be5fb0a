package deadlinecheck

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/tct/jct"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// benchQueue is a ClusterQueue's worth of workloads: a quarter admitted and
// running, a quarter awaiting a decision, half waiting for quota; pods of
// lognormal run time (median 600 s, σ 0.3), 64 slots.
func benchQueue(n, pods int) []Workload {
	ws := make([]Workload, n)
	rt := &RunTime{Pod: jct.Lognormal{Mu: math.Log(600), Sigma: 0.3}, Source: "bench"}
	for i := range ws {
		w := Workload{
			Key: fmt.Sprintf("ns/w%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i)),
			Created: t0.Add(-time.Duration(n-i) * time.Second), Pods: pods, Slots: 64, RunTime: rt,
			Deadline: t0.Add(time.Duration(3600+60*i) * time.Second),
		}
		switch {
		case i < n/4:
			w.Phase, w.Executed = Promised, 120*time.Second
		case i < n/2:
			w.Phase = Deciding
		default:
			w.Phase = Waiting
		}
		ws[i] = w
	}
	return ws
}

func BenchmarkPlan(b *testing.B) {
	for _, c := range []struct{ n, pods, samples int }{{10, 4, 1000}, {100, 4, 1000}, {100, 64, 1000}, {100, 4, 100}} {
		b.Run(fmt.Sprintf("workloads=%d/pods=%d/samples=%d", c.n, c.pods, c.samples), func(b *testing.B) {
			ws := benchQueue(c.n, c.pods)
			cfg := testConfig()
			cfg.Samples = c.samples
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPlanCached is a plan of an unchanged queue in the same second:
// every workload's samples come from the cache.
func BenchmarkPlanCached(b *testing.B) {
	for _, c := range []struct{ n, pods, samples int }{{10, 4, 1000}, {100, 64, 1000}} {
		b.Run(fmt.Sprintf("workloads=%d/pods=%d/samples=%d", c.n, c.pods, c.samples), func(b *testing.B) {
			ws := benchQueue(c.n, c.pods)
			cfg := testConfig()
			cfg.Samples = c.samples
			cache := NewWorkCache()
			if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, cache); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, cache); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReconcileDecisions is the work of one reconcile of a
// ClusterQueue whose workloads' samples are cached, by queue length: a
// quarter of the workloads admitted and running, one new workload holding
// quota and awaiting its decision, the rest waiting. "plan" is the
// whole-queue plan a reconcile ran for every event (Plan: the decisions
// and the ETA of every pending workload), "decide" the decisions alone
// as a reconcile takes them between ETA passes (Decide's decisions, in
// the cache's scratch); "burst" is Decide
// with a quarter of the workloads awaiting a decision at once. One-pod
// workloads of lognormal run time, 1,000 samples. The plan of 15,000
// workloads is left out (its ETA pass is a thousand samples of the
// 15,000-workload BenchmarkETASimulation).
func BenchmarkReconcileDecisions(b *testing.B) {
	for _, n := range []int{100, 1000, 15000} {
		arrival := benchQueue(n, 1)
		for i := n / 4; i < n/2; i++ {
			arrival[i].Phase = Waiting
		}
		arrival[n/4].Phase = Deciding
		cfg := testConfig()
		cfg.Samples = 1000
		cache := NewWorkCache()
		reconcile := func(q Queue, ws []Workload, now time.Time, cfg Config, cache *WorkCache) ([]Outcome, error) {
			outs, _, err := decide(q, ws, now, cfg, cache, true)
			return outs, err
		}
		for _, c := range []struct {
			name string
			ws   []Workload
			f    func(Queue, []Workload, time.Time, Config, *WorkCache) ([]Outcome, error)
		}{{"plan", arrival, Plan}, {"decide", arrival, reconcile}, {"burst", benchQueue(n, 1), reconcile}} {
			if c.name == "plan" && n > 1000 {
				continue
			}
			if _, err := Decide(Queue{Name: "cq"}, c.ws, t0, cfg, cache); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("workloads=%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.f(Queue{Name: "cq"}, c.ws, t0, cfg, cache); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkETASimulation is one sample of the ETA replay of Kueue's
// admission (BestEffortFIFO) by queue length: "search" finds the next job
// that fits in the segment tree, "walk" visits every waiting job at each
// instant (the oracle of TestPropSimulationMatchesScan), "arrivals" is
// the search with arrivals drawn from ArrivalWindow records (one a second,
// of the same sizes as the jobs, run times 1–61 s; at most max(64, n)),
// "boosted" the arrivals in EDF order (priorityboost.go): the jobs of
// distinct priorities in queue order (a deadline each), each record's
// priority arriving now that of a job drawn uniformly, drifting with its
// arrival and grouped into maxArrivalBlocks runs,
// "skips" the search with Kueue's walk at a skip cost of 0.5 s and a
// requeue batch of 1 s (skips.go).
// The jobs take a twentieth, a quarter or all of the quota, as the small,
// medium and large classes of Kueue's scheduler-performance test; a fifth
// of the quota is held by running jobs.
func BenchmarkETASimulation(b *testing.B) {
	for _, n := range []int{100, 1000, 15000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		running := []etaJob{{share: 0.2, run: []float64{30}}}
		jobs := make([]etaJob, n)
		for k := range jobs {
			jobs[k] = etaJob{share: []float64{0.05, 0.25, 1}[rng.IntN(3)], run: []float64{1 + 60*rng.Float64()}}
		}
		starts := make([][]float64, n)
		for k := range starts {
			starts[k] = make([]float64, 1)
		}
		for _, v := range []struct {
			name          string
			skip, requeue float64
		}{{"search", 0, 0}, {"skips", 0.5, 1}} {
			b.Run(fmt.Sprintf("workloads=%d/%s", n, v.name), func(b *testing.B) {
				sim := newSimulation(jobs, nil, walkPace{skip: v.skip, requeue: v.requeue})
				b.ReportAllocs()
				for b.Loop() {
					sim.run(running, jobs, nil, false, 0, starts)
				}
			})
		}
		b.Run(fmt.Sprintf("workloads=%d/arrivals", n), func(b *testing.B) {
			arr := &etaArrivals{rate: 1, samples: 1, seed: 1, slots: max(minArrivalSlots, n)}
			for range ArrivalWindow {
				arr.shares = append(arr.shares, []float64{0.05, 0.25, 1}[rng.IntN(3)])
				arr.priorities = append(arr.priorities, 0)
				arr.runs = append(arr.runs, 1+60*rng.Float64())
			}
			sim := newSimulation(jobs, arr, walkPace{})
			b.ReportAllocs()
			for b.Loop() {
				sim.run(running, jobs, arr, false, 0, starts)
			}
		})
		b.Run(fmt.Sprintf("workloads=%d/boosted", n), func(b *testing.B) {
			const top = int64(1) << 40
			edf := slices.Clone(jobs)
			for k := range edf {
				edf[k].priority = top - int64(k)
			}
			arr := &etaArrivals{rate: 1, samples: 1, seed: 1, slots: max(minArrivalSlots, n)}
			for range ArrivalWindow {
				p := top - int64(rng.IntN(n))
				arr.shares = append(arr.shares, []float64{0.05, 0.25, 1}[rng.IntN(3)])
				arr.exact = append(arr.exact, p)
				arr.drifts = append(arr.drifts, true)
				arr.priorities = append(arr.priorities, p)
				arr.runs = append(arr.runs, 1+60*rng.Float64())
			}
			groupPriorities(arr.priorities, nil)
			sim := newSimulation(edf, arr, walkPace{})
			b.ReportAllocs()
			for b.Loop() {
				sim.run(running, edf, arr, false, 0, starts)
			}
		})
		b.Run(fmt.Sprintf("workloads=%d/walk", n), func(b *testing.B) {
			sim := newScanSimulation(jobs, nil, walkPace{})
			b.ReportAllocs()
			for b.Loop() {
				sim.run(running, false, 0, starts)
			}
		})
	}
}

// BenchmarkMap is the view of one Workload a reconcile takes per listed
// workload and check (Map): a one-pod workload holding quota with a
// deadline and a job type, in a ClusterQueue of 4 cpu.
func BenchmarkMap(b *testing.B) {
	objs := cluster()
	cq := objs[0].(*kueue.ClusterQueue)
	models := CompileModels(objs[3].(*v1alpha1.DeadlineParameters))
	w := wl("b", 1, kueue.CheckStatePending, true, fixedType("2026-11-24T12:11:40Z"))
	quota := Quota(cq)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Map(w, nil, testCheck, quota, models, t0); !ok {
			b.Fatal("not mapped")
		}
	}
}
