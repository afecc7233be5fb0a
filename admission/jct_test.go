package admission

import (
	"errors"
	"math"
	"testing"
)

// linear is a test model TCT(r) = A + B·r.
type linear struct{ A, B float64 }

func (m linear) TCT(r float64) float64 { return m.A + m.B*r }

// modelFunc is a func-typed model; a nil modelFunc would panic when called.
type modelFunc func(float64) float64

func (f modelFunc) TCT(r float64) float64 { return f(r) }

// exp2 mirrors tct.Exp2 (MIMP Eq. 1) without importing tct.
type exp2 struct{ A, B, C, D float64 }

func (m exp2) TCT(r float64) float64 { return m.A*math.Exp(m.B*r) + m.C*math.Exp(m.D*r) }

func TestJCTHandWorked(t *testing.T) {
	m := linear{A: 100, B: -50} // TCT(1) = 50, TCT(0.5) = 75
	tests := []struct {
		name    string
		n       int
		cluster []Slot
		want    float64
	}{
		// 4 · (50+75) / 2² = 125.
		{"two slots", 4, rs(1, 0.5), 125},
		// A slot with no residual capacity is not counted: same as above.
		{"zero slot skipped", 4, rs(1, 0, 0.5), 125},
		// 10 tasks on 5 dedicated slots: 2 waves of 50 s.
		{"dedicated", 10, rs(1, 1, 1, 1, 1), 100},
		// Fewer tasks than slots still uses the cluster average: 1·50/4.
		{"one task", 1, rs(1, 1, 1, 1), 12.5},
		{"nothing left", 0, rs(1), 0},
		// 3 tasks on two dedicated slots (the third has no capacity):
		// 3 · (50+50) / 2² = 75, i.e. 1.5 waves of 50 s.
		{"three tasks two slots", 3, rs(1, 1, 0.0), 75},
		// Zero slots inside a run of dedicated ones: one run of 5 for JCTOn.
		{"zero slots inside a run", 10, rs(1, 0, 1, 1, 0, 1, 1), 100},
	}
	for _, tt := range tests {
		got, err := JCT(m, tt.n, tt.cluster)
		if err != nil || got != tt.want {
			t.Errorf("%s: JCT = %v, %v; want %v", tt.name, got, err, tt.want)
		}
		caps, err := NewCapacities(tt.cluster)
		if err != nil {
			t.Fatalf("%s: NewCapacities: %v", tt.name, err)
		}
		if got, err := JCTOn(m, tt.n, caps); err != nil || got != tt.want {
			t.Errorf("%s: JCTOn = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	// exp2 with A=10, B=-1, C=D=0 on r = 1 and r = 0.5, 2 tasks:
	// 2·(10e^-1 + 10e^-0.5)/4.
	got, err := JCT(exp2{A: 10, B: -1}, 2, rs(1, 0.5))
	want := 2 * (10*math.Exp(-1) + 10*math.Exp(-0.5)) / 4
	if err != nil || math.Abs(got-want) > 1e-12 {
		t.Errorf("exp2: JCT = %v, %v; want %v", got, err, want)
	}
}

func TestJCTBadInput(t *testing.T) {
	m := linear{A: 100, B: -50}
	var nilModel Model
	ok, _ := NewCapacities(rs(0.5, 1, 1))
	tests := []struct {
		name    string
		run     func() (float64, error)
		field   string
		wantErr error
	}{
		{"nil model", func() (float64, error) { return JCT(nilModel, 1, rs(1)) }, "Model", ErrBadInput},
		{"nil pointer model", func() (float64, error) { return JCT((*exp2)(nil), 1, rs(1)) }, "Model", ErrBadInput},
		{"nil pointer in interface", func() (float64, error) { return JCT(Model((*exp2)(nil)), 1, rs(1)) }, "Model", ErrBadInput},
		{"negative tasks", func() (float64, error) { return JCT(m, -1, rs(1)) }, "nRemaining", ErrBadInput},
		{"empty cluster", func() (float64, error) { return JCT(m, 1, nil) }, "Cluster", ErrNoCapacity},
		{"all slots busy", func() (float64, error) { return JCT(m, 1, rs(0, 0)) }, "Cluster", ErrNoCapacity},
		{"NaN capacity", func() (float64, error) { return JCT(m, 1, rs(1, math.NaN())) }, "Cluster[1].R", ErrBadInput},
		{"capacity above 1", func() (float64, error) { return JCT(m, 1, rs(1.5)) }, "Cluster[0].R", ErrBadInput},
		{"negative capacity", func() (float64, error) { return JCT(m, 1, rs(-0.1)) }, "Cluster[0].R", ErrBadInput},
		{"model negative", func() (float64, error) { return JCT(linear{A: -1}, 1, rs(1)) }, "TCT(Cluster[0])", ErrBadInput},
		{"model NaN", func() (float64, error) { return JCT(linear{A: math.NaN()}, 1, rs(1)) }, "TCT(Cluster[0])", ErrBadInput},
		{"model +Inf", func() (float64, error) { return JCT(exp2{A: 1, B: 1e308}, 1, rs(1)) }, "TCT(Cluster[0])", ErrBadInput},
		{"overflow", func() (float64, error) { return JCT(linear{A: MaxDuration}, math.MaxInt, rs(1)) }, "JCT", ErrBadInput},
		{"beyond MaxDuration", func() (float64, error) { return JCT(linear{A: MaxDuration}, 2, rs(1)) }, "JCT", ErrBadInput},
		{"model beyond MaxDuration", func() (float64, error) { return JCT(linear{A: math.MaxFloat64}, 1, rs(1)) }, "TCT(Cluster[0])", ErrBadInput},
		{"nil func model", func() (float64, error) { return JCT(modelFunc(nil), 1, rs(1)) }, "Model", ErrBadInput},
		{"nil func model in interface", func() (float64, error) { return JCT(Model(modelFunc(nil)), 1, rs(1)) }, "Model", ErrBadInput},
		{"NewCapacities NaN capacity", func() (float64, error) { _, err := NewCapacities(rs(1, math.NaN())); return 0, err }, "Cluster[1].R", ErrBadInput},
		{"NewCapacities capacity above 1", func() (float64, error) { _, err := NewCapacities(rs(1.5)); return 0, err }, "Cluster[0].R", ErrBadInput},
		{"NewCapacities negative capacity", func() (float64, error) { _, err := NewCapacities(rs(1, 1, -0.1)); return 0, err }, "Cluster[2].R", ErrBadInput},
		{"NewCapacities -Inf capacity", func() (float64, error) { _, err := NewCapacities(rs(math.Inf(-1))); return 0, err }, "Cluster[0].R", ErrBadInput},
		{"JCTOn nil model", func() (float64, error) { return JCTOn(nilModel, 1, ok) }, "Model", ErrBadInput},
		{"JCTOn nil pointer model", func() (float64, error) { return JCTOn((*exp2)(nil), 1, ok) }, "Model", ErrBadInput},
		{"JCTOn negative tasks", func() (float64, error) { return JCTOn(m, -1, ok) }, "nRemaining", ErrBadInput},
		{"JCTOn zero value", func() (float64, error) { return JCTOn(m, 1, Capacities{}) }, "Cluster", ErrNoCapacity},
		{"JCTOn all slots busy", func() (float64, error) {
			c, _ := NewCapacities(rs(0, 0))
			return JCTOn(m, 1, c)
		}, "Cluster", ErrNoCapacity},
		// The second run starts at slot 1: the first slot with a bad time.
		{"JCTOn model NaN on a run", func() (float64, error) { return JCTOn(modelFunc(nanAtOne), 1, ok) }, "TCT(Cluster[1])", ErrBadInput},
		{"JCTOn model negative", func() (float64, error) { return JCTOn(linear{A: -1}, 1, ok) }, "TCT(Cluster[0])", ErrBadInput},
		{"JCTOn beyond MaxDuration", func() (float64, error) { return JCTOn(linear{A: MaxDuration}, math.MaxInt, ok) }, "JCT", ErrBadInput},
	}
	for _, tt := range tests {
		got, err := tt.run()
		checkBadInput(t, tt.name, got, err, tt.wantErr, tt.field)
	}
}

// checkBadInput checks a bad-input table's row: a zero result and a
// *ValueError matching ErrBadInput and wantErr, naming field. A nil-model
// error carries the value 0.
func checkBadInput(t *testing.T, name string, got float64, err, wantErr error, field string) {
	t.Helper()
	if !errors.Is(err, wantErr) || !errors.Is(err, ErrBadInput) || got != 0 {
		t.Errorf("%s: got %v, %v; want %v", name, got, err, wantErr)
		return
	}
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Errorf("%s: err %v, want field %q", name, err, field)
	}
	if field == "Model" && ve.Value != 0 { // issue 19: was NaN
		t.Errorf("%s: nil-model error carries value %v, want 0", name, ve.Value)
	}
}
