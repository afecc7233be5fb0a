package jct

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"pgregory.net/rapid"
)

// mcGenLognormal draws a valid lognormal with a modest spread.
func mcGenLognormal(t *rapid.T, name string) Lognormal {
	return Lognormal{
		Mu:    rapid.Float64Range(-1, 6).Draw(t, name+".Mu"),
		Sigma: rapid.Float64Range(0, 1.5).Draw(t, name+".Sigma"),
	}
}

// mcGenModel draws a small valid job model (small enough that a fuzz input
// runs in well under a millisecond).
func mcGenModel(t *rapid.T) JobModel {
	return JobModel{
		Arrival:  mcGenLognormal(t, "Arrival"),
		Map:      mcGenLognormal(t, "Map"),
		Shuffle1: mcGenLognormal(t, "Shuffle1"),
		Shuffle2: mcGenLognormal(t, "Shuffle2"),
		Reduce:   mcGenLognormal(t, "Reduce"),
		Workers:  rapid.IntRange(1, 12).Draw(t, "Workers"),
		Maps:     rapid.IntRange(0, 60).Draw(t, "Maps"),
		Reduces:  rapid.IntRange(0, 30).Draw(t, "Reduces"),
	}
}

// mcAnyFloat draws a float that is sometimes NaN, infinite or negative.
func mcAnyFloat(t *rapid.T, name string, lo, hi float64) float64 {
	return rapid.OneOf(rapid.Float64Range(lo, hi),
		rapid.SampledFrom([]float64{0, -1, 1e308, math.Inf(1), math.Inf(-1), math.NaN()})).Draw(t, name)
}

// mcWantBad fails unless err is nil or a *ValueError matching ErrBadInput.
func mcWantBad(t *rapid.T, err error) {
	var ve *ValueError
	if err != nil && (!errors.Is(err, ErrBadInput) || !errors.As(err, &ve)) {
		t.Fatalf("unexpected error %v", err)
	}
}

// mcMaybeBreak sometimes spoils one field of m.
func mcMaybeBreak(t *rapid.T, m *JobModel) {
	switch rapid.IntRange(0, 7).Draw(t, "break") {
	case 1:
		m.Map.Sigma = mcAnyFloat(t, "Map.Sigma", -2, 2)
	case 2:
		m.Arrival.Mu = mcAnyFloat(t, "Arrival.Mu", -800, 800)
	case 3:
		m.Workers = rapid.IntRange(-3, 3).Draw(t, "Workers'")
	case 4:
		m.Reduces = rapid.IntRange(-3, 3).Draw(t, "Reduces'")
	case 5:
		m.Maps = rapid.IntRange(-3, 3).Draw(t, "Maps'")
	}
}

func TestPropRunMatchesReference(t *testing.T) { rapid.Check(t, propRunMatchesReference) }
func FuzzSimulatorRun(f *testing.F)            { f.Fuzz(rapid.MakeFuzz(propRunMatchesReference)) }

// propRunMatchesReference: the heap simulation equals the plain pseudo-code
// (linear scans) bit for bit, and bad models are rejected.
func propRunMatchesReference(t *rapid.T) {
	m := mcGenModel(t)
	mcMaybeBreak(t, &m)
	seed := rapid.Uint64().Draw(t, "seed")
	run := rapid.IntRange(0, 1<<20).Draw(t, "run")
	var s Simulator
	got, err := s.Run(m, seed, run)
	mcWantBad(t, err)
	if err != nil {
		return
	}
	if want := mcReference(m, seed, run); got != want {
		t.Fatalf("Run = %v, reference %v", got, want)
	}
	if !(got >= 0) || math.IsInf(got, 0) {
		t.Fatalf("completion time %v", got)
	}
}

func TestPropMoreWorkersCRN(t *testing.T) { rapid.Check(t, propMoreWorkersCRN) }
func FuzzMoreWorkersCRN(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMoreWorkersCRN)) }

// propMoreWorkersCRN is the monotonicity that holds exactly under the
// package's common random numbers (see doc.go, "More workers"): for w' > w,
// T(w') ≤ T(w) in every run where (a) no extra worker arrives after
// map_end(w), provided (b) w ≥ r or the first-wave shuffle is pointwise no
// longer than the second-wave one (same σ, μ₁ ≤ μ₂). When arrivals are
// fixed (σ = 0), (a) always holds, so the estimate of P(T ≤ D) never falls.
func propMoreWorkersCRN(t *rapid.T) {
	m := mcGenModel(t)
	if rapid.Bool().Draw(t, "fixedArrival") {
		m.Arrival.Sigma = 0
	}
	w := m.Workers
	w2 := rapid.IntRange(w+1, w+12).Draw(t, "w'")
	if rapid.Bool().Draw(t, "pointwiseShuffle") {
		m.Shuffle1.Sigma = m.Shuffle2.Sigma
		m.Shuffle1.Mu = m.Shuffle2.Mu - rapid.SampledFrom([]float64{0, 0.01, 0.5, 2}).Draw(t, "δ")
	} else {
		m.Reduces = min(m.Reduces, w)
	}
	seed := rapid.Uint64().Draw(t, "seed")
	const runs = 40
	var s Simulator
	m2 := m
	m2.Workers = w2
	mapOnly, arrivals := m, m2
	mapOnly.Reduces = 0
	arrivals.Maps, arrivals.Reduces = 0, 0
	met, met2 := 0, 0
	deadline := rapid.Float64Range(0, 2000).Draw(t, "deadline")
	for k := range runs {
		t1, _ := s.Run(m, seed, k)
		t2, _ := s.Run(m2, seed, k)
		mapEnd, _ := s.Run(mapOnly, seed, k)
		lastArrival, _ := s.Run(arrivals, seed, k)
		condA := lastArrival <= mapEnd
		if m.Arrival.Sigma == 0 && !condA {
			t.Fatalf("run %d: fixed arrivals but last arrival %v after map_end %v", k, lastArrival, mapEnd)
		}
		if condA && t2 > t1 {
			t.Fatalf("run %d: T(%d) = %v > T(%d) = %v", k, w2, t2, w, t1)
		}
		if t1 <= deadline {
			met++
		}
		if t2 <= deadline {
			met2++
		}
	}
	if m.Arrival.Sigma == 0 && met2 < met {
		t.Fatalf("P(T ≤ %v): %d/%d with %d workers < %d/%d with %d", deadline, met2, runs, w2, met, runs, w)
	}
}

func TestPropQuantilesMonotone(t *testing.T) { rapid.Check(t, propQuantilesMonotone) }
func FuzzQuantilesMonotone(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQuantilesMonotone)) }

// propQuantilesMonotone: a distribution's quantiles never decrease in p,
// span [Min, Max], and P(T ≤ D) never decreases in D.
func propQuantilesMonotone(t *rapid.T) {
	x := rapid.SliceOfN(rapid.Float64Range(0, 1e6), 1, 50).Draw(t, "samples")
	d, err := NewDistribution(x)
	if err != nil {
		t.Fatal(err)
	}
	p1 := rapid.Float64Range(0, 1).Draw(t, "p1")
	p2 := rapid.Float64Range(p1, 1).Draw(t, "p2")
	q1, err1 := d.Quantile(p1)
	q2, err2 := d.Quantile(p2)
	if err1 != nil || err2 != nil || q1 > q2 || q1 < d.Min() || q2 > d.Max() {
		t.Fatalf("Q(%v) = %v, Q(%v) = %v (%v %v), range [%v, %v]", p1, q1, p2, q2, err1, err2, d.Min(), d.Max())
	}
	if q, _ := d.Quantile(0); q != d.Min() {
		t.Fatalf("Q(0) = %v, min %v", q, d.Min())
	}
	if q, _ := d.Quantile(1); q != d.Max() {
		t.Fatalf("Q(1) = %v, max %v", q, d.Max())
	}
	a, b := slices.Min([]float64{q1, q2}), q2
	pa, _ := d.ProbWithin(a)
	pb, _ := d.ProbWithin(b)
	if pa > pb || pb > 1 || pa < 0 {
		t.Fatalf("P(T ≤ %v) = %v > P(T ≤ %v) = %v", a, pa, b, pb)
	}
	if p, _ := d.ProbWithin(d.Max()); p != 1 {
		t.Fatalf("P(T ≤ max) = %v", p)
	}
	if !(d.Mean() >= d.Min()*(1-1e-12) && d.Mean() <= d.Max()*(1+1e-12)) || !(d.StdDev() >= 0) {
		t.Fatalf("mean %v sd %v outside [%v, %v]", d.Mean(), d.StdDev(), d.Min(), d.Max())
	}
}

func TestPropQuantilesMonotonePredicted(t *testing.T) { rapid.Check(t, propQuantilesMonotonePredicted) }

// propQuantilesMonotonePredicted: the same on a predicted distribution.
func propQuantilesMonotonePredicted(t *rapid.T) {
	m := mcGenModel(t)
	d, err := Predict(m, Options{Runs: rapid.IntRange(1, 40).Draw(t, "runs"), Seed: rapid.Uint64().Draw(t, "seed")})
	if err != nil {
		t.Fatal(err)
	}
	prev := -1.0
	for _, p := range []float64{0, 0.05, 0.5, 0.8, 0.95, 1} {
		q, err := d.Quantile(p)
		if err != nil || q < prev {
			t.Fatalf("Q(%v) = %v after %v (%v)", p, q, prev, err)
		}
		prev = q
	}
}

func TestPropMomentsRoundTrip(t *testing.T) { rapid.Check(t, propMomentsRoundTrip) }
func FuzzMomentsRoundTrip(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMomentsRoundTrip)) }

// propMomentsRoundTrip: Eq. 5.1 then the lognormal's moments give the
// mean and variance back.
func propMomentsRoundTrip(t *rapid.T) {
	mean := rapid.Float64Range(1e-3, 1e6).Draw(t, "mean")
	cv := rapid.Float64Range(0, 5).Draw(t, "cv")
	v := (cv * mean) * (cv * mean)
	l, err := LognormalFromMoments(mean, v)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbsOrRel(l.Mean(), mean, 0, 1e-12) || !scalar.EqualWithinAbsOrRel(l.Variance(), v, 1e-12*mean*mean, 1e-10) {
		t.Fatalf("round trip (%v, %v) → %+v → (%v, %v)", mean, v, l, l.Mean(), l.Variance())
	}
}

func TestPropLognormalInputs(t *testing.T) { rapid.Check(t, propLognormalInputs) }
func FuzzLognormalInputs(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propLognormalInputs)) }

// propLognormalInputs: bad moments and samples give ValueErrors, good ones
// a valid distribution whose quantiles invert the CDF.
func propLognormalInputs(t *rapid.T) {
	mean := mcAnyFloat(t, "mean", 1e-6, 1e9)
	v := mcAnyFloat(t, "variance", 0, 1e12)
	l, err := LognormalFromMoments(mean, v)
	mcWantBad(t, err)
	if err == nil {
		if l.Validate() != nil {
			t.Fatalf("invalid %+v", l)
		}
		p := rapid.Float64Range(0.001, 0.999).Draw(t, "p")
		q, err := l.Quantile(p)
		if err != nil || (l.Sigma > 1e-3 && !scalar.EqualWithinAbsOrRel(l.CDF(q), p, 1e-9, 1e-7)) {
			t.Fatalf("CDF(Quantile(%v)) = %v (%v)", p, l.CDF(q), err)
		}
	}
	x := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) float64 { return mcAnyFloat(t, "x", 1e-6, 1e6) }), 0, 20).Draw(t, "samples")
	f, err := LognormalFromSamples(x)
	mcWantBad(t, err)
	if err == nil && f.Validate() != nil {
		t.Fatalf("fit %+v invalid", f)
	}
}

func TestPropLognormalMethods(t *testing.T) { rapid.Check(t, propLognormalMethods) }
func FuzzLognormalMethods(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propLognormalMethods)) }

// propLognormalMethods: on any valid lognormal (extreme parameters
// included) and any x and p, CDF and Survival are probabilities that sum
// to 1, PDF is ≥ 0, the moments are finite and ≥ 0 (they may underflow to
// 0), and nothing is NaN.
func propLognormalMethods(t *rapid.T) {
	l := Lognormal{Mu: mcAnyFloat(t, "Mu", -1.01*MaxLogMu, 1.01*MaxLogMu), Sigma: mcAnyFloat(t, "Sigma", 0, 1.01*MaxSigma)}
	if rapid.Bool().Draw(t, "at the limits") {
		l = Lognormal{Mu: rapid.SampledFrom([]float64{-MaxLogMu, MaxLogMu}).Draw(t, "Mu'"), Sigma: MaxSigma}
	}
	if rapid.Bool().Draw(t, "tiny Sigma") {
		l.Sigma = rapid.SampledFrom([]float64{5e-324, 1e-300, 1e-30, 1e-8}).Draw(t, "Sigma'")
	}
	if l.Validate() != nil {
		t.Skip("invalid")
	}
	x := mcAnyFloat(t, "x", 0, 1e12)
	if rapid.Bool().Draw(t, "x tiny") {
		x = rapid.SampledFrom([]float64{5e-324, 1e-310, 1e-300, 1e-30}).Draw(t, "x'")
	}
	c, sv, pdf := l.CDF(x), l.Survival(x), l.PDF(x)
	if !(c >= 0 && c <= 1) || !(sv >= 0 && sv <= 1) || !(pdf >= 0) {
		t.Fatalf("%+v at %v: CDF %v, Survival %v, PDF %v", l, x, c, sv, pdf)
	}
	if !math.IsNaN(x) && math.Abs(c+sv-1) > 1e-12 {
		t.Fatalf("%+v at %v: CDF %v + Survival %v ≠ 1", l, x, c, sv)
	}
	finite := func(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }
	if !finite(l.Mean()) || !finite(l.Variance()) || !finite(l.StdDev()) || !finite(l.Median()) {
		t.Fatalf("%+v: mean %v, variance %v, sd %v, median %v", l, l.Mean(), l.Variance(), l.StdDev(), l.Median())
	}
	p := mcAnyFloat(t, "p", 0, 1)
	q, err := l.Quantile(p)
	mcWantBad(t, err)
	if err == nil && !(q >= 0) {
		t.Fatalf("%+v: Quantile(%v) = %v", l, p, q)
	}
}

func TestPropPredictAnyInput(t *testing.T) { rapid.Check(t, propPredictAnyInput) }
func FuzzPredictAnyInput(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPredictAnyInput)) }

// propPredictAnyInput: Predict on any model and options either fails with
// ErrBadInput or returns the requested number of finite, non-negative
// outcomes, the same for every goroutine count.
func propPredictAnyInput(t *rapid.T) {
	m := mcGenModel(t)
	mcMaybeBreak(t, &m)
	opt := Options{Runs: rapid.IntRange(-2, 30).Draw(t, "runs"), Seed: rapid.Uint64().Draw(t, "seed"),
		Goroutines: rapid.IntRange(-2, 4).Draw(t, "goroutines")}
	d, err := Predict(m, opt)
	mcWantBad(t, err)
	if err != nil {
		return
	}
	if want := cmp.Or(opt.Runs, DefaultRuns); d.Len() != want {
		t.Fatalf("%d outcomes, want %d", d.Len(), want)
	}
	for k, x := range d.Samples() {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("outcome %d = %v", k, x)
		}
	}
	opt.Goroutines = 0
	if one, err := Predict(m, opt); err != nil || !slices.Equal(one.Samples(), d.Samples()) {
		t.Fatalf("goroutines changed the outcomes (%v)", err)
	}
}

func TestPropDrawRemaining(t *testing.T) { rapid.Check(t, propDrawRemaining) }
func FuzzDrawRemaining(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDrawRemaining)) }

// propDrawRemaining: a conditional remainder of a realistic distribution
// is finite and ≥ 0.
func propDrawRemaining(t *rapid.T) {
	l := Lognormal{Mu: rapid.Float64Range(-50, 50).Draw(t, "Mu"), Sigma: rapid.Float64Range(0, 10).Draw(t, "Sigma")}
	if l.Validate() != nil {
		t.Skip("out of range")
	}
	e := rapid.Float64Range(0, MaxDuration).Draw(t, "elapsed")
	var s Simulator
	s.seed(rapid.Uint64().Draw(t, "seed"), 0)
	r, err := l.DrawRemaining(e, s.rng[0])
	if err != nil || !(r >= 0) || math.IsInf(r, 0) {
		t.Fatalf("DrawRemaining(%v) = %v, %v for %+v", e, r, err, l)
	}
}

func TestPropDrawAnyInput(t *testing.T) { rapid.Check(t, propDrawAnyInput) }
func FuzzDrawAnyInput(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDrawAnyInput)) }

// propDrawAnyInput: Draw and DrawRemaining on any parameters, elapsed and
// a possibly nil rng either return an error matching ErrBadInput (a nil
// rng: ErrNilRand) or a finite value ≥ 0. A valid distribution with a
// non-nil rng and a finite elapsed ≤ MaxDuration is never an error.
func propDrawAnyInput(t *rapid.T) {
	l := Lognormal{Mu: mcAnyFloat(t, "Mu", -1e6, 700), Sigma: mcAnyFloat(t, "Sigma", 0, 1e6)}
	e := mcAnyFloat(t, "elapsed", -1e6, 1e308)
	var rng *rand.Rand
	if rapid.IntRange(0, 4).Draw(t, "nil rng") > 0 {
		var s Simulator
		s.seed(rapid.Uint64().Draw(t, "seed"), 0)
		rng = s.rng[0]
	}
	valid := l.Validate() == nil && rng != nil
	check := func(what string, x float64, err error, wantErr bool) {
		switch {
		case err != nil && !errors.Is(err, ErrBadInput):
			t.Fatalf("%s: error %v does not match ErrBadInput", what, err)
		case err != nil && (rng == nil) != errors.Is(err, ErrNilRand):
			t.Fatalf("%s with rng %v: error %v", what, rng, err)
		case (err != nil) != wantErr:
			t.Fatalf("%s of %+v, elapsed %v: error %v, want error %v", what, l, e, err, wantErr)
		case err == nil && !(x >= 0 && x <= math.MaxFloat64):
			t.Fatalf("%s of %+v, elapsed %v = %v", what, l, e, x)
		}
	}
	x, err := l.Draw(rng)
	check("Draw", x, err, !valid)
	x, err = l.DrawRemaining(e, rng)
	check("DrawRemaining", x, err, !valid || !(e >= -math.MaxFloat64 && e <= MaxDuration))
}

func TestPropOneTaskMean(t *testing.T) { rapid.Check(t, propOneTaskMean) }

// propOneTaskMean: a job of one map on one worker (arrival ≈ 0, no
// reduces) has the map lognormal's mean, within 6 standard errors (the
// sample mean of a lognormal is right-skewed; 6 keeps a false alarm below
// about 1e-8 per check even with -rapid.checks=10000).
func propOneTaskMean(t *rapid.T) {
	l := Lognormal{Mu: rapid.Float64Range(-2, 8).Draw(t, "Mu"), Sigma: rapid.Float64Range(0, 1).Draw(t, "Sigma")}
	m := JobModel{Arrival: Lognormal{Mu: -40}, Map: l, Shuffle1: l, Shuffle2: l, Reduce: l, Workers: 1, Maps: 1}
	const n = 4000
	d, err := Predict(m, Options{Runs: n, Seed: rapid.Uint64().Draw(t, "seed")})
	if err != nil {
		t.Fatal(err)
	}
	want := math.Exp(-40) + l.Mean()
	if se := l.StdDev() / math.Sqrt(n); math.Abs(d.Mean()-want) > 6*se+1e-12*want {
		t.Fatalf("mean %v, want %v ± %v", d.Mean(), want, 6*se)
	}
}

func TestPropRemainingAtStart(t *testing.T) { rapid.Check(t, propRemainingAtStart) }

// propRemainingAtStart: a remaining-time prediction from the job's start
// equals the full prediction.
func propRemainingAtStart(t *rapid.T) {
	m := mcGenModel(t)
	opt := Options{Runs: rapid.IntRange(1, 30).Draw(t, "runs"), Seed: rapid.Uint64().Draw(t, "seed")}
	rem, err := PredictRemaining(m, Start(), 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	full, err := Predict(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rem.Samples(), full.Samples()) {
		t.Fatalf("remaining at start %v ≠ full %v", rem.Samples(), full.Samples())
	}
}

func TestPropAddedNeverHurts(t *testing.T) { rapid.Check(t, propAddedNeverHurts) }
func FuzzAddedNeverHurts(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAddedNeverHurts)) }

// propAddedNeverHurts: from any state, adding workers now never lengthens
// a run (common random numbers), provided no reduce task can move from a
// shorter second-wave shuffle into a longer first-wave one: the two
// shuffles are pointwise ordered (same σ, μ₁ ≤ μ₂) or r ≤ w.
func propAddedNeverHurts(t *rapid.T) {
	m := mcGenModel(t)
	if rapid.Bool().Draw(t, "pointwiseShuffle") {
		m.Shuffle1.Sigma = m.Shuffle2.Sigma
		m.Shuffle1.Mu = m.Shuffle2.Mu - rapid.SampledFrom([]float64{0, 0.01, 0.5, 2}).Draw(t, "δ")
	} else {
		m.Reduces = min(m.Reduces, m.Workers)
	}
	st := mcGenValidState(t, m)
	k := rapid.IntRange(1, 8).Draw(t, "added")
	seed := rapid.Uint64().Draw(t, "seed")
	var s Simulator
	for run := range 20 {
		base, err1 := s.RunFrom(m, st, 0, seed, run)
		more, err2 := s.RunFrom(m, st, k, seed, run)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if more > base {
			t.Fatalf("run %d: %v s left with %d added workers > %v s without", run, more, k, base)
		}
	}
}

// mcGenState draws a job state for m, sometimes an invalid one.
func mcGenState(t *rapid.T, m JobModel) JobState {
	st := mcGenValidState(t, m)
	switch rapid.IntRange(0, 9).Draw(t, "spoil") {
	case 1:
		st.Elapsed = mcAnyFloat(t, "Elapsed'", -1, 1)
	case 2:
		st.WorkersPresent = m.Workers + 1
	case 3:
		st.MapsDone = -1
	case 4:
		st.RunningMaps = append(st.RunningMaps, mcAnyFloat(t, "extra", -1, 1))
	case 5:
		st.RunningReduces = append(st.RunningReduces, RunningReduce{Stage: ReduceStage(rapid.IntRange(-2, 5).Draw(t, "stage'"))})
	case 6:
		st.ReducesDone = m.Reduces + 1
	}
	return st
}

// mcGenValidState draws a valid job state for m.
func mcGenValidState(t *rapid.T, m JobModel) JobState {
	st := JobState{Elapsed: rapid.Float64Range(0, 500).Draw(t, "Elapsed")}
	st.WorkersPresent = rapid.IntRange(0, m.Workers).Draw(t, "present")
	if rapid.Bool().Draw(t, "reducePhase") && m.Reduces > 0 && st.WorkersPresent > 0 {
		st.MapsDone = m.Maps
		st.ReducesDone = rapid.IntRange(0, m.Reduces-1).Draw(t, "reducesDone")
		n := rapid.IntRange(0, min(st.WorkersPresent, m.Reduces-st.ReducesDone)).Draw(t, "running")
		for i := range n {
			st.RunningReduces = append(st.RunningReduces, RunningReduce{
				Stage:   ReduceStage(rapid.IntRange(0, 2).Draw(t, mcIndexed("stage", i))),
				Elapsed: rapid.Float64Range(0, 300).Draw(t, mcIndexed("rElapsed", i)),
			})
		}
		if n == 0 && st.ReducesDone == 0 {
			st.ReducesDone = 1
		}
	} else {
		st.MapsDone = rapid.IntRange(0, m.Maps).Draw(t, "mapsDone")
		n := rapid.IntRange(0, min(st.WorkersPresent, m.Maps-st.MapsDone)).Draw(t, "runningMaps")
		for i := range n {
			st.RunningMaps = append(st.RunningMaps, rapid.Float64Range(0, 300).Draw(t, mcIndexed("mElapsed", i)))
		}
	}
	return st
}

func TestPropRemaining(t *testing.T)    { rapid.Check(t, propRemaining) }
func FuzzPredictRemaining(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propRemaining)) }

// propRemaining: remaining times are finite and ≥ 0, calls with and
// without added workers share their draws, and bad states are rejected.
func propRemaining(t *rapid.T) {
	m := mcGenModel(t)
	st := mcGenState(t, m)
	k := rapid.IntRange(-1, 6).Draw(t, "added")
	opt := Options{Runs: rapid.IntRange(1, 10).Draw(t, "runs"), Seed: rapid.Uint64().Draw(t, "seed")}
	d, err := PredictRemaining(m, st, k, opt)
	mcWantBad(t, err)
	if err != nil {
		return
	}
	for _, x := range d.Samples() {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("remaining %v", x)
		}
	}
	var s Simulator
	if v, err := s.RunFrom(m, st, k, opt.Seed, 0); err != nil || v != d.Samples()[0] {
		t.Fatalf("RunFrom = %v (%v), sample 0 = %v", v, err, d.Samples()[0])
	}
}

func TestPropAllocateByReward(t *testing.T) { rapid.Check(t, propAllocateByReward) }
func FuzzAllocateByReward(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAllocateByReward)) }

// propAllocateByReward: the best candidate has the largest net reward.
func propAllocateByReward(t *rapid.T) {
	m := mcGenModel(t)
	mcMaybeBreak(t, &m)
	if m.Workers < 1 {
		m.Workers = 1
	}
	cands := rapid.SliceOfN(rapid.IntRange(-1, 20), 0, 5).Draw(t, "candidates")
	cost := mcAnyFloat(t, "cost", 0, 10)
	deadline := rapid.Float64Range(0, 2000).Draw(t, "deadline")
	reward := func(c float64) float64 {
		if c <= deadline {
			return 1000
		}
		return -500
	}
	ra, err := AllocateByReward(m, reward, cost, cands, Options{Runs: rapid.IntRange(1, 10).Draw(t, "runs"), Seed: 3})
	mcWantBad(t, err)
	if err != nil {
		return
	}
	if len(ra.Evaluated) != len(cands) {
		t.Fatalf("evaluated %d of %d", len(ra.Evaluated), len(cands))
	}
	for _, p := range ra.Evaluated {
		if p.Net > ra.Best.Net {
			t.Fatalf("candidate %+v beats best %+v", p, ra.Best)
		}
	}
}

func TestPropAdjustForSize(t *testing.T) { rapid.Check(t, propAdjustForSize) }
func FuzzAdjustForSize(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAdjustForSize)) }

// propAdjustForSize: with measurements at two sizes, the model adjusted to
// one of them has that model's phase means and variances; bad input gives
// ValueErrors.
func propAdjustForSize(t *rapid.T) {
	a, b := mcGenModel(t), mcGenModel(t)
	sa := rapid.Float64Range(1, 100).Draw(t, "sizeA")
	sb := sa + rapid.Float64Range(1, 100).Draw(t, "gap")
	ms := []SizedModel{{sa, a}, {sb, b}}
	got, err := AdjustForSize(ms, sa, 3, 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	pairs := [][2]Lognormal{{got.Arrival, a.Arrival}, {got.Map, a.Map}, {got.Shuffle1, a.Shuffle1}, {got.Shuffle2, a.Shuffle2}, {got.Reduce, a.Reduce}}
	others := []Lognormal{b.Arrival, b.Map, b.Shuffle1, b.Shuffle2, b.Reduce}
	for i, p := range pairs {
		scaleM := max(p[1].Mean(), others[i].Mean())
		scaleV := max(p[1].Variance(), others[i].Variance())
		if !scalar.EqualWithinAbsOrRel(p[0].Mean(), p[1].Mean(), 1e-9*scaleM, 1e-9) ||
			!scalar.EqualWithinAbsOrRel(p[0].Variance(), p[1].Variance(), 1e-8*scaleV+1e-200, 1e-6) {
			t.Fatalf("phase %d: got mean %v var %v, want %v %v", i, p[0].Mean(), p[0].Variance(), p[1].Mean(), p[1].Variance())
		}
	}
	// Anything: errors must be ValueErrors.
	size := mcAnyFloat(t, "size", 0.1, 1000)
	mcMaybeBreak(t, &ms[1].Model)
	ms[0].Size = mcAnyFloat(t, "size0", 0.1, 1000)
	_, err = AdjustForSize(ms[:rapid.IntRange(0, 2).Draw(t, "n")], size, 3, 10, 2)
	mcWantBad(t, err)
}

func TestPropDistributionInputs(t *testing.T) { rapid.Check(t, propDistributionInputs) }
func FuzzDistribution(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propDistributionInputs)) }

// propDistributionInputs: NewDistribution and its methods on any input.
func propDistributionInputs(t *rapid.T) {
	x := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) float64 { return mcAnyFloat(t, "x", 0, 1e9) }), 0, 30).Draw(t, "samples")
	d, err := NewDistribution(x)
	mcWantBad(t, err)
	if err == nil {
		// Summaries of any valid sample are finite and inside [Min, Max].
		lo, hi := d.Min(), d.Max()
		if !(d.Mean() >= lo && d.Mean() <= hi) || !(d.StdDev() >= 0) || math.IsInf(d.StdDev(), 0) {
			t.Fatalf("mean %v, sd %v outside [%v, %v]", d.Mean(), d.StdDev(), lo, hi)
		}
		if q, err := d.Quantile(0.37); err != nil || !(q >= lo && q <= hi) {
			t.Fatalf("quantile %v, %v outside [%v, %v]", q, err, lo, hi)
		}
	}
	p := mcAnyFloat(t, "p", 0, 1)
	_, err = d.Quantile(p)
	mcWantBad(t, err)
	_, err = d.ProbWithin(mcAnyFloat(t, "deadline", 0, 1e9))
	mcWantBad(t, err)
	_, err = d.Lognormal()
	mcWantBad(t, err)
	ks, err := d.KS(Lognormal{Mu: 3, Sigma: 1}.CDF)
	mcWantBad(t, err)
	if err == nil && !(ks >= 0 && ks <= 1) {
		t.Fatalf("KS %v", ks)
	}
}
