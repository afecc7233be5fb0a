package jct

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestLognormalFromMomentsTable(t *testing.T) {
	// Worked by hand from Eq. 5.1: mean 100, sd 50 → Var/E² = 0.25,
	// σ² = ln 1.25 = 0.22314355, μ = ln 100 − σ²/2 = 4.60517019 − 0.11157178.
	tests := []struct {
		name           string
		mean, variance float64
		mu, sigma      float64
	}{
		{"mean100 sd50", 100, 2500, 4.493598410, 0.472380727},
		{"no variance", 7, 0, math.Log(7), 0},
		{"cv 1", 1, 1, -0.5 * math.Ln2, math.Sqrt(math.Ln2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := LognormalFromMoments(tt.mean, tt.variance)
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbsOrRel(l.Mu, tt.mu, 1e-9, 1e-9) || !scalar.EqualWithinAbsOrRel(l.Sigma, tt.sigma, 1e-9, 1e-9) {
				t.Errorf("got %+v, want μ=%v σ=%v", l, tt.mu, tt.sigma)
			}
		})
	}
}

func TestLognormalBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		call func() error
	}{
		{"moments mean 0", func() error { _, err := LognormalFromMoments(0, 1); return err }},
		{"moments mean NaN", func() error { _, err := LognormalFromMoments(nan, 1); return err }},
		{"moments mean Inf", func() error { _, err := LognormalFromMoments(inf, 1); return err }},
		{"moments mean negative", func() error { _, err := LognormalFromMoments(-3, 1); return err }},
		{"moments var negative", func() error { _, err := LognormalFromMoments(3, -1); return err }},
		{"moments var NaN", func() error { _, err := LognormalFromMoments(3, nan); return err }},
		{"moments var Inf", func() error { _, err := LognormalFromMoments(3, inf); return err }},
		{"moments overflow", func() error { _, err := LognormalFromMoments(1e300, 1e300); return err }},
		{"samples nil", func() error { _, err := LognormalFromSamples(nil); return err }},
		{"samples zero", func() error { _, err := LognormalFromSamples([]float64{1, 0}); return err }},
		{"samples NaN", func() error { _, err := LognormalFromSamples([]float64{nan}); return err }},
		{"samples beyond range", func() error { _, err := LognormalFromSamples([]float64{1e308}); return err }},
		{"samples Inf", func() error { _, err := LognormalFromSamples([]float64{2, inf}); return err }},
		{"quantile p>1", func() error { _, err := (Lognormal{}).Quantile(1.5); return err }},
		{"quantile p NaN", func() error { _, err := (Lognormal{}).Quantile(nan); return err }},
		{"validate mu NaN", func() error { return Lognormal{Mu: nan}.Validate() }},
		{"validate mu -Inf", func() error { return Lognormal{Mu: math.Inf(-1)}.Validate() }},
		{"validate sigma negative", func() error { return Lognormal{Sigma: -1}.Validate() }},
		{"validate sigma Inf", func() error { return Lognormal{Sigma: inf}.Validate() }},
		{"validate overflow", func() error { return Lognormal{Mu: 10, Sigma: 20}.Validate() }},
		// Passed Validate before MaxLogMu/MaxSigma; Variance was then NaN.
		{"validate moments NaN", func() error { return Lognormal{Mu: -1e308, Sigma: 1e200}.Validate() }},
		{"validate mu beyond limit", func() error { return Lognormal{Mu: MaxLogMu * 1.0001}.Validate() }},
		{"validate mu below limit", func() error { return Lognormal{Mu: -MaxLogMu * 1.0001}.Validate() }},
		{"validate sigma beyond limit", func() error { return Lognormal{Sigma: MaxSigma * 1.0001}.Validate() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantAnyField(t, tt.call())
		})
	}
	_, err := LognormalFromSamples([]float64{1, 2, -1})
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Field != "samples[2]" {
		t.Errorf("field = %v, want samples[2]", err)
	}
}

func TestLognormalMatchesGonum(t *testing.T) {
	l := Lognormal{Mu: 4.2, Sigma: 0.7}
	g := distuv.LogNormal{Mu: 4.2, Sigma: 0.7}
	for _, x := range []float64{1, 10, 50, 66.7, 200, 1000} {
		if !scalar.EqualWithinAbsOrRel(l.CDF(x), g.CDF(x), 1e-12, 1e-10) {
			t.Errorf("CDF(%v) = %v, gonum %v", x, l.CDF(x), g.CDF(x))
		}
		if !scalar.EqualWithinAbsOrRel(l.PDF(x), g.Prob(x), 1e-14, 1e-10) {
			t.Errorf("PDF(%v) = %v, gonum %v", x, l.PDF(x), g.Prob(x))
		}
		if !scalar.EqualWithinAbsOrRel(l.Survival(x), g.Survival(x), 1e-12, 1e-10) {
			t.Errorf("Survival(%v) = %v, gonum %v", x, l.Survival(x), g.Survival(x))
		}
	}
	for _, p := range []float64{0.01, 0.1, 0.5, 0.9, 0.999} {
		q, err := l.Quantile(p)
		if err != nil || !scalar.EqualWithinAbsOrRel(q, g.Quantile(p), 1e-9, 1e-9) {
			t.Errorf("Quantile(%v) = %v, %v; gonum %v", p, q, err, g.Quantile(p))
		}
	}
	if !scalar.EqualWithinAbsOrRel(l.Mean(), g.Mean(), 0, 1e-12) || !scalar.EqualWithinAbsOrRel(l.Variance(), g.Variance(), 0, 1e-12) {
		t.Errorf("moments %v %v, gonum %v %v", l.Mean(), l.Variance(), g.Mean(), g.Variance())
	}
	if q, _ := l.Quantile(0); q != 0 {
		t.Errorf("Quantile(0) = %v", q)
	}
	if q, _ := l.Quantile(1); !math.IsInf(q, 1) {
		t.Errorf("Quantile(1) = %v", q)
	}
}

func TestLognormalFromSamplesMLE(t *testing.T) {
	// ln x = {0, 2}: μ = 1, σ (1/n) = 1.
	l, err := LognormalFromSamples([]float64{1, math.Exp(2)})
	if err != nil || !scalar.EqualWithinAbsOrRel(l.Mu, 1, 1e-12, 1e-12) || !scalar.EqualWithinAbsOrRel(l.Sigma, 1, 1e-12, 1e-12) {
		t.Errorf("got %+v, %v; want μ=1 σ=1", l, err)
	}
	// Recovers the parameters of a large sample.
	rng := rand.New(rand.NewPCG(3, 4))
	want := Lognormal{Mu: 3, Sigma: 0.5}
	x := make([]float64, 20000)
	for i := range x {
		x[i] = mcDraw(t, want, rng)
	}
	got, err := LognormalFromSamples(x)
	if err != nil || math.Abs(got.Mu-3) > 5*0.5/math.Sqrt(20000) || math.Abs(got.Sigma-0.5) > 5*0.5/math.Sqrt(40000) {
		t.Errorf("fit %+v, %v; want %+v", got, err, want)
	}
}

// TestDrawRemainingConditional checks the conditional draw against the
// truncated lognormal: its mean E[X | X > e] = E[X]·Φ(σ − a)/Φ(−a) with
// a = (ln e − μ)/σ, and its Kolmogorov–Smirnov distance.
func TestDrawRemainingConditional(t *testing.T) {
	l := Lognormal{Mu: 3, Sigma: 0.6}
	std := distuv.UnitNormal
	for _, e := range []float64{5, 20, 60} {
		rng := rand.New(rand.NewPCG(1, uint64(e)))
		const n = 20000
		x := make([]float64, n)
		var sum float64
		for i := range x {
			r := mcDrawRemaining(t, l, e, rng)
			if !(r >= 0) {
				t.Fatalf("remaining %v", r)
			}
			x[i] = e + r
			sum += x[i]
		}
		a := (math.Log(e) - l.Mu) / l.Sigma
		surv := std.CDF(-a)
		want := l.Mean() * std.CDF(l.Sigma-a) / surv
		// Standard error from the second moment of the truncated law.
		m2 := math.Exp(2*l.Mu+2*l.Sigma*l.Sigma) * std.CDF(2*l.Sigma-a) / surv
		se := math.Sqrt((m2 - want*want) / n)
		if got := sum / n; math.Abs(got-want) > 5*se {
			t.Errorf("elapsed %v: mean %v, want %v ± %v", e, got, want, 5*se)
		}
		d, _ := NewDistribution(x)
		ks, err := d.KS(func(v float64) float64 {
			return max(0, (l.CDF(v)-l.CDF(e))/surv)
		})
		if err != nil || ks > 1.95/math.Sqrt(n) { // 0.1% critical value
			t.Errorf("elapsed %v: KS %v, %v", e, ks, err)
		}
	}
	// Far in the tail (S(e) underflows) the Mills-ratio branch still gives
	// a small positive remainder.
	rng := rand.New(rand.NewPCG(1, 1))
	e := math.Exp(3 + 0.6*40)
	for range 100 {
		r := mcDrawRemaining(t, l, e, rng)
		if !(r >= 0) || r > e {
			t.Fatalf("tail remainder %v of elapsed %v", r, e)
		}
	}
	// Elapsed ≤ 0 is exactly Draw.
	r1, r2 := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
	if a, b := mcDrawRemaining(t, l, 0, r1), mcDraw(t, l, r2); a != b {
		t.Errorf("DrawRemaining(0) = %v, Draw = %v", a, b)
	}
	// Degenerate: what is left of a fixed duration.
	if r := mcDrawRemaining(t, Lognormal{Mu: math.Log(10)}, 4, rng); !scalar.EqualWithinAbsOrRel(r, 6, 1e-12, 1e-12) {
		t.Errorf("degenerate remainder %v, want 6", r)
	}
}

// mcDraw is l.Draw(rng) failing the test on an error.
func mcDraw(t testing.TB, l Lognormal, rng *rand.Rand) float64 {
	t.Helper()
	x, err := l.Draw(rng)
	if err != nil {
		t.Fatalf("%+v.Draw: %v", l, err)
	}
	return x
}

// mcDrawRemaining is l.DrawRemaining(e, rng) failing the test on an error.
func mcDrawRemaining(t testing.TB, l Lognormal, e float64, rng *rand.Rand) float64 {
	t.Helper()
	x, err := l.DrawRemaining(e, rng)
	if err != nil {
		t.Fatalf("%+v.DrawRemaining(%v): %v", l, e, err)
	}
	return x
}

// TestDrawBadInput: a nil rng, a non-finite elapsed or an invalid
// distribution is an error matching ErrBadInput, never a panic; a nil rng
// is ErrNilRand.
func TestDrawBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	good := Lognormal{Mu: 1, Sigma: 0.5}
	tests := []struct {
		name    string
		l       Lognormal
		elapsed float64
		rng     *rand.Rand
		nilRand bool
	}{
		{"nil rng", good, 3, nil, true},
		{"nil rng, invalid l", Lognormal{Mu: math.NaN()}, 3, nil, true},
		{"NaN Mu", Lognormal{Mu: math.NaN()}, 3, rng, false},
		{"+Inf Mu", Lognormal{Mu: math.Inf(1)}, 3, rng, false},
		{"negative Sigma", Lognormal{Sigma: -1}, 3, rng, false},
		{"NaN Sigma", Lognormal{Sigma: math.NaN()}, 3, rng, false},
		{"overflowing", Lognormal{Mu: 500, Sigma: 5}, 3, rng, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := tt.l.Draw(tt.rng)
			if !errors.Is(err, ErrBadInput) || errors.Is(err, ErrNilRand) != tt.nilRand || x != 0 {
				t.Errorf("Draw = %v, %v", x, err)
			}
			x, err = tt.l.DrawRemaining(tt.elapsed, tt.rng)
			if !errors.Is(err, ErrBadInput) || errors.Is(err, ErrNilRand) != tt.nilRand || x != 0 {
				t.Errorf("DrawRemaining = %v, %v", x, err)
			}
		})
	}
	// 1e300 with Sigma 1e200 was +Inf with a nil error without the MaxDuration bound.
	for _, e := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), MaxDuration * 1.0001, 1e300} {
		var ve *ValueError
		if x, err := good.DrawRemaining(e, rng); !errors.As(err, &ve) || ve.Field != "elapsed" || x != 0 {
			t.Errorf("DrawRemaining(%v) = %v, %v; want a ValueError on elapsed", e, x, err)
		}
	}
	var ve *ValueError
	if !errors.Is(ErrNilRand, ErrBadInput) || !errors.As(ErrNilRand, &ve) || ve.Field != "rng" {
		t.Errorf("ErrNilRand = %v, want a ValueError on rng", ErrNilRand)
	}
}

// TestDrawAllocs pins the exported draws to zero allocations.
func TestDrawAllocs(t *testing.T) {
	if mcRaceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	l, rng := Lognormal{Mu: 2, Sigma: 0.7}, rand.New(rand.NewPCG(1, 2))
	var sink float64
	if n := testing.AllocsPerRun(100, func() {
		a, _ := l.Draw(rng)
		b, _ := l.DrawRemaining(9, rng)
		sink += a + b
	}); n != 0 {
		t.Errorf("Draw + DrawRemaining: %v allocs, want 0", n)
	}
	_ = sink
}

// TestPDFSubnormal is the shrunk rapid failure of propLognormalMethods:
// x·Sigma underflowed to 0 and PDF returned 0/0 = NaN.
func TestPDFSubnormal(t *testing.T) {
	l := Lognormal{Mu: 1, Sigma: 0.5}
	if p := l.PDF(5e-324); p != 0 {
		t.Errorf("PDF(5e-324) = %v, want 0 (far below the median)", p)
	}
	// Near the median a subnormal x has an enormous but finite-or-+Inf density.
	near := Lognormal{Mu: math.Log(1e-310), Sigma: 1e-15}
	if p := near.PDF(1e-310); !(p > 0) {
		t.Errorf("PDF at a subnormal median = %v", p)
	}
	// Normal inputs keep the plain formula: density of e^1 with σ = 0.5.
	if p, want := l.PDF(math.E), 1/(math.E*0.5*math.Sqrt(2*math.Pi)); !scalar.EqualWithinAbsOrRel(p, want, 0, 1e-15) {
		t.Errorf("PDF(e) = %v, want %v", p, want)
	}
}
