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

func TestFitValleyFindsExpPlusLinear(t *testing.T) {
	// y = (1 + 2x)·e^(−x) is exp2's b = d limit: the scan of b = d finds
	// s = −1 per unit of x (−4 over the span 4) with an exact fit.
	x := make([]float64, 25)
	y := make([]float64, 25)
	for i := range x {
		x[i] = 4 * float64(i) / 24
		y[i] = (1 + 2*x[i]) * math.Exp(-x[i])
	}
	var w fitWork
	if err := w.load(x, y, FitOptions{}); err != nil {
		t.Fatal(err)
	}
	set := lmSettings{maxIter: 100, lo: [2]float64{w.lo, w.lo}, hi: [2]float64{w.hi, w.hi}, fAbs: fitExactRel * w.yy, coarse: true}
	var cands [fitMaxStarts]fitCandidate
	w.startPoints(&cands, set) // fills the grid columns
	r, ok := w.valley(set)
	if !ok || math.Abs(r.p[0]+4) > 1e-6 || r.p[1] != 0 || r.f > 1e-20*w.yy {
		t.Errorf("valley: %+v ok %v, want s = −4, q = 0, f ≈ 0", r, ok)
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
		r := w.localRun(fitToSQ(p), set)
		q, a, g := w.sqModel(r.p)
		if c := w.cancellation(q, a, g); !(c <= fitCollapseGain) {
			t.Errorf("from %v: run ended with terms %g × the data: %+v", p, c, r)
		}
	}
}
