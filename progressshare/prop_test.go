package progressshare

import (
	"cmp"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"pgregory.net/rapid"
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

func TestPropPref(t *testing.T) { rapid.Check(t, propPref) }
func FuzzPref(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPref)) }

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

func TestPropProgressShare(t *testing.T) { rapid.Check(t, propProgressShare) }
func FuzzProgressShare(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propProgressShare)) }

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

func TestPropPick(t *testing.T) { rapid.Check(t, propPick) }
func FuzzPick(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPick)) }

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

func TestPropMustDecline(t *testing.T) { rapid.Check(t, propMustDecline) }
func FuzzMustDecline(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMustDecline)) }

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

func TestPropCalibration(t *testing.T) { rapid.Check(t, propCalibration) }
func FuzzCalibration(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propCalibration)) }

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

func TestPropPendingIndex(t *testing.T) { rapid.Check(t, propPendingIndex) }
func FuzzPendingIndex(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPendingIndex)) }

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
