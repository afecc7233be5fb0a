package tct

import "math"

// Search constants.
const (
	fitExactRel    = 1e-30  // objective ≤ fitExactRel·Σwy² counts as an exact fit
	fitCollapseSep = 1.5e-8 // |β−δ| ≤ √ε·max(1,|β|): the rates have met
	// fitCollapseGain is the term/data ratio beyond which half of
	// float64's digits cancel; runs treat such points as unevaluable.
	fitCollapseGain = 1e8
	// A polish that ends on its budget having cut the SSE below
	// fitPolishProgress of its start goes on, up to fitPolishMore times.
	fitPolishMore     = 2
	fitPolishProgress = 0.5
	// fitDupTol is the distance (relative, see lmSettings.avoid) at which
	// an exploratory run stops on reaching where an earlier run ended.
	fitDupTol = 1e-2
	// Every start after the first two gets fitRaceIter iterations; the
	// fitRaceKeep lowest runs that stopped on that budget go on to the
	// full one.
	fitRaceIter = 10
	fitRaceKeep = 3
)

// fitRun is one Levenberg–Marquardt run and where it started. Its result's
// p is in (s, q) (see fitToSQ).
type fitRun struct {
	start [2]float64
	kind  string
	res   lmResult
}

// fitMaxRuns bounds the runs of one search: two residual starts, the scan's
// plain and relaxed minima and its lowest pair, the halves start, two
// spike starts and two from the separation profile.
const fitMaxRuns = 2 + 2*fitScanStarts + 1 + 1 + 2 + fitThroughRuns

// fitRuns collects the runs of one search: the runs, where each ended (in
// rates, for lmSettings.avoid) and the lowest.
type fitRuns struct {
	run   [fitMaxRuns]fitRun
	found [fitMaxRuns]lmEnd
	n     int
	best  int // −1 before the first run
}

// add records run r and returns its index.
func (rs *fitRuns) add(r fitRun) int {
	i := rs.n
	rs.run[i] = r
	rs.found[i] = lmEnd{fitFromSQ(r.res.p), r.res.f}
	if rs.best < 0 || r.res.f < rs.run[rs.best].res.f {
		rs.best = i
	}
	rs.n++
	return i
}

// lowest returns the index of the lowest run for which ok holds, or −1.
func (rs *fitRuns) lowest(ok func(i int, r fitRun) bool) int {
	c := -1
	for i, r := range rs.run[:rs.n] {
		if ok(i, r) && (c < 0 || r.res.f < rs.run[c].res.f) {
			c = i
		}
	}
	return c
}

// solve runs the whole search on loaded data and returns the model in the
// caller's units with the search part of the report filled (see the
// package doc for the order and the reasons):
//
//  1. the scan, and the starts it gives;
//  2. full runs from the best residual start and the best relaxed minimum;
//     if the better one ends well inside the exp2 family (interior) and no
//     higher than the scan's lowest pair, the search has settled;
//  3. otherwise short runs (fitRaceIter iterations) from every other
//     start, the fitRaceKeep lowest that stopped on that budget continued
//     to the full one;
//  4. the polish of the best run and of the lowest run that ended on its
//     budget;
//  5. unless the search settled, the separation profile from the lowest
//     run that ended near b = d, and runs from its lowest points;
//  6. the handling of b = d (finish).
func (w *fitWork) solve() (Exp2, FitReport) {
	if w.constant {
		return Exp2{A: w.yconst}, FitReport{Converged: true, Start: FitStart{Kind: "constant"}}
	}
	set := lmSettings{maxIter: w.maxIter, lo: [2]float64{w.lo, w.lo}, hi: [2]float64{w.hi, w.hi}, fAbs: fitExactRel * w.yy}

	var scan fitScan
	var table fitTable
	w.buildScan(&scan)
	w.scanTable(&scan, &table)
	scanP, _, nScan := w.scanMinima(&scan, &table.plain, nil)
	relaxP, _, nRelax := w.scanMinima(&scan, &table.relax, &table.step)
	lowP, lowF := w.scanLowestPair(&scan, &table)
	resP, nRes := w.residualStarts(&scan, set)

	rs := fitRuns{best: -1}
	explore := set
	explore.coarse = true
	explore.avoidTol = fitDupTol
	try := func(p [2]float64, kind string, budget int) {
		for _, r := range rs.run[:rs.n] {
			if r.start == p {
				return
			}
		}
		explore.avoid, explore.maxIter = rs.found[:rs.n], budget
		rs.add(fitRun{start: p, kind: kind, res: w.runKind(kind, p, p, explore)})
	}

	// 2. The best starts of the two kinds that rank a second term best.
	if nRes > 0 {
		try(resP[0], "residual", set.maxIter)
	}
	if nRelax > 0 {
		try(relaxP[0], "relaxed", set.maxIter)
	}
	settled := rs.best >= 0 && rs.run[rs.best].res.f <= lowF && w.interior(rs.run[rs.best].res)
	if !settled {
		// 3. The race.
		race := min(set.maxIter, fitRaceIter)
		for _, p := range resP[:nRes] {
			try(p, "residual", race)
		}
		for _, p := range relaxP[:nRelax] {
			try(p, "relaxed", race)
		}
		for _, p := range scanP[:nScan] {
			try(p, "scan", race)
		}
		if !math.IsInf(lowF, 1) {
			try(lowP, "scan", race)
		}
		if p, ok := w.halvesStart(); ok {
			try(p, "halves", race)
		}
		if nRes > 0 {
			try([2]float64{w.lo, resP[0][0]}, "spike", race)
			try([2]float64{resP[0][0], w.hi}, "spike", race)
		}
		w.continueRace(&rs, race, explore, set.maxIter)
	}
	if rs.best < 0 || math.IsInf(rs.run[rs.best].res.f, 1) {
		// No start could be evaluated (not expected: every projection of
		// finite scaled data is finite).
		return Exp2{A: w.meanY()}, FitReport{Start: FitStart{Kind: "constant"}, Evaluations: w.evals}
	}
	// 4. Polish.
	w.polish(&rs.run[rs.best], set)
	w.polishUnfinished(&rs, set)
	// 5. Through b = d.
	if !settled {
		explore.avoid, explore.maxIter = nil, set.maxIter
		w.continueThrough(&rs, explore, set)
	}
	return w.finish(rs.run[rs.best], rs.run[:rs.n], set)
}

// runKind is a run from the rates p of a start of the given kind: a spike
// run (see runSpike), the lower rate in its tail when the start paired the
// lower bound, for "spike"; run otherwise.
func (w *fitWork) runKind(kind string, start, p [2]float64, set lmSettings) lmResult {
	switch {
	case kind != "spike":
		return w.run(p, set)
	case start[0] == w.lo:
		return w.runSpike(p, 0, set)
	}
	return w.runSpike(p, 1, set)
}

// continueRace lets the fitRaceKeep lowest runs that stopped on the race's
// budget go on to the whole one, maxIter, lowest first; a run whose way
// on ends higher keeps its end.
func (w *fitWork) continueRace(rs *fitRuns, race int, set lmSettings, maxIter int) {
	if maxIter <= race {
		return
	}
	var continued [fitMaxRuns]bool
	for range fitRaceKeep {
		c := rs.lowest(func(i int, r fitRun) bool {
			return !continued[i] && !r.res.converged && !r.res.dup && r.res.iters == race
		})
		if c < 0 {
			return
		}
		continued[c] = true
		set.avoid, set.maxIter = nil, maxIter-race
		r := &rs.run[c]
		if res := w.runKind(r.kind, r.start, fitFromSQ(r.res.p), set); res.f <= r.res.f {
			res.iters += r.res.iters
			res.evals += r.res.evals
			r.res = res
			if res.f < rs.run[rs.best].res.f {
				rs.best = c
			}
		}
	}
}

// polishUnfinished polishes the lowest run other than the best that ended
// on its iteration budget: it has not reached a minimum yet (a long
// valley of nearly equal rates can take more than one budget).
func (w *fitWork) polishUnfinished(rs *fitRuns, set lmSettings) {
	if rs.run[rs.best].res.f <= set.fAbs {
		return
	}
	c := rs.lowest(func(i int, r fitRun) bool {
		return i != rs.best && !r.res.converged && !r.res.dup && r.res.iters >= set.maxIter
	})
	if c < 0 {
		return
	}
	w.polish(&rs.run[c], set)
	if rs.run[c].res.f < rs.run[rs.best].res.f {
		rs.best = c
	}
}

// continueThrough profiles the separation from the lowest run that ended
// near b = d (see throughCollapse) and runs from the profile's lowest
// points that lie below the best run, polishing a run that wins. Runs
// here do not stop at earlier results: the point near b = d is one, and
// the way to a lower basin passes close to it.
func (w *fitWork) continueThrough(rs *fitRuns, explore, set lmSettings) {
	if rs.run[rs.best].res.f <= set.fAbs {
		return
	}
	near := rs.lowest(func(_ int, r fitRun) bool { return !math.IsInf(r.res.f, 1) && w.nearCollapse(r.res.p) })
	if near < 0 {
		return
	}
	starts, fs, k := w.throughCollapse(rs.run[near].res, explore)
	through := -1
	for i, q := range starts[:k] {
		if !(fs[i] < rs.run[rs.best].res.f) {
			break
		}
		p := fitFromSQ(q)
		if j := rs.add(fitRun{start: p, kind: "through", res: w.run(p, explore)}); rs.best == j {
			through = j
		}
	}
	if through >= 0 {
		w.polish(&rs.run[through], set)
	}
}

// Term sizes (FitReport.Cancellation) at which a run changes
// parametrisation: beyond fitSQEnter it works in (s, q), below fitSQLeave
// in the rates.
const (
	fitSQEnter = 8
	fitSQLeave = 2
)

// run is a Levenberg–Marquardt run from the rates p, in the rates while
// the terms are about the size of the data and in (s, q) while they
// cancel (the rates heading for b = d, where the columns e^(β·t), e^(δ·t)
// become parallel and the cosh/sinh basis of (s, q) keeps the projection
// accurate), switching as the iterates cross (at most 4 times). It
// refuses points whose terms exceed fitCollapseGain times the data. A run
// never ends above its start: a part that ends above where the previous
// part left off (the other basis evaluating the same point less accurately)
// is dropped and the run ends there. The result's p is in (s, q).
func (w *fitWork) run(p [2]float64, set lmSettings) lmResult {
	q := fitToSQ(p)
	set.leave = true
	w.wall = true
	defer func() { w.wall = false }()
	var out lmResult
	for k := 0; ; k++ {
		s := set
		s.maxIter = max(1, set.maxIter-out.iters)
		var r lmResult
		if w.sq {
			s.sq = true
			r = lmMinimize(w, q, s)
		} else {
			r = lmMinimize(w, fitFromSQ(q), s)
			r.p = fitToSQ(r.p)
		}
		r.iters += out.iters
		r.evals += out.evals
		if k > 0 && !(r.f <= out.f) {
			// The other parametrisation evaluates the same point less
			// accurately (its basis is poor there): keep the way so far.
			out.iters, out.evals = r.iters, r.evals
			out.left, out.converged = false, false
			w.sq = false
			return out
		}
		out = r
		if !r.left || k == 4 || out.iters >= set.maxIter {
			out.left = false
			w.sq = false
			return out
		}
		q = r.p
		w.sq = !w.sq
	}
}

// lmLeave reports whether a run should change parametrisation at the
// point lmEval last evaluated (see run).
func (w *fitWork) lmLeave() bool {
	if w.sq {
		return w.cancel < fitSQLeave
	}
	return w.cancel > fitSQEnter
}

// polish re-runs r from where it ended with the tight tolerances of set
// and geodesic acceleration, and keeps the result if it is no worse. A
// polish that ends on its iteration budget while still descending (its
// last stretch cut the SSE below fitPolishProgress of where the stretch
// began) goes on from its end point, up to fitPolishMore further
// stretches: a long curved valley of nearly equal small rates (nearly
// straight data) can take more than one budget to follow.
func (w *fitWork) polish(r *fitRun, set lmSettings) {
	set.accel = true
	p := w.run(fitFromSQ(r.res.p), set)
	from := r.res.f
	for k := 0; k < fitPolishMore && !p.converged && p.f > set.fAbs && p.f < fitPolishProgress*from; k++ {
		from = p.f
		q := w.run(fitFromSQ(p.p), set)
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

// finish turns the best run into the model and report: at or near b = d
// it moves along b = d to the closest representable exp2 (relieve), and
// when the rates have met it returns the best one-exponential fit
// (resolveCollapse).
func (w *fitWork) finish(best fitRun, runs []fitRun, set lmSettings) (Exp2, FitReport) {
	rep := FitReport{Iterations: best.res.iters, Converged: best.res.converged}
	rep.Start = FitStart{Kind: best.kind, B: best.start[0] / w.span, D: best.start[1] / w.span}
	p, alpha, gamma := w.sqModel(best.res.p)
	if w.cancellation(p, alpha, gamma) > fitRelieveFrom || w.collapsed(p, alpha, gamma) {
		if r, ok := w.relieve(best.res, set); ok {
			best.res = r
			rep.Iterations, rep.Converged = r.iters, r.converged
			p, alpha, gamma = w.sqModel(r.p)
		}
	}
	single := false
	if w.collapsed(p, alpha, gamma) {
		var c fitRun
		c, single = w.resolveCollapse(p, runs, set)
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

// fitSpikeReach is the decay, in e-folds, from an end point of the data to
// the next point beyond which a term counts as a spike: it fits that end
// point nearly alone, its rate barely determined.
const fitSpikeReach = 10

// interior reports whether run r converged well inside the exp2 family:
// rates at least 0.4 apart (t units) and inside the rate box, terms at
// most 10 times the data and neither below 10⁻⁶ of it, and no spike term
// (see fitSpikeReach). Such a run is where the search settles (see solve); the
// others are at or near the family's boundary (b = d, the rate box, a
// negligible term), where a lower exp2 can lie beyond a ridge.
func (w *fitWork) interior(r lmResult) bool {
	if !r.converged || r.p[1] < 0.04 {
		return false
	}
	p, alpha, gamma := w.sqModel(r.p)
	if !(p[0] > w.lo && p[1] < w.hi) {
		return false
	}
	t1 := math.Abs(alpha) * math.Exp(max(0, p[0]))
	t2 := math.Abs(gamma) * math.Exp(max(0, p[1]))
	if max(t1, t2) > 10 || min(t1, t2) < 1e-6 {
		return false
	}
	reach := w.reach()
	for _, v := range p {
		if -v*reach[0] > fitSpikeReach || v*reach[1] > fitSpikeReach {
			return false
		}
	}
	return true
}

// reach returns the distances in t from the ends t = 0 and t = 1 to the
// nearest other data point with positive weight.
func (w *fitWork) reach() [2]float64 {
	reach := [2]float64{1, 1}
	for i := range w.n {
		if ti := w.t[i]; w.sw[i] > 0 {
			if ti > 0 {
				reach[0] = min(reach[0], ti)
			}
			if ti < 1 {
				reach[1] = min(reach[1], 1-ti)
			}
		}
	}
	return reach
}

// fitSpike is the problem of a spike run: rate k of the pair is replaced
// by its tail u = e^(rate·h), h = reach[0] for the lower rate (a decay
// seen from t = 0) and −reach[1] for the upper one (a growth seen from
// t = 1). On the data, the term's column divided by its end value is
// (1, u, u^(t₂/h), …) with exponents ≥ 1: smooth and far from flat as
// u → 0, while its derivative in the rate vanishes like u. A run in the
// rate that reaches the plateau near a bound of the box stops there as
// converged, though the SSE may still fall towards a steep rate that the
// data's second point sees; a run in u goes on.
type fitSpike struct {
	w *fitWork
	k int
	h float64
}

// rates returns the rate pair of the point p of the spike problem,
// clamped into the box.
func (sp *fitSpike) rates(p [2]float64) [2]float64 {
	p[sp.k] = min(max(math.Log(p[sp.k])/sp.h, sp.w.lo), sp.w.hi)
	return p
}

func (sp *fitSpike) lmEval(p [2]float64) (f float64, jtj [3]float64, g [2]float64, ok bool) {
	f, jtj, g, ok = sp.w.lmEval(sp.rates(p))
	if !ok {
		return f, jtj, g, ok
	}
	d := 1 / (p[sp.k] * sp.h) // d rate / du
	g[sp.k] *= d
	jtj[1] *= d
	jtj[2*sp.k] *= d * d
	return f, jtj, g, ok
}

// runSpike is a Levenberg–Marquardt run from the rates p with rate k in
// its tail coordinate (see fitSpike), the other in the rate. The result's
// p is in (s, q), as run's.
func (w *fitWork) runSpike(p [2]float64, k int, set lmSettings) lmResult {
	sp := &w.spike // a field of the work state: no allocation
	*sp = fitSpike{w: w, k: k, h: w.reach()[k]}
	if k == 1 {
		sp.h = -sp.h
	}
	ulo, uhi := math.Exp(w.lo*sp.h), math.Exp(w.hi*sp.h)
	if sp.h < 0 {
		ulo, uhi = uhi, ulo
	}
	set.lo[k], set.hi[k] = ulo, uhi
	set.avoid = nil
	p[k] = min(max(math.Exp(p[k]*sp.h), ulo), uhi)
	w.wall = true
	r := lmMinimize(sp, p, set)
	w.wall = false
	r.p = fitToSQ(sp.rates(r.p))
	return r
}
