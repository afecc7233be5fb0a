package admission

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestAddRepeatedHandWorked(t *testing.T) {
	tests := []struct {
		name       string
		s, t, want float64
		c          int
	}{
		// Ten additions of 0.1 round to 0.9999999999999999, not 1.
		{name: "tenths", t: 0.1, c: 10, want: 0.9999999999999999},
		{name: "integers", t: 10, c: 50000, want: 500000},
		{name: "nothing", s: 3, t: 7, c: 0, want: 3},
		{name: "zero term", s: 3, t: 0, c: 1 << 40, want: 3},
		// Past 2^53 an addition of 1 is a tie that rounds to even: no change.
		{name: "absorbed", s: 0x1p53, t: 1, c: 1 << 40, want: 0x1p53},
		// 1.5 at 2^53 is a tie above an odd multiple: +2 each time.
		{name: "tie rounds up", s: 0x1p53, t: 1.5, c: 1000, want: 0x1p53 + 2000},
		// Outside the precondition (t < 0) it still adds, one at a time.
		{name: "negative term", s: 1, t: -0.25, c: 3, want: 0.25},
	}
	for _, tt := range tests {
		got := addRepeated(tt.s, tt.t, tt.c)
		if got != tt.want {
			t.Errorf("%s: addRepeated = %v, want %v", tt.name, got, tt.want)
		}
		if tt.c <= 1<<20 {
			if loop := addEach(tt.s, tt.t, tt.c); loop != got {
				t.Errorf("%s: addRepeated = %v, the additions give %v", tt.name, got, loop)
			}
		}
	}
}

// term draws a task time for addRepeated: ordinary and random values,
// subnormals, and values that are ties or near-ties for the spacing at s.
func term(t *rapid.T, s float64) float64 {
	u, _ := spacing(s)
	if math.IsInf(u, 1) {
		u = 1
	}
	q := float64(rapid.IntRange(0, 40).Draw(t, "q"))
	switch rapid.IntRange(0, 5).Draw(t, "kind") {
	case 0:
		return (q + 0.5) * u // a tie at s's spacing
	case 1:
		return max(0, math.Nextafter((q+0.5)*u, math.Inf(rapid.IntRange(-1, 1).Draw(t, "side"))))
	case 2:
		return rapid.SampledFrom([]float64{0, 5e-324, 1e-310, 2.2250738585072014e-308, 0.1, 1. / 3, MaxDuration}).Draw(t, "special")
	case 3:
		return q * u
	}
	return rapid.Float64Range(0, 1e6).Draw(t, "t")
}

func TestPropAddRepeated(t *testing.T) { rapid.Check(t, propAddRepeated) }

// propAddRepeated: addRepeated gives exactly what the c additions give.
func propAddRepeated(t *rapid.T) {
	s := rapid.OneOf(rapid.Float64Range(0, 1e6),
		rapid.SampledFrom([]float64{0, 5e-324, 1e-310, 0x1p-1022, 1, 0x1p52, 0x1p53, 3 * 0x1p52, 1e15, 1e300})).Draw(t, "s")
	tt := term(t, s)
	c := rapid.OneOf(rapid.IntRange(0, 70), rapid.IntRange(0, 5000)).Draw(t, "c")
	if got, want := addRepeated(s, tt, c), addEach(s, tt, c); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("addRepeated(%v, %v, %d) = %v, the additions give %v", s, tt, c, got, want)
	}
}

// runCluster draws a cluster as runs of equal capacity: usable ones, zeros
// (which do not break a run), and sometimes a bad value.
func runCluster(t *rapid.T) []Slot {
	var cluster []Slot
	for range rapid.IntRange(0, 6).Draw(t, "runs") {
		r := rapid.OneOf(rapid.SampledFrom([]float64{1, 0.5, 0.25, 0, 0.1, 1. / 3, 5e-324}),
			rapid.Float64Range(0, 1), anyFloat()).Draw(t, "r")
		for range rapid.IntRange(1, 300).Draw(t, "len") {
			cluster = append(cluster, Slot{R: r})
		}
	}
	return cluster
}

func TestPropJCTOn(t *testing.T) { rapid.Check(t, propJCTOn) }
func FuzzJCTOn(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propJCTOn)) }

// propJCTOn: on every cluster NewCapacities accepts, JCTOn gives JCT's
// result and error, bit for bit; a cluster it refuses, JCT refuses too.
func propJCTOn(t *rapid.T) {
	m := anyModel().Draw(t, "model")
	if rapid.Bool().Draw(t, "exp2") {
		m = exp2{A: rapid.Float64Range(0, 100).Draw(t, "a"), B: rapid.Float64Range(-3, 0).Draw(t, "b"),
			C: rapid.Float64Range(0, 10).Draw(t, "c"), D: rapid.Float64Range(-1, 0).Draw(t, "d")}
	}
	n := rapid.OneOf(rapid.IntRange(-3, 1000), rapid.SampledFrom([]int{math.MaxInt, math.MinInt})).Draw(t, "n")
	cluster := runCluster(t)
	want, wantErr := JCT(m, n, cluster)
	caps, err := NewCapacities(cluster)
	if err != nil {
		var ve *ValueError
		if !errors.As(err, &ve) || !errors.Is(err, ErrBadInput) || wantErr == nil {
			t.Fatalf("NewCapacities: %v; JCT: %v, %v", err, want, wantErr)
		}
		return
	}
	got, gotErr := JCTOn(m, n, caps)
	if math.Float64bits(got) != math.Float64bits(want) || (gotErr == nil) != (wantErr == nil) ||
		gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("JCTOn = %v, %v; JCT = %v, %v", got, gotErr, want, wantErr)
	}
	usable := 0
	for _, r := range cluster {
		if r.R > 0 {
			usable++
		}
	}
	if caps.Slots() != usable {
		t.Fatalf("Slots() = %d, %d usable", caps.Slots(), usable)
	}
}

// TestJCTOnRounding: on 50,000 dedicated containers with a task time of
// 0.1 s the sum over the slots is not 5000 (one rounding per addition), and
// JCTOn gives JCT's value to the bit.
func TestJCTOnRounding(t *testing.T) {
	cluster := make([]Slot, 50000)
	for i := range cluster {
		cluster[i].R = 1
	}
	caps, _ := NewCapacities(cluster)
	tenth := linear{A: 0.1}
	want, _ := JCT(tenth, 20000, cluster)
	got, err := JCTOn(tenth, 20000, caps)
	if err != nil || math.Float64bits(got) != math.Float64bits(want) || got == 20000*0.1/50000 {
		t.Errorf("JCTOn = %v, %v; JCT = %v", got, err, want)
	}
	if len(caps.runs) != 1 || caps.Slots() != 50000 {
		t.Errorf("dedicated containers read as %d runs, %d slots; want 1, 50000", len(caps.runs), caps.Slots())
	}
}

// nanAtOne is a model whose time is NaN on a dedicated slot.
func nanAtOne(r float64) float64 {
	if r == 1 {
		return math.NaN()
	}
	return 10
}
