package tct

import (
	"cmp"
	"math"
)

// fitCandidate is one start point of the rate search, in t units.
type fitCandidate struct {
	p    [2]float64
	kind string
	f    float64
	idx  int
}

// fitGrid is the rate grid in units of the unit span: e^(±20) down to e^(±2)
// change over the data, and 0 for a constant term.
var fitGrid = [...]float64{-20, -6, -2, 0, 2, 6}

// Search sizes.
const (
	fitLMStarts     = 3      // Levenberg–Marquardt runs from the best screened starts
	fitExactRel     = 1e-30  // objective ≤ fitExactRel·Σwy² counts as an exact fit
	fitCollapseSep  = 1.5e-8 // |β−δ| ≤ √ε·max(1,|β|): the rates have met
	fitCollapseGain = 1e8    // term/data ratio beyond which half the digits cancel
)

// solve runs the whole search on loaded data and returns the model in the
// caller's units with the search part of the report filled.
func (w *fitWork) solve() (Exp2, FitReport) {
	if w.constant {
		return Exp2{A: w.yconst}, FitReport{Converged: true, Start: FitStart{Kind: "constant"}}
	}
	set := lmSettings{maxIter: w.maxIter, lo: [2]float64{w.lo, w.lo}, hi: [2]float64{w.hi, w.hi}, fAbs: fitExactRel * w.yy}

	var cands [32]fitCandidate
	nc := w.startPoints(&cands)
	best, runs, nruns := w.runStarts(cands[:nc], set)

	rep := FitReport{Iterations: best.res.iters, Converged: best.res.converged}
	rep.Start = FitStart{Kind: best.kind, B: best.start[0] / w.span, D: best.start[1] / w.span}
	p := best.res.p
	w.lmEval(p)
	alpha, gamma := w.alpha, w.gamma
	single := false
	if w.collapsed(p, alpha, gamma) {
		var c fitRun
		c, single = w.resolveCollapse(p, runs[:nruns], set)
		rep.Collapsed = true
		rep.Iterations, rep.Converged = c.res.iters, c.res.converged
		rep.Start = FitStart{Kind: c.kind, B: c.start[0] / w.span, D: c.start[1] / w.span}
		p = c.res.p
		w.single = single
		w.lmEval(p)
		w.single = false
		alpha, gamma = w.alpha, w.gamma
		if single {
			gamma = 0
		}
	}
	rep.Cancellation = w.cancellation(p, alpha, gamma)
	rep.Evaluations = w.evals
	m := w.toModel(p, alpha, gamma, single)
	if m.Validate() != nil {
		// Unreachable with the rate bounds; keep the promise of finite output.
		m = Exp2{A: w.meanY()}
		rep.Converged = false
	}
	return m, rep
}

// fitRun is one Levenberg–Marquardt run and where it started.
type fitRun struct {
	start [2]float64
	kind  string
	res   lmResult
}

// runStarts screens the candidates by projected SSE, runs
// Levenberg–Marquardt from the best fitLMStarts of them and returns the best
// run (lowest SSE, earlier run on ties) and all runs.
func (w *fitWork) runStarts(cands []fitCandidate, set lmSettings) (fitRun, [fitLMStarts]fitRun, int) {
	w.screen = true
	for i := range cands {
		f, _, _, ok := w.lmEval(cands[i].p)
		if !ok {
			f = math.Inf(1)
		}
		cands[i].f, cands[i].idx = f, i
	}
	w.screen = false
	// Insertion sort: a handful of elements, no allocation.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && fitCandidateCmp(cands[j], cands[j-1]) < 0; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var runs [fitLMStarts]fitRun
	nruns := 0
	best := -1
	for _, c := range cands {
		if nruns == fitLMStarts || math.IsInf(c.f, 1) {
			break
		}
		res := lmMinimize(w, c.p, set)
		runs[nruns] = fitRun{start: c.p, kind: c.kind, res: res}
		if best < 0 || res.f < runs[best].res.f {
			best = nruns
		}
		nruns++
		if runs[best].res.f <= set.fAbs {
			break
		}
	}
	return runs[best], runs, nruns
}

// fitCandidateCmp orders candidates by screened SSE, then by position.
func fitCandidateCmp(a, b fitCandidate) int {
	return cmp.Or(cmp.Compare(a.f, b.f), cmp.Compare(a.idx, b.idx))
}

// startPoints fills cands with the data-driven and grid start points and
// returns how many there are.
func (w *fitWork) startPoints(cands *[32]fitCandidate) int {
	nc := 0
	add := func(b, d float64, kind string) {
		if nc < len(cands) && exp2Finite(b) && exp2Finite(d) {
			cands[nc] = fitCandidate{p: [2]float64{min(max(b, w.lo), w.hi), min(max(d, w.lo), w.hi)}, kind: kind}
			nc++
		}
	}
	bl, okl := w.logSlope(0, 0.5)
	bu, oku := w.logSlope(0.5, 1.0000001)
	if okl && oku {
		if math.Abs(bl-bu) < 0.5 {
			mid := (bl + bu) / 2
			bl, bu = mid-1, mid+1
		}
		add(bl, bu, "halves")
	}
	if b0, ok := w.logSlope(0, 1.0000001); ok {
		add(b0, 0, "whole")
		add(b0-3, b0+3, "whole")
	}
	for i, b := range fitGrid {
		for _, d := range fitGrid[i+1:] {
			add(b, d, "grid")
		}
	}
	return nc
}

// logSlope fits a single exponential ys = k·e^(β·t) to the points with
// positive weight and t in [lo, hi) by a straight line through (t, ln|ys|),
// and returns β. ok is false when the points there change sign, include a
// zero, or have fewer than 2 distinct t.
func (w *fitWork) logSlope(lo, hi float64) (float64, bool) {
	var n, st, sl, stt, stl float64
	sign := 0.0
	for i := range w.n {
		t := w.t[i]
		if !(w.sw[i] > 0) || t < lo || t >= hi {
			continue
		}
		y := w.ys[i]
		if y == 0 || (sign != 0 && math.Signbit(y) != math.Signbit(sign)) {
			return 0, false
		}
		sign = y
		l := math.Log(math.Abs(y))
		n++
		st += t
		sl += l
		stt += t * t
		stl += t * l
	}
	den := n*stt - st*st
	if n < 2 || !(den > 1e-12*n*n) {
		return 0, false
	}
	return (n*stl - st*sl) / den, true
}

// collapsed reports whether the rates have met to working precision: they
// agree to √ε relative, or the two terms cancel each other by more than
// fitCollapseGain (more than half of float64's digits lost). That is where
// a least-squares path towards "one exponential plus t·e^(b·t)" ends.
// Near-collapsed fits short of that (BoxBOD's best exp2 has terms 10⁵ times
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
			w.lmEval(r.res.p)
			if !w.collapsed(r.res.p, w.alpha, w.gamma) {
				out, single = r, false
			}
		}
	}
	return out, single
}

// singleFit returns the best one-exponential fit (p[1] unused) started from
// the collapsed rates and the grid, and the rate it started from.
func (w *fitWork) singleFit(p [2]float64, set lmSettings) (float64, lmResult) {
	w.single = true
	defer func() { w.single = false }()
	bestStart := 0.0
	best := lmResult{f: math.Inf(1)}
	try := func(b float64) {
		r := lmMinimize(w, [2]float64{b, 0}, set)
		if r.f < best.f {
			best, bestStart = r, b
		}
	}
	try((p[0] + p[1]) / 2)
	if b0, ok := w.logSlope(0, 1.0000001); ok {
		try(b0)
	}
	for _, b := range fitGrid {
		try(b)
	}
	return bestStart, best
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
