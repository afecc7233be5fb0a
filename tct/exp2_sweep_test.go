package tct

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The seeded sweep of the exp2 fit. By default it runs a few thousand
// draws as part of the tests; the long run of the package doc is
//
//	go test -run 'TestFitExp2Sweep$' -exp2.sweep 150000 -v ./tct
//
// (about a minute of CPU). -exp2.sweepfirst starts at another draw index,
// so one draw can be re-run alone.
var (
	exp2SweepN     = flag.Int("exp2.sweep", 0, "draws of TestFitExp2Sweep (0: the default of the test run)")
	exp2SweepFirst = flag.Int("exp2.sweepfirst", 0, "first draw index of TestFitExp2Sweep")
	exp2SweepLog   = flag.Bool("exp2.sweeplog", false, "log every miss of TestFitExp2Sweep in full")
	exp2SweepSeedF = flag.Uint64("exp2.sweepseed", exp2SweepSeed, "seed of TestFitExp2Sweep")
)

// exp2SweepSeed seeds draw i of the sweep as PCG(exp2SweepSeed, i).
const exp2SweepSeed = 20240518

// exp2SweepNoise are the noise levels of the sweep, as fractions of max|y|;
// 0 is exact data.
var exp2SweepNoise = [...]float64{0, 1e-6, 1e-3, 0.01, 0.03, 0.1, 0.3}

// exp2SweepDraw is draw i of the sweep: the distribution of exp2PropData
// without its two exclusions (rates within 1/span of each other, terms
// cancelling beyond 10⁶ × the data) and with exact data (noise 0) as a
// seventh noise level. Spans 10⁻² … 10³ (log-uniform), x starting at 0 or
// offset by −0.5, 1 or 3 spans, rates per span independently uniform in
// [−30, 30], amplitudes 10⁻³ … 10³ (log-uniform) of random sign, 5 to 50
// points with jittered spacing, uniform noise of the drawn level.
func exp2SweepDraw(seed, i uint64) (truth Exp2, x, y []float64, noise float64) {
	return exp2SweepDrawN(seed, i, 0)
}

// exp2SweepDrawN is exp2SweepDraw with n points instead of a drawn number
// when n > 0.
func exp2SweepDrawN(seed, i uint64, n int) (truth Exp2, x, y []float64, noise float64) {
	r := rand.New(rand.NewPCG(seed, i))
	span := math.Pow(10, -2+5*r.Float64())
	off := [...]float64{0, -0.5, 1, 3}[r.IntN(4)] * span
	if k := 5 + r.IntN(46); n <= 0 {
		n = k
	}
	amp := func() float64 {
		a := math.Pow(10, -3+6*r.Float64())
		if r.IntN(2) == 1 {
			a = -a
		}
		return a
	}
	kb := -30 + 60*r.Float64()
	kd := -30 + 60*r.Float64()
	truth = Exp2{A: amp(), B: kb / span, C: amp(), D: kd / span}
	x = make([]float64, n)
	y = make([]float64, n)
	ymax := 0.0
	for k := range x {
		jitter := -0.45 + 0.9*r.Float64()
		x[k] = off + span*(float64(k)+jitter)/float64(n-1)
		y[k] = truth.TCT(x[k])
		ymax = max(ymax, math.Abs(y[k]))
	}
	noise = exp2SweepNoise[r.IntN(len(exp2SweepNoise))]
	for k := range y {
		y[k] += noise * ymax * (-1 + 2*r.Float64())
	}
	return truth, x, y, noise
}

// exp2SweepMiss reports whether a fit with SSE sse misses on draw (truth,
// x, y): its SSE is above the generating parameters' SSE beyond rounding
// (the bound of propFitBeatsTruth; for exact data, above 10⁻²⁰·Σy²). It
// returns the generating SSE too.
func exp2SweepMiss(truth Exp2, x, y []float64, sse float64) (bool, float64) {
	var truthSSE, yy float64
	for i := range x {
		r := y[i] - truth.TCT(x[i])
		truthSSE += r * r
		yy += y[i] * y[i]
	}
	return sse > truthSSE*(1+1e-9)+1e-20*yy, truthSSE
}

// TestFitExp2Sweep fits every draw of the seeded sweep and fails on a
// miss (see exp2SweepMiss), listing each with its draw index.
func TestFitExp2Sweep(t *testing.T) {
	n := *exp2SweepN
	if n == 0 {
		n = 3000
		if exp2RaceEnabled || testing.Short() {
			n = 500
		}
	}
	first := uint64(*exp2SweepFirst)
	var misses, exact, exactMisses int
	for i := first; i < first+uint64(n); i++ {
		truth, x, y, noise := exp2SweepDraw(*exp2SweepSeedF, i)
		m, rep, err := FitExp2(x, y, FitOptions{})
		if err != nil {
			t.Fatalf("draw %d: %v", i, err)
		}
		if noise == 0 {
			exact++
		}
		miss, truthSSE := exp2SweepMiss(truth, x, y, rep.SSE)
		if !miss {
			continue
		}
		misses++
		if noise == 0 {
			exactMisses++
		}
		msg := fmt.Sprintf("draw %d (n=%d, noise %g): SSE %.4g vs generating %.4g (×%.3g)", i, len(x), noise, rep.SSE, truthSSE, rep.SSE/truthSSE)
		if *exp2SweepLog {
			msg += fmt.Sprintf("\n\ttruth %+v\n\tfit %+v\n\treport %+v\n\tx %v\n\ty %v", truth, m, rep, x, y)
		}
		t.Error(msg)
	}
	t.Logf("%d draws from %d (seed %d): %d misses (%d of %d exact-data draws, %d of %d noisy)",
		n, first, *exp2SweepSeedF, misses, exactMisses, exact, misses-exactMisses, n-exact)
}
