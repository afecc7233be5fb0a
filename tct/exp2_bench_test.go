package tct

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"
)

// exp2BenchData is a Pi-like TCT curve over residual capacity [0, 1] with a
// deterministic ±3% ripple standing in for measurement noise.
func exp2BenchData(n int) (x, y []float64) {
	m := Exp2{A: 150, B: -4, C: 50, D: -0.1}
	x = make([]float64, n)
	y = make([]float64, n)
	for i := range x {
		x[i] = float64(i) / float64(n-1)
		y[i] = m.TCT(x[i]) * (1 + 0.03*math.Sin(float64(7*i)))
	}
	return x, y
}

// BenchmarkFitExp2 fits exp2BenchData. On the 2-core development machine
// (AMD EPYC, KVM) shared with other sessions (load average 5 to 16), the
// CPU time per fit (cpu-ns/op: the benchmarking thread's CPU time, which the
// load inflates far less than wall time), median of 5 runs of 1000 fits,
// 2 allocations per fit:
//
//	go test -run '^$' -bench '^BenchmarkFitExp2$' -benchtime 1000x -cpu 1 -count 5 ./tct
//	points=20      124 µs
//	points=100     454 µs
//	points=1000    4.16 ms
func BenchmarkFitExp2(b *testing.B) {
	for _, n := range []int{20, 100, 1000} {
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			x, y := exp2BenchData(n)
			runtime.LockOSThread() // for the thread's CPU time
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			cpu0, ok := exp2ThreadCPU()
			for b.Loop() {
				if _, _, err := FitExp2(x, y, FitOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok1 := exp2ThreadCPU(); ok && ok1 {
				// CPU time per fit: unlike ns/op, not inflated by waiting
				// for a core on a loaded machine.
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkFitExp2Sweep fits problems of the seeded sweep (exp2SweepDraw:
// spans, offsets, rates, amplitudes and noise levels across the whole
// generator, exact data included) with a fixed number of points, one
// problem per iteration in turn, and reports the percentiles of the CPU
// time per fit over the iterations: p50-cpu-ns, p90-cpu-ns, p99-cpu-ns and
// max-cpu-ns (Linux only; the timer costs about a microsecond per fit).
// Fits that settle after their first two runs make the median, the others
// (the race, the continuation through b = d) the upper percentiles. On the
// machine of BenchmarkFitExp2, medians of 5 runs:
//
//	go test -run '^$' -bench '^BenchmarkFitExp2Sweep$' -benchtime 1000x -cpu 1 -count 5 ./tct
//	               p50       p90       p99       max
//	points=20      193 µs    654 µs    1.19 ms   1.35 ms
//	points=100     630 µs    2.23 ms   4.59 ms   5.79 ms
//	points=1000    5.03 ms   18.6 ms   39.4 ms   49.2 ms
func BenchmarkFitExp2Sweep(b *testing.B) {
	for _, n := range []int{20, 100, 1000} {
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			const problems = 1000
			xs := make([][]float64, problems)
			ys := make([][]float64, problems)
			for i := range xs {
				_, xs[i], ys[i], _ = exp2SweepDrawN(exp2SweepSeed, uint64(i), n)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := make([]time.Duration, 0, 1<<16)
			_, ok := exp2ThreadCPU()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c0, _ := exp2ThreadCPU()
				if _, _, err := FitExp2(xs[i%problems], ys[i%problems], FitOptions{}); err != nil {
					b.Fatal(err)
				}
				c1, _ := exp2ThreadCPU()
				if len(cpu) < cap(cpu) {
					cpu = append(cpu, c1-c0)
				}
				i++
			}
			if !ok || len(cpu) == 0 {
				return
			}
			slices.Sort(cpu)
			q := func(p float64) float64 { return float64(cpu[min(len(cpu)-1, int(p*float64(len(cpu))))]) }
			b.ReportMetric(q(0.5), "p50-cpu-ns")
			b.ReportMetric(q(0.9), "p90-cpu-ns")
			b.ReportMetric(q(0.99), "p99-cpu-ns")
			b.ReportMetric(float64(cpu[len(cpu)-1]), "max-cpu-ns")
		})
	}
}

func BenchmarkTCT(b *testing.B) { benchCurve(b, Exp2.TCT) }

func BenchmarkNormTCT(b *testing.B) { benchCurve(b, Exp2.NormTCT) }

// benchCurve evaluates f on one exp2 curve at one rate.
func benchCurve(b *testing.B, f func(Exp2, float64) float64) {
	m := Exp2{A: 150, B: -4, C: 50, D: -0.1}
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += f(m, 0.37)
	}
	_ = s
}

// BenchmarkFitExp2AtLimit fits MaxFitPoints points (see TestLimitsFit):
// 248 MiB in two allocations and, on the machine of BenchmarkFitExp2, 5.1 s
// of user CPU for the whole test process (median of 3, measured from
// outside the process):
//
//	go test -run '^$' -bench '^BenchmarkFitExp2AtLimit$' -benchtime 1x -cpu 1 ./tct
func BenchmarkFitExp2AtLimit(b *testing.B) {
	x, y := limitFitData(MaxFitPoints)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := FitExp2(x, y, FitOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
