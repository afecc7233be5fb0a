package admission

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestAloneDeadlineHandWorked: the least k with k/n ≥ p, then the k-th
// smallest sample. Samples 5, 1, 3, 2, 4 (n = 5): p = 0.6 needs k = 3
// (3/5 = 0.6), the third smallest, 3; p = 0.9 needs k = 5 (4/5 < 0.9),
// 5; p = 0.2 needs k = 1, 1; p = 0 needs k = 0, −Inf. Samples 1 … 10 at
// p = 0.30000000000000004 (the float64 after 0.3, what 0.1·3 rounds to):
// 3/10 = 0.3 falls short, so k = 4 and the result is 4, not 3. Ties: 2, 2, 2, 7 at p = 0.5 is 2,
// at p = 0.75 is 2 (k = 3), at p = 0.76 is 7. One sample 0 at p = 1 is 0.
func TestAloneDeadlineHandWorked(t *testing.T) {
	one := []float64{5, 1, 3, 2, 4}
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	ties := []float64{2, 7, 2, 2}
	for _, c := range []struct {
		samples []float64
		p, want float64
	}{
		{one, 0.6, 3}, {one, 0.9, 5}, {one, 0.2, 1}, {one, 0, math.Inf(-1)}, {one, 1, 5},
		{ten, math.Nextafter(0.3, 1), 4}, {ten, 0.3, 3}, {ten, 0.7, 7},
		{ties, 0.5, 2}, {ties, 0.75, 2}, {ties, 0.76, 7},
		{[]float64{0}, 1, 0}, {[]float64{5, math.Copysign(0, -1)}, 0.5, 0}, {[]float64{math.Copysign(0, -1), MaxDuration}, 1, MaxDuration},
	} {
		got, err := AloneDeadline(c.samples, c.p)
		if err != nil || got != c.want {
			t.Errorf("AloneDeadline(%v, %v) = %v, %v; want %v", c.samples, c.p, got, err, c.want)
		}
	}
}

func TestAloneDeadlineBadInput(t *testing.T) {
	tests := []struct {
		name    string
		samples []float64
		p       float64
		field   string
	}{
		{"p NaN", []float64{1}, math.NaN(), "p"},
		{"p below 0", []float64{1}, -0.1, "p"},
		{"p above 1", []float64{1}, 1.5, "p"},
		{"no samples", nil, 0.9, "len(samples)"},
		{"too many samples", make([]float64, MaxSamples+1), 0.9, "len(samples)"},
		{"sample NaN", []float64{1, math.NaN()}, 0.9, "samples[1]"},
		{"sample negative", []float64{-1}, 0.9, "samples[0]"},
		{"sample +Inf", []float64{1, 2, math.Inf(1)}, 0.9, "samples[2]"},
		{"sample above MaxDuration", []float64{2 * MaxDuration}, 0, "samples[0]"},
	}
	for _, tt := range tests {
		got, err := AloneDeadline(tt.samples, tt.p)
		var ve *ValueError
		if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field || got != 0 {
			t.Errorf("%s: %v, %v; want field %q", tt.name, got, err, tt.field)
		}
	}
}

func TestPropAloneDeadline(t *testing.T) { rapid.Check(t, propAloneDeadline) }
func FuzzAloneDeadline(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAloneDeadline)) }

// propAloneDeadline: for random samples (ties, −0, values outside [0,
// MaxDuration] included), confidences and deadlines (at the samples,
// between them, beyond them, negative), Decide in ModeConfidence on an
// empty queue admits exactly when AloneDeadline(samples, p) ≤ d, and
// refuses the job exactly when AloneDeadline returns an error.
func propAloneDeadline(t *rapid.T) {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	samples := make([]float64, n)
	for s := range samples {
		samples[s] = float64(rapid.IntRange(0, 20).Draw(t, "sample")) / 4
	}
	if n > 0 && rapid.IntRange(0, 6).Draw(t, "special") == 0 {
		samples[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]float64{
			-1, math.NaN(), math.Inf(1), 2 * MaxDuration, MaxDuration, math.Copysign(0, -1), math.SmallestNonzeroFloat64,
		}).Draw(t, "value")
	}
	p := rapid.OneOf(rapid.SampledFrom([]float64{0, 1, 0.5, 0.9, 1.0 / 3, 2.0 / 3, math.Nextafter(0.3, 1), 0.7, 1e-300}), rapid.Float64Range(0, 1)).Draw(t, "p")
	d := float64(rapid.IntRange(-4, 24).Draw(t, "deadline4")) / 4
	if rapid.Bool().Draw(t, "offGrid") {
		d += rapid.Float64Range(-0.2, 0.2).Draw(t, "off")
	}
	need, err := AloneDeadline(samples, p)
	var c Workspace
	dec, derr := c.Decide(nil, Job{ID: 1, Deadline: d, Samples: samples}, 0, Options{Mode: ModeConfidence, Confidence: p})
	if (err == nil) != (derr == nil) {
		t.Fatalf("AloneDeadline error %v, Decide error %v", err, derr)
	}
	if err != nil {
		return
	}
	if dec.Admit != (need <= d) {
		t.Fatalf("AloneDeadline %v, deadline %v: Decide admits %v (probability %v, p %v)", need, d, dec.Admit, dec.Probability, p)
	}
}

// BenchmarkAloneDeadline: one threshold of 1,000 samples.
func BenchmarkAloneDeadline(b *testing.B) {
	xs := make([]float64, 1000)
	for s := range xs {
		xs[s] = 600 * math.Exp(0.3*math.Sin(float64(s)))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AloneDeadline(xs, 0.9); err != nil {
			b.Fatal(err)
		}
	}
}
