package jct

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// mcFixed returns the degenerate lognormal at v seconds.
func mcFixed(v float64) Lognormal { return Lognormal{Mu: math.Log(v)} }

// TestRunByHand follows Simulator.Run's six steps on a deterministic model.
func TestRunByHand(t *testing.T) {
	tests := []struct {
		name string
		m    JobModel
		want float64
	}{
		{
			// W = [1,1] → maps of 2: [3,1] [3,3] [5,3]; map_end 5;
			// first wave 2 tasks: 5+4+1 = 10 each; second wave 1 task:
			// 10+2+1 = 13.
			name: "two workers three maps three reduces",
			m: JobModel{Arrival: mcFixed(1), Map: mcFixed(2), Shuffle1: mcFixed(4), Shuffle2: mcFixed(2), Reduce: mcFixed(1),
				Workers: 2, Maps: 3, Reduces: 3},
			want: 13,
		},
		{
			// r < w: first wave min(w, r) = 1 task; map_end 1 + 2 = 3.
			name: "more workers than reduces",
			m: JobModel{Arrival: mcFixed(1), Map: mcFixed(2), Shuffle1: mcFixed(4), Shuffle2: mcFixed(2), Reduce: mcFixed(1),
				Workers: 4, Maps: 1, Reduces: 1},
			want: 3 + 4 + 1,
		},
		{
			// map-only job: completion = map_end = 1 + 5·2 on one worker.
			name: "map only",
			m: JobModel{Arrival: mcFixed(1), Map: mcFixed(2), Shuffle1: mcFixed(4), Shuffle2: mcFixed(2), Reduce: mcFixed(1),
				Workers: 1, Maps: 5},
			want: 11,
		},
		{
			// no maps: map_end = max arrival; 5 reduces on 2 workers:
			// first wave 2 (1+4+1 = 6), second wave 3: 9, 9, 12.
			name: "no maps",
			m: JobModel{Arrival: mcFixed(1), Map: mcFixed(2), Shuffle1: mcFixed(4), Shuffle2: mcFixed(2), Reduce: mcFixed(1),
				Workers: 2, Reduces: 5},
			want: 12,
		},
	}
	var s Simulator
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Run(tt.m, 9, 0)
			if err != nil || !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-9, 1e-12) {
				t.Errorf("Run = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// mcReference is the §5.2.2 pseudo-code written the plain way (linear scans
// for the smallest timer, the exported checked Lognormal.Draw) on the same
// streams as Simulator.run. m must be valid.
func mcReference(m JobModel, seed uint64, run int) float64 {
	draw := func(l Lognormal, rng *rand.Rand) float64 {
		x, err := l.Draw(rng)
		if err != nil {
			panic(err) // m is valid and rng non-nil: a broken invariant
		}
		return x
	}
	var s Simulator
	s.seed(seed, run)
	arr, mp, sh, rd := s.rng[mcStreamArrival], s.rng[mcStreamMap], s.rng[mcStreamShuffle], s.rng[mcStreamReduce]
	w := make([]float64, m.Workers)
	for j := range w {
		w[j] = draw(m.Arrival, arr)
	}
	argmin := func() int {
		j := 0
		for i := range w {
			if w[i] < w[j] {
				j = i
			}
		}
		return j
	}
	for range m.Maps {
		w[argmin()] += draw(m.Map, mp)
	}
	end := slices.Max(w)
	for i := range w {
		w[i] = end
	}
	first := min(m.Workers, m.Reduces)
	for i := range first {
		w[i] += math.Exp(m.Shuffle1.Mu+m.Shuffle1.Sigma*sh.NormFloat64()) + draw(m.Reduce, rd)
	}
	for range m.Reduces - first {
		w[argmin()] += math.Exp(m.Shuffle2.Mu+m.Shuffle2.Sigma*sh.NormFloat64()) + draw(m.Reduce, rd)
	}
	return slices.Max(w)
}

func TestRunDeterministicAndBadInput(t *testing.T) {
	m := mcSort500()
	m.Maps, m.Workers = 300, 20
	var s1, s2 Simulator
	a, err1 := s1.Run(m, 42, 7)
	b, err2 := s2.Run(m, 42, 7)
	c, _ := s1.Run(m, 42, 8)
	if err1 != nil || err2 != nil || a != b || a == c {
		t.Errorf("runs %v %v %v (%v %v): want equal for equal (seed, run), different otherwise", a, b, c, err1, err2)
	}
	nan := math.NaN()
	bad := []struct {
		name  string
		m     func(*JobModel)
		run   int
		field string
	}{
		{"workers 0", func(m *JobModel) { m.Workers = 0 }, 0, "JobModel.Workers"},
		{"workers huge", func(m *JobModel) { m.Workers = MaxWorkers + 1 }, 0, "JobModel.Workers"},
		{"maps negative", func(m *JobModel) { m.Maps = -1 }, 0, "JobModel.Maps"},
		{"maps huge", func(m *JobModel) { m.Maps = math.MaxInt }, 0, "JobModel.Maps"},
		{"reduces negative", func(m *JobModel) { m.Reduces = -5 }, 0, "JobModel.Reduces"},
		{"map sigma NaN", func(m *JobModel) { m.Map.Sigma = nan }, 0, "JobModel.Map.Sigma"},
		{"arrival mu Inf", func(m *JobModel) { m.Arrival.Mu = math.Inf(1) }, 0, "JobModel.Arrival.Mu"},
		{"shuffle1 sigma negative", func(m *JobModel) { m.Shuffle1.Sigma = -1 }, 0, "JobModel.Shuffle1.Sigma"},
		{"shuffle2 mu NaN", func(m *JobModel) { m.Shuffle2.Mu = nan }, 0, "JobModel.Shuffle2.Mu"},
		{"reduce overflow", func(m *JobModel) { m.Reduce.Mu = 700 }, 0, "JobModel.Reduce.Mu"},
		{"run negative", func(m *JobModel) {}, -1, "run"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			mm := m
			tt.m(&mm)
			_, err := s1.Run(mm, 1, tt.run)
			wantField(t, err, tt.field)
		})
	}
}

func TestPredictParallelIdentical(t *testing.T) {
	m := mcSort500()
	m.Maps, m.Workers, m.Reduces = 500, 30, 40
	ref, err := Predict(m, Options{Runs: 257, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []int{2, 3, 8, 1000} {
		d, err := Predict(m, Options{Runs: 257, Seed: 5, Goroutines: g})
		if err != nil || !slices.Equal(d.Samples(), ref.Samples()) {
			t.Errorf("goroutines %d: samples differ (%v)", g, err)
		}
	}
	other, _ := Predict(m, Options{Runs: 257, Seed: 6})
	if slices.Equal(other.Samples(), ref.Samples()) {
		t.Error("seed 6 gave the same samples as seed 5")
	}
	// Sample k is Run(m, seed, k).
	var s Simulator
	for _, k := range []int{0, 100, 256} {
		if v, _ := s.Run(m, 5, k); v != ref.Samples()[k] {
			t.Errorf("sample %d = %v, Run = %v", k, ref.Samples()[k], v)
		}
	}
	if ref.Len() != 257 {
		t.Errorf("Len = %d", ref.Len())
	}
	d, err := Predict(m, Options{Seed: 1})
	if err != nil || d.Len() != DefaultRuns {
		t.Errorf("default runs: %d, %v", d.Len(), err)
	}
	for _, o := range []Options{{Runs: -1}, {Runs: MaxRuns + 1}, {Goroutines: -2}, {Goroutines: MaxGoroutines + 1}} {
		if _, err := Predict(m, o); !errors.Is(err, ErrBadInput) {
			t.Errorf("options %+v: %v", o, err)
		}
	}
	if _, err := Predict(JobModel{}, Options{}); !errors.Is(err, ErrBadInput) {
		t.Errorf("zero model: %v", err)
	}
}

func TestSimulatorAllocations(t *testing.T) {
	if mcRaceEnabled {
		t.Skip("allocation counts are not exact under -race")
	}
	m := mcSort500()
	var s Simulator
	s.Run(m, 1, 0)
	k := 0
	if n := testing.AllocsPerRun(20, func() { s.Run(m, 1, k); k++ }); n != 0 {
		t.Errorf("Run allocates %v times per run", n)
	}
	st := JobState{Elapsed: 100, WorkersPresent: 100, MapsDone: 1000, RunningMaps: []float64{1, 2, 3}}
	s.RunFrom(m, st, 50, 1, 0)
	if n := testing.AllocsPerRun(20, func() { s.RunFrom(m, st, 50, 1, k); k++ }); n != 0 {
		t.Errorf("RunFrom allocates %v times per run", n)
	}
}
