package tct

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestExp2TCTTable(t *testing.T) {
	// Values worked out by hand: e^0 = 1, e^1 = 2.718281828459045,
	// e^(-1) = 0.36787944117144233, e^(ln 2) = 2.
	for _, tt := range []struct {
		name string
		m    Exp2
		r    float64
		want float64
	}{
		{"zero model", Exp2{}, 0.5, 0},
		{"constant", Exp2{A: 3}, 0.7, 3},
		{"at r=0 sums amplitudes", Exp2{A: 2, B: -5, C: 1.5, D: 9}, 0, 3.5},
		{"e^1", Exp2{A: 1, B: 1}, 1, math.E},
		{"two terms", Exp2{A: 2, B: -1, C: 4, D: math.Ln2}, 1, 2*0.36787944117144233 + 8},
		{"negative amplitude", Exp2{A: 10, C: -2, D: math.Ln2}, 1, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.TCT(tt.r); !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-15, 1e-15) {
				t.Errorf("TCT(%v) = %v, want %v", tt.r, got, tt.want)
			}
		})
	}
}

func TestExp2NormTCTTable(t *testing.T) {
	// A Pi-like model: TCT(r) = 100·e^(−2r) + 20, so TCT(1) = 100/e² + 20.
	m := Exp2{A: 100, B: -2, C: 20, D: 0}
	tct1 := 100*math.Exp(-2) + 20 // 33.53352832366127
	for _, tt := range []struct {
		r    float64
		want float64
	}{
		{1, 1},
		{0, 120 / tct1}, // 3.578509...
		{0.5, (100*math.Exp(-1) + 20) / tct1},
	} {
		if got := m.NormTCT(tt.r); !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-15, 1e-14) {
			t.Errorf("NormTCT(%v) = %v, want %v", tt.r, got, tt.want)
		}
		got, err := m.NormTCTAt(tt.r, 1)
		if err != nil || got != m.NormTCT(tt.r) {
			t.Errorf("NormTCTAt(%v, 1) = %v, %v; want NormTCT's %v", tt.r, got, err, m.NormTCT(tt.r))
		}
	}
	if got, _ := m.NormTCTAt(0.5, 0.5); got != 1 {
		t.Errorf("NormTCTAt(0.5, 0.5) = %v, want 1", got)
	}
	// Dedicated capacity 0.8: TCT(0.8) = 100e^-1.6 + 20.
	want := tct1 / (100*math.Exp(-1.6) + 20)
	if got, _ := m.NormTCTAt(1, 0.8); !scalar.EqualWithinAbsOrRel(got, want, 1e-15, 1e-14) {
		t.Errorf("NormTCTAt(1, 0.8) = %v, want %v", got, want)
	}
}

func TestExp2NormTCTAtBadInput(t *testing.T) {
	good := Exp2{A: 1, B: -1, C: 1, D: 0}
	for _, tt := range []struct {
		name         string
		m            Exp2
		r, dedicated float64
		field        string
	}{
		{"NaN A", Exp2{A: math.NaN()}, 0.5, 1, "Exp2.A"},
		{"Inf D", Exp2{A: 1, D: math.Inf(1)}, 0.5, 1, "Exp2.D"},
		{"NaN r", good, math.NaN(), 1, "r"},
		{"Inf r", good, math.Inf(-1), 1, "r"},
		{"NaN dedicated", good, 0.5, math.NaN(), "dedicated"},
		{"zero model", Exp2{}, 0.5, 1, "TCT(dedicated)"},
		{"negative dedicated time", Exp2{A: -1}, 0.5, 1, "TCT(dedicated)"},
		{"overflowing TCT(r)", Exp2{A: 1, B: 1000}, 1, 0, "TCT(r)"},
		{"overflowing TCT(dedicated)", Exp2{A: 1, B: 1000}, 0, 1, "TCT(dedicated)"},
		{"overflowing ratio", Exp2{A: 1e300, B: -740}, 0, 1, "NormTCT(r)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.m.NormTCTAt(tt.r, tt.dedicated)
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("NormTCTAt = %v, %v; want ValueError on %s", got, err, tt.field)
			}
			if got != 0 {
				t.Errorf("value %v returned with error", got)
			}
		})
	}
}

func TestExp2ValidateNamesField(t *testing.T) {
	for _, tt := range []struct {
		m     Exp2
		field string
	}{
		{Exp2{A: math.NaN()}, "Exp2.A"},
		{Exp2{B: math.Inf(1)}, "Exp2.B"},
		{Exp2{C: math.Inf(-1)}, "Exp2.C"},
		{Exp2{D: math.NaN()}, "Exp2.D"},
	} {
		var ve *ValueError
		if err := tt.m.Validate(); !errors.As(err, &ve) || ve.Field != tt.field {
			t.Errorf("Validate(%+v) = %v, want field %s", tt.m, err, tt.field)
		}
	}
	if err := (Exp2{1, 2, 3, 4}).Validate(); err != nil {
		t.Errorf("Validate of finite model = %v", err)
	}
}

func TestExp2HotPathAllocs(t *testing.T) {
	if exp2RaceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	m := Exp2{A: 100, B: -2, C: 20, D: 0.1}
	var sink float64
	for name, f := range map[string]func(){
		"TCT":       func() { sink += m.TCT(0.3) },
		"NormTCT":   func() { sink += m.NormTCT(0.3) },
		"NormTCTAt": func() { v, _ := m.NormTCTAt(0.3, 1); sink += v },
		"IO":        func() { v, _ := m.IO(0.3, 50); sink += v },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
	_ = sink
}
