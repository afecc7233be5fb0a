package progressshare

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestPropPool(t *testing.T) { rapid.Check(t, propPool) }
func FuzzPool(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propPool)) }

// genPoolJob draws one job for w: calibrating or not, running counts up to
// each type's slots (jobs in a Pool are independent), a few blocks, maybe a
// PendingIndex, a busy cluster's demand in one case in four.
func genPoolJob(t *rapid.T, w world, now float64) Job {
	T := w.s.NumTypes()
	j := Job{Weight: rapid.SampledFrom([]float64{1, 1, 2, 0.5}).Draw(t, "weight")}
	j.Rates = genRates(t, T, rapid.IntRange(0, 3).Draw(t, "calibrating") == 0)
	if rapid.IntRange(0, 3).Draw(t, "equal rates") == 0 {
		for i := range j.Rates {
			j.Rates[i] = 1
		}
	}
	j.Running = make([]int, rapid.IntRange(0, T).Draw(t, "len(running)"))
	for typ := range j.Running {
		j.Running[typ] = rapid.IntRange(0, w.s.SlotsOfType(typ)).Draw(t, "running")
	}
	blocks := rapid.IntRange(0, 4).Draw(t, "pending")
	if rapid.IntRange(0, 3).Draw(t, "busy") == 0 {
		blocks += rapid.IntRange(0, len(w.slots)).Draw(t, "more pending")
	}
	for range blocks {
		reps := rapid.SliceOfN(rapid.IntRange(0, w.nodes-1), 1, 3).Draw(t, "replicas")
		j.Pending = append(j.Pending, Block{Replicas: reps})
	}
	if rapid.Bool().Draw(t, "index") {
		x, err := w.s.NewPendingIndex(j.Pending)
		if err != nil {
			t.Fatal(err)
		}
		j.Index = x
	}
	j.LastLaunch = now - rapid.SampledFrom([]float64{0, 0, 1, 5, 15, 30, 60}).Draw(t, "delay")
	if rapid.Bool().Draw(t, "any delay") {
		j.LastLaunch = now - rapid.Float64Range(0, 40).Draw(t, "delay")
	}
	return j
}

// propPool: after random Sets and Removes, Pool.PickProgressShare decides
// as Scheduler.PickProgressShare on the jobs in tie order with last moved
// to the end, field for field, for every slot.
func propPool(t *rapid.T) {
	w := genWorld(t, 0)
	opt := w.s.Options()
	if rapid.Bool().Draw(t, "affinity") {
		opt.AffinityFactor = rapid.SampledFrom([]float64{1, 1.2, 2}).Draw(t, "factor")
		opt.AffinityBounded = rapid.Bool().Draw(t, "bounded")
	}
	if rapid.Bool().Draw(t, "delay") {
		opt.MaxDelay = rapid.SampledFrom([]float64{1, 10, 30, 60}).Draw(t, "maxDelay")
	}
	s, err := NewScheduler(w.slots, opt)
	if err != nil {
		t.Fatal(err)
	}
	w.s = s
	rank := map[int]int{} // the tie order: a rank per handle, equal ranks by handle
	tie := func(a, b int) int { return cmp.Or(cmp.Compare(rank[a], rank[b]), cmp.Compare(a, b)) }
	p := s.NewPool(tie)
	held := map[int]Job{}
	now := 100.0
	for range rapid.IntRange(1, 30).Draw(t, "steps") {
		h := rapid.IntRange(0, 9).Draw(t, "handle")
		switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
		case op == 0 && p.Has(h):
			if err := p.Remove(h); err != nil {
				t.Fatal(err)
			}
			delete(held, h)
			delete(rank, h)
		default:
			j := genPoolJob(t, w, now)
			if !p.Has(h) {
				rank[h] = rapid.IntRange(0, 4).Draw(t, "rank")
			}
			if err := p.Set(h, j); err != nil {
				t.Fatal(err)
			}
			held[h] = j
		}
		if p.Len() != len(held) {
			t.Fatalf("Len %d, want %d", p.Len(), len(held))
		}
		handles := make([]int, 0, len(held))
		for h := range held {
			handles = append(handles, h)
		}
		slices.SortFunc(handles, tie)
		last := -1
		if len(handles) > 0 && rapid.Bool().Draw(t, "last") {
			last = rapid.SampledFrom(handles).Draw(t, "last handle")
			k := slices.Index(handles, last)
			handles = append(slices.Delete(handles, k, k+1), last)
		}
		jobs := make([]Job, len(handles))
		for i, h := range handles {
			jobs[i] = held[h]
		}
		at := now + rapid.SampledFrom([]float64{0, 0, 3, -50}).Draw(t, "later")
		for si := range w.slots {
			want, werr := s.PickProgressShare(si, jobs, at)
			got, gerr := p.PickProgressShare(si, at, last)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("slot %d at %v: pool error %v, full error %v", si, at, gerr, werr)
			}
			if werr != nil {
				continue
			}
			if want.Job >= 0 {
				want.Job = handles[want.Job]
			}
			if want.Bypassed >= 0 {
				want.Bypassed = handles[want.Bypassed]
			}
			if got != want {
				t.Fatalf("slot %d, last %d, order %v:\npool %+v\nfull %+v", si, last, handles, got, want)
			}
		}
	}
}

func TestPoolBadInput(t *testing.T) {
	s := twoTypes(t, Options{MaxDelay: 10})
	good := Job{Weight: 1, Rates: []float64{1, 2}, Pending: []Block{{Replicas: []int{0}}}}
	p := s.NewPool(nil)
	if err := p.Set(3, good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, field string
		err         error
	}{
		{"handle below 0", "handle", p.Set(-1, good)},
		{"handle at MaxJobs", "handle", p.Set(MaxJobs, good)},
		{"weight 0", "job.Weight", p.Set(1, Job{Weight: 0})},
		{"NaN LastLaunch", "job.LastLaunch", p.Set(1, Job{Weight: 1, LastLaunch: math.NaN()})},
		{"infinite LastLaunch", "job.LastLaunch", p.Set(1, Job{Weight: 1, LastLaunch: math.Inf(1)})},
		{"rate above MaxRate", "job.Rates[1]", p.Set(1, Job{Weight: 1, Rates: []float64{1, 2 * MaxRate}})},
		{"more rates than types", "len(job.Rates)", p.Set(1, Job{Weight: 1, Rates: []float64{1, 1, 1}})},
		{"running above slots", "job.Running[0]", p.Set(1, Job{Weight: 1, Running: []int{1000}})},
		{"negative running", "job.Running[1]", p.Set(1, Job{Weight: 1, Running: []int{0, -1}})},
		{"block without replicas", "job.Pending[0].Replicas", p.Set(1, Job{Weight: 1, Pending: []Block{{}}})},
		{"replica on no node", "job.Pending[0].Replicas[0]", p.Set(1, Job{Weight: 1, Pending: []Block{{Replicas: []int{99}}}})},
		{"remove a handle not held", "handle", p.Remove(2)},
		{"remove below 0", "handle", p.Remove(-4)},
		{"pick slot out of range", "slot", pickErr(p.PickProgressShare(99, 0, -1))},
		{"pick NaN now", "now", pickErr(p.PickProgressShare(0, math.NaN(), -1))},
		{"pick now before a LastLaunch", "now", pickErr(p.PickProgressShare(0, -1, -1))},
		{"pick last not held", "last", pickErr(p.PickProgressShare(0, 0, 2))},
		{"zero Pool", "Pool", (&Pool{}).Set(0, good)},
		{"nil Pool remove", "Pool", (*Pool)(nil).Remove(0)},
		{"nil Pool pick", "Pool", pickErr((*Pool)(nil).PickProgressShare(0, 0, -1))},
	} {
		t.Run(c.name, func(t *testing.T) { assertField(t, c.err, c.field) })
	}
	if p.Len() != 1 || !p.Has(3) || p.Has(1) {
		t.Errorf("bad input changed the Pool: Len %d", p.Len())
	}
	if d, err := p.PickProgressShare(2, 0, 3); err != nil || d.Job != 3 { // its fastest type
		t.Errorf("after bad input: %+v, %v", d, err)
	}
	if (*Pool)(nil).Len() != 0 || (*Pool)(nil).Has(0) {
		t.Error("a nil Pool holds jobs")
	}
	if err := p.Remove(3); err != nil || !errors.Is(p.Remove(3), ErrBadInput) {
		t.Errorf("second Remove: %v", err)
	}
}

func pickErr(_ Decision, err error) error { return err }
