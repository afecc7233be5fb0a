package tct

import (
	"fmt"
	"math"
	"runtime"
	"testing"
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

func BenchmarkTCT(b *testing.B) {
	m := Exp2{A: 150, B: -4, C: 50, D: -0.1}
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += m.TCT(0.37)
	}
	_ = s
}

func BenchmarkNormTCT(b *testing.B) {
	m := Exp2{A: 150, B: -4, C: 50, D: -0.1}
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += m.NormTCT(0.37)
	}
	_ = s
}

// BenchmarkFitExp2AtLimit fits MaxFitPoints points (see TestLimitsFit).
func BenchmarkFitExp2AtLimit(b *testing.B) {
	x, y := limitFitData(MaxFitPoints)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := FitExp2(x, y, FitOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
