package jct

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// mcHandModel is deterministic: arrival 1 s, map 10 s, first-wave shuffle
// 4 s, second-wave shuffle 2 s, reduce 1 s.
func mcHandModel(workers, maps, reduces int) JobModel {
	return JobModel{Arrival: mcFixed(1), Map: mcFixed(10), Shuffle1: mcFixed(4), Shuffle2: mcFixed(2), Reduce: mcFixed(1),
		Workers: workers, Maps: maps, Reduces: reduces}
}

func TestRemainingByHand(t *testing.T) {
	tests := []struct {
		name  string
		st    JobState
		added int
		want  float64
	}{
		{
			// Two maps have run 4 s of 10: both workers free at 21; one map
			// left: 31; map_end 31; first wave 2 × (4+1): 36; second wave
			// one task (2+1): 39. Remaining 39 − 15.
			name: "map phase",
			st:   JobState{Elapsed: 15, WorkersPresent: 2, MapsDone: 1, RunningMaps: []float64{4, 4}},
			want: 24,
		},
		{
			// A third worker arrives at 15 + 1 and takes the last map: 26;
			// map_end 26; first wave of 3: 31.
			name:  "map phase plus one worker",
			st:    JobState{Elapsed: 15, WorkersPresent: 2, MapsDone: 1, RunningMaps: []float64{4, 4}},
			added: 1,
			want:  16,
		},
		{
			// Reduce phase: the running second-wave shuffle has 1 s left,
			// then 1 s reduce: 42; the idle worker takes the last task
			// (2+1) at 40: 43.
			name: "reduce phase",
			st:   JobState{Elapsed: 40, WorkersPresent: 2, MapsDone: 4, ReducesDone: 1, RunningReduces: []RunningReduce{{StageShuffle2, 1}}},
			want: 3,
		},
		{
			// In its reduce stage with 0.25 s done: free at 50.75; the
			// idle worker takes one second-wave task (2+1) at 50 → 53, the
			// other worker the last at 50.75 → 53.75.
			name: "reduce stage",
			st:   JobState{Elapsed: 50, WorkersPresent: 2, MapsDone: 4, RunningReduces: []RunningReduce{{StageReduce, 0.25}}},
			want: 3.75,
		},
		{
			// Two first-wave shuffles (4 s) have run 1 s and 3 s: they
			// finish their reduces (1 s) at 44 and 42; the last task
			// (second wave, 2+1) starts at 42: 45.
			name: "first-wave shuffles running",
			st: JobState{Elapsed: 40, WorkersPresent: 2, MapsDone: 4,
				RunningReduces: []RunningReduce{{StageShuffle1, 1}, {StageShuffle1, 3}}},
			want: 5,
		},
		{
			// The job is done: nothing left.
			name: "finished",
			st:   JobState{Elapsed: 60, WorkersPresent: 2, MapsDone: 4, ReducesDone: 3},
			want: 0,
		},
		{
			// All maps done, no reduce started: the barrier is now (the
			// absent worker is overdue and arrives at once); first wave of
			// 2 at 5 s, second wave 3 s more.
			name: "at the barrier",
			st:   JobState{Elapsed: 45, WorkersPresent: 1, MapsDone: 4},
			want: 8,
		},
	}
	var s Simulator
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.RunFrom(mcHandModel(2, 4, 3), tt.st, tt.added, 1, 0)
			if err != nil || !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-9, 1e-12) {
				t.Errorf("RunFrom = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestRemainingLongElapsed: with every worker present, the remaining time
// does not depend on how long the job has run, up to MaxDuration (it fell
// from 94 s at Elapsed 1e9 to 0 at 1e20 when the simulation kept absolute
// times).
func TestRemainingLongElapsed(t *testing.T) {
	m := mcHandModel(2, 4, 3)
	st := JobState{WorkersPresent: 2, MapsDone: 1, RunningMaps: []float64{4, 4}}
	var want []float64
	for _, e := range []float64{15, 1e9, 5e11, MaxDuration} {
		st.Elapsed = e
		d, err := PredictRemaining(m, st, 0, Options{Runs: 50, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = d.Samples()
		} else if !slices.Equal(d.Samples(), want) {
			t.Fatalf("Elapsed %v changed the remaining times: %v, want %v", e, d.Samples()[:3], want[:3])
		}
	}
}

func TestRemainingBadInput(t *testing.T) {
	m := mcHandModel(2, 4, 3)
	nan := math.NaN()
	tests := []struct {
		name  string
		st    JobState
		added int
		field string
	}{
		{"elapsed NaN", JobState{Elapsed: nan}, 0, "JobState.Elapsed"},
		{"elapsed negative", JobState{Elapsed: -1}, 0, "JobState.Elapsed"},
		{"elapsed Inf", JobState{Elapsed: math.Inf(1)}, 0, "JobState.Elapsed"},
		{"elapsed beyond MaxDuration", JobState{Elapsed: math.MaxFloat64}, 0, "JobState.Elapsed"},
		{"running map beyond MaxDuration", JobState{Elapsed: 1, WorkersPresent: 1, RunningMaps: []float64{math.MaxFloat64}}, 0, "JobState.RunningMaps[0]"},
		{"reduce elapsed beyond MaxDuration", JobState{WorkersPresent: 1, MapsDone: 4, RunningReduces: []RunningReduce{{StageReduce, 2e12}}}, 0, "JobState.RunningReduces[0].Elapsed"},
		{"too many present", JobState{WorkersPresent: 3}, 0, "JobState.WorkersPresent"},
		{"present negative", JobState{WorkersPresent: -1}, 0, "JobState.WorkersPresent"},
		{"maps done beyond", JobState{MapsDone: 5}, 0, "JobState.MapsDone"},
		{"running maps without workers", JobState{RunningMaps: []float64{1}}, 0, "len(JobState.RunningMaps)"},
		{"running map NaN", JobState{WorkersPresent: 1, RunningMaps: []float64{nan}}, 0, "JobState.RunningMaps[0]"},
		{"running maps beyond maps", JobState{WorkersPresent: 2, MapsDone: 3, RunningMaps: []float64{1, 1}}, 0, "len(JobState.RunningMaps)"},
		{"reduces done beyond", JobState{MapsDone: 4, ReducesDone: 4}, 0, "JobState.ReducesDone"},
		{"bad stage", JobState{WorkersPresent: 1, MapsDone: 4, RunningReduces: []RunningReduce{{Stage: 7}}}, 0, "JobState.RunningReduces[0].Stage"},
		{"reduce elapsed negative", JobState{WorkersPresent: 1, MapsDone: 4, RunningReduces: []RunningReduce{{StageReduce, -2}}}, 0, "JobState.RunningReduces[0].Elapsed"},
		{"reduce before maps done", JobState{WorkersPresent: 1, MapsDone: 2, RunningReduces: []RunningReduce{{StageShuffle1, 1}}}, 0, "JobState.MapsDone"},
		{"added negative", JobState{}, -1, "added"},
		{"added huge", JobState{}, MaxWorkers, "added"},
	}
	var s Simulator
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.RunFrom(m, tt.st, tt.added, 1, 0)
			_, err2 := PredictRemaining(m, tt.st, tt.added, Options{Runs: 3})
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Field != tt.field || !errors.Is(err2, ErrBadInput) {
				t.Errorf("got %v / %v, want ValueError on %s", err, err2, tt.field)
			}
		})
	}
	if _, err := s.RunFrom(m, JobState{}, 0, 1, -1); !errors.Is(err, ErrBadInput) {
		t.Errorf("negative run: %v", err)
	}
}

func TestAllocateByRewardByHand(t *testing.T) {
	m := mcHandModel(1, 100, 0)
	// Reward 1000 if done by 111.5 s; 0.1 per worker-second.
	// w=5: T=201, 0 − 0.1·5·201 = −100.5; w=10: T=101, 1000 − 101 = 899;
	// w=20: T=51, 1000 − 102 = 898.
	reward := func(c float64) float64 {
		if c <= 111.5 {
			return 1000
		}
		return 0
	}
	ra, err := AllocateByReward(m, reward, 0.1, []int{5, 20, 10}, Options{Runs: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{5: -100.5, 10: 899, 20: 898}
	for _, p := range ra.Evaluated {
		if !scalar.EqualWithinAbsOrRel(p.Net, want[p.Workers], 1e-9, 1e-9) {
			t.Errorf("w=%d: net %v, want %v", p.Workers, p.Net, want[p.Workers])
		}
	}
	if ra.Best.Workers != 10 {
		t.Errorf("best %+v, want 10 workers", ra.Best)
	}
	// Ties go to the fewer workers: with no cost and a flat reward every
	// candidate nets 1000.
	flat := func(float64) float64 { return 1000 }
	if tie, err := AllocateByReward(m, flat, 0, []int{20, 5, 10}, Options{Runs: 2}); err != nil || tie.Best.Workers != 5 || tie.Best.Net != 1000 {
		t.Errorf("tie: best %+v, %v; want 5 workers", tie.Best, err)
	}
	bad := []struct {
		name   string
		reward func(float64) float64
		cost   float64
		cands  []int
		field  string
	}{
		{"nil reward", nil, 0.1, []int{1}, "reward"},
		{"cost NaN", reward, math.NaN(), []int{1}, "costPerWorkerSecond"},
		{"cost negative", reward, -1, []int{1}, "costPerWorkerSecond"},
		{"no candidates", reward, 0.1, nil, "candidates"},
		{"candidate 0", reward, 0.1, []int{4, 0}, "candidates[1]"},
		{"reward NaN", func(float64) float64 { return math.NaN() }, 0.1, []int{4}, "reward(251"}, // T = 1 + 25·10
		{"net overflows", func(float64) float64 { return math.MaxFloat64 }, 0, []int{4}, "candidates[0]"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := AllocateByReward(m, tt.reward, tt.cost, tt.cands, Options{Runs: 3})
			var ve *ValueError
			if !errors.As(err, &ve) || !strings.HasPrefix(ve.Field, tt.field) {
				t.Errorf("got %v, want ValueError on %s", err, tt.field)
			}
		})
	}
}

func TestAdjustForSizeByHand(t *testing.T) {
	mk := func(mean, v float64) Lognormal {
		l, err := LognormalFromMoments(mean, v)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	at := func(redMean, redVar float64) JobModel {
		return JobModel{Arrival: mk(20, 25), Map: mk(12, 9), Shuffle1: mk(redMean*2, redVar), Shuffle2: mk(redMean, redVar), Reduce: mk(redMean, redVar)}
	}
	ms := []SizedModel{{10, at(10, 4)}, {100, at(100, 40)}}
	tests := []struct {
		size            float64
		redMean, redVar float64
	}{
		{50, 50, 20},   // interpolation (Fig. 5.12)
		{200, 200, 80}, // extrapolation (Fig. 5.13)
		{10, 10, 4},
	}
	for _, tt := range tests {
		got, err := AdjustForSize(ms, tt.size, 100, 800, 120)
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbsOrRel(got.Reduce.Mean(), tt.redMean, 1e-9, 1e-9) || !scalar.EqualWithinAbsOrRel(got.Reduce.Variance(), tt.redVar, 1e-9, 1e-9) {
			t.Errorf("size %v: reduce mean %v var %v, want %v %v", tt.size, got.Reduce.Mean(), got.Reduce.Variance(), tt.redMean, tt.redVar)
		}
		if !scalar.EqualWithinAbsOrRel(got.Map.Mean(), 12, 1e-9, 1e-9) || !scalar.EqualWithinAbsOrRel(got.Map.Variance(), 9, 1e-9, 1e-9) {
			t.Errorf("size %v: map mean %v var %v, want flat 12, 9", tt.size, got.Map.Mean(), got.Map.Variance())
		}
		if !scalar.EqualWithinAbsOrRel(got.Shuffle1.Mean(), 2*tt.redMean, 1e-9, 1e-9) {
			t.Errorf("size %v: shuffle1 mean %v", tt.size, got.Shuffle1.Mean())
		}
		if got.Workers != 100 || got.Maps != 800 || got.Reduces != 120 {
			t.Errorf("counts %d %d %d", got.Workers, got.Maps, got.Reduces)
		}
	}
	// Least squares over three sizes: means 10, 20, 60 at 1, 2, 3 → line
	// −20 + 25·s, at 4: 80.
	three := []SizedModel{{1, at(10, 1)}, {2, at(20, 1)}, {3, at(60, 1)}}
	got, err := AdjustForSize(three, 4, 1, 1, 1)
	if err != nil || !scalar.EqualWithinAbsOrRel(got.Reduce.Mean(), 80, 1e-9, 1e-9) {
		t.Errorf("three sizes: %v, %v; want 80", got.Reduce.Mean(), err)
	}
	shrinking := []SizedModel{{10, at(100, 4)}, {20, at(50, 4)}}
	bad := []struct {
		name  string
		ms    []SizedModel
		size  float64
		w     int
		field string
	}{
		{"one size", ms[:1], 50, 1, "measured"},
		{"same size twice", []SizedModel{ms[0], ms[0]}, 50, 1, "measured"},
		{"size NaN", ms, math.NaN(), 1, "size"},
		{"size 0", ms, 0, 1, "size"},
		{"measured size negative", []SizedModel{ms[0], {-3, ms[1].Model}}, 50, 1, "measured[1].Size"},
		{"measured model bad", []SizedModel{ms[0], {100, JobModel{Reduce: Lognormal{Sigma: -1}}}}, 50, 1, "measured[1].Model.Reduce.Sigma"},
		{"mean below zero", shrinking, 40, 1, "Shuffle1.mean at size 40"},
		{"workers 0", ms, 50, 0, "JobModel.Workers"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := AdjustForSize(tt.ms, tt.size, tt.w, 1, 1)
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Errorf("got %v, want ValueError on %s", err, tt.field)
			}
		})
	}
	varDown := []SizedModel{{10, at(10, 40)}, {20, at(20, 4)}}
	if _, err := AdjustForSize(varDown, 40, 1, 1, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("negative extrapolated variance: %v", err)
	}
}

func TestDistributionByHand(t *testing.T) {
	d, err := NewDistribution([]float64{4, 1, 3, 2})
	if err != nil {
		t.Fatal(err)
	}
	q := func(p float64) float64 { v, _ := d.Quantile(p); return v }
	pw := func(x float64) float64 { v, _ := d.ProbWithin(x); return v }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"mean", d.Mean(), 2.5},
		{"sd", d.StdDev(), math.Sqrt(5.0 / 3)},
		{"Q(0.5)", q(0.5), 2.5},
		{"Q(0.25)", q(0.25), 1.75},
		{"Q(0)", q(0), 1},
		{"Q(1)", q(1), 4},
		{"P(≤2)", pw(2), 0.5},
		{"P(≤2.5)", pw(2.5), 0.5},
		{"P(≤0.5)", pw(0.5), 0},
		{"P(≤+Inf)", pw(math.Inf(1)), 1},
		{"P(≤−Inf)", pw(math.Inf(-1)), 0},
	}
	for _, c := range checks {
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-12, 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if ks, err := d.KS(func(x float64) float64 { return x / 4 }); err != nil || !scalar.EqualWithinAbsOrRel(ks, 0.25, 1e-12, 1e-12) {
		t.Errorf("KS = %v, %v; want 0.25", ks, err)
	}
	if s := d.Samples(); s[0] != 4 || s[3] != 2 {
		t.Errorf("samples not in run order: %v", s)
	}
	s := d.Samples()
	s[0] = 99 // a copy: the distribution is unchanged
	if d.Samples()[0] != 4 || d.Sorted()[3] != 4 {
		t.Error("Samples shares storage")
	}
	l, err := d.Lognormal()
	if err != nil || !scalar.EqualWithinAbsOrRel(l.Mu, math.Log(24)/4, 1e-12, 1e-12) {
		t.Errorf("fit %+v, %v", l, err)
	}
	var empty Distribution
	if empty.Len() != 0 || empty.Mean() != 0 || empty.Min() != 0 || empty.Max() != 0 || empty.Samples() != nil {
		t.Error("zero Distribution is not empty")
	}
	bad := []struct {
		name string
		err  func() error
	}{
		{"new empty", func() error { _, err := NewDistribution(nil); return err }},
		{"new NaN", func() error { _, err := NewDistribution([]float64{1, math.NaN()}); return err }},
		{"new negative", func() error { _, err := NewDistribution([]float64{-1}); return err }},
		{"new Inf", func() error { _, err := NewDistribution([]float64{math.Inf(1)}); return err }},
		{"quantile p<0", func() error { _, err := d.Quantile(-0.1); return err }},
		{"quantile NaN", func() error { _, err := d.Quantile(math.NaN()); return err }},
		{"quantile empty", func() error { _, err := empty.Quantile(0.5); return err }},
		{"prob NaN", func() error { _, err := d.ProbWithin(math.NaN()); return err }},
		{"prob empty", func() error { _, err := empty.ProbWithin(1); return err }},
		{"lognormal empty", func() error { _, err := empty.Lognormal(); return err }},
		{"lognormal with zero", func() error {
			z, _ := NewDistribution([]float64{0, 1})
			_, err := z.Lognormal()
			return err
		}},
		{"KS nil", func() error { _, err := d.KS(nil); return err }},
		{"KS out of range", func() error { _, err := d.KS(func(float64) float64 { return 2 }); return err }},
		{"KS NaN", func() error { _, err := d.KS(func(float64) float64 { return math.NaN() }); return err }},
		{"KS empty", func() error { _, err := empty.KS(func(float64) float64 { return 0 }); return err }},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.err(); !errors.Is(err, ErrBadInput) {
				t.Errorf("got %v, want ErrBadInput", err)
			}
		})
	}
}

// TestMoreWorkersCanHurt pins the two ways the §5.2.2 model itself makes
// more workers lower P(T ≤ D), so that the property proved in
// propMoreWorkersCRN is stated exactly: (a) an extra worker that arrives
// after the maps are done still delays the barrier map_end = max(W);
// (b) a reduce task moved into the first wave takes a first-wave shuffle,
// which can be much longer than a second-wave one.
func TestMoreWorkersCanHurt(t *testing.T) {
	p := func(m JobModel, w int, d float64) float64 {
		m.Workers = w
		dist, err := Predict(m, Options{Runs: 2000, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := dist.ProbWithin(d)
		return v
	}
	late := JobModel{Arrival: Lognormal{Mu: math.Log(10), Sigma: 1}, Map: mcFixed(1), Shuffle1: mcFixed(1), Shuffle2: mcFixed(1), Reduce: mcFixed(1), Maps: 1}
	if p1, p8 := p(late, 1, 15), p(late, 8, 15); !(p8 < p1) {
		t.Errorf("late arrivals: P(T ≤ 15) with 8 workers %v, with 1 %v; expected lower", p8, p1)
	}
	slowFirst := JobModel{Arrival: mcFixed(1), Map: mcFixed(1), Shuffle1: Lognormal{Mu: math.Log(100), Sigma: 1}, Shuffle2: mcFixed(0.001), Reduce: mcFixed(0.001), Reduces: 2}
	if p1, p2 := p(slowFirst, 1, 150), p(slowFirst, 2, 150); !(p2 < p1) {
		t.Errorf("slow first wave: P(T ≤ 150) with 2 workers %v, with 1 %v; expected lower", p2, p1)
	}
}

// TestDistributionHugeOutcomes is the shrunk rapid failure of
// propDistributionInputs: squares (and sums) of outcomes near
// math.MaxFloat64 overflow, so Mean and StdDev rescale.
func TestDistributionHugeOutcomes(t *testing.T) {
	d, err := NewDistribution([]float64{1, 1e308})
	if err != nil {
		t.Fatal(err)
	}
	// mean 5e307, sd = (1e308 − 1)/√2 ≈ 7.0710678e307.
	if !scalar.EqualWithinRel(d.Mean(), 5e307, 1e-12) || !scalar.EqualWithinRel(d.StdDev(), 1e308/math.Sqrt2, 1e-12) {
		t.Errorf("mean %v, sd %v", d.Mean(), d.StdDev())
	}
	d, err = NewDistribution([]float64{math.MaxFloat64, math.MaxFloat64, math.MaxFloat64})
	if err != nil || d.Mean() != math.MaxFloat64 || d.StdDev() != 0 {
		t.Errorf("MaxFloat64 ×3: mean %v, sd %v, %v", d.Mean(), d.StdDev(), err)
	}
}

// TestDistributionEqualOutcomes is the shrunk fuzz failure of
// FuzzDistribution: the mean of equal outcomes rounded above them and the
// sd was a 1e-15 residue instead of 0.
func TestDistributionEqualOutcomes(t *testing.T) {
	x := 3.1506984808718363e-56
	d, err := NewDistribution(slices.Repeat([]float64{x}, 20)) // 20·x/20 rounds to x(1 + 4ε)
	if err != nil || d.Mean() != x || d.StdDev() != 0 {
		t.Errorf("mean %v, sd %v, %v; want %v, 0", d.Mean(), d.StdDev(), err, x)
	}
}
