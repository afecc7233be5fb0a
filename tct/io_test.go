package tct

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestIOTable(t *testing.T) {
	// TCT(r) = 60·e^(−ln2·r)·2 … chosen so TCT(1) = 60 and TCT(0) = 120:
	// A task at r = 0 runs twice as slowly, so it issues reads at half rate.
	m := Exp2{A: 120, B: -math.Ln2}
	for _, tt := range []struct {
		r, read90, want float64
	}{
		{1, 40, 40},
		{0, 40, 20},
		{0.5, 40, 40 / math.Sqrt2},
		{0.3, 0, 0},
	} {
		got, err := m.IO(tt.r, tt.read90)
		if err != nil || !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-14, 1e-14) {
			t.Errorf("IO(%v, %v) = %v, %v; want %v", tt.r, tt.read90, got, err, tt.want)
		}
	}
	// Dedicated capacity 0.5: NormTCT(0) = TCT(0)/TCT(0.5) = √2.
	if got, _ := m.IOAt(0, 0.5, 40); !scalar.EqualWithinRel(got, 40/math.Sqrt2, 1e-14) {
		t.Errorf("IOAt(0, 0.5, 40) = %v", got)
	}
}

func TestIOBadInput(t *testing.T) {
	good := Exp2{A: 1, B: -1}
	for _, tt := range []struct {
		name         string
		m            Exp2
		r, ded, read float64
		field        string
	}{
		{"NaN read90", good, 0.5, 1, math.NaN(), "read90"},
		{"negative read90", good, 0.5, 1, -1, "read90"},
		{"Inf read90", good, 0.5, 1, math.Inf(1), "read90"},
		{"NaN r", good, math.NaN(), 1, 1, "r"},
		{"zero model", Exp2{}, 0.5, 1, 1, "TCT(dedicated)"},
		{"negative TCT at r", Exp2{A: 1, C: -2, D: -5}, 0, 1, 1, "NormTCT(r)"},
		{"overflow", Exp2{A: 1, B: -700}, 1, 0, 1e300, "IO(r)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.m.IOAt(tt.r, tt.ded, tt.read)
			wantField(t, err, tt.field)
		})
	}
}

func TestPercentileTable(t *testing.T) {
	s := []float64{15, 20, 35, 40, 50}
	for _, tt := range []struct{ p, want float64 }{
		{0, 15}, {100, 50}, {50, 35},
		{25, 20}, // h = 1
		{90, 46}, // h = 3.6: 40 + 0.6·10
		{10, 17}, // h = 0.4: 15 + 0.4·5
	} {
		got, err := Percentile(s, tt.p)
		if err != nil || !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-12, 1e-12) {
			t.Errorf("Percentile(%v) = %v, %v; want %v", tt.p, got, err, tt.want)
		}
	}
	if got, _ := Percentile([]float64{7}, 90); got != 7 {
		t.Errorf("one sample: %v", got)
	}
	// Order does not matter and the input is not modified.
	u := []float64{50, 15, 40, 20, 35}
	orig := slices.Clone(u)
	if got, _ := Percentile(u, 90); !scalar.EqualWithinAbsOrRel(got, 46, 1e-12, 1e-12) || !slices.Equal(u, orig) {
		t.Errorf("unsorted: %v, input now %v", got, u)
	}
	if got, _ := Read90(s); !scalar.EqualWithinAbsOrRel(got, 46, 1e-12, 1e-12) {
		t.Errorf("Read90 = %v", got)
	}
}

func TestPercentileBadInput(t *testing.T) {
	for _, tt := range []struct {
		name  string
		s     []float64
		p     float64
		field string
	}{
		{"nil", nil, 50, "len(samples)"},
		{"NaN p", []float64{1}, math.NaN(), "p"},
		{"p > 100", []float64{1}, 100.5, "p"},
		{"p < 0", []float64{1}, -1, "p"},
		{"NaN sample", []float64{1, math.NaN()}, 50, "samples[1]"},
		{"Inf sample", []float64{math.Inf(1)}, 50, "samples[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Percentile(tt.s, tt.p)
			wantField(t, err, tt.field)
		})
	}
	var ve *ValueError
	if _, err := Read90([]float64{3, -1}); !errors.As(err, &ve) || ve.Field != "rates[1]" {
		t.Errorf("Read90 negative rate: %v", err)
	}
}
