package deadlinecheck

import (
	"math"
	"testing"

	"github.com/schedkit/schedkit/admission"
	"pgregory.net/rapid"
)

func TestPropAloneNeed(t *testing.T) { rapid.Check(t, propAloneNeed) }
func FuzzAloneNeed(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAloneNeed)) }

// propAloneNeed: the alone test's threshold decides as the test itself.
// For random samples (ties and values outside [0, MaxDuration] included),
// confidences and deadlines (at the samples, between them and beyond),
// meetsAlone says "admits" only when admission.Workspace.Decide in
// confidence mode on an empty queue admits without an error, and when the
// samples are valid it says "admits" exactly when the decision does.
func propAloneNeed(t *rapid.T) {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	own := make([]float64, n)
	for s := range own {
		own[s] = float64(rapid.IntRange(0, 20).Draw(t, "sample")) / 4
	}
	if n > 0 && rapid.IntRange(0, 8).Draw(t, "badSample") == 0 {
		own[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), 2 * admission.MaxDuration}).Draw(t, "bad")
	}
	p := rapid.OneOf(rapid.SampledFrom([]float64{0, 1, 0.5, 0.9, 1.0 / 3, 2.0 / 3, 0.1, 0.7}), rapid.Float64Range(0, 1)).Draw(t, "p")
	d := float64(rapid.IntRange(-4, 24).Draw(t, "deadline4")) / 4
	if rapid.Bool().Draw(t, "offGrid") {
		d += rapid.Float64Range(-0.2, 0.2).Draw(t, "off")
	}
	if d == 0 {
		d = 0.125 // a deadline at the decision is refused before the test
	}
	wk := &work{own: own}
	fast := wk.meetsAlone(d, p)
	if again := wk.meetsAlone(d, p); again != fast {
		t.Fatalf("remembered threshold: %v, then %v", fast, again)
	}
	var space admission.Workspace
	dec, err := space.Decide(nil, admission.Job{ID: 1, Deadline: d, Samples: own}, 0, admission.Options{Mode: admission.ModeConfidence, Confidence: p})
	if fast && (err != nil || !dec.Admit) {
		t.Fatalf("threshold admits (need %v, deadline %v, p %v), the decision: %+v, %v", wk.alone.need, d, p, dec, err)
	}
	if err == nil && wk.alone.ok && fast != dec.Admit {
		t.Fatalf("threshold %v (need %v), the decision admits %v (probability %v, p %v)", fast, wk.alone.need, dec.Admit, dec.Probability, p)
	}
	if _, ok := aloneNeed(own, p); ok != (err == nil) {
		t.Fatalf("samples valid %v, the decision's error %v", ok, err)
	}
}
