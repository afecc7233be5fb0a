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
	grid           []float64 // fitGridN normalised grid columns of n each
	gridB          [fitGridN]float64
	gridOK         [fitGridN]bool
	x0, span, ymax float64 // t = (x−x0)/span, ys = y/ymax
	lo, hi         float64 // rate box in t units
	yy             float64 // Σ wᵢ·ysᵢ², the scale of the objective
	maxIter        int
	constant       bool    // every y with positive weight equals yconst
	yconst         float64 // that value
	single         bool    // evaluate the one-exponential problem
	screen         bool    // lmEval computes f only (start-point screening)
	evals          int     // lmEval calls, screening included
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
		return &ValueError{Field: "x", Value: float64(nd), Reason: "need at least 4 distinct values with positive weight"}
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
	buf := make([]float64, (9+fitGridN)*n)
	w.t, w.ys, w.sw = buf[0:n], buf[n:2*n], buf[2*n:3*n]
	w.u1, w.u2, w.q1, w.q2 = buf[3*n:4*n], buf[4*n:5*n], buf[5*n:6*n], buf[6*n:7*n]
	w.r, w.z, w.grid = buf[7*n:8*n], buf[8*n:9*n], buf[9*n:]
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
// because r ⟂ basis.
func (w *fitWork) lmEval(p [2]float64) (f float64, jtj [3]float64, g [2]float64, ok bool) {
	w.evals++
	n := w.n
	beta, delta := p[0], p[1]
	t, sw := w.t[:n], w.sw[:n]
	u1, u2, q1, q2, r := w.u1[:n], w.u2[:n], w.q1[:n], w.q2[:n], w.r[:n]
	for i := range n {
		u1[i] = sw[i] * math.Exp(beta*t[i])
		r[i] = sw[i] * w.ys[i]
	}
	n1 := fitNorm(u1)
	if !(n1 > 0) || math.IsInf(n1, 0) {
		return 0, jtj, g, false
	}
	for i := range n {
		q1[i] = u1[i] / n1
	}
	rank2 := false
	var s12, n2 float64
	if !w.single {
		for i := range n {
			u2[i] = sw[i] * math.Exp(delta*t[i])
		}
		nu2 := fitNorm(u2)
		if !(nu2 > 0) || math.IsInf(nu2, 0) {
			return 0, jtj, g, false
		}
		// q2 ∝ u2 − q1(q1·u2), orthogonalised twice ("twice is enough").
		copy(q2, u2)
		s12 = fitAxpyProj(q2, q1)
		if !w.screen {
			s12 += fitAxpyProj(q2, q1)
		}
		n2 = fitNorm(q2)
		if n2 > 1e-13*nu2 {
			rank2 = true
			for i := range n {
				q2[i] /= n2
			}
		}
	}
	// r = P⊥·(√w·ys), again twice for round-off-level residuals.
	c1 := fitAxpyProj(r, q1)
	var c2 float64
	if rank2 {
		c2 = fitAxpyProj(r, q2)
	}
	if !w.screen {
		c1 += fitAxpyProj(r, q1)
		if rank2 {
			c2 += fitAxpyProj(r, q2)
		}
	}
	gamma := 0.0
	if rank2 {
		gamma = c2 / n2
	}
	alpha := (c1 - s12*gamma) / n1
	if w.single {
		alpha = c1 / n1
	}
	w.alpha, w.gamma = alpha, gamma
	for i := range n {
		f += r[i] * r[i]
	}
	if !exp2Finite(f) || !exp2Finite(alpha) || !exp2Finite(gamma) {
		return 0, jtj, g, false
	}
	if w.screen {
		return f, jtj, g, true
	}
	// Column 1: z = α·t·u1; g₁ = −zᵀr; J₁ = −P⊥z.
	jtj[0], g[0] = w.kaufmanColumn(alpha, u1, rank2)
	if w.single {
		jtj[2] = 1
		return f, jtj, g, true
	}
	// Column 2 needs J₁ kept: store P⊥z₁ in u1 (no longer needed).
	copy(u1, w.z)
	var a22, g2 float64
	if rank2 {
		a22, g2 = w.kaufmanColumn(gamma, u2, rank2)
		var a12 float64
		for i := range n {
			a12 += u1[i] * w.z[i]
		}
		jtj[1] = a12
	}
	jtj[2], g[1] = a22, g2
	return f, jtj, g, true
}

// kaufmanColumn sets w.z = P⊥(coef·t·u) and returns ‖w.z‖² and −(coef·t·u)ᵀr.
func (w *fitWork) kaufmanColumn(coef float64, u []float64, rank2 bool) (a, g float64) {
	n := w.n
	z, t, r := w.z[:n], w.t[:n], w.r[:n]
	for i := range n {
		z[i] = coef * t[i] * u[i]
		g -= z[i] * r[i]
	}
	fitAxpyProj(z, w.q1[:n])
	if rank2 {
		fitAxpyProj(z, w.q2[:n])
	}
	for i := range n {
		a += z[i] * z[i]
	}
	return a, g
}

// fitAxpyProj removes from v its component along the unit vector q and
// returns that component, q·v.
func fitAxpyProj(v, q []float64) float64 {
	var s float64
	for i := range v {
		s += q[i] * v[i]
	}
	for i := range v {
		v[i] -= s * q[i]
	}
	return s
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
