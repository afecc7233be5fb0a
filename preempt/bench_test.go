package preempt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Measured figures. The package doc states the contracts (O-costs, what
// allocates, the bounds); the figures below are what was measured, with
// the machine and the command, and are re-measured rather than edited.
//
// Measured with `go test -bench . -benchtime 100x -cpu 1 ./preempt` on 2 shared AMD EPYC cores with
// a load average of 9.5 from other processes, so timings are inflated and
// vary run to run (GP at 100,000 tasks measured 5–11 ms over several runs);
// allocation counts are exact (the few B/op are the first iteration's
// workspace growth, amortised):
//
//	GP, 100,000 one-slot tasks, k = 5,000          9.2 ms/op   0 allocs/op
//	GP, 100,000 1–4-slot tasks, k = 5,000          6.0 ms/op   0 allocs/op
//	GP, 100,000 tasks, 20 starving long jobs       8.2 ms/op   0 allocs/op
//	Baseline, 100,000 tasks, k = 5,000             13.9 ms/op  0 allocs/op
//	GP, 1,000 tasks, k = 50                        16 µs/op    0 allocs/op
//	Evaluate, 130 jobs                             1.5 µs/op   0 allocs/op
//	OccupancyWindow.Add                            34 ns/op    0 allocs/op
//
// At all the limits at once (every task a victim, k = MaxInt) Baseline and
// GP take about half a second of CPU each (2.0–2.3 s of wall time at a load
// average of 16 on 2 cores) and a Workspace of 69–77 MiB; a full
// OccupancyWindow holds at most 23 MiB. Reproduce with
// go test -run '^$' -bench Limits -benchtime 3x -cpu 1 ./preempt.

// bigCluster: n one-slot (or 1–4-slot) tasks of 1,000 jobs started over the
// last hour.
func bigCluster(n int, multi bool) Cluster {
	rng := rand.New(rand.NewPCG(1, 2))
	c := Cluster{Now: 3600, Jobs: make([]Job, 1000), Tasks: make([]Task, n)}
	for j := range c.Jobs {
		c.Jobs[j] = Job{Share: float64(n / 1000 / 2), Queued: 10, Long: j%50 == 0}
	}
	for i := range c.Tasks {
		s := 1
		if multi {
			s = 1 + rng.IntN(4)
		}
		c.Tasks[i] = Task{ID: int64(i), Job: rng.IntN(1000), Start: 3600 * rng.Float64(), Slots: s}
	}
	return c
}

func BenchmarkGP(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		for _, multi := range []bool{false, true} {
			b.Run(fmt.Sprintf("tasks=%d/k=%d/multislot=%v", n, n/20, multi), func(b *testing.B) {
				c := bigCluster(n, multi)
				var w Workspace
				b.ReportAllocs()
				for b.Loop() {
					if _, err := w.GP(c, n/20, GPOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	b.Run("tasks=100000/k=5000/starving", func(b *testing.B) {
		c := bigCluster(100000, false)
		var w Workspace
		opt := GPOptions{Busy: true, NTask: 100, Timeout: 360}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.GP(c, 5000, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkBaseline(b *testing.B) {
	c := bigCluster(100000, false)
	var w Workspace
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Baseline(c, 5000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	ideal, actual := make([]float64, 130), make([]float64, 130)
	for j := range ideal {
		ideal[j], actual[j] = float64(10+j), float64(20+3*j)
	}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(ideal, actual)
	}
}

func BenchmarkOccupancyAdd(b *testing.B) {
	w, _ := NewOccupancyWindow(DefaultWindow, DefaultBusySlots)
	t := 0.0
	b.ReportAllocs()
	for b.Loop() {
		t++
		w.Add(t, int(t)%400, 400)
	}
}

// BenchmarkLimits times each policy at every size limit at once (see
// limitCluster): MaxTasks tasks of MaxSlots slots over MaxJobs jobs, k = MaxInt.
func BenchmarkLimits(b *testing.B) {
	c := limitCluster()
	opt := GPOptions{Busy: true, Timeout: math.MaxFloat64, KillFraction: 5e-324}
	b.Run("Baseline", func(b *testing.B) {
		var w Workspace
		b.ReportAllocs()
		for b.Loop() {
			w.Baseline(c, math.MaxInt)
		}
	})
	b.Run("GP", func(b *testing.B) {
		var w Workspace
		b.ReportAllocs()
		for b.Loop() {
			w.GP(c, math.MaxInt, opt)
		}
	})
}
