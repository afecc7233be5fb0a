package tct

import (
	"math"
	"testing"
)

// varproTestWork loads noisy exp2 data on [0, 1] into a fitWork.
func varproTestWork(t *testing.T) *fitWork {
	t.Helper()
	x, y := fitTestData(Exp2{A: 1, B: -2, C: 0.5, D: 1}, 0, 1, 12)
	for i := range y {
		y[i] += 0.01 * float64(i%3)
	}
	var w fitWork
	if err := w.load(x, y, FitOptions{}); err != nil {
		t.Fatal(err)
	}
	return &w
}

func TestFitHyp(t *testing.T) {
	// cosh x, sinh(x)/x and (x·cosh x − sinh x)/x³: the series below 0.5
	// and the closed forms above agree across the switch, and the limits
	// at 0 are 1, 1 and 1/3.
	ch, sh, u := fitHyp(0)
	if ch != 1 || sh != 1 || math.Abs(u-1.0/3) > 1e-16 {
		t.Errorf("fitHyp(0) = %v %v %v", ch, sh, u)
	}
	lo0, lo1, lo2 := fitHyp(math.Nextafter(0.5, 0))
	hi0, hi1, hi2 := fitHyp(0.5)
	if math.Abs(lo0-hi0) > 1e-15 || math.Abs(lo1-hi1) > 1e-15 || math.Abs(lo2-hi2) > 1e-14 {
		t.Errorf("at 0.5: series %v %v %v, closed %v %v %v", lo0, lo1, lo2, hi0, hi1, hi2)
	}
	for _, x := range []float64{1e-9, 0.03, 0.1, 0.4999, 0.5, 0.9, 3, 40, 200} {
		ch, sh, u := fitHyp(x)
		// U from its series to 12 terms: Σ 2k·x^(2k−2)/(2k+1)!.
		us, term := 0.0, 1.0/3
		for k := 1; k <= 40 && x < 1; k++ {
			us += term
			term *= x * x * float64(2*k+2) / (float64(2*k) * float64(2*k+2) * float64(2*k+3))
		}
		if x >= 1 {
			us = (x*math.Cosh(x) - math.Sinh(x)) / (x * x * x)
		}
		if math.Abs(ch-math.Cosh(x)) > 1e-15*math.Cosh(x) || math.Abs(sh-math.Sinh(x)/x) > 1e-14*sh || math.Abs(u-us) > 1e-12*us {
			t.Errorf("fitHyp(%v) = %v %v %v, want %v %v %v", x, ch, sh, u, math.Cosh(x), math.Sinh(x)/x, us)
		}
	}
}

func TestFitSQSameProjection(t *testing.T) {
	// The (s, q) basis e^(st)·cosh(ηt), e^(st)·sinh(ηt)/η spans the same
	// space as e^(βt), e^(δt) with β, δ = s ∓ η: the projected SSE and the
	// amplitudes of e^(βt) and e^(δt) agree.
	w := varproTestWork(t)
	for _, p := range [][2]float64{{-3, 1}, {-0.5, 0.5}, {-8, 4}, {2, 2.3}} {
		f1, _, _, ok1 := w.lmEval(p)
		a1, g1 := w.alpha, w.gamma
		q := fitToSQ(p)
		w.sq = true
		f2, _, _, ok2 := w.lmEval(q)
		w.sq = false
		eta := math.Sqrt(q[1])
		a2, g2 := w.alpha/2-w.gamma/(2*eta), w.alpha/2+w.gamma/(2*eta)
		if !ok1 || !ok2 || math.Abs(f1-f2) > 1e-9*f1 || math.Abs(a1-a2) > 1e-7*math.Abs(a1) || math.Abs(g1-g2) > 1e-7*math.Abs(g1) {
			t.Errorf("rates %v: f %v vs %v, amplitudes %v %v vs %v %v", p, f1, f2, a1, g1, a2, g2)
		}
	}
}

func TestFitSQGradient(t *testing.T) {
	// Kaufman's gradient g = Jᵀr is exactly half the gradient of the
	// projected SSE (r ⟂ basis): compare with central differences in
	// (s, q), also at q = 0, where b = d.
	w := varproTestWork(t)
	w.sq = true
	defer func() { w.sq = false }()
	for _, p := range [][2]float64{{-0.5, 2.25}, {-0.5, 1e-4}, {3, 0.001}, {-10, 30}, {-0.5, 0}} {
		_, _, g, ok := w.lmEval(p)
		if !ok {
			t.Fatalf("%v not evaluable", p)
		}
		h := 1e-6
		fs1, _, _, _ := w.lmEval([2]float64{p[0] + h, p[1]})
		fs0, _, _, _ := w.lmEval([2]float64{p[0] - h, p[1]})
		fq1, _, _, _ := w.lmEval([2]float64{p[0], p[1] + h})
		fq0, _, _, _ := w.lmEval([2]float64{p[0], max(p[1]-h, 0)})
		ds := (fs1 - fs0) / (4 * h)
		dq := (fq1 - fq0) / (2 * (p[1] + h - max(p[1]-h, 0)))
		if math.Abs(g[0]-ds) > 1e-5*math.Abs(ds) || math.Abs(g[1]-dq) > 1e-4*math.Abs(dq) {
			t.Errorf("at %v: g = %v, differences %v %v", p, g, ds, dq)
		}
	}
}

func TestFitSpikeGradient(t *testing.T) {
	// The spike problem's gradient, the rate's scaled by d rate/du, is
	// half the gradient of the projected SSE in (u, other rate): compare
	// with central differences, for the lower rate in its tail (decay)
	// and for the upper one (growth), near the bound and inside the box.
	w := varproTestWork(t)
	h := w.reach()
	for _, c := range []struct {
		k    int
		rate [2]float64
	}{{0, [2]float64{-150, 1}}, {0, [2]float64{-30, 0.5}}, {0, [2]float64{-2, 1}}, {1, [2]float64{-2, 150}}, {1, [2]float64{-2, 30}}} {
		sp := fitSpike{w: w, k: c.k, h: h[c.k]}
		if c.k == 1 {
			sp.h = -sp.h
		}
		p := c.rate
		p[c.k] = math.Exp(p[c.k] * sp.h)
		_, _, g, ok := sp.lmEval(p)
		if !ok {
			t.Fatalf("%+v not evaluable", c)
		}
		for j := range 2 {
			e := 1e-6 * max(math.Abs(p[j]), 1e-3)
			if j == c.k {
				e = 1e-6 * p[j]
			}
			p1, p0 := p, p
			p1[j] += e
			p0[j] -= e
			f1, _, _, _ := sp.lmEval(p1)
			f0, _, _, _ := sp.lmEval(p0)
			if d := (f1 - f0) / (4 * e); math.Abs(g[j]-d) > 1e-4*math.Abs(d) {
				t.Errorf("%+v, parameter %d: g = %v, difference %v", c, j, g[j], d)
			}
		}
	}
}

func TestFitScanTable(t *testing.T) {
	// Every entry of the scan's table is the projected SSE at its rates
	// (lmEval), and every entry on b = d that of the limit e^(s·t)·(a + c·t)
	// (lmEval in (s, q) at q = 0), to the rounding of the table's
	// normal-equation form, 10⁻⁹·Σwy² where the columns are well apart
	// (and the column of b = d spreads over t); data e^(s·t)·(1 + 2t) at a
	// scanned rate s give that limit exactly.
	w := varproTestWork(t)
	var s fitScan
	w.buildScan(&s)
	var tb fitTable
	w.scanTable(&s, &tb)
	c1, c2 := make([]float64, w.n), make([]float64, w.n)
	checked := 0
	for j := range s.n {
		m, _, _, _ := w.scanColumn(s.r[j].rate, c1)
		var sd float64
		for i, c := range c1 {
			sd += c * c * (w.t[i] - m) * (w.t[i] - m)
		}
		for k := j; k < s.n; k++ {
			var want float64
			var ok bool
			w2 := 1.0
			if j == k {
				w.sq = true
				want, _, _, ok = w.lmEval([2]float64{s.r[j].rate, 0})
				w.sq = false
				w2 = sd
			} else {
				want, _, _, ok = w.lmEval([2]float64{s.r[j].rate, s.r[k].rate})
				w.scanColumn(s.r[k].rate, c2)
				g := 0.0
				for i := range c1 {
					g += c1[i] * c2[i]
				}
				w2 = 1 - g*g
			}
			got := tb.plain[j][k]
			if !ok || !(got >= 0) || math.IsInf(got, 0) {
				t.Errorf("rates %v %v: table %v, lmEval ok %v", s.r[j].rate, s.r[k].rate, got, ok)
				continue
			}
			if w2 > 1e-2 {
				checked++
				if math.Abs(got-want) > 1e-9*w.yy {
					t.Errorf("rates %v %v: table %v, lmEval %v", s.r[j].rate, s.r[k].rate, got, want)
				}
			}
		}
	}
	if checked < s.n*s.n/4 {
		t.Errorf("only %d of %d entries well conditioned", checked, s.n*(s.n+1)/2)
	}
	x := make([]float64, 25)
	y := make([]float64, 25)
	rate := s.r[s.n/2-2].rate // a decay, in units of the span 4
	for i := range x {
		x[i] = 4 * float64(i) / 24
		y[i] = (1 + 2*x[i]) * math.Exp(rate*x[i]/4)
	}
	var w2 fitWork
	if err := w2.load(x, y, FitOptions{}); err != nil {
		t.Fatal(err)
	}
	w2.buildScan(&s)
	w2.scanTable(&s, &tb)
	found := false
	for j := range s.n {
		if s.r[j].rate == rate {
			found = true
			if !(tb.plain[j][j] <= 1e-20*w2.yy) {
				t.Errorf("b = d at rate %v: SSE %v, want exact", rate, tb.plain[j][j])
			}
		}
	}
	if !found {
		t.Errorf("rate %v not scanned", rate)
	}
}

func TestFitRunsStayRepresentable(t *testing.T) {
	// A run never ends with terms beyond fitCollapseGain × the data: the
	// wall makes such steps fail. Five points with a steep start invite a
	// run towards a spike that two cancelling terms would make sharper.
	x := []float64{0, 0.1, 0.2, 0.3, 1}
	y := []float64{1, 0.2, 0.21, 0.19, 0.2}
	var w fitWork
	if err := w.load(x, y, FitOptions{}); err != nil {
		t.Fatal(err)
	}
	set := lmSettings{maxIter: 100, lo: [2]float64{w.lo, w.lo}, hi: [2]float64{w.hi, w.hi}}
	for _, p := range [][2]float64{{-40, -24}, {-8, -5}, {-3, -2.9}, {-150, -100}} {
		r := w.run(p, set)
		q, a, g := w.sqModel(r.p)
		if c := w.cancellation(q, a, g); !(c <= fitCollapseGain) {
			t.Errorf("from %v: run ended with terms %g × the data: %+v", p, c, r)
		}
	}
}
