package tct

import (
	"math"
)

// fitWork holds one FitExp2 call's scaled data and scratch vectors. All
// vectors are carved out of one allocation. It implements lmProblem for the
// projected exp2 residual (two rates) or, with single set, for one
// exponential (one rate; p[1] frozen).
type fitWork struct {
	n              int
	t, ys, sw      []float64 // scaled abscissa, scaled y, √weight
	u1, u2, q1, q2 []float64 // basis columns and their orthonormal basis
	r, z           []float64 // residual, Jacobian scratch
	v2             []float64 // ∂/∂q of the second basis column (sq parametrisation)
	// pzt holds the projected Jacobian columns P⊥z₁, P⊥z₂ of the last
	// evaluation, pzc those of the current point of a run (see lmAccept,
	// lmAccel). pzt shares its storage with v2 and z, which are free by
	// the time lmEval writes it.
	pzt, pzc       [2][]float64
	resid          bool      // lmEval computes f and the residual only (see lmAccel)
	scan           []float64 // the scan's columns (fitScanMax of n each), over u1 … pzc
	x0, span, ymax float64   // t = (x−x0)/span, ys = y/ymax
	lo, hi         float64   // rate box in t units
	x, y, wts      []float64 // the caller's data and weights (not modified)
	yy             float64   // Σ wᵢ·ysᵢ², the scale of the objective
	maxIter        int
	constant       bool     // every y with positive weight equals yconst
	yconst         float64  // that value
	single         bool     // evaluate the one-exponential problem
	sq             bool     // lmEval takes p = (s, q): rates s ∓ √q (see lmEval)
	fixQ           bool     // with sq: p[1] frozen (one-parameter problem in s)
	cancel         float64  // term size of the last evaluation (see termSize)
	wall           bool     // lmEval fails where the terms exceed fitCollapseGain
	evals          int      // lmEval calls and scanned pairs
	spike          fitSpike // the problem of a spike run (see runSpike)
	// coefficients of the last evaluation (in scaled units)
	alpha, gamma float64
}

// load validates the inputs and fills w with scaled data.
func (w *fitWork) load(x, y []float64, opt FitOptions) error {
	if err := fitValidate(x, y, opt); err != nil {
		return err
	}
	n := len(x)
	// Four distinct x values with positive weight; keep up to 4 seen.
	var seen [4]float64
	nd := 0
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymax := 0.0
	for i := 0; i < n && nd < 4; i++ {
		if opt.Weights != nil && !(opt.Weights[i] > 0) {
			continue
		}
		dup := false
		for _, s := range seen[:nd] {
			if s == x[i] {
				dup = true
				break
			}
		}
		if !dup {
			seen[nd] = x[i]
			nd++
		}
	}
	if nd < 4 {
		return &ValueError{Field: "x", Value: nd, Reason: "need at least 4 distinct values with positive weight"}
	}
	wmax := 0.0
	for i := range n {
		// Only points with positive weight set the scales; a zero-weight
		// point is ignored entirely.
		if opt.Weights != nil {
			if !(opt.Weights[i] > 0) {
				continue
			}
			wmax = max(wmax, opt.Weights[i])
		}
		xmin, xmax = min(xmin, x[i]), max(xmax, x[i])
		ymax = max(ymax, math.Abs(y[i]))
	}
	w.n = n
	w.x, w.y, w.wts = x, y, opt.Weights
	w.maxIter = opt.MaxIterations
	if w.maxIter == 0 {
		w.maxIter = 100
	}
	w.constant = true
	first := true
	for i := range n {
		if opt.Weights != nil && !(opt.Weights[i] > 0) {
			continue
		}
		if first {
			w.yconst, first = y[i], false
		} else if y[i] != w.yconst {
			w.constant = false
			break
		}
	}
	if w.constant {
		return nil
	}
	// The data and the scratch of the one-exponential problem, then the
	// scan's columns, which the rest of the two-rate scratch overlays once
	// the scan is done.
	buf := make([]float64, (6+fitScanMax)*n)
	col := func(k int) []float64 { return buf[k*n : (k+1)*n] }
	w.t, w.ys, w.sw, w.r, w.u1, w.q1 = col(0), col(1), col(2), col(3), col(4), col(5)
	w.scan = buf[6*n:]
	w.u2, w.q2 = col(6), col(7)
	w.pzt = [2][]float64{col(8), col(9)}
	w.pzc = [2][]float64{col(10), col(11)}
	w.v2, w.z = w.pzt[0], w.pzt[1]
	w.x0, w.span, w.ymax = xmin, xmax-xmin, ymax
	w.yy = 0
	for i := range n {
		sw := 1.0
		if opt.Weights != nil {
			sw = math.Sqrt(opt.Weights[i] / wmax)
		}
		if sw == 0 {
			// Outside the weighted span t could overflow exp; the row has
			// no weight, so any t in [0, 1] will do.
			w.t[i], w.ys[i], w.sw[i] = 0, 0, 0
			continue
		}
		w.t[i] = (x[i] - xmin) / w.span
		w.ys[i] = y[i] / ymax
		w.sw[i] = sw
		w.yy += sw * sw * w.ys[i] * w.ys[i]
	}
	bound := min(fitMaxRateSpan, fitMaxRateAbs*w.span/max(math.Abs(xmin), math.Abs(xmax)))
	w.lo, w.hi = -bound, bound
	return nil
}

// lmEval evaluates the projected problem at rates p (t units): it solves
// for the amplitudes, leaves the residual in w.r and returns the weighted
// SSE with Kaufman's approximation of the Jacobian of the projected
// residual, J_k = −P⊥·(∂Φ/∂p_k)·c, where P⊥ projects onto the orthogonal
// complement of the basis columns. Its gradient Jᵀr is exactly −(∂Φ/∂p_k c)ᵀr
// because r ⟂ basis. Orthogonalisation is classical Gram–Schmidt applied
// twice ("twice is enough"), fused into few passes over the data.
func (w *fitWork) lmEval(p [2]float64) (f float64, jtj [3]float64, g [2]float64, ok bool) {
	w.evals++
	n := w.n
	beta, delta := p[0], p[1]
	t, sw, ys := w.t[:n], w.sw[:n], w.ys[:n]
	u1, u2, q1, q2, r := w.u1[:n], w.u2[:n], w.q1[:n], w.q2[:n], w.r[:n]
	two := !w.single

	// Basis columns √w·e^(rate·t), the weighted data and squared norms.
	var n1s, n2s float64
	if w.sq {
		n1s, n2s = w.sqColumns(p)
	} else {
		if two {
			for i := range n {
				a := sw[i] * math.Exp(beta*t[i])
				b := sw[i] * math.Exp(delta*t[i])
				u1[i], u2[i] = a, b
				n1s += a * a
				n2s += b * b
				r[i] = sw[i] * ys[i]
			}
		} else {
			for i := range n {
				a := sw[i] * math.Exp(beta*t[i])
				u1[i] = a
				n1s += a * a
				r[i] = sw[i] * ys[i]
			}
		}
	}
	n1 := math.Sqrt(n1s)
	if !(n1 > 0) || math.IsInf(n1, 0) {
		return 0, jtj, g, false
	}
	inv1 := 1 / n1
	var s12 float64
	rank2 := false
	var n2 float64
	if two {
		nu2 := math.Sqrt(n2s)
		if !(nu2 > 0) || math.IsInf(nu2, 0) {
			return 0, jtj, g, false
		}
		for i := range n {
			v := u1[i] * inv1
			q1[i] = v
			s12 += v * u2[i]
		}
		var s2 float64
		for i := range n {
			v := u2[i] - s12*q1[i]
			q2[i] = v
			s2 += q1[i] * v
		}
		var nn float64
		for i := range n {
			v := q2[i] - s2*q1[i]
			q2[i] = v
			nn += v * v
		}
		s12 += s2
		n2 = math.Sqrt(nn)
		rank2 = n2 > 1e-13*nu2
	} else {
		for i := range n {
			q1[i] = u1[i] * inv1
		}
	}

	// r = P⊥·(√w·ys): coefficients c, then the projection, twice.
	var c1, c2 float64
	if rank2 {
		inv2 := 1 / n2
		for i := range n {
			q2[i] *= inv2
			c1 += q1[i] * r[i]
			c2 += q2[i] * r[i]
		}
	} else {
		for i := range n {
			c1 += q1[i] * r[i]
		}
	}
	var d1, d2 float64
	for i := range n {
		v := r[i] - c1*q1[i]
		if rank2 {
			v -= c2 * q2[i]
			d2 += q2[i] * v
		}
		r[i] = v
		d1 += q1[i] * v
	}
	f = 0
	for i := range n {
		v := r[i] - d1*q1[i]
		if rank2 {
			v -= d2 * q2[i]
		}
		r[i] = v
		f += v * v
	}
	c1 += d1
	c2 += d2
	gamma := 0.0
	if rank2 {
		gamma = c2 / n2
	}
	alpha := (c1 - s12*gamma) / n1
	w.alpha, w.gamma = alpha, gamma
	if !exp2Finite(f) || !exp2Finite(alpha) || !exp2Finite(gamma) {
		return 0, jtj, g, false
	}
	w.cancel = w.termSize(p, alpha, gamma)
	if w.wall && !(w.cancel <= fitCollapseGain) {
		// Beyond what exp2 represents: a run treats it as infinitely bad.
		return 0, jtj, g, false
	}
	if w.resid {
		return f, jtj, g, true
	}

	// Kaufman's Jacobian: z₁ = α·t·u1, z₂ = γ·t·u2 (stored over u1, u2);
	// gₖ = −zₖᵀr; J = −P⊥[z₁ z₂], so JᵀJ from the projected z's.
	var q1z1, q2z1, q1z2, q2z2, g1, g2 float64
	v2 := w.v2[:n]
	for i := range n {
		var z1, z2 float64
		if w.sq {
			// ∂u1/∂q = t·u2/2; ∂u2/∂q is v2.
			z1 = t[i] * (alpha*u1[i] + gamma*u2[i])
			z2 = alpha*0.5*t[i]*u2[i] + gamma*v2[i]
		} else {
			z1 = alpha * t[i] * u1[i]
			z2 = gamma * t[i] * u2[i]
		}
		u1[i] = z1
		g1 -= z1 * r[i]
		q1z1 += q1[i] * z1
		if rank2 {
			u2[i] = z2
			g2 -= z2 * r[i]
			q2z1 += q2[i] * z1
			q1z2 += q1[i] * z2
			q2z2 += q2[i] * z2
		}
	}
	var a11, a12, a22 float64
	if w.single {
		// One column: no scratch beyond u1, q1 and r (the scan's
		// columns overlay the rest while the one-exponential fit runs).
		for i := range n {
			p1 := u1[i] - q1z1*q1[i]
			a11 += p1 * p1
		}
		return f, [3]float64{a11, 0, 1}, [2]float64{g1, 0}, true
	}
	pz1, pz2 := w.pzt[0][:n], w.pzt[1][:n]
	for i := range n {
		p1 := u1[i] - q1z1*q1[i]
		p2 := 0.0
		if rank2 {
			p1 -= q2z1 * q2[i]
			p2 = u2[i] - q1z2*q1[i] - q2z2*q2[i]
			a22 += p2 * p2
			a12 += p1 * p2
		}
		a11 += p1 * p1
		pz1[i], pz2[i] = p1, p2
	}
	if w.fixQ {
		return f, [3]float64{a11, 0, 1}, [2]float64{g1, 0}, true
	}
	return f, [3]float64{a11, a12, a22}, [2]float64{g1, g2}, true
}

// fitNorm returns the Euclidean norm of v. The rate box keeps every entry
// within e^±200, so the squares cannot overflow or underflow to zero.
func fitNorm(v []float64) float64 {
	var s float64
	for _, e := range v {
		s += e * e
	}
	return math.Sqrt(s)
}

// sqColumns fills the basis columns of the (s, q) parametrisation, in which
// the rates are s − η and s + η with η = √q: u1 = √w·e^(s·t)·cosh(η·t) and
// u2 = √w·e^(s·t)·sinh(η·t)/η (t·e^(s·t) at η = 0), which span the same
// space as √w·e^(β·t), √w·e^(δ·t) for η > 0 and stay independent as the
// rates meet. It also fills v2 with the derivative of u2 in q,
// √w·e^(s·t)·t³·U(ηt)/2 with U(x) = (x·cosh x − sinh x)/x³ (that of u1 is
// √w·e^(s·t)·t²·sinh(ηt)/(2η) = t·u2/2), r with √w·ys, and returns the
// squared norms.
func (w *fitWork) sqColumns(p [2]float64) (n1s, n2s float64) {
	n := w.n
	s, eta := p[0], math.Sqrt(max(p[1], 0))
	t, sw, ys := w.t[:n], w.sw[:n], w.ys[:n]
	u1, u2, v2, r := w.u1[:n], w.u2[:n], w.v2[:n], w.r[:n]
	for i := range n {
		ti := t[i]
		e := sw[i] * math.Exp(s*ti)
		x := eta * ti
		ch, sh, uu := fitHyp(x)
		a, b := e*ch, e*ti*sh
		u1[i], u2[i] = a, b
		v2[i] = 0.5 * e * ti * ti * ti * uu
		n1s += a * a
		n2s += b * b
		r[i] = sw[i] * ys[i]
	}
	return n1s, n2s
}

// fitHyp returns cosh x, sinh(x)/x and (x·cosh x − sinh x)/x³ for x ≥ 0:
// below 0.5 by their Taylor series to x¹⁴ (truncation below 10⁻¹⁷
// relative), where the closed forms lose digits to cancellation. The
// series are in Horner form with the coefficients 1/(2k)!, 1/(2k+1)! and
// 2k/(2k+1)! (k ≥ 1) as constants: multiplications only.
func fitHyp(x float64) (ch, sh, u float64) {
	if x < 0.5 {
		x2 := x * x
		ch = 1 + x2*(1.0/2+x2*(1.0/24+x2*(1.0/720+x2*(1.0/40320+x2*(1.0/3628800+x2*(1.0/479001600+x2*(1.0/87178291200)))))))
		sh = 1 + x2*(1.0/6+x2*(1.0/120+x2*(1.0/5040+x2*(1.0/362880+x2*(1.0/39916800+x2*(1.0/6227020800+x2*(1.0/1307674368000)))))))
		u = 1.0/3 + x2*(4.0/120+x2*(6.0/5040+x2*(8.0/362880+x2*(10.0/39916800+x2*(12.0/6227020800+x2*(14.0/1307674368000+x2*(16.0/355687428096000)))))))
		return ch, sh, u
	}
	ex := math.Exp(x)
	ei := 1 / ex
	ch = (ex + ei) / 2
	s := (ex - ei) / 2
	sh = s / x
	u = (x*ch - s) / (x * x * x)
	return ch, sh, u
}

// termSize returns the size of the larger term over t ∈ [0, 1] of the model
// with amplitudes alpha, gamma of the basis columns at p, relative to
// max|ys| = 1 (see cancellation); +Inf at b = d with a t·e^(s·t) term.
func (w *fitWork) termSize(p [2]float64, alpha, gamma float64) float64 {
	if w.single {
		return math.Abs(alpha) * math.Exp(max(0, p[0]))
	}
	if !w.sq {
		return max(math.Abs(alpha)*math.Exp(max(0, p[0])), math.Abs(gamma)*math.Exp(max(0, p[1])))
	}
	eta := math.Sqrt(max(p[1], 0))
	if eta == 0 {
		if gamma != 0 {
			return math.Inf(1)
		}
		return math.Abs(alpha) * math.Exp(max(0, p[0]))
	}
	a, c := alpha/2-gamma/(2*eta), alpha/2+gamma/(2*eta)
	return max(math.Abs(a)*math.Exp(max(0, p[0]-eta)), math.Abs(c)*math.Exp(max(0, p[0]+eta)))
}

// lmAccept makes the last evaluated point the current point of a run (its
// projected Jacobian columns are the ones lmAccel uses).
func (w *fitWork) lmAccept() {
	w.pzt, w.pzc = w.pzc, w.pzt
	w.v2, w.z = w.pzt[0], w.pzt[1]
}

// lmAccel returns Jᵀr(q), the Jacobian of the current point (the last one
// accepted) applied to the projected residual at another point q: −(P⊥zₖ)ᵀr(q).
// It evaluates the residual at q only. ok is false if q cannot be
// evaluated.
func (w *fitWork) lmAccel(q [2]float64) (x [2]float64, ok bool) {
	w.resid = true
	_, _, _, ok = w.lmEval(q)
	w.resid = false
	if !ok {
		return x, false
	}
	n := w.n
	pz1, pz2, r := w.pzc[0][:n], w.pzc[1][:n], w.r[:n]
	for i := range n {
		x[0] -= pz1[i] * r[i]
		x[1] -= pz2[i] * r[i]
	}
	if w.single || w.fixQ {
		x[1] = 0
	}
	return x, true
}
