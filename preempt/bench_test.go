package preempt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

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
