package progressshare

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// world is a random small cluster with the slots it was built from.
type world struct {
	s     *Scheduler
	slots []Slot
	nodes int
}

func genOptions(t *rapid.T) Options {
	rt := []float64{
		rapid.Float64Range(0, 5).Draw(t, "tr0"),
		rapid.Float64Range(0, 5).Draw(t, "tr1"),
		rapid.Float64Range(0, 5).Draw(t, "tr2"),
	}
	slices.Sort(rt)
	d1 := rapid.Float64Range(0, 10).Draw(t, "d1")
	return Options{
		ReadTime:    [3]float64{rt[0], rt[1], rt[2]},
		MaxDelay:    rapid.SampledFrom([]float64{0, 1, 10, 30}).Draw(t, "maxDelay"),
		RackDelay:   d1,
		RemoteDelay: d1 + rapid.Float64Range(0, 10).Draw(t, "d2-d1"),
	}
}

func genWorld(t *rapid.T, types int) world {
	if types == 0 {
		types = rapid.IntRange(1, 3).Draw(t, "types")
	}
	racks := rapid.IntRange(1, 3).Draw(t, "racks")
	nodes := rapid.IntRange(1, 6).Draw(t, "nodes")
	var slots []Slot
	for n := range nodes {
		typ := rapid.IntRange(0, types-1).Draw(t, "type")
		rack := rapid.IntRange(0, racks-1).Draw(t, "rack")
		for range rapid.IntRange(1, 3).Draw(t, "slotsPerNode") {
			slots = append(slots, Slot{Node: n, Type: typ, Rack: rack})
		}
	}
	s, err := NewScheduler(slots, genOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	return world{s: s, slots: slots, nodes: nodes}
}

func genRates(t *rapid.T, types int, pUnmeasured bool) []float64 {
	r := make([]float64, rapid.IntRange(0, types).Draw(t, "len(rates)"))
	if !pUnmeasured {
		r = make([]float64, types)
	}
	for i := range r {
		if pUnmeasured && rapid.IntRange(0, 3).Draw(t, "unmeasured") == 0 {
			continue
		}
		r[i] = rapid.Float64Range(0.1, 10).Draw(t, "rate")
	}
	return r
}

// genJobs draws jobs whose running tasks never share a slot.
func genJobs(t *rapid.T, w world, calibrated bool, now float64) []Job {
	n := rapid.IntRange(1, 5).Draw(t, "jobs")
	jobs := make([]Job, n)
	T := w.s.NumTypes()
	for i := range jobs {
		j := &jobs[i]
		j.Weight = rapid.SampledFrom([]float64{1, 1, 2, 0.5}).Draw(t, "weight")
		j.Rates = genRates(t, T, !calibrated)
		j.Running = make([]int, T)
		for range rapid.IntRange(0, 4).Draw(t, "pending") {
			reps := rapid.SliceOfN(rapid.IntRange(0, w.nodes-1), 1, 3).Draw(t, "replicas")
			j.Pending = append(j.Pending, Block{Replicas: reps})
		}
		j.LastLaunch = now - rapid.Float64Range(0, 40).Draw(t, "delay")
	}
	for typ := range T {
		for range w.s.SlotsOfType(typ) {
			if k := rapid.IntRange(-1, n-1).Draw(t, "owner"); k >= 0 {
				jobs[k].Running[typ]++
			}
		}
	}
	return jobs
}

// naiveBS is Eq. 4.2–4.3 straight from the definitions, over replicas.
func naiveBS(w world, si int, j Job, b Block, cal bool) float64 {
	sl := w.slots[si]
	rack := func(node int) int {
		for _, x := range w.slots {
			if x.Node == node {
				return x.Rack
			}
		}
		panic("replica on a node without slots")
	}
	tp := w.s.uniformProcTime(j)
	if !cal {
		tp = 1 / j.Rates[sl.Type]
	}
	best := 0.0
	for _, r := range b.Replicas {
		c := Remote
		if r == sl.Node {
			c = NodeLocal
		} else if rack(r) == sl.Rack {
			c = RackLocal
		}
		best = max(best, 1/(w.s.opt.ReadTime[c]+tp))
	}
	return best
}

// naivePref is Eq. 4.4 summed slot by slot.
func naivePref(w world, si int, j Job, b Block, cal bool) float64 {
	bs := naiveBS(w, si, j, b, cal)
	var num, den float64
	for o := range w.slots {
		v := naiveBS(w, o, j, b, cal)
		den += v
		if v <= bs {
			num += v
		}
	}
	return num / den
}

func propPref(t *rapid.T) {
	w := genWorld(t, 0)
	j := genJobs(t, w, rapid.Bool().Draw(t, "calibrated"), 0)[0]
	if len(j.Pending) == 0 {
		t.Skip("no block")
	}
	cal := w.s.Calibrating(j)
	maxBS := 0.0
	bs := make([]float64, len(w.slots))
	pref := make([]float64, len(w.slots))
	for si := range w.slots {
		var err error
		bs[si], _, err = w.s.BestScore(si, j, 0)
		if err != nil {
			t.Fatal(err)
		}
		pref[si], err = w.s.Pref(si, j, 0)
		if err != nil {
			t.Fatal(err)
		}
		maxBS = max(maxBS, bs[si])
		if want := naiveBS(w, si, j, j.Pending[0], cal); bs[si] != want {
			t.Fatalf("slot %d: BS %v, Eq. 4.3 gives %v", si, bs[si], want)
		}
		if want := naivePref(w, si, j, j.Pending[0], cal); !scalar.EqualWithinAbsOrRel(pref[si], want, 1e-12, 1e-12) {
			t.Fatalf("slot %d: Pref %v, Eq. 4.4 gives %v", si, pref[si], want)
		}
		if !(pref[si] > 0 && pref[si] <= 1) {
			t.Fatalf("slot %d: Pref %v outside (0, 1]", si, pref[si])
		}
	}
	for si := range w.slots {
		if bs[si] == maxBS && pref[si] != 1 {
			t.Fatalf("best slot %d has Pref %v, want exactly 1", si, pref[si])
		}
		for o := range w.slots {
			if bs[si] <= bs[o] && pref[si] > pref[o] {
				t.Fatalf("not monotone: BS %v ≤ %v but Pref %v > %v", bs[si], bs[o], pref[si], pref[o])
			}
		}
	}
}

func TestPropPref(t *testing.T) { rapid.Check(t, propPref) }
func FuzzPref(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPref)) }

func propProgressShare(t *rapid.T) {
	homogeneous := rapid.Bool().Draw(t, "homogeneous")
	types := 0
	if homogeneous {
		types = 1
	}
	w := genWorld(t, types)
	jobs := genJobs(t, w, true, 0)
	same := rapid.Bool().Draw(t, "one rate ratio") // no job affinity: rates proportional across jobs
	flat := rapid.Bool().Draw(t, "flat")           // every job equally fast on every type
	sum, bound := 0.0, 0.0
	// best[t] is max_j CR(t, j)/Σ_S CR(·, j): a slot of type t adds at most
	// that to Σ PS, whichever job holds it.
	best := make([]float64, w.s.NumTypes())
	for i := range jobs {
		j := &jobs[i]
		if same {
			f := rapid.Float64Range(0.1, 10).Draw(t, "speed factor")
			j.Rates = slices.Clone(jobs[0].Rates)
			for k := range j.Rates {
				j.Rates[k] = min(j.Rates[k]*f, MaxRate)
			}
		}
		if flat {
			j.Rates = slices.Repeat([]float64{j.Rates[0]}, len(j.Rates))
		}
		den := 0.0
		for k, r := range j.Rates {
			den += float64(w.s.SlotsOfType(k)) * r
		}
		for k, r := range j.Rates {
			best[k] = max(best[k], r/den)
		}
	}
	for k, b := range best {
		bound += float64(w.s.SlotsOfType(k)) * b
	}
	for i, j := range jobs {
		ps, err := w.s.ProgressShare(j)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := w.s.SlotShare(j)
		if err != nil {
			t.Fatal(err)
		}
		if !(ps >= 0 && ps <= 1) {
			t.Fatalf("job %d: PS %v outside [0, 1]", i, ps)
		}
		if (homogeneous || flat) && !scalar.EqualWithinAbsOrRel(ps, ss, 1e-12, 1e-12) {
			t.Fatalf("job %d: PS %v ≠ slot share %v on equal rates", i, ps, ss)
		}
		sum += ps
	}
	// Σ PS ≤ 1 holds only without job affinity (all jobs' rates in one
	// ratio: then every PS is a share of the same slot weights). With
	// affinity it may exceed 1 (§4.3.1.1: 0.6 + 2/3, see
	// TestProgressShareThesisExample); what always holds is the bound
	// Σ_s max_j CR(s, j)/Σ_S CR(·, j) (slot s counts for one job at most).
	if same && sum > 1+1e-12 {
		t.Fatalf("Σ PS = %v > 1 with no slot shared and no job affinity", sum)
	}
	if sum > bound*(1+1e-12) {
		t.Fatalf("Σ PS = %v above Σ_s max_j CR/ΣCR = %v", sum, bound)
	}
}

func TestPropProgressShare(t *testing.T) { rapid.Check(t, propProgressShare) }
func FuzzProgressShare(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propProgressShare)) }

// keyOf is the order of Algorithm 2 (progress share, slot share while
// calibrating) or Algorithm 1 (slot share), divided by the weight.
func keyOf(w world, j Job, alg2 bool) float64 {
	if alg2 && !w.s.Calibrating(j) {
		ps, _ := w.s.ProgressShare(j)
		return ps / j.Weight
	}
	ss, _ := w.s.SlotShare(j)
	return ss / j.Weight
}

// naiveBest is the first pending block with the highest BS (best locality).
func naiveBest(w world, si int, j Job) (int, Locality) {
	best, loc := -1, Locality(3)
	for b, blk := range j.Pending {
		l, _ := w.s.locality(si, blk)
		if l < loc {
			best, loc = b, l
		}
	}
	return best, loc
}

func propPick(t *rapid.T) {
	w := genWorld(t, 0)
	now := 100.0
	jobs := genJobs(t, w, rapid.Bool().Draw(t, "calibrated"), now)
	si := rapid.IntRange(0, len(w.slots)-1).Draw(t, "slot")
	sl := w.slots[si]
	opt := w.s.opt
	for _, alg2 := range []bool{true, false} {
		var d Decision
		var err error
		if alg2 {
			d, err = w.s.PickProgressShare(si, jobs, now)
		} else {
			d, err = w.s.PickSlotShare(si, jobs, now)
		}
		if err != nil {
			t.Fatal(err)
		}
		// A PendingIndex in step with Pending changes nothing.
		indexed := slices.Clone(jobs)
		for k := range indexed {
			if indexed[k].Index, err = w.s.NewPendingIndex(indexed[k].Pending); err != nil {
				t.Fatal(err)
			}
		}
		var di Decision
		if alg2 {
			di, err = w.s.PickProgressShare(si, indexed, now)
		} else {
			di, err = w.s.PickSlotShare(si, indexed, now)
		}
		// The index may let a picker decline jobs without reading them, so
		// only Examined may differ, and only downward.
		same := di
		same.Examined = d.Examined
		if err != nil || same != d || di.Examined > d.Examined {
			t.Fatalf("alg2=%v: with an index %+v (%v), without %+v", alg2, di, err, d)
		}
		var idx []int
		for i, j := range jobs {
			if len(j.Pending) > 0 {
				idx = append(idx, i)
			}
		}
		slices.SortFunc(idx, func(a, b int) int {
			return cmp.Or(cmp.Compare(keyOf(w, jobs[a], alg2), keyOf(w, jobs[b], alg2)), cmp.Compare(a, b))
		})
		want := skip(ReasonWaiting, len(idx))
		if len(idx) == 0 {
			want = skip(ReasonNoPendingTask, 0)
		}
		calibration := false
		if alg2 {
			for _, i := range idx {
				j := jobs[i]
				if w.s.Calibrating(j) && rateOf(j, sl.Type) == 0 && runningOf(j, sl.Type) == 0 {
					b, loc := naiveBest(w, si, j)
					want = Decision{Launch: true, Reason: ReasonCalibration, Job: i, Block: b, Locality: loc, Calibrating: true, Examined: 1}
					calibration = true
					break
				}
			}
		}
		shortcut := 0 // jobs declined by the node-type shortcut, before the launch
		for n, i := range idx {
			if calibration {
				break
			}
			j := jobs[i]
			cut := alg2 && !w.s.Calibrating(j) && opt.MaxDelay > 0 && w.s.mustDecline(si, j, (now-j.LastLaunch)/opt.MaxDelay)
			b, loc := naiveBest(w, si, j)
			delay := now - j.LastLaunch
			var launch bool
			if alg2 {
				p := naivePref(w, si, j, j.Pending[b], w.s.Calibrating(j))
				launch = opt.MaxDelay == 0 || 1-p <= delay/opt.MaxDelay+1e-12
				if !launch && d.Launch && d.Job == i {
					t.Fatalf("job %d launched with Pref %v below 1 − %v/%v", i, p, delay, opt.MaxDelay)
				}
			} else {
				launch = loc == NodeLocal || (loc == RackLocal && delay >= opt.RackDelay) || delay >= opt.RemoteDelay
			}
			if cut {
				if launch {
					t.Fatalf("the shortcut declined job %d, which launches", i)
				}
				shortcut++
			}
			if launch {
				want = Decision{Launch: true, Job: i, Block: b, Locality: loc, Examined: n + 1 - shortcut}
				break
			}
		}
		if !want.Launch && !calibration && len(idx) > 0 {
			want.Examined = len(idx) - shortcut
		}
		if d.Launch != want.Launch || d.Job != want.Job || d.Block != want.Block || d.Locality != want.Locality ||
			d.Examined != want.Examined || (calibration && d.Reason != ReasonCalibration) ||
			(!d.Launch && d.Reason != want.Reason) {
			t.Fatalf("alg2=%v: got %+v, want %+v", alg2, d, want)
		}
		if d.Launch {
			if j := jobs[d.Job]; !slices.Contains(j.Pending[d.Block].Replicas, j.Pending[d.Block].Replicas[d.Replica]) {
				t.Fatal("replica index out of the block")
			}
			if l, _ := w.s.locality(si, Block{Replicas: jobs[d.Job].Pending[d.Block].Replicas[d.Replica : d.Replica+1]}); l != d.Locality {
				t.Fatalf("replica %d has locality %v, decision says %v", d.Replica, l, d.Locality)
			}
		}
	}
}

// propMustDecline: whenever the O(node types) shortcut says a calibrated
// job declines a slot, the exact test on Eq. 4.4 summed slot by slot
// declines too, for every block with the locality the shortcut assumed
// (the index's best locality) and, without an index, for every block.
func propMustDecline(t *rapid.T) {
	w := genWorld(t, 0)
	j := genJobs(t, w, true, 0)[0]
	if len(j.Pending) == 0 {
		t.Skip("no block")
	}
	si := rapid.IntRange(0, len(w.slots)-1).Draw(t, "slot")
	indexed := rapid.Bool().Draw(t, "indexed")
	if indexed {
		j.Index, _ = w.s.NewPendingIndex(j.Pending)
	}
	hint := j.Index.hint(w.s, si)
	var prefs []float64 // Eq. 4.4 of the blocks the shortcut speaks for
	for _, blk := range j.Pending {
		if l, _ := w.s.locality(si, blk); !indexed || l == hint {
			prefs = append(prefs, naivePref(w, si, j, blk, false))
		}
	}
	// Any ratio, or exactly where one of those blocks would launch (the
	// tightest case: the shortcut must not fire there).
	ratio := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.5, 1})).Draw(t, "ratio")
	if rapid.Bool().Draw(t, "at a threshold") {
		ratio = 1 - rapid.SampledFrom(prefs).Draw(t, "threshold")
	}
	if !w.s.mustDecline(si, j, ratio) {
		return
	}
	for b, p := range prefs {
		if 1-p <= ratio {
			t.Fatalf("shortcut declines at ratio %v, but block %d (of those with the assumed locality) has Pref %v", ratio, b, p)
		}
	}
}

func TestPropMustDecline(t *testing.T) { rapid.Check(t, propMustDecline) }
func FuzzMustDecline(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMustDecline)) }

func TestPropPick(t *testing.T) { rapid.Check(t, propPick) }
func FuzzPick(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPick)) }

// propCalibration runs a small cluster through launches and finishes: a
// job's rate on a node type becomes known only when one of its tasks finishes
// there, and the picker must give calibration first and never order a job by
// progress share before a task of it ran on every node type.
func propCalibration(t *rapid.T) {
	w := genWorld(t, 0)
	T := w.s.NumTypes()
	n := rapid.IntRange(1, 4).Draw(t, "jobs")
	jobs := make([]Job, n)
	trueRate := make([][]float64, n)
	finished := make([][]int, n)
	for i := range jobs {
		jobs[i] = Job{Weight: 1, Running: make([]int, T)}
		for range rapid.IntRange(1, 8).Draw(t, "blocks") {
			jobs[i].Pending = append(jobs[i].Pending, Block{Replicas: []int{rapid.IntRange(0, w.nodes-1).Draw(t, "replica")}})
		}
		trueRate[i] = genRates(t, T, false)
		finished[i] = make([]int, T)
	}
	type task struct{ slot, job int }
	var running []task
	busy := make([]bool, len(w.slots))
	now := 0.0
	for range rapid.IntRange(1, 40).Draw(t, "steps") {
		now += rapid.Float64Range(0, 5).Draw(t, "dt")
		if len(running) > 0 && rapid.Bool().Draw(t, "finish") {
			k := rapid.IntRange(0, len(running)-1).Draw(t, "which")
			tk := running[k]
			running = slices.Delete(running, k, k+1)
			busy[tk.slot] = false
			typ := w.slots[tk.slot].Type
			j := &jobs[tk.job]
			j.Running[typ]--
			finished[tk.job][typ]++
			if len(j.Rates) < T {
				j.Rates = append(j.Rates, make([]float64, T-len(j.Rates))...)
			}
			j.Rates[typ] = trueRate[tk.job][typ] // measured
			continue
		}
		si := rapid.IntRange(0, len(w.slots)-1).Draw(t, "slot")
		if busy[si] {
			continue
		}
		typ := w.slots[si].Type
		eligible := false
		for _, j := range jobs {
			eligible = eligible || (len(j.Pending) > 0 && rateOf(j, typ) == 0 && j.Running[typ] == 0)
		}
		d, err := w.s.PickProgressShare(si, jobs, now)
		if err != nil {
			t.Fatal(err)
		}
		if eligible != (d.Reason == ReasonCalibration) {
			t.Fatalf("calibration candidate %v, decision %+v", eligible, d)
		}
		if !d.Launch {
			continue
		}
		j := &jobs[d.Job]
		if !d.Calibrating {
			for tt := range T {
				if w.s.SlotsOfType(tt) > 0 && finished[d.Job][tt] == 0 {
					t.Fatalf("job %d ordered by progress share before a task ran on type %d", d.Job, tt)
				}
			}
		}
		j.Pending = slices.Delete(slices.Clone(j.Pending), d.Block, d.Block+1)
		j.Running[typ]++
		j.LastLaunch = now
		busy[si] = true
		running = append(running, task{si, d.Job})
	}
}

func TestPropCalibration(t *testing.T) { rapid.Check(t, propCalibration) }
func FuzzCalibration(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propCalibration)) }

// wild draws any float, NaN and infinities included.
// The valid extremes (MinRate, MaxRate, MaxTime) and the values just
// beyond them are drawn on purpose, so that a limit the docs call valid is
// exercised, not only what random floats reach.
// wild draws any float64, often the edges of the rate and time ranges and
// just beyond them, the float64 extremes, NaN or ±Inf.
func wild() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64(), rapid.SampledFrom(append(append(extremes.Edges(MinRate, MaxRate), extremes.Edges(0, MaxTime)...),
		-1, MaxRate*2, MinRate/2, math.NaN(), math.Inf(1), math.Inf(-1))))
}

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

// propValidEdges gives valid jobs and options values at the edges of their
// ranges (rates and weights at MinRate and MaxRate, times at MaxTime and 0,
// subnormal delays, a clock at ±MaxFloat64 with launches as long ago as
// float64 reaches): every function accepts them and answers in range,
// without NaN.
func propValidEdges(t *rapid.T) {
	w := genWorld(t, 0)
	in := func(lo, hi float64) *rapid.Generator[float64] {
		return rapid.SampledFrom([]float64{lo, hi, math.Nextafter(lo, hi), math.Nextafter(hi, lo), 1})
	}
	rt := []float64{in(0, MaxTime).Draw(t, "tr0"), in(0, MaxTime).Draw(t, "tr1"), in(0, MaxTime).Draw(t, "tr2")}
	slices.Sort(rt)
	d := []float64{in(0, MaxTime).Draw(t, "d1"), in(0, MaxTime).Draw(t, "d2")}
	slices.Sort(d)
	opt := Options{ReadTime: [3]float64{rt[0], rt[1], rt[2]}, MaxDelay: in(0, MaxTime).Draw(t, "maxDelay"),
		RackDelay: d[0], RemoteDelay: d[1]}
	if rapid.Bool().Draw(t, "affinity") {
		opt.AffinityFactor, opt.AffinityBounded = in(1, MaxRate).Draw(t, "factor"), rapid.Bool().Draw(t, "bounded")
	}
	s, err := NewScheduler(w.slots, opt)
	if err != nil {
		t.Fatalf("valid options %+v: %v", opt, err)
	}
	now := rapid.SampledFrom([]float64{0, MaxTime, math.MaxFloat64, -math.MaxFloat64 / 2, 1e300}).Draw(t, "now")
	jobs := genJobs(t, world{s: s, slots: w.slots, nodes: w.nodes}, rapid.Bool().Draw(t, "calibrated"), 0)
	for i := range jobs {
		j := &jobs[i]
		j.Weight = in(MinRate, MaxRate).Draw(t, "weight")
		for k := range j.Rates {
			if j.Rates[k] != 0 {
				j.Rates[k] = in(MinRate, MaxRate).Draw(t, "rate")
			}
		}
		j.LastLaunch = rapid.SampledFrom([]float64{now, math.Nextafter(now, math.Inf(-1)), -math.MaxFloat64, now - MaxTime}).Draw(t, "last")
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

func TestPropBadInput(t *testing.T)   { rapid.Check(t, propBadInput) }
func TestPropValidEdges(t *testing.T) { rapid.Check(t, propValidEdges) }
func FuzzValidEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propValidEdges)) }
func FuzzBadInput(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(propBadInput)) }

// propPendingIndex: after any sequence of Add and Remove the index equals
// one built from the blocks still pending.
func propPendingIndex(t *rapid.T) {
	w := genWorld(t, 0)
	var pending []Block
	x, err := w.s.NewPendingIndex(nil)
	if err != nil {
		t.Fatal(err)
	}
	for range rapid.IntRange(0, 30).Draw(t, "steps") {
		if len(pending) > 0 && rapid.Bool().Draw(t, "remove") {
			k := rapid.IntRange(0, len(pending)-1).Draw(t, "which")
			if err := x.Remove(pending[k]); err != nil {
				t.Fatal(err)
			}
			pending = slices.Delete(pending, k, k+1)
			continue
		}
		b := Block{Replicas: rapid.SliceOfN(rapid.IntRange(0, w.nodes-1), 1, 4).Draw(t, "replicas")}
		if err := x.Add(b); err != nil {
			t.Fatal(err)
		}
		pending = append(pending, b)
	}
	y, err := w.s.NewPendingIndex(pending)
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != len(pending) || !slices.Equal(x.node, y.node) || !slices.Equal(x.rack, y.rack) {
		t.Fatalf("index after Add/Remove %+v differs from a rebuilt one %+v", x, y)
	}
	if len(pending) == 0 {
		if err := x.Remove(Block{Replicas: []int{0}}); !errors.Is(err, ErrBadInput) {
			t.Fatalf("Remove from an empty index: %v", err)
		}
	}
}

func TestPropPendingIndex(t *testing.T) { rapid.Check(t, propPendingIndex) }
func FuzzPendingIndex(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPendingIndex)) }
