package progressshare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// goldenDecisions draws, from a fixed seed, worlds of 1–4 node types, 1–4
// racks and 1–8 nodes with 1–4 jobs (calibrated or not, with and without a
// PendingIndex, options of every kind), asks both pickers about every slot
// and hashes every field of every Decision. opt is applied on top of the
// drawn options (to turn on options added later).
func goldenDecisions(t *testing.T, worlds int, extra func(*Options)) uint64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(16, 19))
	h := fnv.New64a()
	put := func(v uint64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	for range worlds {
		types := 1 + rng.IntN(4)
		racks := 1 + rng.IntN(4)
		nodes := 1 + rng.IntN(8)
		var slots []Slot
		for n := range nodes {
			typ, rack := rng.IntN(types), rng.IntN(racks)
			for range 1 + rng.IntN(3) {
				slots = append(slots, Slot{Node: n, Type: typ, Rack: rack})
			}
		}
		tr := [3]float64{rng.Float64() * 2, 0, 0}
		tr[1] = tr[0] + rng.Float64()*3
		tr[2] = tr[1] + rng.Float64()*3
		d1 := rng.Float64() * 10
		opt := Options{ReadTime: tr, MaxDelay: []float64{0, 1, 10, 30}[rng.IntN(4)], RackDelay: d1, RemoteDelay: d1 + rng.Float64()*10}
		if extra != nil {
			extra(&opt)
		}
		s, err := NewScheduler(slots, opt)
		if err != nil {
			t.Fatal(err)
		}
		T := s.NumTypes()
		const now = 100.0
		jobs := make([]Job, 1+rng.IntN(4))
		for i := range jobs {
			j := &jobs[i]
			j.Weight = []float64{1, 1, 2, 0.5}[rng.IntN(4)]
			j.Rates = make([]float64, T)
			for k := range j.Rates {
				if rng.IntN(5) > 0 { // one in five unmeasured
					j.Rates[k] = 0.1 + rng.Float64()*10
				}
			}
			j.Running = make([]int, T)
			for range rng.IntN(6) {
				reps := make([]int, 1+rng.IntN(3))
				for k := range reps {
					reps[k] = rng.IntN(nodes)
				}
				j.Pending = append(j.Pending, Block{Replicas: reps})
			}
			j.LastLaunch = now - rng.Float64()*40
			if rng.IntN(2) == 0 {
				if j.Index, err = s.NewPendingIndex(j.Pending); err != nil {
					t.Fatal(err)
				}
			}
		}
		for si := range slots {
			if k := rng.IntN(len(jobs) + 1); k < len(jobs) {
				jobs[k].Running[slots[si].Type]++
			}
		}
		for si := range slots {
			for _, pick := range []func(int, []Job, float64) (Decision, error){s.PickProgressShare, s.PickSlotShare} {
				d, err := pick(si, jobs, now)
				if err != nil {
					t.Fatal(err)
				}
				launch := uint64(0)
				if d.Launch {
					launch = 1
				}
				cal := uint64(0)
				if d.Calibrating {
					cal = 1
				}
				for _, v := range []uint64{launch, uint64(d.Reason), uint64(d.Job), uint64(d.Block), uint64(d.Replica),
					uint64(d.Locality), math.Float64bits(d.Pref), cal, uint64(d.Examined)} {
					put(v)
				}
			}
		}
	}
	return h.Sum64()
}

// TestGoldenDecisions pins every decision of both pickers on 3,000 seeded
// random worlds to the hash of the package without the affinity rule's
// code: with the rule off (the zero Options.AffinityFactor) Algorithm 2 and
// Algorithm 1 decide exactly as they do without it, bit for bit.
func TestGoldenDecisions(t *testing.T) {
	const want = 0x206ba775b7eb9715
	if got := goldenDecisions(t, 3000, nil); got != want {
		t.Fatalf("decisions hash %#x, want %#x", got, want)
	}
}
