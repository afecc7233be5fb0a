package tct

import (
	"math"
	"testing"
)

// lmRosenbrock is Rosenbrock's function as least squares:
// r = (10·(p1 − p0²), 1 − p0), minimum 0 at (1, 1).
type lmRosenbrock struct{ evals int }

func (q *lmRosenbrock) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	q.evals++
	r0, r1 := 10*(p[1]-p[0]*p[0]), 1-p[0]
	// J = [[−20·p0, 10], [−1, 0]]
	j00, j01, j10, j11 := -20*p[0], 10.0, -1.0, 0.0
	return r0*r0 + r1*r1,
		[3]float64{j00*j00 + j10*j10, j00*j01 + j10*j11, j01*j01 + j11*j11},
		[2]float64{j00*r0 + j10*r1, j01*r0 + j11*r1}, true
}

// lmExpDecay fits y = p0·e^(p1·t) to fixed data by plain (unprojected)
// least squares.
type lmExpDecay struct{ t, y []float64 }

func (q *lmExpDecay) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	var f float64
	var a [3]float64
	var g [2]float64
	for i, t := range q.t {
		e := math.Exp(p[1] * t)
		r := q.y[i] - p[0]*e
		d0, d1 := -e, -p[0]*t*e // ∂r/∂p
		f += r * r
		a[0] += d0 * d0
		a[1] += d0 * d1
		a[2] += d1 * d1
		g[0] += d0 * r
		g[1] += d1 * r
	}
	return f, a, g, true
}

// lmQuadratic has f = (p0 − 3)² + 4·(p1 + 1)², minimum at (3, −1); with
// bad set it cannot be evaluated for p0 > 5.
type lmQuadratic struct{ bad bool }

func (q *lmQuadratic) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	if q.bad && p[0] > 5 {
		return 0, [3]float64{}, [2]float64{}, false
	}
	r0, r1 := p[0]-3, 2*(p[1]+1)
	return r0*r0 + r1*r1, [3]float64{1, 0, 4}, [2]float64{r0, 2 * r1}, true
}

func lmWide(maxIter int) lmSettings {
	return lmSettings{maxIter: maxIter, lo: [2]float64{-1e3, -1e3}, hi: [2]float64{1e3, 1e3}}
}

func TestLMRosenbrock(t *testing.T) {
	for _, p0 := range [][2]float64{{-1.2, 1}, {0, 0}, {3, -2}, {-5, 20}} {
		res := lmMinimize(&lmRosenbrock{}, p0, lmWide(500))
		if !res.converged || math.Abs(res.p[0]-1) > 1e-8 || math.Abs(res.p[1]-1) > 1e-8 || res.f > 1e-20 {
			t.Errorf("from %v: %+v, want (1, 1) converged", p0, res)
		}
	}
}

func TestLMExpDecay(t *testing.T) {
	q := &lmExpDecay{}
	for i := range 20 {
		ti := float64(i) / 4
		q.t = append(q.t, ti)
		q.y = append(q.y, 3*math.Exp(-0.7*ti))
	}
	res := lmMinimize(q, [2]float64{1, -0.1}, lmWide(200))
	if !res.converged || math.Abs(res.p[0]-3) > 1e-9 || math.Abs(res.p[1]+0.7) > 1e-9 {
		t.Errorf("got %+v, want (3, −0.7)", res)
	}
}

func TestLMQuadraticExactInOneStep(t *testing.T) {
	// A linear residual: Gauss–Newton is exact, so LM with small damping
	// lands within its damping of the minimum at once and then finishes.
	res := lmMinimize(&lmQuadratic{}, [2]float64{0, 0}, lmWide(50))
	if !res.converged || math.Abs(res.p[0]-3) > 1e-9 || math.Abs(res.p[1]+1) > 1e-9 || res.iters > 5 {
		t.Errorf("got %+v", res)
	}
}

func TestLMBoxClamp(t *testing.T) {
	set := lmSettings{maxIter: 100, lo: [2]float64{-10, -10}, hi: [2]float64{2, 10}}
	// At the bound f = 1 + 4(p1+1)². Once p0 sits on its bound with the
	// gradient pushing outward, it is held there and the step is solved
	// for p1 alone (an active set), so p1 is exact after a few steps
	// instead of crawling along the bound with clamped coupled steps.
	res := lmMinimize(&lmQuadratic{}, [2]float64{0, 0}, set)
	if res.p[0] != 2 || math.Abs(res.p[1]+1) > 1e-9 || res.f > 1+1e-12 || !res.converged || res.iters > 8 {
		t.Errorf("got %+v, want p0 held at 2 and p1 = −1 converged within 8 iterations", res)
	}
	// A start outside the box is clamped first.
	res = lmMinimize(&lmQuadratic{}, [2]float64{50, 50}, set)
	if res.p[0] != 2 || math.Abs(res.p[1]+1) > 1e-6 || res.f > 1+1e-12 {
		t.Errorf("from outside: got %+v", res)
	}
}

func TestLMMaxIterAndFailures(t *testing.T) {
	res := lmMinimize(&lmRosenbrock{}, [2]float64{-1.2, 1}, lmWide(2))
	if res.converged || res.iters != 2 {
		t.Errorf("maxIter 2: got %+v, want 2 iterations, not converged", res)
	}
	// An unevaluable start is infinitely bad.
	res = lmMinimize(&lmQuadratic{bad: true}, [2]float64{6, 0}, lmWide(10))
	if !math.IsInf(res.f, 1) || res.converged {
		t.Errorf("bad start: got %+v", res)
	}
	// Unevaluable trial points are rejected like uphill steps.
	res = lmMinimize(&lmQuadratic{bad: true}, [2]float64{4.9, 0}, lmSettings{maxIter: 100, lo: [2]float64{-1e3, -1e3}, hi: [2]float64{1e3, 1e3}})
	if !res.converged || math.Abs(res.p[0]-3) > 1e-9 {
		t.Errorf("near the bad region: got %+v", res)
	}
	// fAbs stops at once at an exact start.
	res = lmMinimize(&lmQuadratic{}, [2]float64{3, -1}, lmWide(10))
	if !res.converged || res.iters != 0 || res.f != 0 {
		t.Errorf("exact start: got %+v", res)
	}
}

func TestLMFrozenSecondParameter(t *testing.T) {
	// A one-parameter problem reports (JᵀJ)₂₂ = 1 and g₂ = 0: p[1] stays put.
	q := &lmOneParam{}
	res := lmMinimize(q, [2]float64{0, 7}, lmWide(100))
	if res.p[1] != 7 || math.Abs(res.p[0]-2.5) > 1e-9 || !res.converged {
		t.Errorf("got %+v", res)
	}
}

// lmOneParam has f = (p0 − 2.5)² and ignores p1.
type lmOneParam struct{}

func (lmOneParam) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	r := p[0] - 2.5
	return r * r, [3]float64{1, 0, 1}, [2]float64{r, 0}, true
}

func TestLMAllocatesNothing(t *testing.T) {
	if exp2RaceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	q := &lmRosenbrock{}
	if n := testing.AllocsPerRun(50, func() { lmMinimize(q, [2]float64{-1.2, 1}, lmWide(500)) }); n != 0 {
		t.Errorf("lmMinimize allocates %v times", n)
	}
}

// lmScaled multiplies the residual of its problem by s, so f, JᵀJ and g
// scale by s², s² and s²: the minimiser is the same.
type lmScaled struct {
	q lmProblem
	s float64
}

func (q lmScaled) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	f, a, g, ok := q.q.lmEval(p)
	s2 := q.s * q.s
	return f * s2, [3]float64{a[0] * s2, a[1] * s2, a[2] * s2}, [2]float64{g[0] * s2, g[1] * s2}, ok
}

func TestLMScaleInvariant(t *testing.T) {
	// The damping is relative to diag(JᵀJ), so scaling the residual
	// changes neither the path nor the minimum. The damping was once
	// scaled twice (λ₀ = 10⁻³·max diag, then times diag): a large JᵀJ made
	// the run give up at its start (this test at scale 10⁷), and a tiny
	// one (10⁻¹⁴, as projected exp2 residuals of nearly exact data have)
	// left the damping negligible until it jumped past the useful range.
	for _, s := range []float64{1e-7, 1, 1e7} {
		res := lmMinimize(lmScaled{&lmRosenbrock{}, s}, [2]float64{-1.2, 1}, lmWide(500))
		if !res.converged || math.Abs(res.p[0]-1) > 1e-8 || math.Abs(res.p[1]-1) > 1e-8 {
			t.Errorf("scale %g: %+v, want (1, 1) converged", s, res)
		}
	}
}

func TestLMActiveSetSQ(t *testing.T) {
	// With sq the region is q = p[1] ≥ 0 and |p[0]| ≤ hi[0] − √q. The
	// quadratic's minimum (3, −1) lies below q = 0: the run ends on that
	// boundary with p[0] = 3 exactly and reports convergence.
	set := lmSettings{maxIter: 100, lo: [2]float64{-100, -100}, hi: [2]float64{100, 100}, sq: true}
	res := lmMinimize(&lmQuadratic{}, [2]float64{0, 5}, set)
	if res.p[1] != 0 || math.Abs(res.p[0]-3) > 1e-9 || !res.converged {
		t.Errorf("got %+v, want (3, 0) converged", res)
	}
	// |s| + √q ≤ 100: from (90, 81) the step toward s = 3 is free.
	res = lmMinimize(&lmQuadratic{}, [2]float64{90, 81}, set)
	if res.p[1] != 0 || math.Abs(res.p[0]-3) > 1e-8 || !res.converged {
		t.Errorf("from (90, 81): got %+v", res)
	}
}

// lmRosenbrockAccel is lmRosenbrock with geodesic acceleration: it keeps
// the Jacobian of the current point and applies it to other residuals.
type lmRosenbrockAccel struct {
	lmRosenbrock
	last, cur [2]float64 // last evaluated point, current point
}

func (q *lmRosenbrockAccel) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	q.last = p
	return q.lmRosenbrock.lmEval(p)
}

func (q *lmRosenbrockAccel) lmAccept() { q.cur = q.last }

func (q *lmRosenbrockAccel) lmAccel(p [2]float64) ([2]float64, bool) {
	r0, r1 := 10*(p[1]-p[0]*p[0]), 1-p[0]
	j00, j01, j10 := -20*q.cur[0], 10.0, -1.0 // J at the current point
	return [2]float64{j00*r0 + j10*r1, j01 * r0}, true
}

func TestLMGeodesicAcceleration(t *testing.T) {
	// Rosenbrock's valley is curved: the correction along the step's
	// second derivative lets the run follow it. With acceleration the run
	// converges to (1, 1) and takes fewer iterations than without.
	for _, p0 := range [][2]float64{{-1.2, 1}, {-5, 20}} {
		plain := lmMinimize(&lmRosenbrock{}, p0, lmWide(500))
		set := lmWide(500)
		set.accel = true
		acc := lmMinimize(&lmRosenbrockAccel{}, p0, set)
		if !acc.converged || math.Abs(acc.p[0]-1) > 1e-8 || math.Abs(acc.p[1]-1) > 1e-8 {
			t.Errorf("from %v with acceleration: %+v, want (1, 1) converged", p0, acc)
		}
		if acc.iters > plain.iters {
			t.Errorf("from %v: %d iterations with acceleration, %d without", p0, acc.iters, plain.iters)
		}
		t.Logf("from %v: %d iterations with acceleration, %d without", p0, acc.iters, plain.iters)
	}
}

// lmLeaveRight is lmRosenbrock asking to leave once p[0] > 0.5.
type lmLeaveRight struct {
	lmRosenbrock
	last [2]float64
}

func (q *lmLeaveRight) lmEval(p [2]float64) (float64, [3]float64, [2]float64, bool) {
	q.last = p
	return q.lmRosenbrock.lmEval(p)
}

func (q *lmLeaveRight) lmLeave() bool { return q.last[0] > 0.5 }

func TestLMLeave(t *testing.T) {
	set := lmWide(500)
	set.leave = true
	res := lmMinimize(&lmLeaveRight{}, [2]float64{-1.2, 1}, set)
	if !res.left || !(res.p[0] > 0.5) || res.converged {
		t.Errorf("got %+v, want a stop at the first iterate with p0 > 0.5", res)
	}
	// A start already beyond is left at once; without leave set the run
	// goes on to the minimum.
	if res := lmMinimize(&lmLeaveRight{}, [2]float64{0.7, 0}, set); !res.left || res.iters != 0 {
		t.Errorf("start beyond: got %+v", res)
	}
	if res := lmMinimize(&lmLeaveRight{}, [2]float64{-1.2, 1}, lmWide(500)); res.left || !res.converged {
		t.Errorf("without leave: got %+v", res)
	}
}
