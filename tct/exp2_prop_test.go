package tct

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// exp2PropData draws samples of a random exp2 on a random x range: the
// generating model and the data. Nothing is tuned to the search: spans
// from 0.01 to 1000 (log-uniform), starting at 0 or offset by −0.5, 1 or 3
// spans; rates per span independently in [−30, 30] (either sign, either
// order, possibly nearly equal); amplitudes independently 10⁻³ … 10³ in
// size (log-uniform) with random signs, so one term may lie far below the
// other and below the noise, or the two may cancel; 5 to 50 points with
// jittered spacing; no noise (exact data) or uniform noise of 10⁻⁶, 10⁻³,
// 1%, 3%, 10% or 30% of max|y|. It is the distribution of the seeded
// sweep (exp2SweepDraw).
func exp2PropData(t *rapid.T) (truth Exp2, x, y []float64) {
	span := math.Pow(10, rapid.Float64Range(-2, 3).Draw(t, "log10(span)"))
	off := rapid.SampledFrom([]float64{0, -0.5, 1, 3}).Draw(t, "offset") * span
	n := rapid.IntRange(5, 50).Draw(t, "n")
	amp := func(label string) float64 {
		a := math.Pow(10, rapid.Float64Range(-3, 3).Draw(t, "log10|"+label+"|"))
		if rapid.Bool().Draw(t, label+"<0") {
			a = -a
		}
		return a
	}
	kb := rapid.Float64Range(-30, 30).Draw(t, "B·span")
	kd := rapid.Float64Range(-30, 30).Draw(t, "D·span")
	truth = Exp2{A: amp("A"), B: kb / span, C: amp("C"), D: kd / span}
	x = make([]float64, n)
	y = make([]float64, n)
	ymax := 0.0
	for i := range x {
		jitter := rapid.Float64Range(-0.45, 0.45).Draw(t, "jitter")
		x[i] = off + span*(float64(i)+jitter)/float64(n-1)
		y[i] = truth.TCT(x[i])
		ymax = max(ymax, math.Abs(y[i]))
	}
	sigma := rapid.SampledFrom([]float64{0, 1e-6, 1e-3, 0.01, 0.03, 0.1, 0.3}).Draw(t, "noise") * ymax
	for i := range y {
		y[i] += sigma * rapid.Float64Range(-1, 1).Draw(t, "e")
	}
	return truth, x, y
}

func TestPropFitBeatsTruth(t *testing.T) { rapid.Check(t, propFitBeatsTruth) }

// propFitBeatsTruth: the fitted SSE is never above the SSE of the
// parameters that generated the data (least squares minimises SSE).
func propFitBeatsTruth(t *rapid.T) {
	truth, x, y := exp2PropData(t)
	m, rep, err := FitExp2(x, y, FitOptions{})
	if err != nil {
		t.Fatalf("FitExp2: %v", err)
	}
	fitCheckFinite(t, m, rep)
	if miss, truthSSE := exp2SweepMiss(truth, x, y, rep.SSE); miss {
		t.Fatalf("fitted SSE %v > generating SSE %v\nfit %+v\ntruth %+v\nreport %+v\nx %v\ny %v", rep.SSE, truthSSE, m, truth, rep, x, y)
	}
}

func TestPropFitDeterministic(t *testing.T) { rapid.Check(t, propFitDeterministic) }

// propFitDeterministic: equal inputs give bit-identical outputs.
func propFitDeterministic(t *rapid.T) {
	_, x, y := exp2PropData(t)
	m1, r1, e1 := FitExp2(x, y, FitOptions{})
	m2, r2, e2 := FitExp2(x, y, FitOptions{})
	if m1 != m2 || r1 != r2 || (e1 == nil) != (e2 == nil) {
		t.Fatalf("%+v %+v vs %+v %+v", m1, r1, m2, r2)
	}
}

// exp2PropModel draws a model whose TCT(1) is finite and nonzero.
func exp2PropModel(t *rapid.T) Exp2 {
	m := Exp2{
		A: rapid.Float64Range(-1e3, 1e3).Draw(t, "A"),
		B: rapid.Float64Range(-50, 50).Draw(t, "B"),
		C: rapid.Float64Range(-1e3, 1e3).Draw(t, "C"),
		D: rapid.Float64Range(-50, 50).Draw(t, "D"),
	}
	if m.TCT(1) == 0 {
		t.Skip("TCT(1) = 0")
	}
	return m
}

func TestPropNormTCTAtDedicated(t *testing.T) { rapid.Check(t, propNormTCTAtDedicated) }

// propNormTCTAtDedicated: NormTCT(1) = 1 exactly, and NormTCTAt(r, r) = 1
// wherever it is defined.
func propNormTCTAtDedicated(t *rapid.T) {
	m := exp2PropModel(t)
	if got := m.NormTCT(1); got != 1 {
		t.Fatalf("NormTCT(1) = %v for %+v", got, m)
	}
	r := rapid.Float64Range(0, 1).Draw(t, "r")
	if v, err := m.NormTCTAt(r, r); err == nil && v != 1 {
		t.Fatalf("NormTCTAt(r, r) = %v", v)
	} else if err != nil && !errors.Is(err, ErrBadInput) {
		t.Fatal(err)
	}
}

func TestPropIOInverse(t *testing.T) { rapid.Check(t, propIOInverse) }

// propIOInverse: IO(r)·NormTCT(r) = read90 (Eq. 5 is the inverse scaling).
func propIOInverse(t *rapid.T) {
	m := exp2PropModel(t)
	r := rapid.Float64Range(0, 1).Draw(t, "r")
	read90 := rapid.Float64Range(0, 1e6).Draw(t, "read90")
	io, err := m.IO(r, read90)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	// Relative rounding, and absolute below the normal range (subnormal
	// read rates carry fewer digits).
	if got := io * m.NormTCT(r); math.Abs(got-read90) > 1e-12*read90+1e-300 {
		t.Fatalf("IO·NormTCT = %v, want %v (%+v at %v)", got, read90, m, r)
	}
	if io < 0 || !exp2Finite(io) {
		t.Fatalf("IO = %v", io)
	}
}

// exp2FuzzValue draws any float64: ordinary values, the edges of the data
// range (±1e100 and just beyond), subnormals, 1e±300, ±MaxFloat64, NaN and
// ±Inf.
func exp2FuzzValue() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Float64Range(-10, 10),
		rapid.SampledFrom(append(extremes.Edges(-fitMaxAbs, fitMaxAbs), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1))),
		extremes.AnyFloat(),
	)
}

// exp2FuzzX draws x data: any values, or one time in four points a few
// subnormals or a few times 1e-300 apart (the span FitExp2 needs).
func exp2FuzzX(n int) *rapid.Generator[[]float64] {
	return rapid.Custom(func(t *rapid.T) []float64 {
		if rapid.IntRange(0, 3).Draw(t, "tiny span") > 0 {
			return rapid.SliceOfN(exp2FuzzValue(), n, n).Draw(t, "x")
		}
		step := rapid.SampledFrom([]float64{5e-324, 2.2250738585072014e-308, 1e-301, fitMinSpan, 1e-299}).Draw(t, "step")
		x := make([]float64, n)
		for i := range x {
			x[i] = step * float64(rapid.IntRange(0, 6).Draw(t, "k"))
		}
		return x
	})
}

func TestPropFitAnyInput(t *testing.T) { rapid.Check(t, propFitAnyInput) }
func FuzzFitExp2(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propFitAnyInput)) }

// propFitAnyInput: on any input of at most 64 points FitExp2 does not panic,
// fails only with ErrBadInput, and otherwise returns finite numbers.
func propFitAnyInput(t *rapid.T) {
	n := rapid.IntRange(0, 64).Draw(t, "n")
	x := exp2FuzzX(n).Draw(t, "x")
	y := rapid.SliceOfN(exp2FuzzValue(), n, n).Draw(t, "y")
	if rapid.Bool().Draw(t, "mismatch") && n > 0 {
		y = y[1:]
	}
	var opt FitOptions
	if rapid.Bool().Draw(t, "weighted") {
		opt.Weights = rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(0, 10), exp2FuzzValue()), len(x), len(x)).Draw(t, "w")
	}
	m, rep, err := FitExp2(x, y, opt)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	fitCheckFinite(t, m, rep)
	if !exp2Finite(rep.Cancellation) {
		t.Fatalf("Cancellation %v", rep.Cancellation)
	}
	// Runs stay within representable exp2: terms at most 10⁸ × the data
	// (a collapsed fit is one exponential).
	if rep.Cancellation > fitCollapseGain*(1+1e-9) {
		t.Fatalf("Cancellation %v beyond %v: %+v %+v", rep.Cancellation, fitCollapseGain, m, rep)
	}
}

func TestPropMetricsAnyInput(t *testing.T) { rapid.Check(t, propMetricsAnyInput) }
func FuzzRMSE(f *testing.F)                { f.Fuzz(rapid.MakeFuzz(propMetricsAnyInput)) }

// propMetricsAnyInput: RMSE and NRMSE never panic, fail only with
// ErrBadInput, and otherwise give finite, non-negative numbers with RMSE at
// most the largest absolute difference.
func propMetricsAnyInput(t *rapid.T) {
	n := rapid.IntRange(0, 64).Draw(t, "n")
	obs := rapid.SliceOfN(exp2FuzzValue(), n, n).Draw(t, "obs")
	pred := rapid.SliceOfN(exp2FuzzValue(), n, n).Draw(t, "pred")
	if rapid.Bool().Draw(t, "mismatch") && n > 0 {
		pred = pred[1:]
	}
	r, err := RMSE(obs, pred)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	maxDiff := 0.0
	for i := range obs {
		maxDiff = max(maxDiff, math.Abs(obs[i]-pred[i]))
	}
	if !(r >= 0) || !exp2Finite(r) || r > maxDiff*(1+1e-12) {
		t.Fatalf("RMSE %v, max |diff| %v", r, maxDiff)
	}
	nr, err := NRMSE(obs, pred)
	if err != nil {
		wantAnyField(t, err)
	}
	if err == nil && (!(nr >= 0) || !exp2Finite(nr)) {
		t.Fatalf("NRMSE %v", nr)
	}
}

func TestPropPercentileAnyInput(t *testing.T) { rapid.Check(t, propPercentileAnyInput) }
func FuzzPercentile(f *testing.F)             { f.Fuzz(rapid.MakeFuzz(propPercentileAnyInput)) }

// propPercentileAnyInput: Percentile lies between the smallest and largest
// sample, grows with p, or fails with ErrBadInput.
func propPercentileAnyInput(t *rapid.T) {
	n := rapid.IntRange(0, 64).Draw(t, "n")
	s := rapid.SliceOfN(exp2FuzzValue(), n, n).Draw(t, "samples")
	p := rapid.OneOf(rapid.Float64Range(0, 100), exp2FuzzValue()).Draw(t, "p")
	v, err := Percentile(s, p)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	lo, hi := s[0], s[0]
	for _, e := range s {
		lo, hi = min(lo, e), max(hi, e)
	}
	if !(v >= lo && v <= hi) {
		t.Fatalf("Percentile(%v) = %v outside [%v, %v]", p, v, lo, hi)
	}
	p2 := min(100, p+rapid.Float64Range(0, 50).Draw(t, "dp"))
	v2, _ := Percentile(s, p2)
	if v-v2 > 1e-12*math.Max(math.Abs(v), math.Abs(v2)) { // rounding aside
		t.Fatalf("Percentile(%v) = %v < Percentile(%v) = %v", p2, v2, p, v)
	}
	if _, err := Read90(s); err != nil && !errors.Is(err, ErrBadInput) {
		t.Fatal(err)
	}
}

func TestPropNormAndIOAnyInput(t *testing.T) { rapid.Check(t, propNormAndIOAnyInput) }
func FuzzIOAt(f *testing.F)                  { f.Fuzz(rapid.MakeFuzz(propNormAndIOAnyInput)) }

// propNormAndIOAnyInput: NormTCTAt and IOAt never panic, fail only with
// ErrBadInput, and otherwise return finite values; IO is ≥ 0.
func propNormAndIOAnyInput(t *rapid.T) {
	m := Exp2{A: exp2FuzzValue().Draw(t, "A"), B: exp2FuzzValue().Draw(t, "B"),
		C: exp2FuzzValue().Draw(t, "C"), D: exp2FuzzValue().Draw(t, "D")}
	r, ded := exp2FuzzValue().Draw(t, "r"), exp2FuzzValue().Draw(t, "dedicated")
	read90 := exp2FuzzValue().Draw(t, "read90")
	v, err := m.NormTCTAt(r, ded)
	if err != nil {
		wantAnyField(t, err)
	}
	if err == nil && !exp2Finite(v) {
		t.Fatalf("NormTCTAt = %v", v)
	}
	io, err := m.IOAt(r, ded, read90)
	if err != nil {
		wantAnyField(t, err)
	}
	if err == nil && (!exp2Finite(io) || !(io >= 0)) {
		t.Fatalf("IOAt = %v", io)
	}
}

func TestPropTrainAnyInput(t *testing.T) { rapid.Check(t, propTrainAnyInput) }
func FuzzTrainExp2(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propTrainAnyInput)) }

// propTrainAnyInput: TrainExp2 never panics, fails only with ErrBadInput,
// and otherwise returns finite models with Model = baseline·Normalised.
func propTrainAnyInput(t *rapid.T) {
	n := rapid.IntRange(0, 32).Draw(t, "n")
	tasks := make([]TaskRecord, n)
	for i := range tasks {
		tasks[i] = TaskRecord{
			Residual: rapid.OneOf(rapid.Float64Range(0, 1), exp2FuzzValue()).Draw(t, "residual"),
			Duration: rapid.OneOf(rapid.Float64Range(1, 1000), exp2FuzzValue()).Draw(t, "duration"),
		}
	}
	baseline := rapid.OneOf(rapid.Float64Range(1, 100), exp2FuzzValue()).Draw(t, "baseline")
	tr, err := TrainExp2(tasks, baseline, FitOptions{})
	if err != nil {
		wantAnyField(t, err)
		var ve *ValueError
		if errors.As(err, &ve) && (ve.Field == "x" || strings.HasPrefix(ve.Field, "x[") || strings.HasPrefix(ve.Field, "y[")) {
			t.Fatalf("TrainExp2 names FitExp2's internal field: %v", err)
		}
		return
	}
	if tr.Model.Validate() != nil || tr.Normalised.Validate() != nil || !exp2Finite(tr.Report.NRMSE) {
		t.Fatalf("%+v", tr)
	}
	if tr.Model.B != tr.Normalised.B || tr.Model.A != tr.Normalised.A*baseline {
		t.Fatalf("Model %+v is not baseline %v × Normalised %+v", tr.Model, baseline, tr.Normalised)
	}
}
