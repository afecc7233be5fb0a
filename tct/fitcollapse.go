package tct

import "math"

// This file holds what the search does at and near b = d, where exp2
// tends to one exponential plus a linear term, t·e^(b·t), which is not
// exp2, and the conversion of a result to the caller's units.

// collapsed reports whether the rates have met to working precision: they
// agree to √ε relative, or the two terms cancel each other by more than
// fitCollapseGain (more than half of float64's digits lost). That is where
// a least-squares path towards "one exponential plus t·e^(b·t)" ends.
// Near-collapsed fits short of that (BoxBOD's best exp2 has terms about 10⁴ times
// the data) are finite exp2 models and are kept.
func (w *fitWork) collapsed(p [2]float64, alpha, gamma float64) bool {
	if gamma == 0 || alpha == 0 {
		return false
	}
	if math.Abs(p[0]-p[1]) <= fitCollapseSep*max(1, math.Abs(p[0])) {
		return true
	}
	return w.cancellation(p, alpha, gamma) > fitCollapseGain
}

// cancellation returns the size of the larger term over t ∈ [0, 1] relative
// to max|ys| = 1: about 1 for separated terms, large when they cancel.
func (w *fitWork) cancellation(p [2]float64, alpha, gamma float64) float64 {
	t1 := math.Abs(alpha) * math.Exp(max(0, p[0]))
	t2 := math.Abs(gamma) * math.Exp(max(0, p[1]))
	return max(t1, t2)
}

// resolveCollapse picks the model to return when the best run collapsed at
// p: the best one-exponential fit (single is then true and the run's p[1]
// is unused), unless a run among runs ended at separated rates with a lower
// SSE, which is returned instead.
func (w *fitWork) resolveCollapse(p [2]float64, runs []fitRun, set lmSettings) (fitRun, bool) {
	sb, sres := w.singleFit(p, set)
	out, single := fitRun{start: [2]float64{sb, 0}, kind: "single", res: sres}, true
	for _, r := range runs {
		if r.res.f < out.res.f {
			if q, alpha, gamma := w.sqModel(r.res.p); !w.collapsed(q, alpha, gamma) {
				out, single = r, false
			}
		}
	}
	return out, single
}

// singleFit returns the best one-exponential fit (p[1] unused) and the rate
// it started from: Levenberg–Marquardt from the collapsed rates' mean and
// from the scanned rate whose column explains most of the data (see
// singleRate), the lower result.
func (w *fitWork) singleFit(p [2]float64, set lmSettings) (float64, lmResult) {
	var s fitScan
	w.buildScan(&s)
	start, best := w.singleRate(&s, set)
	w.single = true
	r := lmMinimize(w, [2]float64{(p[0] + p[1]) / 2, 0}, set)
	w.single = false
	if r.f < best.f {
		start, best = (p[0]+p[1])/2, r
	}
	return start, best
}

// fitSQBasis is the half-separation η below which sqModel evaluates in the
// (s, q) basis: there the columns e^(β·t), e^(δ·t) are nearly parallel,
// while far apart they keep a small term's digits better.
const fitSQBasis = 0.5

// sqModel evaluates the (s, q) point p and returns its rates (β ≤ δ) with
// the amplitudes of e^(β·t) and e^(δ·t) (scaled units). At q = 0 with a
// t·e^(s·t) term the amplitudes are infinite (the collapse limit).
func (w *fitWork) sqModel(p [2]float64) (rates [2]float64, alpha, gamma float64) {
	if p[1] >= fitSQBasis*fitSQBasis {
		rates = fitFromSQ(p)
		w.lmEval(rates)
		return rates, w.alpha, w.gamma
	}
	w.sq = true
	w.lmEval(p)
	w.sq = false
	eta := math.Sqrt(max(p[1], 0))
	rates = [2]float64{p[0] - eta, p[0] + eta}
	a, g := w.alpha, w.gamma
	switch {
	case g == 0:
		return rates, a, 0
	case eta == 0:
		return rates, math.Inf(-1), math.Inf(1)
	}
	return rates, a/2 - g/(2*eta), a/2 + g/(2*eta)
}

// Cancellation levels of relieve: it starts beyond fitRelieveFrom and
// tries terms from fitRepresentGain down to fitRelieveTo times the data.
const (
	fitRelieveFrom   = 1e4
	fitRepresentGain = 1e6
	fitRelieveTo     = 1e3
)

// relieve moves the run r, which ended at or near b = d with terms
// cancelling beyond fitRelieveFrom (or collapsed), along the b = d path to
// the exp2 that evaluates closest to the data. Near b = d the terms are
// about |γ|·e^(max(0, s))/(2η) (γ the amplitude of the second basis
// column), so each tenfold increase of η = √q divides them by ten and
// raises the projected SSE; evaluating the terms loses their size times ε
// of every value. It tries terms of fitRepresentGain, fitRepresentGain/√10,
// …, fitRelieveTo times the data (s re-fitted with q fixed at each) and
// keeps r or the point with the lowest modelSSE, among representable ones
// (not collapsed). ok is false if there is none.
func (w *fitWork) relieve(r lmResult, set lmSettings) (lmResult, bool) {
	out, bestSSE, ok := r, math.Inf(1), false
	if q, a, g := w.sqModel(r.p); !w.collapsed(q, a, g) {
		bestSSE, ok = w.modelSSE(q, a, g), true
	}
	p := r.p
	w.sq = true
	w.lmEval(p)
	w.sq = false
	// The reference point of the 1/η law: (η, terms) of the last point.
	eta, terms := math.Sqrt(max(p[1], 0)), w.cancel
	if eta == 0 || math.IsInf(terms, 1) {
		eta, terms = 1, math.Abs(w.gamma)*math.Exp(max(0, p[0]))/2
	}
	s := set
	s.sq = true
	for target := fitRepresentGain; target >= fitRelieveTo*0.99; target /= 3.1622776601683795 { // √10
		e := max(eta*terms/target, 2*fitCollapseSep*max(1, math.Abs(p[0])))
		if !(e < 3*fitSQBasis) || !(e > math.Sqrt(max(p[1], 0))) {
			continue
		}
		p[1] = e * e
		w.sq, w.fixQ = true, true
		rr := lmMinimize(w, p, s)
		w.sq, w.fixQ = false, false
		if math.IsInf(rr.f, 1) {
			break
		}
		p = rr.p
		q, a, g := w.sqModel(p)
		eta, terms = e, w.cancellation(q, a, g)
		if w.collapsed(q, a, g) {
			continue
		}
		sse := w.modelSSE(q, a, g)
		if !(sse < bestSSE) {
			continue // rounding is irregular: every level is tried
		}
		// The run's iterations and convergence stand; the re-fit counts
		// in the evaluations.
		rr.iters, rr.converged = r.iters, r.converged
		rr.evals += r.evals
		out, bestSSE, ok = rr, sse, true
	}
	return out, ok
}

// modelSSE returns the weighted SSE, on the caller's data, of the model
// with rates p and amplitudes alpha, gamma (scaled units) as FitExp2 would
// return it: converted to the caller's units and evaluated term by term.
// Unlike the projected SSE it includes the rounding of terms that cancel.
func (w *fitWork) modelSSE(p [2]float64, alpha, gamma float64) float64 {
	m := w.toModel(p, alpha, gamma, false)
	var f float64
	for i, x := range w.x {
		wi := 1.0
		if w.wts != nil {
			if wi = w.wts[i]; !(wi > 0) {
				continue // ignored, as in the fit
			}
		}
		r := w.y[i] - m.TCT(x)
		f += wi * r * r
	}
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return f
}

// toModel converts scaled rates and amplitudes to the caller's units:
// b = β/span and a = α·ymax·e^(−β·x0/span).
func (w *fitWork) toModel(p [2]float64, alpha, gamma float64, single bool) Exp2 {
	m := Exp2{
		A: alpha * w.ymax * math.Exp(-p[0]*w.x0/w.span),
		B: p[0] / w.span,
	}
	if !single {
		m.D = p[1] / w.span
		m.C = gamma * w.ymax * math.Exp(-p[1]*w.x0/w.span)
		// Canonical order: the slower rate first, when both terms are present.
		if m.A != 0 && m.C != 0 && m.B > m.D {
			m.A, m.B, m.C, m.D = m.C, m.D, m.A, m.B
		}
	}
	return m
}

// meanY returns the weighted mean of y in the caller's units.
func (w *fitWork) meanY() float64 {
	var s, sw float64
	for i := range w.n {
		q := w.sw[i] * w.sw[i]
		s += q * w.ys[i]
		sw += q
	}
	return s / sw * w.ymax
}

// fitToSQ converts rates (β, δ) to the (s, q) parametrisation: s = (β+δ)/2,
// q = ((δ−β)/2)².
func fitToSQ(p [2]float64) [2]float64 {
	e := (p[1] - p[0]) / 2
	return [2]float64{(p[0] + p[1]) / 2, e * e}
}

// fitFromSQ converts (s, q) back to rates (s − √q, s + √q).
func fitFromSQ(p [2]float64) [2]float64 {
	e := math.Sqrt(max(p[1], 0))
	return [2]float64{p[0] - e, p[0] + e}
}

// fitOrthogonalise removes from v its component along the unit vector q,
// twice (classical Gram–Schmidt with reorthogonalisation).
func fitOrthogonalise(v, q []float64) {
	for range 2 {
		var s float64
		for i := range v {
			s += q[i] * v[i]
		}
		for i := range v {
			v[i] -= s * q[i]
		}
	}
}

// fitThroughEta are the half-separations η (t units) the continuation
// visits.
var fitThroughEta = [...]float64{0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 1, 1.4, 2, 2.8, 4, 5.6, 8}

// throughCollapse continues the run r, which ended near b = d at
// (s₀, q ≈ 0), along two paths that part the rates: the upper rate kept at
// s₀ while the lower one moves down (s = s₀ − η), and the lower kept while
// the upper moves up (s = s₀ + η). At each η of fitThroughEta the centre s
// is re-fitted with q = η² fixed (a short one-parameter run from s₀ ∓ η),
// so each path is a profile of the projected SSE over the separation. A
// point near b = d can be a minimum for the (s, q) search and a saddle for
// the rates, and a lower basin at separated rates is often reached only
// over a ridge of this profile. It returns the lowest point of each path,
// lowest first, with their SSE.
func (w *fitWork) throughCollapse(r lmResult, set lmSettings) (starts [2][2]float64, fs [2]float64, k int) {
	set.sq = true
	set.coarse = true
	set.maxIter = 5
	set.avoid = nil
	set.leave = false
	w.sq, w.fixQ, w.wall = true, true, true
	for _, dir := range [...]float64{-1, 1} {
		s0, eta0 := r.p[0], math.Sqrt(max(r.p[1], 0))
		bestF, bestP := math.Inf(1), [2]float64{}
		for _, eta := range fitThroughEta {
			if eta <= eta0 {
				continue
			}
			p := [2]float64{s0 + dir*(eta-eta0), eta * eta}
			if math.Abs(p[0])+eta > w.hi {
				break
			}
			res := lmMinimize(w, p, set)
			if math.IsInf(res.f, 1) {
				continue
			}
			if res.f < bestF {
				bestF, bestP = res.f, res.p
			}
		}
		if !math.IsInf(bestF, 1) {
			starts[k], fs[k] = bestP, bestF
			for i := k; i > 0 && fs[i] < fs[i-1]; i-- {
				starts[i], starts[i-1] = starts[i-1], starts[i]
				fs[i], fs[i-1] = fs[i-1], fs[i]
			}
			k++
		}
	}
	w.sq, w.fixQ, w.wall = false, false, false
	return starts, fs, min(k, fitThroughRuns)
}

// nearCollapse reports whether a run that ended at p (in (s, q)) is at or
// near b = d: its rates within 2·fitThroughEtaMax of each other, or its
// terms cancelling beyond fitNearCollapse × the data.
func (w *fitWork) nearCollapse(p [2]float64) bool {
	if p[1] < fitThroughEtaMax*fitThroughEtaMax {
		return true
	}
	q, a, g := w.sqModel(p)
	return w.cancellation(q, a, g) > fitNearCollapse
}

const (
	fitThroughEtaMax = 0.1
	fitThroughRuns   = 2
	fitNearCollapse  = 100
)
