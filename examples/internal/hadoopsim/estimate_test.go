package hadoopsim

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// share draws a number that is usually in [lo, hi] and sometimes an
// extreme: NaN, ±Inf, a subnormal, just outside the range.
func share(lo, hi float64) *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64Range(lo, hi),
		rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, lo, hi, math.Nextafter(hi, math.Inf(1)), math.MaxFloat64}))
}

// propPredictionError: a PredictionError either fails Validate or gives a
// finite positive MeanRatio and Read90Factor, and factors ε within the
// drawn ratio's bounds over E[ν]; Residual is always in [0, 1].
func propPredictionError(t *rapid.T) {
	e := PredictionError{
		OverShare: share(0, 1).Draw(t, "over share"),
		MeanOver:  share(0, MaxMeanOver).Draw(t, "mean over"),
		MeanUnder: share(0, 0.4999).Draw(t, "mean under"),
	}
	if r := Residual(share(-50, 300).Draw(t, "web")); !(r >= 0 && r <= 1) {
		t.Fatalf("Residual out of [0, 1]: %v", r)
	}
	if e.Validate() != nil {
		return
	}
	m, f := e.MeanRatio(), e.Read90Factor()
	if !(m > 0 && m < math.Inf(1)) || !(f > 0 && f < math.Inf(1)) {
		t.Fatalf("%+v: MeanRatio %v, Read90Factor %v", e, m, f)
	}
	lo, hi := 1/(1+2*e.MeanOver)/m, 1/(1-2*e.MeanUnder)/m
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
	for range 20 {
		if x := e.Factor(rng); !(x >= lo*(1-1e-12) && x <= hi*(1+1e-12)) {
			t.Fatalf("%+v: factor %v outside [%v, %v]", e, x, lo, hi)
		}
	}
}

func TestPropPredictionError(t *testing.T) { rapid.Check(t, propPredictionError) }
func FuzzPredictionError(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPredictionError)) }

// TestAdmissionMargin: the 0.97 quantile of PaperError's ν lies in its
// under-predicted part, where P(ν ≤ v) = 0.57 + 0.43·(1 − 1/v)/0.58, so
// v = 1/(1 − 0.4·0.58/0.43) = 2.1717; the 0.9 quantile is
// 1/(1 − 0.33·0.58/0.43) = 1.8020. Exact estimates give 1. The estimate
// from 2^15 draws is within 0.01.
func TestAdmissionMargin(t *testing.T) {
	for _, c := range []struct {
		e    PredictionError
		p    float64
		want float64
	}{{PaperError, AdmissionConfidence, 2.1717}, {PaperError, 0.9, 1.8020}, {PredictionError{}, AdmissionConfidence, 1}} {
		m, err := c.e.AdmissionMargin(c.p)
		if err != nil || math.Abs(m-c.want) > 0.01 {
			t.Errorf("%+v at %v: %v, %v; want %v", c.e, c.p, m, err, c.want)
		}
	}
	if m, err := PaperError.AdmissionMargin(1.5); err == nil {
		t.Errorf("p = 1.5 gave %v", m)
	}
	if m, err := (PredictionError{OverShare: 2}).AdmissionMargin(0.9); err == nil {
		t.Errorf("an invalid error model gave %v", m)
	}
	if s := SweepScenario(1, 1, PaperError); math.Abs(s.Margin-2.1717) > 0.01 {
		t.Errorf("SweepScenario's margin %v", s.Margin)
	}
}

// TestMPError: MP's TCTError under PaperError at AdmissionConfidence has
// Mean = E[ν] = MeanRatio ≈ 1.0752 and Mean + Spread = the 0.97 quantile
// 2.1717 (TestAdmissionMargin), each within 0.01 of 2^15 draws; exact
// estimates give {Mean: 1}; CaseStudy and SweepScenario carry it.
func TestMPError(t *testing.T) {
	e, err := PaperError.MPError(AdmissionConfidence)
	if err != nil || math.Abs(e.Mean-PaperError.MeanRatio()) > 0.01 || math.Abs(e.Mean+e.Spread-2.1717) > 0.01 {
		t.Errorf("PaperError: %+v, %v; want mean %.4f, mean + spread 2.1717", e, err, PaperError.MeanRatio())
	}
	if z, err := (PredictionError{}).MPError(AdmissionConfidence); err != nil || z.Mean != 1 || z.Spread != 0 {
		t.Errorf("exact estimates: %+v, %v; want {Mean: 1}", z, err)
	}
	if _, err := PaperError.MPError(1.5); err == nil {
		t.Error("p = 1.5 accepted")
	}
	if _, err := (PredictionError{OverShare: 2}).MPError(0.9); err == nil {
		t.Error("an invalid error model accepted")
	}
	if c, s := CaseStudy(1, PaperError), SweepScenario(1, 1, PaperError); c.TCTError != e || s.TCTError != e {
		t.Errorf("scenarios carry %+v and %+v, want %+v", c.TCTError, s.TCTError, e)
	}
}
