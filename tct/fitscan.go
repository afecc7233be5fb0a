package tct

import "math"

// The rate scan of FitExp2 (see the package doc for the argument behind
// its step). Rates are in units of the unit span t ∈ [0, 1].
const (
	// fitScanMax is the number of scanned rates at most; their columns
	// share the scratch buffer with the Levenberg–Marquardt runs.
	fitScanMax = 25
	// fitScanArc is the bound on the angle (radians) between the
	// normalised columns of neighbouring scanned rates that the scan
	// refines to, fitScanMax permitting.
	fitScanArc = 0.25
	// fitScanStarts is the number of the scan's lowest local minima that
	// start a Levenberg–Marquardt run.
	fitScanStarts = 3
)

// fitScan holds the scanned rates in increasing order.
type fitScan struct {
	n int
	r [fitScanMax]fitScanRate
}

// A fitScanRate is one scanned rate with what the scan keeps of its
// normalised column c = √w·e^(rate·t)/‖√w·e^(rate·t)‖.
type fitScanRate struct {
	rate float64
	slot int     // c is in fitWork.scanCol(slot)
	mean float64 // the mean of t under the weights c²
	proj float64 // the projection of the weighted data on c
	norm float64 // ‖√w·e^(rate·t)‖
	ok   bool    // c could be normalised
}

// scanColumn writes the normalised column √w·e^(rate·t) to c and returns
// the mean of t under the weights c², the projection of √w·ys on c, the
// norm the column had, and whether c could be normalised (false only if
// it underflows or overflows, which the rate bounds rule out for data
// that passed load).
func (w *fitWork) scanColumn(rate float64, c []float64) (mean, proj, nrm float64, ok bool) {
	for i := range w.n {
		c[i] = w.sw[i] * math.Exp(rate*w.t[i])
	}
	nrm = fitNorm(c)
	if !(nrm > 0) || math.IsInf(nrm, 0) {
		return 0, 0, 0, false
	}
	for i := range w.n {
		c[i] /= nrm
		mean += c[i] * c[i] * w.t[i]
		proj += c[i] * w.sw[i] * w.ys[i]
	}
	return mean, proj, nrm, true
}

// scanArc bounds the angle between the normalised columns of the scanned
// rates k and k+1: √((r₂ − r₁)·(m₂ − m₁)/2), m the means of t (see the
// package doc). It is +Inf when either column is unusable.
func (s *fitScan) scanArc(k int) float64 {
	if !s.r[k].ok || !s.r[k+1].ok {
		return math.Inf(1)
	}
	return math.Sqrt((s.r[k+1].rate - s.r[k].rate) * max(0, s.r[k+1].mean-s.r[k].mean) / 2)
}

// buildScan fills s with the rates lo, 0 and hi and then, while fewer than
// fitScanMax, splits the interval with the largest arc bound above
// fitScanArc at its midpoint.
func (w *fitWork) buildScan(s *fitScan) {
	s.n = 0
	add := func(pos int, rate float64) {
		copy(s.r[pos+1:s.n+1], s.r[pos:s.n])
		r := fitScanRate{rate: rate, slot: s.n}
		r.mean, r.proj, r.norm, r.ok = w.scanColumn(rate, w.scanCol(r.slot))
		s.r[pos] = r
		s.n++
	}
	add(0, w.lo)
	add(1, 0)
	add(2, w.hi)
	for s.n < fitScanMax {
		split, arc := -1, fitScanArc
		for k := 0; k+1 < s.n; k++ {
			if a := s.scanArc(k); a > arc {
				split, arc = k, a
			}
		}
		if split < 0 {
			return
		}
		add(split+1, (s.r[split].rate+s.r[split+1].rate)/2)
	}
}

// scanCol returns scratch slot k of the scan's columns.
func (w *fitWork) scanCol(k int) []float64 { return w.scan[k*w.n : (k+1)*w.n] }

// fitTable holds the scan's tables over pairs of scanned rates (j ≤ k):
// plain[j][k] is the projected SSE at the rates, and plain[j][j] that of
// their limit b = d at rate j, the span of √w·e^(rate·t) and
// √w·t·e^(rate·t); relax[j][k] is the SSE with both rates free to first
// order (the projection on e^(rate·t) and t·e^(rate·t) of both rates;
// on b = d, of e^(rate·t), t·e^(rate·t) and t²·e^(rate·t)), and step[j][k]
// the first-order rate changes that projection implies. Entries that
// cannot be evaluated are +Inf.
type fitTable struct {
	plain, relax [fitScanMax][fitScanMax]float64
	step         [fitScanMax][fitScanMax][2]float64
}

// scanTable fills t. With cⱼ, cₖ the stored columns, g = cⱼᵀcₖ and pⱼ, pₖ
// their projections of the data, a plain entry is
// Σwy² − pⱼ² − (pₖ − g·pⱼ)²/(1 − g²): one inner product of two stored
// columns (and for nearly parallel columns one more pass, see scanPair). A relaxed entry adds dⱼ = (t − mⱼ)·cⱼ/σⱼ, the unit tangent of
// the column (mⱼ and σⱼ the mean and standard deviation of t under the
// weights cⱼ²), whose inner products with cₖ and dₖ follow from Σt·cⱼcₖ
// and Σt²·cⱼcₖ.
func (w *fitWork) scanTable(s *fitScan, tb *fitTable) {
	n := w.n
	v := w.r[:n]
	var sd, pd [fitScanMax]float64 // σⱼ and dⱼᵀy
	for j := range s.n {
		if !s.r[j].ok {
			continue
		}
		cj := w.scanCol(s.r[j].slot)
		var ss, p float64
		for i := range n {
			d := (w.t[i] - s.r[j].mean) * cj[i]
			ss += d * d
			p += d * w.sw[i] * w.ys[i]
		}
		sd[j] = math.Sqrt(ss)
		if sd[j] > 0 {
			pd[j] = p / sd[j]
		}
	}
	for j := range s.n {
		for k := j; k < s.n; k++ {
			tb.plain[j][k], tb.relax[j][k] = math.Inf(1), math.Inf(1)
		}
		if !s.r[j].ok || !(sd[j] > 0) {
			continue
		}
		cj := w.scanCol(s.r[j].slot)
		one := w.yy - s.r[j].proj*s.r[j].proj
		two := one - pd[j]*pd[j]
		tb.plain[j][j] = max(0, two)
		// Relaxed b = d: the part of (t − mⱼ)²·cⱼ orthogonal to cⱼ and dⱼ.
		for i := range n {
			d := w.t[i] - s.r[j].mean
			v[i] = d * d * cj[i]
		}
		fitOrthogonalise(v, cj)
		dj := w.u1[:n] // scratch: the unit tangent
		for i := range n {
			dj[i] = (w.t[i] - s.r[j].mean) * cj[i] / sd[j]
		}
		fitOrthogonalise(v, dj)
		if nv := fitNorm(v); nv > 0 {
			var p float64
			for i := range n {
				p += v[i] * w.sw[i] * w.ys[i]
			}
			p /= nv
			tb.relax[j][j] = max(0, two-p*p)
		}
		for k := j + 1; k < s.n; k++ {
			if !s.r[k].ok || !(sd[k] > 0) {
				continue
			}
			ck := w.scanCol(s.r[k].slot)
			var s0, s1, s2 float64
			for i := range n {
				c := cj[i] * ck[i]
				t := w.t[i]
				s0 += c
				s1 += t * c
				s2 += t * t * c
			}
			w.evals++
			if e, d, ok := w.scanPair(s, j, k, s0); ok {
				tb.plain[j][k] = max(0, one-e*e/d)
			}
			// G = [cⱼ dⱼ]ᵀ[cₖ dₖ].
			mj, mk := s.r[j].mean, s.r[k].mean
			g := [2][2]float64{
				{s0, (s1 - mk*s0) / sd[k]},
				{(s1 - mj*s0) / sd[j], (s2 - (mj+mk)*s1 + mj*mk*s0) / (sd[j] * sd[k])},
			}
			zj := [2]float64{s.r[j].proj, pd[j]}
			zk := [2]float64{s.r[k].proj, pd[k]}
			e := [2]float64{zk[0] - g[0][0]*zj[0] - g[1][0]*zj[1], zk[1] - g[0][1]*zj[0] - g[1][1]*zj[1]}
			m00 := 1 - g[0][0]*g[0][0] - g[1][0]*g[1][0]
			m01 := -g[0][0]*g[0][1] - g[1][0]*g[1][1]
			m11 := 1 - g[0][1]*g[0][1] - g[1][1]*g[1][1]
			det := m00*m11 - m01*m01
			if !(det > 1e-8) {
				continue
			}
			xk := [2]float64{(m11*e[0] - m01*e[1]) / det, (m00*e[1] - m01*e[0]) / det}
			xj := [2]float64{zj[0] - g[0][0]*xk[0] - g[0][1]*xk[1], zj[1] - g[1][0]*xk[0] - g[1][1]*xk[1]}
			tb.relax[j][k] = max(0, two-e[0]*xk[0]-e[1]*xk[1])
			// A column moved by Δ in rate is c + Δ·σ·d to first order.
			tb.step[j][k] = [2]float64{xj[1] / (xj[0] * sd[j]), xk[1] / (xk[0] * sd[k])}
		}
	}
}

// scanMinima returns the fitScanStarts lowest local minima of the table
// (entries no larger than any neighbour j±1, k±1 with j ≤ k; ties with an
// earlier neighbour go to the earlier entry), lowest first, as start
// points in rates, and how many there are. An entry that explains none
// of the data (f ≥ Σwy²) is no start. A minimum on b = d starts at rates a
// quarter of the narrower neighbouring interval apart around its rate.
func (w *fitWork) scanMinima(s *fitScan, f *[fitScanMax][fitScanMax]float64, step *[fitScanMax][fitScanMax][2]float64) (p [fitScanStarts][2]float64, fs [fitScanStarts]float64, np int) {
	lo, hi := s.unsaturated()
	for j := lo; j < hi; j++ {
		for k := j; k < hi; k++ {
			v := f[j][k]
			if !(v < w.yy) || !fitScanLocalMin(f, lo, hi, j, k) {
				continue
			}
			pos := np
			if np == fitScanStarts {
				if !(v < fs[np-1]) {
					continue
				}
				pos = np - 1
			} else {
				np++
			}
			for ; pos > 0 && v < fs[pos-1]; pos-- {
				p[pos], fs[pos] = p[pos-1], fs[pos-1]
			}
			p[pos], fs[pos] = [2]float64{s.r[j].rate, s.r[k].rate}, v
			if step != nil && j != k {
				for c, jj := range [2]int{j, k} {
					if d := step[j][k][c]; exp2Finite(d) {
						lim := s.r[min(jj+1, s.n-1)].rate - s.r[max(jj-1, 0)].rate
						p[pos][c] += min(max(d, -lim), lim)
					}
				}
			}
			if j == k {
				gap := math.Inf(1)
				if j > 0 {
					gap = s.r[j].rate - s.r[j-1].rate
				}
				if j+1 < s.n {
					gap = min(gap, s.r[j+1].rate-s.r[j].rate)
				}
				p[pos][0] -= gap / 8
				p[pos][1] += gap / 8
			}
		}
	}
	return p, fs, np
}

// fitScanEdgeArc is the arc bound (radians) within which a scanned column
// counts as the column of a bound of the rate box (see unsaturated).
const fitScanEdgeArc = 0.05

// unsaturated returns the index range [lo, hi) of the scanned rates that
// take part in the tables' local minima. The rates whose columns lie
// within fitScanEdgeArc of a bound's column (by the arc bound, summed over
// the intervals) are that bound in effect, a term that fits an end point
// alone (the spike starts cover it); of each such run of rates only the
// one nearest the interior stays, so that their near-equal table entries
// do not crowd out the minima that matter.
func (s *fitScan) unsaturated() (lo, hi int) {
	lo, hi = 0, s.n
	for arc := 0.0; lo+1 < s.n; lo++ {
		if arc += s.scanArc(lo); !(arc < fitScanEdgeArc) {
			break
		}
	}
	for arc := 0.0; hi-1 > lo; hi-- {
		if arc += s.scanArc(hi - 2); !(arc < fitScanEdgeArc) {
			break
		}
	}
	return lo, hi
}

// scanPair returns, for the scanned rates j and k with g the inner product
// of their columns cⱼ and cₖ, the projection of the data on the part of cₖ
// orthogonal to cⱼ, e = pₖ − g·pⱼ, and that part's squared norm d = 1 − g².
// Where the columns are nearly parallel (1 − g² < 10⁻⁴) both come from
// that part itself, orthogonalised twice, so that they keep their relative
// accuracy; ok is false where the columns are parallel to working
// precision (d ≤ 10⁻²⁶, lmEval's rank test).
func (w *fitWork) scanPair(s *fitScan, j, k int, g float64) (e, d float64, ok bool) {
	if d = 1 - g*g; d >= 1e-4 {
		return s.r[k].proj - g*s.r[j].proj, d, true
	}
	cj, ck, v := w.scanCol(s.r[j].slot), w.scanCol(s.r[k].slot), w.r[:w.n]
	copy(v, ck)
	fitOrthogonalise(v, cj)
	e, d = 0, 0
	for i, vi := range v {
		e += vi * w.sw[i] * w.ys[i]
		d += vi * vi
	}
	return e, d, d > 1e-26
}

// scanLowestPair returns the representable pair of distinct scanned rates
// with the lowest plain entry, and that entry (+Inf if there is none). A
// pair is representable when its least-squares terms stay within
// fitCollapseGain times the data, as every run's points must: with g the
// inner product of the normalised columns and pⱼ, pₖ their projections of
// the data, the coefficients on the normalised columns are
// xₖ = (pₖ − g·pⱼ)/(1 − g²) and xⱼ = pⱼ − g·xₖ, and a term's largest size
// over t ∈ [0, 1] is |x|·e^(max(0, rate))/‖√w·e^(rate·t)‖.
func (w *fitWork) scanLowestPair(s *fitScan, tb *fitTable) (p [2]float64, f float64) {
	f = math.Inf(1)
	for j := range s.n {
		cj := w.scanCol(s.r[j].slot)
		for k := j + 1; k < s.n; k++ {
			if !(tb.plain[j][k] < f) {
				continue
			}
			ck := w.scanCol(s.r[k].slot)
			var g float64
			for i := range w.n {
				g += cj[i] * ck[i]
			}
			e, d, _ := w.scanPair(s, j, k, g)
			xk := e / d
			xj := s.r[j].proj - g*xk
			tj := math.Abs(xj) * math.Exp(max(0, s.r[j].rate)) / s.r[j].norm
			tk := math.Abs(xk) * math.Exp(max(0, s.r[k].rate)) / s.r[k].norm
			if max(tj, tk) <= fitCollapseGain {
				p, f = [2]float64{s.r[j].rate, s.r[k].rate}, tb.plain[j][k]
			}
		}
	}
	return p, f
}

// fitScanLocalMin reports whether table entry (j, k) is no larger than
// any neighbour (ties with an earlier neighbour go to the earlier one).
func fitScanLocalMin(f *[fitScanMax][fitScanMax]float64, lo, hi, j, k int) bool {
	v := f[j][k]
	for dj := -1; dj <= 1; dj++ {
		for dk := -1; dk <= 1; dk++ {
			a, b := j+dj, k+dk
			if (dj == 0 && dk == 0) || a < lo || b >= hi || a > b {
				continue
			}
			if u := f[a][b]; u < v || (u == v && (a < j || (a == j && b < k))) {
				return false
			}
		}
	}
	return true
}

// singleRate returns the rate of the best one-exponential fit and its
// run: Levenberg–Marquardt on the one-exponential problem from the scanned
// rate whose column explains most of the data. The result's f is +Inf if
// no column could be normalised.
func (w *fitWork) singleRate(s *fitScan, set lmSettings) (float64, lmResult) {
	best := -1
	for k := range s.n {
		if s.r[k].ok && (best < 0 || s.r[k].proj*s.r[k].proj > s.r[best].proj*s.r[best].proj) {
			best = k
		}
	}
	if best < 0 {
		return 0, lmResult{f: math.Inf(1)}
	}
	w.single = true
	r := lmMinimize(w, [2]float64{s.r[best].rate, 0}, set)
	w.single = false
	if math.IsInf(r.f, 1) {
		return s.r[best].rate, r
	}
	return r.p[0], r
}

// residualStarts returns the rate of the best one-exponential fit (see
// singleRate) paired with the scanned rate below it and the one above it
// that best complete it, as start points (np of them, the better pair
// first). A second rate v is ranked by the linearised SSE of "one
// exponential, its rate free to first order, plus e^(v·t)": with c the
// normalised column of the first rate, d the normalised part of t·c
// orthogonal to c and r the data's residual orthogonal to both,
// f = ‖r‖² − (gᵥᵀr)²/(1 − (gᵥᵀc)² − (gᵥᵀd)²), gᵥ the normalised column of
// v. Working from the residual keeps the relative accuracy of f when a
// second term lies far below the first (or below the noise), where the
// scan's table, whose entries are differences of Σwy², cannot rank it;
// and the first rate free to first order keeps a grid mismatch of the
// large term from swamping the small one. Pairs whose columns are nearly
// parallel (1 − (gᵥᵀc)² − (gᵥᵀd)² ≤ 10⁻⁴) are skipped: they are a local
// expansion of the first rate, not a second term; so are the rates left out
// of the tables' local minima (see unsaturated), the bounds among them,
// which the spike starts pair with the first rate. It reads the scan's
// stored columns, so it runs before the runs reuse their slots.
func (w *fitWork) residualStarts(s *fitScan, set lmSettings) (p [2][2]float64, np int) {
	set.coarse = true
	b1, r1 := w.singleRate(s, set)
	if math.IsInf(r1.f, 1) {
		return p, 0
	}
	n := w.n
	c, d, r := w.q1[:n], w.u1[:n], w.r[:n]
	mean, _, _, ok := w.scanColumn(b1, c)
	if !ok {
		return p, 0
	}
	for i := range n {
		d[i] = (w.t[i] - mean) * c[i]
		r[i] = w.sw[i] * w.ys[i]
	}
	fitOrthogonalise(d, c)
	nd := fitNorm(d)
	if !(nd > 0) {
		return p, 0
	}
	for i := range n {
		d[i] /= nd
	}
	fitOrthogonalise(r, c)
	fitOrthogonalise(r, d)
	f0 := 0.0
	for _, v := range r {
		f0 += v * v
	}
	fs := [2]float64{math.Inf(1), math.Inf(1)}
	var vs [2]float64
	lo, hi := s.unsaturated()
	for k := lo; k < hi; k++ {
		if !s.r[k].ok {
			continue
		}
		g := w.scanCol(s.r[k].slot)
		var gc, gd, h float64
		for i := range n {
			gc += g[i] * c[i]
			gd += g[i] * d[i]
			h += g[i] * r[i]
		}
		det := 1 - gc*gc - gd*gd
		if !(det > 1e-4) {
			continue
		}
		side := 0
		if s.r[k].rate > b1 {
			side = 1
		}
		if fk := max(0, f0-h*h/det); fk < fs[side] {
			fs[side], vs[side] = fk, s.r[k].rate
		}
		w.evals++
	}
	better := 0
	if fs[1] < fs[0] {
		better = 1
	}
	for _, side := range [2]int{better, 1 - better} {
		if !math.IsInf(fs[side], 1) {
			p[np] = [2]float64{b1, vs[side]}
			np++
		}
	}
	return p, np
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

// halvesStart returns the start of single-exponential fits (log-linear,
// see logSlope) of the lower and of the upper half of the t range, rates
// at least 1 apart (t units), and whether both fits exist. Where one term
// dominates each half (a fast decay early, a slow one late, or the
// reverse for growths) these are the two rates.
func (w *fitWork) halvesStart() ([2]float64, bool) {
	bl, okl := w.logSlope(0, 0.5)
	bu, oku := w.logSlope(0.5, 1.0000001)
	if !okl || !oku || !exp2Finite(bl) || !exp2Finite(bu) {
		return [2]float64{}, false
	}
	if math.Abs(bl-bu) < 1 {
		mid := (bl + bu) / 2
		bl, bu = mid-0.5, mid+0.5
	}
	return [2]float64{min(max(bl, w.lo), w.hi), min(max(bu, w.lo), w.hi)}, true
}
