package progressshare

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"pgregory.net/rapid"
)

// gpuCluster is the §4.4.2 case: node 0 has 8 CPU slots (type 0), node 1 8
// GPU slots (type 1), one rack.
func gpuCluster(t testing.TB, opt Options) *Scheduler {
	t.Helper()
	var slots []Slot
	for n := range 2 {
		for range 8 {
			slots = append(slots, Slot{Node: n, Type: n})
		}
	}
	s, err := NewScheduler(slots, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRelativeRateByHand(t *testing.T) {
	s := gpuCluster(t, Options{})
	// crypto: CR 1 on CPU, 3 on GPU; Σ_S CR = 8·1 + 8·3 = 32; |S| = 16.
	// rel(CPU) = 1·16/32 = 0.5, rel(GPU) = 3·16/32 = 1.5. sort: 1 everywhere.
	for _, tt := range []struct {
		name  string
		rates []float64
		slot  int
		want  float64
	}{
		{"crypto on a CPU slot", []float64{1, 3}, 0, 0.5},
		{"crypto on a GPU slot", []float64{1, 3}, 8, 1.5},
		{"crypto with rates in blocks per hour", []float64{3600, 10800}, 8, 1.5},
		{"sort on a CPU slot", []float64{1, 1}, 0, 1},
		{"sort on a GPU slot, slow rates", []float64{0.025, 0.025}, 15, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.RelativeRate(tt.slot, Job{Weight: 1, Rates: tt.rates})
			if err != nil || !scalar.EqualWithinAbsOrRel(got, tt.want, 1e-15, 1e-15) {
				t.Fatalf("RelativeRate = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	if _, err := s.RelativeRate(0, Job{Weight: 1, Rates: []float64{1}}); !errors.Is(err, ErrCalibrating) || errors.Is(err, ErrBadInput) {
		t.Fatalf("calibrating job: %v, want ErrCalibrating only", err)
	}
	_, err := s.RelativeRate(16, Job{Weight: 1, Rates: []float64{1, 1}})
	assertField(t, err, "slot")
	_, err = s.RelativeRate(0, Job{Weight: 1, Rates: []float64{1, math.NaN()}})
	assertField(t, err, "job.Rates[1]")
	_, err = s.RelativeRate(0, Job{Weight: 1, Rates: []float64{1, 1}, Running: []int{9}})
	assertField(t, err, "job.Running[0]")
}

func TestAffinityByHand(t *testing.T) {
	crypto := func(cpu, gpu, pending int) Job {
		return Job{Weight: 1, Rates: []float64{1, 3}, Running: []int{cpu, gpu}, Pending: slices.Repeat([]Block{{Replicas: []int{0, 1}}}, pending)}
	}
	sort := func(cpu, gpu, pending int) Job {
		return Job{Weight: 1, Rates: []float64{1, 1}, Running: []int{cpu, gpu}, Pending: slices.Repeat([]Block{{Replicas: []int{0, 1}}}, pending)}
	}
	const cpu, gpu = 0, 8 // a slot of each node
	for _, tt := range []struct {
		name     string
		opt      Options
		slot     int
		jobs     []Job
		job      int
		reason   Reason
		bypassed int
	}{
		// crypto on 7 GPU slots: PS 21/32 = 0.656; sort on 8 CPU: PS 0.5.
		// Algorithm 2 gives the free GPU slot to sort (lower PS).
		{"off: Algorithm 2 gives the GPU slot to sort", Options{}, gpu, []Job{crypto(0, 7, 50), sort(8, 0, 50)}, 1, ReasonPreferred, -1},
		// crypto's relative rate there is 1.5, sort's 1: 1.5 ≥ 1.2 · 1.
		{"factor 1.2: crypto takes it", Options{AffinityFactor: 1.2}, gpu, []Job{crypto(0, 7, 50), sort(8, 0, 50)}, 0, ReasonAffinity, 1},
		{"factor 1.5: crypto takes it (equal counts)", Options{AffinityFactor: 1.5}, gpu, []Job{crypto(0, 7, 50), sort(8, 0, 50)}, 0, ReasonAffinity, 1},
		{"factor 1.6: 1.5 is not enough", Options{AffinityFactor: 1.6}, gpu, []Job{crypto(0, 7, 50), sort(8, 0, 50)}, 1, ReasonPreferred, -1},
		// Bounded: sort holds 8 = 16/2, its slot share, so it may be passed over.
		{"bounded, sort at its slot share", Options{AffinityFactor: 1.2, AffinityBounded: true}, gpu, []Job{crypto(0, 7, 50), sort(8, 0, 50)}, 0, ReasonAffinity, 1},
		// sort on 7 slots is below its share of 8: it keeps the slot.
		{"bounded, sort below its slot share", Options{AffinityFactor: 1.2, AffinityBounded: true}, gpu, []Job{crypto(0, 7, 50), sort(7, 0, 50)}, 1, ReasonPreferred, -1},
		// crypto wants only 7 slots (6 running, PS 18/32, and 1 pending):
		// sort's max-min share is 16 − 7 = 9, not 8. At 8 (PS 0.5, picked)
		// it keeps the slot; at 9 (PS 9/16, a tie that sort wins as the
		// first job) it may be passed over.
		{"bounded, crypto's small demand raises sort's share to 9", Options{AffinityFactor: 1.2, AffinityBounded: true}, gpu, []Job{crypto(0, 6, 1), sort(8, 0, 50)}, 1, ReasonPreferred, -1},
		{"bounded, sort at that share of 9", Options{AffinityFactor: 1.2, AffinityBounded: true}, gpu, []Job{sort(8, 1, 50), crypto(0, 6, 1)}, 1, ReasonAffinity, 0},
		// Everything fits: every job's share is its whole demand, so no bypass.
		{"bounded, the cluster fits every task", Options{AffinityFactor: 1.2, AffinityBounded: true}, gpu, []Job{crypto(0, 7, 1), sort(7, 0, 1)}, 1, ReasonPreferred, -1},
		// A CPU slot: crypto (PS 0.5 on 4 GPU + 4 CPU... here 0 CPU + 5 GPU =
		// 15/32 < sort's 10/16) is picked; sort's relative rate 1 ≥ 1.2 · 0.5.
		{"factor 1.2: sort takes a CPU slot from crypto", Options{AffinityFactor: 1.2}, cpu, []Job{crypto(0, 5, 50), sort(7, 3, 50)}, 1, ReasonAffinity, 0},
		// A calibrating job is neither passed over nor passes over another.
		{"a calibrating job keeps its turn", Options{AffinityFactor: 1.2}, gpu, []Job{crypto(0, 7, 50), {Weight: 1, Rates: []float64{1}, Running: []int{8, 1}, Pending: []Block{{Replicas: []int{0}}}}}, 1, ReasonPreferred, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := gpuCluster(t, tt.opt)
			d, err := s.PickProgressShare(tt.slot, tt.jobs, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Launch || d.Job != tt.job || d.Reason != tt.reason || d.Bypassed != tt.bypassed {
				t.Fatalf("got %+v; want job %d, %v, bypassed %d", d, tt.job, tt.reason, tt.bypassed)
			}
		})
	}
	// The overriding job must accept the slot itself (Algorithm 2's line 4):
	// with max_delay 10 s and no delay, crypto declines a CPU slot
	// (Pref 8/32 = 0.25) and sort, though relatively faster there, is the
	// only one asked; on a GPU slot crypto (Pref 1) overrides sort.
	s := gpuCluster(t, Options{MaxDelay: 10, AffinityFactor: 1.2})
	jobs := []Job{sort(8, 0, 50), crypto(0, 7, 50)}
	if d, _ := s.PickProgressShare(gpu, jobs, 0); d.Job != 1 || d.Reason != ReasonAffinity || d.Bypassed != 0 || d.Examined != 2 {
		t.Fatalf("GPU slot: %+v", d)
	}
	// sort first in PS order; no candidate beats it on the CPU slot.
	if d, _ := s.PickProgressShare(cpu, jobs, 0); d.Job != 0 || d.Reason != ReasonPreferred {
		t.Fatalf("CPU slot: %+v", d)
	}
	// Between two qualifying jobs the higher relative rate wins, whatever
	// their shares: sort (PS 4/16 = 0.25) is Algorithm 2's pick; crypto
	// (rel 1.5, PS 9/32 = 0.28) and crypto9 (rel 9·16/80 = 1.8, PS
	// 27/80 = 0.34) both beat 1.2 × sort's 1 on the GPU slot.
	crypto9 := Job{Weight: 1, Rates: []float64{1, 9}, Running: []int{0, 3}, Pending: []Block{{Replicas: []int{1}}}}
	s = gpuCluster(t, Options{AffinityFactor: 1.2})
	if d, _ := s.PickProgressShare(gpu, []Job{crypto(0, 3, 5), crypto9, sort(4, 0, 5)}, 0); d.Job != 1 || d.Bypassed != 2 || d.Examined != 2 {
		t.Fatalf("two candidates: %+v, want the one with relative rate 1.8", d)
	}
}

func TestAffinityOptionsBadInput(t *testing.T) {
	good := []Slot{{0, 0, 0}, {1, 1, 0}}
	for _, tt := range []struct {
		name  string
		opt   Options
		field string
	}{
		{"NaN factor", Options{AffinityFactor: math.NaN()}, "Options.AffinityFactor"},
		{"factor below 1", Options{AffinityFactor: 0.99}, "Options.AffinityFactor"},
		{"negative factor", Options{AffinityFactor: -1}, "Options.AffinityFactor"},
		{"infinite factor", Options{AffinityFactor: math.Inf(1)}, "Options.AffinityFactor"},
		{"factor above MaxRate", Options{AffinityFactor: 2 * MaxRate}, "Options.AffinityFactor"},
		{"bounded without a factor", Options{AffinityBounded: true}, "Options.AffinityBounded"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewScheduler(good, tt.opt)
			assertField(t, err, tt.field)
			if s != nil {
				t.Fatal("non-nil Scheduler with an error")
			}
		})
	}
	for _, f := range []float64{1, 1.2, MaxRate} {
		if _, err := NewScheduler(good, Options{AffinityFactor: f, AffinityBounded: true}); err != nil {
			t.Fatalf("factor %v: %v", f, err)
		}
	}
}

// slotShareOf is the slot-share fair scheduler's number of slots for job p,
// the weighted max-min fair split of the slots over demands (running +
// pending), by the textbook water-filling with a sort.
func slotShareOf(slots int, jobs []Job, p int) float64 {
	type claim struct{ demand, weight float64 }
	var cs []claim
	for _, j := range jobs {
		run := 0
		for _, r := range j.Running {
			run += r
		}
		if d := float64(run + len(j.Pending)); d > 0 {
			cs = append(cs, claim{d, j.Weight})
		}
	}
	slices.SortFunc(cs, func(a, b claim) int { return cmp.Compare(a.demand/a.weight, b.demand/b.weight) })
	left, weight := float64(slots), 0.0
	for _, c := range cs {
		weight += c.weight
	}
	level := math.Inf(1)
	for _, c := range cs {
		if c.demand/c.weight*weight <= left {
			left -= c.demand
			weight -= c.weight
			continue
		}
		level = left / weight
		break
	}
	run := 0
	for _, r := range jobs[p].Running {
		run += r
	}
	return min(float64(run+len(jobs[p].Pending)), jobs[p].Weight*level)
}

func TestPropAffinity(t *testing.T) { rapid.Check(t, propAffinity) }
func FuzzAffinity(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAffinity)) }

// propAffinity compares Algorithm 2 with and without the affinity rule on
// the same world and jobs. With the rule the decision is Algorithm 2's
// except for an affinity launch; that launch passes over Algorithm 2's
// job only for a calibrated job whose relative rate on the slot is at
// least the factor times the bypassed job's (and above it), which accepts
// the slot by line 4, and which has the highest relative rate of all such
// jobs (an oracle from the definitions). Bounded, the bypassed job holds at
// least its slot share (water-filling computed here by sorting), so the
// rule never leaves a job with fewer slots than slot share gives it.
//
// propAffinity draws any world; propAffinityBusy the case where the bound
// matters: two node types, calibrated jobs, a busy cluster with demands
// above its slots and, most often, two jobs as in §4.4.2 (with random
// worlds a job at or above its slot share is rarely the lowest in PS).
func propAffinity(t *rapid.T)           { checkAffinity(t, false) }
func TestPropAffinityBusy(t *testing.T) { rapid.Check(t, propAffinityBusy) }
func FuzzAffinityBusy(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAffinityBusy)) }

func propAffinityBusy(t *rapid.T) { checkAffinity(t, true) }

func checkAffinity(t *rapid.T, busy bool) {
	types := 0
	if busy {
		types = 2
	}
	w := genWorld(t, types)
	now := 100.0
	jobs := genJobs(t, w, busy || rapid.Bool().Draw(t, "calibrated"), now)
	si := rapid.IntRange(0, len(w.slots)-1).Draw(t, "slot")
	if busy || rapid.Bool().Draw(t, "busy") {
		// A busy cluster, as in production: every other slot runs a task and
		// demands exceed the slots, so slot shares bind.
		if (busy || rapid.Bool().Draw(t, "two jobs")) && len(jobs) > 2 {
			jobs = jobs[:2]
		}
		for k := range jobs {
			clear(jobs[k].Running)
			for range rapid.IntRange(0, len(w.slots)).Draw(t, "more pending") {
				reps := rapid.SliceOfN(rapid.IntRange(0, w.nodes-1), 1, 3).Draw(t, "replicas")
				jobs[k].Pending = append(jobs[k].Pending, Block{Replicas: reps})
			}
		}
		// Per node type, one job holds all its slots or each slot has
		// its own owner (specialised holdings make shares and relative
		// rates differ the most).
		owner := make([]int, w.s.NumTypes())
		for typ := range owner {
			owner[typ] = rapid.IntRange(-1, len(jobs)-1).Draw(t, "owner of the type")
			if busy && owner[typ] < 0 { // specialised holdings, where the bound is tested
				owner[typ] = rapid.IntRange(0, len(jobs)-1).Draw(t, "specialised owner")
			}
		}
		for o, sl := range w.slots {
			if k := owner[sl.Type]; o != si {
				if k < 0 {
					k = rapid.IntRange(0, len(jobs)-1).Draw(t, "owner")
				}
				jobs[k].Running[sl.Type]++
			}
		}
	}
	opt := w.s.Options()
	opt.AffinityFactor = rapid.OneOf(rapid.SampledFrom([]float64{1, 1.2, 2}), rapid.Float64Range(1, 5)).Draw(t, "factor")
	opt.AffinityBounded = rapid.Bool().Draw(t, "bounded")
	on, err := NewScheduler(w.slots, opt)
	if err != nil {
		t.Fatal(err)
	}
	off, err := w.s.PickProgressShare(si, jobs, now)
	if err != nil {
		t.Fatal(err)
	}
	d, err := on.PickProgressShare(si, jobs, now)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(k int) float64 {
		r, err := on.RelativeRate(si, jobs[k])
		if err != nil {
			return -1 // calibrating
		}
		return r
	}
	// The oracle: who may take the slot from Algorithm 2's job.
	want, atShare := -1, false
	if off.Launch && off.Reason == ReasonPreferred && !off.Calibrating {
		p := off.Job
		holds := true
		if opt.AffinityBounded {
			share := slotShareOf(len(w.slots), jobs, p)
			run := float64(runningTotal(jobs[p], on.NumTypes()))
			holds = run >= share-1e-9
			// Exactly at its share, up to the rounding of two ways of
			// summing: the rule may go either way.
			atShare = math.Abs(run-share) <= 1e-9
		}
		for k, j := range jobs {
			if !holds || k == p || len(j.Pending) == 0 || rel(k) < opt.AffinityFactor*rel(p) || rel(k) <= rel(p) {
				continue
			}
			b, _ := naiveBest(w, si, j)
			pr := naivePref(w, si, j, j.Pending[b], false)
			if opt.MaxDelay > 0 && 1-pr > (now-j.LastLaunch)/opt.MaxDelay+1e-12 {
				continue // it declines the slot itself
			}
			if want < 0 || rel(k) > rel(want) || (rel(k) == rel(want) && keyOf(w, j, true) < keyOf(w, jobs[want], true)) {
				want = k
			}
		}
	}
	if atShare && want >= 0 && d == off {
		return // it held back on a job exactly at its share
	}
	if want < 0 {
		same := d
		same.Examined = off.Examined
		if same != off || d.Examined < off.Examined {
			t.Fatalf("no job qualifies, yet the rule changed %+v into %+v", off, d)
		}
		return
	}
	if d.Reason != ReasonAffinity || d.Job != want || d.Bypassed != off.Job || !d.Launch || d.Calibrating {
		t.Fatalf("Algorithm 2 launches job %d (relative rate %v); the rule (factor %v, bounded %v) should give job %d (%v), got %+v",
			off.Job, rel(off.Job), opt.AffinityFactor, opt.AffinityBounded, want, rel(want), d)
	}
	if rel(d.Job) < opt.AffinityFactor*rel(d.Bypassed) {
		t.Fatalf("job %d passed over for job %d with relative rate %v < %v × %v", d.Bypassed, d.Job, rel(d.Job), opt.AffinityFactor, rel(d.Bypassed))
	}
	if b, loc := naiveBest(w, si, jobs[d.Job]); d.Block != b || d.Locality != loc {
		t.Fatalf("affinity launch of block %d (%v), the job's best is %d (%v)", d.Block, d.Locality, b, loc)
	}
}

func TestPropRelativeRate(t *testing.T) { rapid.Check(t, propRelativeRate) }
func FuzzRelativeRate(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propRelativeRate)) }

// propRelativeRate: the relative rate is Eq. 4.1's per-slot weight summed
// slot by slot, it does not change when the job's rates are all scaled, and
// its mean over the slots is 1.
func propRelativeRate(t *rapid.T) {
	w := genWorld(t, 0)
	j := genJobs(t, w, true, 0)[0]
	scale := rapid.Float64Range(1e-3, 1e3).Draw(t, "scale")
	scaled := j
	scaled.Rates = slices.Clone(j.Rates)
	for k := range scaled.Rates {
		scaled.Rates[k] *= scale
	}
	sum := 0.0
	for si := range w.slots {
		sum += j.Rates[w.slots[si].Type]
	}
	mean := 0.0
	for si := range w.slots {
		r, err := w.s.RelativeRate(si, j)
		if err != nil {
			t.Fatal(err)
		}
		want := j.Rates[w.slots[si].Type] * float64(len(w.slots)) / sum
		if !scalar.EqualWithinAbsOrRel(r, want, 1e-12, 1e-12) {
			t.Fatalf("slot %d: relative rate %v, summed slot by slot %v", si, r, want)
		}
		rs, err := w.s.RelativeRate(si, scaled)
		if err != nil || !scalar.EqualWithinAbsOrRel(r, rs, 1e-12, 1e-12) {
			t.Fatalf("slot %d: %v, with rates × %v: %v (%v)", si, r, scale, rs, err)
		}
		mean += r / float64(len(w.slots))
	}
	if !scalar.EqualWithinAbsOrRel(mean, 1, 1e-12, 1e-12) {
		t.Fatalf("mean relative rate %v, want 1", mean)
	}
}

// TestAffinityGivesUp is the package doc's example of what the unbounded
// rule gives up: 12 slots of type X (node 0) and 4 of type Y (node 1); job A
// 4× faster on X (relative rate 4·16/52 = 1.23 there, 0.31 on Y), job B
// equally fast (1). B holds 4 Y + 3 X slots, A 8 X, and an X slot frees:
// Algorithm 2 picks B (PS 7/16 = 0.44 against A's 32/52 = 0.62). Unbounded,
// the rule gives the slot to A (1.23 ≥ 1.2 × 1), although B is below its
// slot share of 8; bounded, B keeps it.
func TestAffinityGivesUp(t *testing.T) {
	var slots []Slot
	for range 12 {
		slots = append(slots, Slot{Node: 0, Type: 0})
	}
	for range 4 {
		slots = append(slots, Slot{Node: 1, Type: 1})
	}
	jobs := []Job{
		{Weight: 1, Rates: []float64{4, 1}, Running: []int{8, 0}, Pending: slices.Repeat([]Block{{Replicas: []int{0, 1}}}, 20)},
		{Weight: 1, Rates: []float64{1, 1}, Running: []int{3, 4}, Pending: slices.Repeat([]Block{{Replicas: []int{0, 1}}}, 20)},
	}
	for _, tt := range []struct {
		bounded bool
		job     int
		reason  Reason
	}{{false, 0, ReasonAffinity}, {true, 1, ReasonPreferred}} {
		s, err := NewScheduler(slots, Options{AffinityFactor: 1.2, AffinityBounded: tt.bounded})
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.PickProgressShare(0, jobs, 0)
		if err != nil || d.Job != tt.job || d.Reason != tt.reason {
			t.Errorf("bounded %v: %+v %v; want job %d, %v", tt.bounded, d, err, tt.job, tt.reason)
		}
	}
}
