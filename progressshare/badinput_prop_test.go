package progressshare

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// wild draws any float64, often the edges of the rate and time ranges
// (MinRate, MaxRate, MaxDuration) and just beyond them, the float64
// extremes, NaN or ±Inf: a limit the docs call valid is exercised, not
// only what random floats reach.
func wild() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64(), rapid.SampledFrom(append(append(extremes.Edges(MinRate, MaxRate), extremes.Edges(0, MaxDuration)...),
		-1, MaxRate*2, MinRate/2, math.NaN(), math.Inf(1), math.Inf(-1))))
}

func TestPropBadInput(t *testing.T) { rapid.Check(t, propBadInput) }
func FuzzBadInput(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propBadInput)) }

// propBadInput feeds arbitrary values to every exported function: no panic,
// and every error matches ErrBadInput (ProgressShare may say ErrCalibrating).
func propBadInput(t *rapid.T) {
	ints := rapid.OneOf(rapid.IntRange(-2, 6), rapid.SampledFrom([]int{-1, math.MinInt, math.MaxInt, math.MaxInt32 + 1}))
	// Identifiers at and beyond their limits, in one case in ten (a slot at
	// MaxNode costs NewScheduler 8 MiB).
	ids := ints
	if rapid.IntRange(0, 9).Draw(t, "extreme ids") == 0 {
		ids = rapid.OneOf(ints, rapid.SampledFrom([]int{MaxNode, MaxNode + 1, MaxType, MaxType + 1, math.MaxInt, math.MinInt, 1 << 40}))
	}
	var slots []Slot
	for range rapid.IntRange(0, 6).Draw(t, "slots") {
		slots = append(slots, Slot{ids.Draw(t, "node"), ids.Draw(t, "type"), ids.Draw(t, "rack")})
	}
	opt := Options{ReadTime: [3]float64{wild().Draw(t, "tr0"), wild().Draw(t, "tr1"), wild().Draw(t, "tr2")},
		MaxDelay: wild().Draw(t, "max"), RackDelay: wild().Draw(t, "d1"), RemoteDelay: wild().Draw(t, "d2"),
		AffinityFactor: rapid.OneOf(wild(), rapid.SampledFrom([]float64{0, 1, 1.2})).Draw(t, "affinity"), AffinityBounded: rapid.Bool().Draw(t, "bounded")}
	check := func(err error) {
		if err != nil && !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
	}
	s, err := NewScheduler(slots, opt)
	check(err)
	if err != nil {
		fallback := Options{MaxDelay: 5}
		if rapid.Bool().Draw(t, "fallback with affinity") {
			fallback.AffinityFactor, fallback.AffinityBounded = 1.2, rapid.Bool().Draw(t, "fallback bounded")
		}
		if s, err = NewScheduler([]Slot{{0, 0, 0}, {1, 1, 0}, {2, 1, 1}}, fallback); err != nil {
			t.Fatal(err)
		}
	}
	var jobs []Job
	for range rapid.IntRange(0, 3).Draw(t, "jobs") {
		j := Job{Weight: wild().Draw(t, "w"), LastLaunch: wild().Draw(t, "last")}
		j.Rates = rapid.SliceOfN(wild(), 0, 4).Draw(t, "rates")
		j.Running = rapid.SliceOfN(ints, 0, 4).Draw(t, "running")
		for range rapid.IntRange(0, 3).Draw(t, "blocks") {
			j.Pending = append(j.Pending, Block{Replicas: rapid.SliceOfN(ints, 0, 3).Draw(t, "reps")})
		}
		if rapid.Bool().Draw(t, "zero index") {
			j.Index = new(PendingIndex)
			check(j.Index.Add(Block{Replicas: []int{0}}))
		}
		jobs = append(jobs, j)
	}
	now := wild().Draw(t, "now")
	slot := ints.Draw(t, "slot")
	if sl, ok := s.Slot(slot); ok != (slot >= 0 && slot < s.NumSlots()) || (ok && s.SlotsOfType(sl.Type) == 0) {
		t.Fatalf("Slot(%d) = %+v, %v", slot, sl, ok)
	}
	if n := s.SlotsOfType(slot); n < 0 || n > s.NumSlots() {
		t.Fatalf("SlotsOfType(%d) = %d", slot, n)
	}
	for _, pick := range []func(int, []Job, float64) (Decision, error){s.PickProgressShare, s.PickSlotShare} {
		d, err := pick(slot, jobs, now)
		check(err)
		if err == nil && d.Launch && (d.Job < 0 || d.Job >= len(jobs) || d.Block < 0 || d.Block >= len(jobs[d.Job].Pending) || !(d.Pref >= 0 && d.Pref <= 1) ||
			(d.Reason == ReasonAffinity) != (d.Bypassed >= 0) || d.Bypassed >= len(jobs) || d.Bypassed == d.Job) {
			t.Fatalf("bad decision %+v", d)
		}
	}
	check(s.Validate(jobs, now))
	for _, j := range jobs {
		b := ints.Draw(t, "block")
		p, err := s.Pref(slot, j, b)
		check(err)
		if err == nil && !(p > 0 && p <= 1) {
			t.Fatalf("Pref %v", p)
		}
		_, _, err = s.BestScore(slot, j, b)
		check(err)
		if r, err := s.RelativeRate(slot, j); !errors.Is(err, ErrCalibrating) {
			check(err)
			if err == nil && !(r > 0 && r <= float64(s.NumSlots())) {
				t.Fatalf("relative rate %v", r)
			}
		}
		if ps, err := s.ProgressShare(j); !errors.Is(err, ErrCalibrating) {
			check(err)
			if err == nil && !(ps >= 0 && ps <= 1) {
				t.Fatalf("PS %v", ps)
			}
		}
		_, err = s.SlotShare(j)
		check(err)
		s.Calibrating(j)
		x, err := s.NewPendingIndex(j.Pending)
		check(err)
		if err == nil {
			for _, b := range j.Pending {
				check(x.Add(b))
				check(x.Remove(Block{Replicas: rapid.SliceOfN(ints, 0, 3).Draw(t, "removed")}))
			}
			j.Index = x
			_, err = s.PickProgressShare(slot, []Job{j}, now)
			check(err)
		}
	}
}

func TestPropValidEdges(t *testing.T) { rapid.Check(t, propValidEdges) }
func FuzzValidEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propValidEdges)) }

// propValidEdges gives valid jobs and options values at the edges of their
// ranges (rates and weights at MinRate and MaxRate, times at MaxDuration and 0,
// subnormal delays, a clock at ±MaxFloat64 with launches as long ago as
// float64 reaches): every function accepts them and answers in range,
// without NaN.
func propValidEdges(t *rapid.T) {
	w := genWorld(t, 0)
	in := func(lo, hi float64) *rapid.Generator[float64] {
		return rapid.SampledFrom([]float64{lo, hi, math.Nextafter(lo, hi), math.Nextafter(hi, lo), 1})
	}
	rt := []float64{in(0, MaxDuration).Draw(t, "tr0"), in(0, MaxDuration).Draw(t, "tr1"), in(0, MaxDuration).Draw(t, "tr2")}
	slices.Sort(rt)
	d := []float64{in(0, MaxDuration).Draw(t, "d1"), in(0, MaxDuration).Draw(t, "d2")}
	slices.Sort(d)
	opt := Options{ReadTime: [3]float64{rt[0], rt[1], rt[2]}, MaxDelay: in(0, MaxDuration).Draw(t, "maxDelay"),
		RackDelay: d[0], RemoteDelay: d[1]}
	if rapid.Bool().Draw(t, "affinity") {
		opt.AffinityFactor, opt.AffinityBounded = in(1, MaxRate).Draw(t, "factor"), rapid.Bool().Draw(t, "bounded")
	}
	s, err := NewScheduler(w.slots, opt)
	if err != nil {
		t.Fatalf("valid options %+v: %v", opt, err)
	}
	now := rapid.SampledFrom([]float64{0, MaxDuration, math.MaxFloat64, -math.MaxFloat64 / 2, 1e300}).Draw(t, "now")
	jobs := genJobs(t, world{s: s, slots: w.slots, nodes: w.nodes}, rapid.Bool().Draw(t, "calibrated"), 0)
	for i := range jobs {
		j := &jobs[i]
		j.Weight = in(MinRate, MaxRate).Draw(t, "weight")
		for k := range j.Rates {
			if j.Rates[k] != 0 {
				j.Rates[k] = in(MinRate, MaxRate).Draw(t, "rate")
			}
		}
		j.LastLaunch = rapid.SampledFrom([]float64{now, math.Nextafter(now, math.Inf(-1)), -math.MaxFloat64, now - MaxDuration}).Draw(t, "last")
	}
	if err := s.Validate(jobs, now); err != nil {
		t.Fatalf("valid jobs refused: %v", err)
	}
	slot := rapid.IntRange(0, s.NumSlots()-1).Draw(t, "slot")
	for _, pick := range []func(int, []Job, float64) (Decision, error){s.PickProgressShare, s.PickSlotShare} {
		d, err := pick(slot, jobs, now)
		if err != nil {
			t.Fatalf("valid jobs refused: %v", err)
		}
		if d.Launch && (d.Job < 0 || d.Job >= len(jobs) || d.Block < 0 || d.Block >= len(jobs[d.Job].Pending) || !(d.Pref >= 0 && d.Pref <= 1)) {
			t.Fatalf("bad decision %+v", d)
		}
	}
	for _, j := range jobs {
		if ps, err := s.ProgressShare(j); !errors.Is(err, ErrCalibrating) && (err != nil || !(ps >= 0 && ps <= 1)) {
			t.Fatalf("ProgressShare = %v, %v", ps, err)
		}
		if ss, err := s.SlotShare(j); err != nil || !(ss >= 0) || math.IsInf(ss, 0) {
			t.Fatalf("SlotShare = %v, %v", ss, err)
		}
		if r, err := s.RelativeRate(slot, j); !errors.Is(err, ErrCalibrating) && (err != nil || !(r > 0) || math.IsInf(r, 0)) {
			t.Fatalf("RelativeRate = %v, %v", r, err)
		}
		for b := range j.Pending {
			if p, err := s.Pref(slot, j, b); err != nil || !(p > 0 && p <= 1) {
				t.Fatalf("Pref = %v, %v", p, err)
			}
			if bs, _, err := s.BestScore(slot, j, b); err != nil || !(bs > 0) || math.IsInf(bs, 0) {
				t.Fatalf("BestScore = %v, %v", bs, err)
			}
		}
	}
}
