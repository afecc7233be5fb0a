package tct

import (
	"cmp"
	"math"
)

// fitCandidate is one start point of the rate search, in t units.
type fitCandidate struct {
	p     [2]float64
	kind  string
	group int // −1: the "residual" start; 0: data-driven or a local minimum of the grid; 1: other
	f     float64
	idx   int
}

// fitGrid is the rate grid in units of the unit span (a rate k changes its
// term by e^k over the data), with 0 for a constant term.
var fitGrid = [...]float64{-40, -24, -14, -8, -5, -3, -2, -1, -0.4, 0, 0.4, 1, 2, 3, 5, 8, 14, 24, 40}

// fitGridN is the number of grid rates.
const fitGridN = len(fitGrid)

// Search sizes.
const (
	fitLMStarts     = 2      // Levenberg–Marquardt runs at least: the "residual" start and the best screened one
	fitMaxRuns      = 8      // runs when the first ones head for b = d
	fitMaxStarts    = 64     // capacity of the start list
	fitGridBest     = 20     // lowest grid pairs kept besides the grid's local minima
	fitNearCollapse = 100    // Cancellation beyond which more starts get a run
	fitDupTol       = 1e-2   // an exploratory run this close to an earlier result stops
	fitRescans      = 2      // escapes tried from the best run by rescan
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

	var cands [fitMaxStarts]fitCandidate
	nc := w.startPoints(&cands, set)
	best, runs, nruns := w.runStarts(cands[:nc], set)

	if math.IsInf(best.res.f, 1) {
		return Exp2{A: w.meanY()}, FitReport{Start: FitStart{Kind: "constant"}, Evaluations: w.evals}
	}
	rep := FitReport{Iterations: best.res.iters, Converged: best.res.converged}
	rep.Start = FitStart{Kind: best.kind, B: best.start[0] / w.span, D: best.start[1] / w.span}
	p, alpha, gamma := w.sqModel(best.res.p)
	single := false
	if w.cancellation(p, alpha, gamma) > fitRelieveFrom || w.collapsed(p, alpha, gamma) {
		// The best exp2 lies at or near b = d, where its terms cancel:
		// move along that path to where the model, evaluated term by
		// term, comes closest to the data.
		if r, ok := w.relieve(best.res, set); ok {
			best.res = r
			rep.Iterations, rep.Converged = r.iters, r.converged
			p, alpha, gamma = w.sqModel(r.p)
		}
	}
	if w.collapsed(p, alpha, gamma) {
		var c fitRun
		c, single = w.resolveCollapse(p, runs[:nruns], set)
		rep.Collapsed = true
		rep.Iterations, rep.Converged = c.res.iters, c.res.converged
		rep.Start = FitStart{Kind: c.kind, B: c.start[0] / w.span, D: c.start[1] / w.span}
		if single {
			p = c.res.p
			w.single = true
			w.lmEval(p)
			w.single = false
			alpha, gamma = w.alpha, 0
		} else {
			p, alpha, gamma = w.sqModel(c.res.p)
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

// runStarts runs Levenberg–Marquardt from the best fitLMStarts screened
// candidates (by screened SSE) and returns the best run (lowest SSE, earlier
// run on ties) and all runs. Unless the best run has settled (see settled),
// up to fitMaxRuns starts get a run.
func (w *fitWork) runStarts(cands []fitCandidate, set lmSettings) (fitRun, [fitMaxRuns + fitSpikeRuns + fitRescans + 1 + fitThroughRuns]fitRun, int) {
	// Insertion sort: a few dozen elements, no allocation.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && fitCandidateCmp(cands[j], cands[j-1]) < 0; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var runs [fitMaxRuns + fitSpikeRuns + fitRescans + 1 + fitThroughRuns]fitRun
	var found [fitMaxRuns + fitSpikeRuns + fitRescans][2]float64
	nruns, nfound := 0, 0
	best := -1
	explore := set
	explore.coarse = true
	explore.avoidTol = fitDupTol
	for _, c := range cands {
		if nruns == fitMaxRuns || math.IsInf(c.f, 1) {
			break
		}
		if nruns >= fitLMStarts && w.settled(runs[best].res) {
			break
		}
		explore.avoid = found[:nfound]
		res := w.localRun(fitToSQ(c.p), explore)
		if !res.dup {
			found[nfound] = fitFromSQ(res.p) // lmNear compares rates
			nfound++
		}
		runs[nruns] = fitRun{start: c.p, kind: c.kind, res: res}
		if best < 0 || res.f < runs[best].res.f {
			best = nruns
		}
		nruns++
		if runs[best].res.f <= set.fAbs {
			break
		}
	}
	// A spike: a term so steep that it fits an end point alone, the other
	// term the remaining points (where that end point is isolated, see
	// settled). The box edge is its rate; the other one starts at the best
	// one-exponential rate.
	for end := range 2 {
		if best < 0 || runs[best].res.f <= set.fAbs || w.reach[end]*w.hi <= fitSpikeReach {
			continue
		}
		p := [2]float64{w.lo, w.b1}
		if end == 1 {
			p = [2]float64{w.b1, w.hi}
		}
		explore.avoid = found[:nfound]
		res := w.localRun(fitToSQ(p), explore)
		if !res.dup {
			found[nfound] = fitFromSQ(res.p) // lmNear compares rates
			nfound++
		}
		runs[nruns] = fitRun{start: p, kind: "spike", res: res}
		if res.f < runs[best].res.f {
			best = nruns
		}
		nruns++
	}
	if best < 0 {
		// No start could be evaluated (not expected: every projection of
		// finite scaled data is finite). solve falls back to the mean.
		return fitRun{res: lmResult{f: math.Inf(1)}}, runs, 0
	}
	// A best run well apart from b = d (see separated) ends the search after
	// the rescan: the scan of b = d and the continuation through it are
	// for runs that end near b = d, or unconverged, on the box edge or with
	// a spike term.
	sep := w.separated(runs[best].res)
	// Escape a local minimum: pair each rate of the best run with every grid
	// rate; if a pair screens lower, explore from it.
	for range fitRescans {
		if runs[best].res.f <= set.fAbs {
			break
		}
		p, f := w.rescan(fitFromSQ(runs[best].res.p))
		if !(f < runs[best].res.f*(1-1e-9)) {
			break
		}
		explore.avoid = found[:nfound]
		res := w.localRun(fitToSQ(p), explore)
		if !res.dup && nfound < len(found) {
			found[nfound] = fitFromSQ(res.p) // lmNear compares rates
			nfound++
		}
		runs[nruns] = fitRun{start: p, kind: "rescan", res: res}
		if !(res.f < runs[best].res.f) {
			nruns++
			break
		}
		best = nruns
		nruns++
	}
	// The lowest point of b = d itself (see valley) joins the runs, as a
	// result and as an origin of the continuation below.
	if !sep && nruns < len(runs) && runs[best].res.f > set.fAbs {
		if res, ok := w.valley(explore); ok {
			runs[nruns] = fitRun{start: fitFromSQ(res.p), kind: "valley", res: res}
			if res.f < runs[best].res.f {
				best = nruns
			}
			nruns++
		}
	}
	// Polish the winner with the tight tolerances.
	w.polish(&runs[best], set)
	// An exploratory run that ended on its iteration budget may still be
	// descending a long valley (nearly equal small rates) towards a lower
	// minimum than the winner's: the lowest such run is polished too.
	if runs[best].res.f > set.fAbs {
		c := -1
		for i, r := range runs[:nruns] {
			if i != best && !r.res.converged && !r.res.dup && r.res.iters >= set.maxIter && (c < 0 || r.res.f < runs[c].res.f) {
				c = i
			}
		}
		if c >= 0 {
			w.polish(&runs[c], set)
			if runs[c].res.f < runs[best].res.f {
				best = c
			}
		}
	}
	// Continue through b = d: from a run near it, follow the rates apart
	// (see throughCollapse), explore from the lowest points and polish a
	// better result.
	near := -1 // the best run that ended near b = d
	for i, r := range runs[:nruns] {
		if sep {
			break
		}
		if !math.IsInf(r.res.f, 1) && w.nearCollapse(r.res.p) && (near < 0 || r.res.f < runs[near].res.f) {
			near = i
		}
	}
	if !sep && nruns < len(runs) && runs[best].res.f > set.fAbs && near >= 0 {
		// No stop at earlier results: the point near b = d is one, and
		// the way to a lower basin passes close to it.
		explore.avoid = nil
		starts, fs, k := w.throughCollapse(runs[near].res, explore)
		through := -1
		for i := range k {
			if nruns == len(runs) || !(fs[i] < runs[best].res.f) {
				break
			}
			res := w.localRun(starts[i], explore)
			runs[nruns] = fitRun{start: fitFromSQ(starts[i]), kind: "through", res: res}
			if res.f < runs[best].res.f {
				best, through = nruns, nruns
			}
			nruns++
		}
		if through >= 0 {
			w.polish(&runs[through], set)
		}
	}
	return runs[best], runs, nruns
}

// polish re-runs r from where it ended with the tight tolerances of set
// (fitPolishIter times its iterations, geodesic acceleration on) and keeps
// the result if it is no worse. A polish that ends on its iteration budget
// while still descending (its last stretch cut the SSE below
// fitPolishProgress of where the stretch began) goes on from its end point,
// up to fitPolishMore further stretches: a curved valley of nearly equal
// small rates (nearly straight data) can take LM more than one budget to
// follow.
func (w *fitWork) polish(r *fitRun, set lmSettings) {
	set.maxIter *= fitPolishIter
	set.accel = true
	p := w.localRun(r.res.p, set)
	from := r.res.f
	for k := 0; k < fitPolishMore && !p.converged && p.f > set.fAbs && p.f < fitPolishProgress*from; k++ {
		from = p.f
		q := w.localRun(p.p, set)
		if !(q.f <= p.f) {
			break
		}
		q.iters += p.iters
		q.evals += p.evals
		p = q
	}
	if p.f <= r.res.f {
		p.iters += r.res.iters
		p.evals += r.res.evals
		r.res = p
	}
}

// rescan returns the pair (p[0], v) or (v, p[1]), v a grid rate, with the
// lowest projected SSE (see scanRate), and that SSE (+Inf if none can be
// screened).
func (w *fitWork) rescan(p [2]float64) ([2]float64, float64) {
	bestP, bestF := p, math.Inf(1)
	for side := range 2 {
		v, f := w.scanRate(p[side], false)
		for k := range 2 {
			if f[k] < bestF {
				bestF = f[k]
				bestP = [2]float64{p[side], v[k]}
			}
		}
	}
	return bestP, bestF
}

// scanRate returns, among the grid rates below beta (v[0]) and above it
// (v[1]), the one that best completes the rate beta: the pair (beta, v[k])
// with the lowest projected SSE f[k] (+Inf, v[k] = beta, if no pair on
// that side can be screened). Pairs whose columns are nearly parallel
// (1 − (gᵥᵀc)² ≤ 10⁻⁴) are skipped: they are a local expansion of beta, not
// a second term. It reuses the normalised grid columns of gridSSE
// and works from the residual r of the one-exponential fit at beta:
// f = ‖r‖² − (gᵥᵀr)²/(1 − (gᵥᵀc)²), c the normalised column of beta. Unlike
// the Σwy² − projection form of gridSSE, this keeps its relative accuracy
// when the residual is tiny (nearly exact data, or a second term far below
// the first).
//
// With slope set, beta may move too, to first order: the column t·c joins
// c (r is then the residual of "exponential plus t·exponential"), and f
// is the linearised SSE of the pair with beta re-fitted. That ranks the
// second rate by what it adds once the first has adjusted, which matters
// when the first term dominates and a small shift of its rate explains
// more than any second term.
//
// It costs one column of exponentials and two or three inner products per
// grid rate.
func (w *fitWork) scanRate(beta float64, slope bool) (v, f [2]float64) {
	n := w.n
	c, d, r := w.z[:n], w.u1[:n], w.r[:n]
	for i := range n {
		c[i] = w.sw[i] * math.Exp(beta*w.t[i])
	}
	nrm := fitNorm(c)
	v, f = [2]float64{beta, beta}, [2]float64{math.Inf(1), math.Inf(1)}
	if !(nrm > 0) || math.IsInf(nrm, 0) {
		return v, f
	}
	for i := range n {
		c[i] /= nrm
		r[i] = w.sw[i] * w.ys[i]
	}
	fitOrthogonalise(r, c)
	if slope {
		for i := range n {
			d[i] = w.t[i] * c[i]
		}
		fitOrthogonalise(d, c)
		nd := fitNorm(d)
		slope = nd > 1e-8
		if slope {
			for i := range n {
				d[i] /= nd
			}
			fitOrthogonalise(r, d)
		}
	}
	f0 := 0.0
	for _, v := range r {
		f0 += v * v
	}
	for k := range fitGridN {
		if !w.gridOK[k] {
			continue
		}
		gk := w.grid[k*n : (k+1)*n]
		var g, g2, h float64
		for i := range n {
			g += c[i] * gk[i]
			h += gk[i] * r[i]
		}
		if slope {
			for i := range n {
				g2 += d[i] * gk[i]
			}
		}
		det := 1 - g*g - g2*g2
		if !(det > 1e-4) {
			continue
		}
		fk := max(0, f0-h*h/det)
		w.evals++
		side := 0
		if w.gridRate(k) > beta {
			side = 1
		}
		if fk < f[side] {
			f[side], v[side] = fk, w.gridRate(k)
		}
	}
	return v, f
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

// singleRate returns the rate of the best one-exponential fit: the grid
// rate with the lowest one-column SSE Σwy² − bₖ², refined by
// Levenberg–Marquardt on the one-exponential problem.
func (w *fitWork) singleRate(set lmSettings) float64 {
	bestK, bestF := -1, math.Inf(1)
	for k := range fitGridN {
		if f := w.yy - w.gridB[k]*w.gridB[k]; w.gridOK[k] && f < bestF {
			bestK, bestF = k, f
		}
	}
	if bestK < 0 {
		return 0
	}
	w.single = true
	set.coarse = true
	r := lmMinimize(w, [2]float64{w.gridRate(bestK), 0}, set)
	w.single = false
	if math.IsInf(r.f, 1) {
		return w.gridRate(bestK)
	}
	return r.p[0]
}

// settled reports whether run r is a trustworthy end of the search: it
// converged, away from the rate box, with no spike term (below), without
// heading for b = d (Cancellation at most fitNearCollapse). Runs that end
// on the box edge usually carry a dead term whose rate drifted off; a spike
// term, so steep that it is below e^−fitSpikeReach of its peak at every
// data point but the end one, fits that point alone and leaves its rate
// undetermined; runs that head for b = d may have a separated minimum
// elsewhere.
func (w *fitWork) settled(r lmResult) bool {
	return r.converged && w.termsWithin(r.p, fitNearCollapse)
}

// termsWithin reports whether the (s, q) point p has both rates inside the
// rate box, neither a spike term (see settled), and terms at most gain
// times the data.
func (w *fitWork) termsWithin(sq [2]float64, gain float64) bool {
	p, alpha, gamma := w.sqModel(sq)
	for _, v := range p {
		if v <= w.lo || v >= w.hi || -v*w.reach[0] > fitSpikeReach || v*w.reach[1] > fitSpikeReach {
			return false
		}
	}
	return w.cancellation(p, alpha, gamma) <= gain
}

// Separation at which a settled best run ends the search (see separated):
// rates at least 2·fitSeparatedEta apart (t units), terms at most
// fitSeparatedTerms times the data and neither below fitSeparatedMinor
// times it.
const (
	fitSeparatedEta   = 0.2
	fitSeparatedTerms = 10
	fitSeparatedMinor = 1e-6
)

// separated reports whether run r has settled (see settled) well apart from
// b = d: its rates at least 2·fitSeparatedEta apart, its terms at most
// fitSeparatedTerms times the data and neither below fitSeparatedMinor
// times it. The search then skips the scan of b = d and the continuation
// through it. A term below fitSeparatedMinor fits next to nothing, so its
// rate is barely determined and the run is one exponential in effect: a
// lower minimum, often a steep term fitting an end point, may lie beyond
// b = d.
func (w *fitWork) separated(r lmResult) bool {
	if !(r.converged && r.p[1] >= fitSeparatedEta*fitSeparatedEta && w.termsWithin(r.p, fitSeparatedTerms)) {
		return false
	}
	p, alpha, gamma := w.sqModel(r.p)
	return min(math.Abs(alpha)*math.Exp(max(0, p[0])), math.Abs(gamma)*math.Exp(max(0, p[1]))) >= fitSeparatedMinor
}

// fitSpikeRuns is the number of spike runs (one per end of the data).
const fitSpikeRuns = 2

// fitSpikeReach is the decay, in e-folds, from the end data point to the
// next one beyond which settled calls a term a spike.
const fitSpikeReach = 30

// fitCandidateCmp orders candidates by group (distinct basins first), then
// by screened SSE, then by position.
func fitCandidateCmp(a, b fitCandidate) int {
	return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.f, b.f), cmp.Compare(a.idx, b.idx))
}

// startPoints fills cands with start points and their screened SSE and
// returns how many there are: the data-driven starts ("halves", "whole"),
// screened by the exact projection, two "residual" starts (the best
// one-exponential rate with the grid rate below and above it that best
// fit its residual, screened by the linearised SSE of scanRate), every
// local minimum of the projected SSE over the grid of rate pairs, and the
// fitGridBest lowest other grid pairs ("grid").
func (w *fitWork) startPoints(cands *[fitMaxStarts]fitCandidate, set lmSettings) int {
	nc := 0
	add := func(b, d float64, kind string) {
		if nc < len(cands) && exp2Finite(b) && exp2Finite(d) {
			p := [2]float64{min(max(b, w.lo), w.hi), min(max(d, w.lo), w.hi)}
			f, _, _, ok := w.lmEval(p)
			if !ok {
				f = math.Inf(1)
			}
			cands[nc] = fitCandidate{p: p, kind: kind, f: f, idx: nc}
			nc++
		}
	}
	w.screen = true
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
	w.screen = false

	var f [fitGridN][fitGridN]float64
	w.gridSSE(&f)
	// Continuation from the best one-exponential fit: its rate paired with
	// the grid rate below it and the one above it that best fit its
	// residual (see scanRate). The better pair always gets a run (group
	// −1), the other one when the search widens (group 1). This finds a
	// second term far below the first (near or under the noise), which the
	// grid pairs cannot rank because the first term's grid mismatch swamps
	// it.
	if nc < len(cands) {
		b1 := w.singleRate(set)
		w.b1 = b1
		rv, rf := w.scanRate(b1, true)
		first := 0
		if rf[1] < rf[0] {
			first = 1
		}
		for k, group := range [2]int{-1, 1} {
			side := first ^ k
			if nc < len(cands) && !math.IsInf(rf[side], 1) {
				cands[nc] = fitCandidate{p: [2]float64{b1, rv[side]}, kind: "residual", group: group, f: rf[side], idx: nc}
				nc++
			}
		}
	}
	// The fitGridBest lowest pairs, kept sorted (ties by position).
	type pair struct {
		f  float64
		ij int
	}
	less := func(a, b pair) bool { return a.f < b.f || (a.f == b.f && a.ij < b.ij) }
	var top [fitGridBest]pair
	ntop := 0
	for i := range fitGridN {
		for j := i + 1; j < fitGridN; j++ {
			c := pair{f[i][j], i*fitGridN + j}
			if math.IsInf(c.f, 1) {
				continue
			}
			if fitGridLocalMin(&f, i, j) {
				if nc < len(cands) {
					cands[nc] = fitCandidate{p: [2]float64{w.gridRate(i), w.gridRate(j)}, kind: "grid", f: c.f, idx: nc}
					nc++
				}
				continue
			}
			if ntop < len(top) {
				top[ntop] = c
				ntop++
			} else if less(c, top[ntop-1]) {
				top[ntop-1] = c
			} else {
				continue
			}
			for k := ntop - 1; k > 0 && less(top[k], top[k-1]); k-- {
				top[k], top[k-1] = top[k-1], top[k]
			}
		}
	}
	for _, c := range top[:ntop] {
		if nc < len(cands) {
			i, j := c.ij/fitGridN, c.ij%fitGridN
			cands[nc] = fitCandidate{p: [2]float64{w.gridRate(i), w.gridRate(j)}, kind: "grid", group: 1, f: c.f, idx: nc}
			nc++
		}
	}
	return nc
}

// gridRate returns grid rate k clamped into the rate box.
func (w *fitWork) gridRate(k int) float64 { return min(max(fitGrid[k], w.lo), w.hi) }

// gridSSE sets f[i][j] (i < j) to the projected SSE at grid rates (i, j).
// Each grid column √w·e^(rate·t) is computed and normalised once; the SSE of
// a pair then follows from the columns' inner products in O(1):
// f = Σwy² − (bᵢ² − 2bᵢbⱼgᵢⱼ + bⱼ²)/(1 − gᵢⱼ²), with bₖ the inner product of
// column k with √w·ys and gᵢⱼ that of columns i and j. This normal-equation
// form loses accuracy when columns are nearly parallel; it only ranks starts.
func (w *fitWork) gridSSE(f *[fitGridN][fitGridN]float64) {
	n := w.n
	b, ok := &w.gridB, &w.gridOK
	for k := range fitGridN {
		col := w.grid[k*n : (k+1)*n]
		v := w.gridRate(k)
		for i := range n {
			col[i] = w.sw[i] * math.Exp(v*w.t[i])
		}
		nrm := fitNorm(col)
		if !(nrm > 0) || math.IsInf(nrm, 0) {
			continue
		}
		ok[k] = true
		for i := range n {
			col[i] /= nrm
			b[k] += col[i] * w.sw[i] * w.ys[i]
		}
	}
	for i := range fitGridN {
		for j := i + 1; j < fitGridN; j++ {
			f[i][j] = math.Inf(1)
			if !ok[i] || !ok[j] {
				continue
			}
			ci, cj := w.grid[i*n:(i+1)*n], w.grid[j*n:(j+1)*n]
			var g float64
			for k := range n {
				g += ci[k] * cj[k]
			}
			proj := max(b[i]*b[i], b[j]*b[j])
			if det := 1 - g*g; det > 1e-10 {
				proj = (b[i]*b[i] - 2*b[i]*b[j]*g + b[j]*b[j]) / det
			}
			f[i][j] = max(0, w.yy-proj)
			w.evals++
		}
	}
}

// fitGridLocalMin reports whether grid pair (i, j) has a finite screened SSE
// no larger than any neighbouring pair's (i±1, j±1 with i < j); ties with an
// earlier neighbour go to the earlier pair, so a flat plateau yields one
// start.
func fitGridLocalMin(f *[fitGridN][fitGridN]float64, i, j int) bool {
	v := f[i][j]
	if math.IsInf(v, 1) {
		return false
	}
	for di := -1; di <= 1; di++ {
		for dj := -1; dj <= 1; dj++ {
			a, b := i+di, j+dj
			if (di == 0 && dj == 0) || a < 0 || b >= fitGridN || a >= b {
				continue
			}
			if u := f[a][b]; u < v || (u == v && (a < i || (a == i && b < j))) {
				return false
			}
		}
	}
	return true
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
			if q, alpha, gamma := w.sqModel(r.res.p); !w.collapsed(q, alpha, gamma) {
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
	for k := range fitGridN {
		try(w.gridRate(k))
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

// Term sizes (FitReport.Cancellation) at which localRun changes
// parametrisation: beyond fitSQEnter it works in (s, q), below fitSQLeave
// in (β, δ).
const (
	fitSQEnter = 8
	fitSQLeave = 2
)

// Rate sizes |s| + √q (t units) at which localRun changes parametrisation:
// below fitSPEnter it works in (σ, π), beyond fitSPLeave it leaves it.
// For larger rates the columns of the sum and the product can be nearly
// parallel (the σ column is ∂/∂s/2 + s·∂/∂q), which Marquardt's diagonal
// scaling does not undo: a run there stops early on its step tolerance.
const (
	fitSPEnter = 0.2
	fitSPLeave = 0.4
)

// fitSPToSQ converts (σ, π), the sum and product of the rates, to (s, q):
// s = σ/2, q = σ²/4 − π (negative for complex rates; the search's region
// keeps q ≥ 0).
func fitSPToSQ(p [2]float64) [2]float64 {
	s := p[0] / 2
	return [2]float64{s, s*s - p[1]}
}

// fitSQToSP converts (s, q) to (σ, π) = (2s, s² − q).
func fitSQToSP(p [2]float64) [2]float64 {
	return [2]float64{2 * p[0], p[0]*p[0] - p[1]}
}

// fitFrame is an orthonormal frame of the (σ, π) plane: the point
// o + v·u has coordinates u. A linear change keeps the nearly straight
// valley of (σ, π) straight; a frame along the eigenvectors of JᵀJ at its
// origin makes JᵀJ diagonal there, so Marquardt's diagonal scaling reaches
// a weak direction that mixes σ and π (one term much smaller than the
// other: both columns then follow the larger term's rate).
type fitFrame struct {
	o [2]float64
	v [2][2]float64
}

// toSQ returns the (s, q) point of frame coordinates u.
func (f *fitFrame) toSQ(u [2]float64) [2]float64 {
	return fitSPToSQ([2]float64{f.o[0] + f.v[0][0]*u[0] + f.v[0][1]*u[1], f.o[1] + f.v[1][0]*u[0] + f.v[1][1]*u[1]})
}

// fromSQ returns the frame coordinates of the (s, q) point q.
func (f *fitFrame) fromSQ(q [2]float64) [2]float64 {
	p := fitSQToSP(q)
	d := [2]float64{p[0] - f.o[0], p[1] - f.o[1]}
	return [2]float64{f.v[0][0]*d[0] + f.v[1][0]*d[1], f.v[0][1]*d[0] + f.v[1][1]*d[1]}
}

// fitEigenFrame returns the frame at o along the eigenvectors of the
// symmetric matrix a = {a₁₁, a₁₂, a₂₂}.
func fitEigenFrame(o [2]float64, a [3]float64) fitFrame {
	th := 0.5 * math.Atan2(2*a[1], a[0]-a[2])
	c, s := math.Cos(th), math.Sin(th)
	return fitFrame{o: o, v: [2][2]float64{{c, -s}, {s, c}}}
}

// fitSmallRates reports whether the (s, q) point p has rates small enough,
// |s| + √q below lim, for the (σ, π) parametrisation.
func fitSmallRates(p [2]float64, lim float64) bool {
	return math.Abs(p[0])+math.Sqrt(max(p[1], 0)) < lim
}

// lmLeave reports whether a run should change parametrisation at the point
// lmEval last evaluated: in (σ, π) when the rates are no longer small; in
// (β, δ) and (s, q) when they are, and otherwise in (β, δ) when the terms
// cancel (or the rates have met), in (s, q) when they no longer do.
func (w *fitWork) lmLeave() bool {
	switch {
	case w.sp:
		return !fitSmallRates(w.lastSQ, fitSPLeave)
	case fitSmallRates(w.lastSQ, fitSPEnter):
		return true
	case w.sq:
		return w.cancel < fitSQLeave
	}
	return w.cancel > fitSQEnter
}

// Parametrisations of localRun.
const (
	fitModeRates = iota // (β, δ)
	fitModeSQ           // (s, q)
	fitModeSP           // (σ, π)
)

// localRun runs Levenberg–Marquardt from p0 = (s, q), in (β, δ) while the
// terms are about the size of the data, in (s, q) while they cancel (the
// rates heading for b = d) and in (σ, π) while both rates are small
// (nearly straight data: there the valley of the projected SSE is curved
// in the other two and nearly straight in the sum and product of the
// rates), switching as the iterates cross (at most 4 times). The result's
// p is in (s, q).
func (w *fitWork) localRun(p0 [2]float64, set lmSettings) lmResult {
	p := p0
	mode := fitModeRates
	set.leave = true
	w.wall = true
	defer func() { w.wall = false }()
	var out lmResult
	for k := 0; ; k++ {
		s := set
		s.maxIter = max(1, set.maxIter-out.iters)
		var r lmResult
		switch mode {
		case fitModeSQ:
			s.sq = true
			w.sq = true
			r = lmMinimize(w, p, s)
			w.sq = false
		case fitModeSP:
			s.sq, s.sp = true, true
			w.sq, w.sp = true, true
			w.frame = fitFrame{o: fitSQToSP(p), v: [2][2]float64{{1, 0}, {0, 1}}}
			if _, a, _, ok := w.lmEval([2]float64{}); ok {
				w.frame = fitEigenFrame(w.frame.o, a)
			}
			s.frame = w.frame
			r = lmMinimize(w, [2]float64{}, s)
			w.sq, w.sp = false, false
			r.p = w.frame.toSQ(r.p)
		default:
			r = lmMinimize(w, fitFromSQ(p), s)
			r.p = fitToSQ(r.p)
		}
		r.iters += out.iters
		r.evals += out.evals
		out = r
		if !r.left || k == 4 || out.iters >= set.maxIter {
			out.left = false
			return out
		}
		p = r.p
		switch {
		case mode != fitModeSP && fitSmallRates(p, fitSPEnter):
			mode = fitModeSP
		case mode == fitModeSQ:
			mode = fitModeRates
		case mode == fitModeRates:
			mode = fitModeSQ
		default: // leaving (σ, π): by the terms' size
			mode = fitModeRates
			if w.cancel > fitSQEnter {
				mode = fitModeSQ
			}
		}
	}
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

// fitPolishIter multiplies the iteration budget of the final polish.
const fitPolishIter = 1

// A polish that ends on its budget having cut the SSE below
// fitPolishProgress of its start goes on, up to fitPolishMore times (see
// polish).
const (
	fitPolishMore     = 2
	fitPolishProgress = 0.5
)

// Continuation through b = d.
const (
	fitThroughEtaMax = 0.1 // a run ending with η below this is near b = d
	fitThroughRuns   = 2   // full runs from the lowest continuation points
)

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

// valley returns the lowest point found on b = d itself, q = 0, where exp2
// becomes e^(s·t)·(a + c·t): a one-parameter problem. Each grid rate is
// screened (its normalised column c and t·c orthogonalised against it:
// SSE = Σwy² − (cᵀy)² − (dᵀy)²), and the two lowest local minima over the
// grid are refined by a one-parameter run in s. Several runs can end at
// different points of b = d; this finds the lowest by a 1-D search instead
// of by luck. ok is false if no grid rate could be screened.
func (w *fitWork) valley(set lmSettings) (lmResult, bool) {
	n := w.n
	var f [fitGridN]float64
	d := w.z[:n]
	for k := range fitGridN {
		f[k] = math.Inf(1)
		if !w.gridOK[k] {
			continue
		}
		c := w.grid[k*n : (k+1)*n]
		for i := range n {
			d[i] = w.t[i] * c[i]
		}
		fitOrthogonalise(d, c)
		nd := fitNorm(d)
		if !(nd > 0) {
			continue
		}
		var b2 float64
		for i := range n {
			b2 += d[i] * w.sw[i] * w.ys[i]
		}
		b2 /= nd
		f[k] = max(0, w.yy-w.gridB[k]*w.gridB[k]-b2*b2)
	}
	// The two lowest local minima over the grid.
	var ks [2]int
	nk := 0
	for k := range fitGridN {
		if math.IsInf(f[k], 1) || (k > 0 && f[k-1] < f[k]) || (k+1 < fitGridN && f[k+1] <= f[k]) {
			continue
		}
		switch {
		case nk < 2:
			ks[nk] = k
			nk++
		case f[k] < f[ks[1]]:
			ks[1] = k
		}
		if nk == 2 && f[ks[1]] < f[ks[0]] {
			ks[0], ks[1] = ks[1], ks[0]
		}
	}
	set.sq = true
	set.avoid = nil
	set.leave = false
	set.accel = false
	set.maxIter = 20
	best := lmResult{f: math.Inf(1)}
	w.sq, w.fixQ = true, true
	for _, k := range ks[:nk] {
		r := lmMinimize(w, [2]float64{w.gridRate(k), 0}, set)
		if r.f < best.f {
			best = r
		}
	}
	w.sq, w.fixQ = false, false
	return best, !math.IsInf(best.f, 1)
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
