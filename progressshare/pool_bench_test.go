package progressshare

import (
	"fmt"
	"testing"
)

// poolCluster is the kube-scheduler plugin's shape (adapters/kubesched
// progressscore): 100 nodes of two types, 110 slots each, reading input
// costs nothing, every pending pod one block on node 0, MaxDelay 60 s and
// the affinity rule at 1.2, bounded; n jobs of one pending pod, none
// running, created one a second, the oldest first in tie order; one job in
// eight 3× faster on type 1, one in eight 2× (the slice's DeadlineRates
// workload).
func poolCluster(tb testing.TB, n int) (*Scheduler, []Job) {
	tb.Helper()
	var slots []Slot
	for node := range 100 {
		for range 110 {
			slots = append(slots, Slot{Node: node, Type: node % 2})
		}
	}
	s, err := NewScheduler(slots, Options{MaxDelay: 60, AffinityFactor: 1.2, AffinityBounded: true})
	if err != nil {
		tb.Fatal(err)
	}
	block := []Block{{Replicas: []int{0}}}
	jobs := make([]Job, n)
	for i := range jobs {
		rates := []float64{1, 1}
		switch i % 8 {
		case 1:
			rates[1] = 3
		case 5:
			rates[1] = 2
		}
		jobs[i] = Job{Weight: 1, Rates: rates, Running: []int{0, 0}, Pending: block, LastLaunch: float64(i - n)}
	}
	return s, jobs
}

// BenchmarkPool measures one decision on a slot of each type for the job
// scored last (a rated job), from a Pool and by PickProgressShare on the
// same jobs, and one Set and Remove (a job leaves and comes back), at
// 1,000 and 10,000 jobs. Figures: see the package doc's "Performance".
func BenchmarkPool(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		s, jobs := poolCluster(b, n)
		p := s.NewPool(nil)
		for h, j := range jobs {
			if err := p.Set(h, j); err != nil {
				b.Fatal(err)
			}
		}
		self := n - 7 // a job 3× faster on type 1
		b.Run(fmt.Sprintf("jobs=%d/pool", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, slot := range []int{0, 110} {
					if _, err := p.PickProgressShare(slot, 0, self); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		ordered := append(append(append([]Job{}, jobs[:self]...), jobs[self+1:]...), jobs[self])
		b.Run(fmt.Sprintf("jobs=%d/full", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, slot := range []int{0, 110} {
					if _, err := s.PickProgressShare(slot, ordered, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(fmt.Sprintf("jobs=%d/set+remove", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Remove(n / 2); err != nil {
					b.Fatal(err)
				}
				if err := p.Set(n/2, jobs[n/2]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestPoolAllocations(t *testing.T) {
	s, jobs := poolCluster(t, 1000)
	p := s.NewPool(nil)
	for h, j := range jobs {
		if err := p.Set(h, j); err != nil {
			t.Fatal(err)
		}
	}
	// The first job in tie order takes every slot; the scored job's own
	// turn is the affinity rule, which the bound holds back here.
	d, err := p.PickProgressShare(110, 0, 1)
	if err != nil || d.Job != 0 || d.Examined != 1 {
		t.Fatalf("%+v, %v: want job 0 after examining one job", d, err)
	}
	if n := testing.AllocsPerRun(5, func() { _, _ = p.PickProgressShare(110, 0, 1) }); n != 0 {
		t.Errorf("a decision allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(5, func() { _ = p.Remove(500); _ = p.Set(500, jobs[500]) }); n != 0 {
		t.Errorf("Remove and Set allocate %v times, want 0", n)
	}
}
