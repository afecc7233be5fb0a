package progressshare_test

import (
	"fmt"

	"github.com/schedkit/schedkit/progressshare"
)

// The §4.3.1.1 cluster: two slots of node type N1 and four of N2. Job A runs
// three times faster on N1; job B is equally fast on both. Both hold three
// slots: A one N1 and two N2, B one N1 and two N2.
func ExampleScheduler_PickProgressShare() {
	var slots []progressshare.Slot
	for node, typ := range []int{0, 1, 1} { // node 0 is N1, nodes 1 and 2 are N2
		slots = append(slots, progressshare.Slot{Node: node, Type: typ}, progressshare.Slot{Node: node, Type: typ})
	}
	s, err := progressshare.NewScheduler(slots, progressshare.Options{MaxDelay: 10})
	if err != nil {
		panic(err)
	}
	everywhere := progressshare.Block{Replicas: []int{0, 1, 2}}
	jobs := []progressshare.Job{
		{Weight: 1, Rates: []float64{3, 1}, Running: []int{1, 2}, Pending: []progressshare.Block{everywhere}},
		{Weight: 1, Rates: []float64{1, 1}, Running: []int{1, 2}, Pending: []progressshare.Block{everywhere}},
	}
	for i, j := range jobs {
		ps, _ := s.ProgressShare(j)
		pref, _ := s.Pref(2, j, 0)
		fmt.Printf("job %c: progress share %.2f, Pref of an N2 slot %.2f\n", 'A'+i, ps, pref)
	}
	// An N2 slot frees up at t = 3 s, 3 s after both jobs last launched:
	// A needs 1 − 0.4 ≤ delay/10, so it waits (declined from its node types
	// alone: N1 slots beat this one whatever the block); B takes the slot.
	d, _ := s.PickProgressShare(2, jobs, 3)
	fmt.Printf("t=3: job %c, %s, examined %d\n", 'A'+d.Job, d.Reason, d.Examined)
	d, _ = s.PickProgressShare(2, jobs, 6)
	fmt.Printf("t=6: job %c, %s, Pref %.1f\n", 'A'+d.Job, d.Reason, d.Pref)
	// Output:
	// job A: progress share 0.50, Pref of an N2 slot 0.40
	// job B: progress share 0.50, Pref of an N2 slot 1.00
	// t=3: job B, preferred, examined 1
	// t=6: job A, preferred, Pref 0.4
}

// The §4.4.2 case: 8 CPU slots (node 0) and 8 GPU slots (node 1); crypto
// runs 3× faster on a GPU slot, sort equally fast on both. Crypto runs on 7
// GPU slots (PS 21/32), sort on the 8 CPU slots (PS 8/16), and a GPU slot
// frees. Algorithm 2 gives it to sort, the lower progress share; the
// affinity rule gives it to crypto, whose relative rate there (1.5) is at
// least 1.2 times sort's (1).
func ExampleOptions_affinity() {
	var slots []progressshare.Slot
	for node := range 2 {
		for range 8 {
			slots = append(slots, progressshare.Slot{Node: node, Type: node})
		}
	}
	block := progressshare.Block{Replicas: []int{0, 1}}
	jobs := []progressshare.Job{
		{Weight: 1, Rates: []float64{1, 3}, Running: []int{0, 7}, Pending: []progressshare.Block{block}}, // crypto
		{Weight: 1, Rates: []float64{1, 1}, Running: []int{8, 0}, Pending: []progressshare.Block{block}}, // sort
	}
	names := []string{"crypto", "sort"}
	for _, opt := range []progressshare.Options{{}, {AffinityFactor: 1.2}, {AffinityFactor: 1.2, AffinityBounded: true}} {
		s, err := progressshare.NewScheduler(slots, opt)
		if err != nil {
			panic(err)
		}
		d, _ := s.PickProgressShare(8, jobs, 0) // slot 8 is a GPU slot
		line := fmt.Sprintf("factor %g, bounded %v: %s (%s)", opt.AffinityFactor, opt.AffinityBounded, names[d.Job], d.Reason)
		if d.Bypassed >= 0 {
			rel, _ := s.RelativeRate(8, jobs[d.Job])
			line += fmt.Sprintf(", passing over %s; relative rate %.1f", names[d.Bypassed], rel)
		}
		fmt.Println(line)
	}
	// Output:
	// factor 0, bounded false: sort (preferred)
	// factor 1.2, bounded false: crypto (affinity), passing over sort; relative rate 1.5
	// factor 1.2, bounded true: crypto (affinity), passing over sort; relative rate 1.5
}
