package admission

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// lognormalRatio mirrors jct.Lognormal's Quantile without importing tct.
type lognormalRatio struct{ Mu, Sigma float64 }

func (l lognormalRatio) Quantile(p float64) (float64, error) {
	if !(p >= 0 && p <= 1) {
		return 0, errors.New("p out of range")
	}
	return math.Exp(l.Mu + l.Sigma*math.Sqrt2*math.Erfinv(2*p-1)), nil
}

// sampledRatio mirrors jct.Distribution's Quantile (type 7 interpolation).
type sampledRatio []float64 // sorted

func (s sampledRatio) Quantile(p float64) (float64, error) {
	if len(s) == 0 || !(p >= 0 && p <= 1) {
		return 0, errors.New("bad quantile")
	}
	h := float64(len(s)-1) * p
	lo := int(h)
	if lo >= len(s)-1 {
		return s[len(s)-1], nil
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo]), nil
}

// TestMarginAtHandWorked: an unbiased model with 10% relative error, the
// lognormal of mean 1 and variance 0.01 (Lee thesis Eq. 5.1:
// σ² = ln 1.01 = 0.00995, μ = −σ²/2), has its 90% quantile at
// e^(−0.004975 + 0.09975·1.28155) = 1.1307; its median is e^μ = 0.99504.
// Ten sampled ratios 0.9, 0.95, …, 1.35 have their 90% quantile at
// h = 8.1: 1.3 + 0.1·0.05 = 1.305.
func TestMarginAtHandWorked(t *testing.T) {
	s2 := math.Log1p(0.01)
	l := lognormalRatio{Mu: -s2 / 2, Sigma: math.Sqrt(s2)}
	for _, c := range []struct {
		d    Quantiler
		p    float64
		want float64
	}{
		{l, 0.9, 1.1307}, {l, 0.5, 0.99504},
		{sampledRatio{0.9, 0.95, 1, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.35}, 0.9, 1.305},
	} {
		got, err := MarginAt(c.d, c.p)
		if err != nil || math.Abs(got-c.want) > 5e-5 {
			t.Errorf("MarginAt(%v, %v) = %v, %v; want %v", c.d, c.p, got, err, c.want)
		}
	}
}

func TestMarginAtBadInput(t *testing.T) {
	var nilPtr *sampledRatio
	tests := []struct {
		name  string
		d     Quantiler
		p     float64
		field string
	}{
		{"nil", nil, 0.9, "Quantiler"},
		{"nil map", mapRatio(nil), 0.9, "Quantiler"},
		{"nil pointer", nilPtr, 0.9, "Quantiler"},
		{"p NaN", sampledRatio{1}, math.NaN(), "p"},
		{"p above 1", sampledRatio{1}, 1.5, "p"},
		{"empty distribution", sampledRatio{}, 0.5, "Quantile(p)"},
		{"quantile 0", lognormalRatio{Sigma: 1}, 0, "Quantile(p)"},
		{"quantile +Inf", lognormalRatio{Sigma: 1}, 1, "Quantile(p)"},
		{"quantile above MaxMargin", sampledRatio{2 * MaxMargin}, 0.5, "Quantile(p)"},
		{"quantile NaN", sampledRatio{math.NaN()}, 0.5, "Quantile(p)"},
	}
	for _, tt := range tests {
		got, err := MarginAt(tt.d, tt.p)
		var ve *ValueError
		if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field || got != 0 {
			t.Errorf("%s: %v, %v; want field %q", tt.name, got, err, tt.field)
		}
	}
}

// mapRatio is a map-typed Quantiler, so that a nil map can be tested.
type mapRatio map[float64]float64

func (m mapRatio) Quantile(p float64) (float64, error) { return m[p], nil }

// propMarginAt: the margin is non-decreasing in p and, for sampled ratios,
// lies between the smallest and largest ratio; every result is a valid
// Options.Margin.
func propMarginAt(t *rapid.T) {
	s := sampledRatio(rapid.SliceOfN(rapid.Float64Range(0.01, 10), 1, 20).Draw(t, "ratios"))
	slices.Sort(s)
	p1 := rapid.Float64Range(0, 1).Draw(t, "p1")
	p2 := rapid.Float64Range(p1, 1).Draw(t, "p2")
	m1, err1 := MarginAt(s, p1)
	m2, err2 := MarginAt(s, p2)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if m1 > m2 || m1 < s[0] || m2 > s[len(s)-1] {
		t.Fatalf("MarginAt(%v): %v at %v, %v at %v", s, m1, p1, m2, p2)
	}
	if _, err := decide(nil, Job{ID: 1, Deadline: 10, Tasks: 1, Model: flat(1)}, 0, Options{Cluster: []Slot{{R: 1}}, Margin: m2}); err != nil {
		t.Fatalf("margin %v rejected: %v", m2, err)
	}
}

func TestPropMarginAt(t *testing.T) { rapid.Check(t, propMarginAt) }
func FuzzMarginAt(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMarginAt)) }
