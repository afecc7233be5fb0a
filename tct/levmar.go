package tct

import "math"

// lmProblem is a nonlinear least-squares problem in (at most) two
// parameters, as the Levenberg–Marquardt solver lmMinimize sees it.
//
// lmEval returns, at parameter point p, the objective f = ‖r(p)‖² (a sum of
// squared residuals), the Gauss–Newton matrix JᵀJ packed as
// {(JᵀJ)₁₁, (JᵀJ)₁₂, (JᵀJ)₂₂} and the gradient half g = Jᵀr, where J is the
// Jacobian of the residual vector r. ok is false when p cannot be evaluated
// (the solver then treats p as infinitely bad). A problem in one parameter
// reports (JᵀJ)₂₂ = 1, (JᵀJ)₁₂ = 0 and g₂ = 0, which freezes p[1].
type lmProblem interface {
	lmEval(p [2]float64) (f float64, jtj [3]float64, g [2]float64, ok bool)
}

// lmSettings bounds one Levenberg–Marquardt run.
type lmSettings struct {
	maxIter int        // iterations (accepted or rejected steps); > 0
	lo, hi  [2]float64 // box: every iterate is clamped into [lo, hi]
	fAbs    float64    // stop as converged once f ≤ fAbs (exact fit)
	// avoid lists points that earlier runs ended at, with their
	// objective: a run whose accepted iterate comes within
	// avoidTol·(1+|pₖ|) of one in each parameter (in either order of the
	// two) without being lower stops there with dup set.
	avoid    []lmEnd
	avoidTol float64
	// coarse loosens the tolerances (gradient 1e-5, decrease 1e-8) for
	// exploratory runs that a later tight run polishes.
	coarse bool
	// accel turns on geodesic acceleration for a problem that supports it
	// (lmAccelerator).
	accel bool
	// leave ends the run with left set at the start point or an accepted
	// iterate where the problem, an lmLeaver, reports lmLeave.
	leave bool
	// sq replaces the box by the region {p[1] ≥ 0, |p[0]| + √p[1] ≤ hi[0]}
	// of the (s, q) rate parametrisation (rates p[0] ∓ √p[1] within
	// ±hi[0]).
	sq bool
}

// lmResult is where one run stopped.
type lmResult struct {
	p         [2]float64
	f         float64
	iters     int  // iterations used
	evals     int  // calls of lmEval
	converged bool // a convergence test, not maxIter, stopped the run
	dup       bool // stopped near a point of lmSettings.avoid
	left      bool // stopped on lmSettings.leave
}

// lmAccelerator is a problem that supports geodesic acceleration: after
// lmAccept marks the last evaluated point as a run's current point p,
// lmAccel(q) returns J(p)ᵀ·r(q), the current Jacobian applied to the
// residual at another point q.
type lmAccelerator interface {
	lmAccept()
	lmAccel(q [2]float64) ([2]float64, bool)
}

// Geodesic acceleration (Transtrum and Sethna, 2012): the second
// directional derivative of the residual along the step v is taken from
// r(p + lmAccelH·v), and the correction is kept while 2‖a‖ ≤ lmAccelMax·‖v‖
// (both scaled like the damping).
const (
	lmAccelH     = 0.1
	lmAccelMax   = 0.75
	lmAccelAfter = 10 // iterations of a run before acceleration starts
)

// lmLeaver is a problem that can tell, right after evaluating a point, that
// the run should stop there (see lmSettings.leave).
type lmLeaver interface {
	lmLeave() bool
}

// Tolerances of lmMinimize, scale-free.
const (
	lmGradTol = 1e-10 // |gₖ| ≤ lmGradTol·√(f·(JᵀJ)ₖₖ): residual ⟂ Jacobian columns
	lmStepTol = 1e-11 // ‖h‖ ≤ lmStepTol·(‖p‖ + lmStepTol)
	lmFunTol  = 1e-14 // two accepted steps in a row each reduce f by less than this fraction
	lmMaxLam  = 1e16  // damping beyond this relative to the scale: no descent is representable
)

// lmMinimize minimises prob's objective from p0 by Levenberg–Marquardt with
// Marquardt's diagonal scaling (the running maximum of diag(JᵀJ), as in
// MINPACK) and Nielsen's damping update: after a step with gain ratio ρ > 0
// the damping λ is multiplied by max(1/3, 1−(2ρ−1)³), after a rejected step
// by ν, which then doubles. Steps are clamped into the box [lo, hi].
//
// It stops as converged when f ≤ fAbs, when the scaled gradient, the step or
// two successive relative decreases fall below the tolerances above (looser
// ones when set.coarse), or when
// λ grows so large that no step changes p (p is then a minimum to working
// precision); otherwise after maxIter iterations, not converged. It
// allocates nothing itself.
func lmMinimize(prob lmProblem, p0 [2]float64, set lmSettings) lmResult {
	p := lmClamp(p0, [2]float64{0, -1}, set)
	f, a, g, ok := prob.lmEval(p)
	res := lmResult{p: p, f: f, evals: 1}
	if !ok {
		res.f = math.Inf(1)
		return res
	}
	gradTol, funTol := lmGradTol, lmFunTol
	if set.coarse {
		gradTol, funTol = 1e-5, 1e-8
	}
	if f <= set.fAbs || lmGradSmall(f, a, g, gradTol, lmActive(p, g, set)) {
		res.converged = true
		return res
	}
	accel, _ := prob.(lmAccelerator)
	if !set.accel {
		accel = nil
	}
	if accel != nil {
		accel.lmAccept()
	}
	var leaver lmLeaver
	if set.leave {
		leaver, _ = prob.(lmLeaver)
		if leaver != nil && leaver.lmLeave() {
			res.left = true
			return res
		}
	}
	dScale := [2]float64{max(a[0], 1e-300), max(a[2], 1e-300)}
	lam := 1e-3 // dimensionless: the damping added is lam·dScale
	nu := 2.0
	smallDecreases := 0
	for res.iters < set.maxIter {
		res.iters++
		// A parameter held at its bound by the gradient stays there; the
		// step is solved for the other one (an active set).
		act := lmActive(p, g, set)
		if act[0] && act[1] {
			res.converged = true
			break
		}
		m11 := a[0] + lam*dScale[0]
		m22 := a[2] + lam*dScale[1]
		m12 := a[1]
		if act[0] || act[1] {
			m12 = 0
			if act[0] {
				m11 = 1
			} else {
				m22 = 1
			}
		}
		det := m11*m22 - m12*m12
		if !(det > 0) || math.IsInf(det, 0) {
			lam *= nu
			nu *= 2
			if lam > lmMaxLam {
				res.converged = true
				break
			}
			continue
		}
		h := [2]float64{(-g[0]*m22 + g[1]*m12) / det, (-g[1]*m11 + g[0]*m12) / det}
		if act[0] {
			h[0] = 0
		} else if act[1] {
			h[1] = 0
		}
		if accel != nil && res.iters > lmAccelAfter {
			// r_vv ≈ (2/ε)·((r(p+εv) − r(p))/ε − J·v), so
			// Jᵀr_vv = (2/ε²)·(Jᵀr(p+εv) − g − ε·JᵀJ·v).
			e := lmAccelH
			q := lmClamp([2]float64{p[0] + e*h[0], p[1] + e*h[1]}, p, set)
			if x, ok := accel.lmAccel(q); ok && q == [2]float64{p[0] + e*h[0], p[1] + e*h[1]} {
				res.evals++
				k := 2 / (e * e)
				b := [2]float64{
					k * (x[0] - g[0] - e*(a[0]*h[0]+a[1]*h[1])),
					k * (x[1] - g[1] - e*(a[1]*h[0]+a[2]*h[1])),
				}
				acc := [2]float64{(-b[0]*m22 + b[1]*m12) / det, (-b[1]*m11 + b[0]*m12) / det}
				if act[0] {
					acc[0] = 0
				} else if act[1] {
					acc[1] = 0
				}
				na := dScale[0]*acc[0]*acc[0] + dScale[1]*acc[1]*acc[1]
				nv := dScale[0]*h[0]*h[0] + dScale[1]*h[1]*h[1]
				if 4*na <= lmAccelMax*lmAccelMax*nv {
					h[0] += acc[0] / 2
					h[1] += acc[1] / 2
				}
			}
		}
		pn := lmClamp([2]float64{p[0] + h[0], p[1] + h[1]}, p, set)
		h = [2]float64{pn[0] - p[0], pn[1] - p[1]}
		if math.Hypot(h[0], h[1]) <= lmStepTol*(math.Hypot(p[0], p[1])+lmStepTol) {
			res.converged = true
			break
		}
		fn, an, gn, okn := prob.lmEval(pn)
		res.evals++
		if okn && fn < f {
			if accel != nil {
				accel.lmAccept()
			}
			// Predicted decrease of the quadratic model f + 2hᵀg + hᵀ(JᵀJ)h.
			pred := -(2*(h[0]*g[0]+h[1]*g[1]) + h[0]*(a[0]*h[0]+a[1]*h[1]) + h[1]*(a[1]*h[0]+a[2]*h[1]))
			rho := 1.0
			if pred > 0 {
				rho = (f - fn) / pred
			}
			rel := (f - fn) / f
			p, f, a, g = pn, fn, an, gn
			res.p, res.f = p, f
			dScale = [2]float64{max(dScale[0], a[0]), max(dScale[1], a[2])}
			lam *= max(1.0/3, 1-math.Pow(2*rho-1, 3))
			nu = 2
			if f <= set.fAbs || lmGradSmall(f, a, g, gradTol, lmActive(p, g, set)) {
				res.converged = true
				break
			}
			if lmNear(p, f, set) {
				res.dup = true
				break
			}
			if leaver != nil && leaver.lmLeave() {
				res.left = true
				break
			}
			if rel < funTol {
				smallDecreases++
				if smallDecreases >= 2 {
					res.converged = true
					break
				}
			} else {
				smallDecreases = 0
			}
			continue
		}
		lam *= nu
		nu *= 2
		if lam > lmMaxLam {
			res.converged = true
			break
		}
	}
	return res
}

// lmGradSmall reports whether every gradient component is negligible against
// √(f·(JᵀJ)ₖₖ), the size it would have if the residual were parallel to
// Jacobian column k (MINPACK's gtol test).
func lmGradSmall(f float64, a [3]float64, g [2]float64, tol float64, act [2]bool) bool {
	return (act[0] || math.Abs(g[0]) <= tol*math.Sqrt(f*a[0])) &&
		(act[1] || math.Abs(g[1]) <= tol*math.Sqrt(f*a[2]))
}

// lmActive reports which parameters sit on a bound of set that the descent
// direction −g pushes against (for set.sq: q = 0, or |s| at its limit
// hi[0] − √q).
func lmActive(p [2]float64, g [2]float64, set lmSettings) (act [2]bool) {
	if set.sq {
		m := set.hi[0] - math.Sqrt(max(p[1], 0))
		act[0] = (p[0] >= m && g[0] < 0) || (p[0] <= -m && g[0] > 0)
		act[1] = p[1] <= 0 && g[1] > 0
		return act
	}
	for k := range 2 {
		act[k] = (p[k] <= set.lo[k] && g[k] > 0) || (p[k] >= set.hi[k] && g[k] < 0)
	}
	return act
}

// An lmEnd is where a run ended.
type lmEnd struct {
	p [2]float64
	f float64
}

// lmNear reports whether p, with objective f, is within set.avoidTol of a
// point of set.avoid (in either order of the parameters, each relative to
// 1 + its size) that is no higher.
func lmNear(p [2]float64, f float64, set lmSettings) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= set.avoidTol*(1+math.Abs(b)) }
	for _, q := range set.avoid {
		if q.f <= f && ((near(p[0], q.p[0]) && near(p[1], q.p[1])) || (near(p[0], q.p[1]) && near(p[1], q.p[0]))) {
			return true
		}
	}
	return false
}

// lmClamp projects p into the box of set.
func lmClamp(p, prev [2]float64, set lmSettings) [2]float64 {
	if set.sq {
		b := set.hi[0]
		qmax := b * b
		if prev[1] >= 0 {
			// q grows at most fourfold (plus 1) in one step.
			qmax = min(qmax, 4*prev[1]+1)
		}
		p[1] = min(max(p[1], 0), qmax)
		m := max(b-math.Sqrt(p[1]), 0)
		p[0] = min(max(p[0], -m), m)
		return p
	}
	for k := range p {
		p[k] = min(max(p[k], set.lo[k]), set.hi[k])
	}
	return p
}
