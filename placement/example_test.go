package placement_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedkit/schedkit/placement"
)

// Place the thesis's Sort job (80 VMs, 2 GB each) on its 20-rack topology
// with TARA and compare the prediction with the round-robin baseline.
func ExampleSearch() {
	top, app := placement.ThesisTopology(), placement.ThesisSort()
	ev, err := placement.NewEvaluator(top, app)
	if err != nil {
		panic(err)
	}
	rr, _ := placement.RoundRobinRacks.Place(top, app.VMs)
	rrTime, _ := ev.CompletionTime(rr)

	rng := rand.New(rand.NewPCG(1, 2)) // log the seed to replay the decision
	res, err := placement.Search(top, app, placement.SearchOptions{MaxEvaluations: 10_000}, rng)
	if err != nil {
		panic(err)
	}
	perRack := make([]int, len(top.Racks))
	for _, s := range res.Servers {
		perRack[top.Servers[s].Rack]++
	}
	fmt.Printf("RR-R: %.0f s\n", rrTime)
	fmt.Printf("TARA: %.0f s after %d evaluations\n", res.Fitness, res.Evaluations)
	fmt.Println("VMs per rack:", perRack)
	// Output:
	// RR-R: 740 s
	// TARA: 380 s after 10000 evaluations
	// VMs per rack: [6 6 5 4 3 2 1 6 6 5 4 3 2 1 6 6 5 4 3 2]
}

// Score one placement phase by phase.
func ExampleEvaluator_Predict() {
	top, app := placement.ThesisTopology(), placement.ThesisSort()
	ev, err := placement.NewEvaluator(top, app)
	if err != nil {
		panic(err)
	}
	s, _ := placement.RoundRobinServers.Place(top, app.VMs) // racks 0 and 7, 40 VMs each
	p, err := ev.Predict(s)
	if err != nil {
		panic(err)
	}
	fmt.Printf("map %.1f s, shuffle %.0f s, reduce %.0f s, write %.0f s, total %.0f s\n",
		p.Map, p.Shuffle, p.Reduce, p.Write, p.Total)
	fmt.Printf("rack uplinks add %.0f s (%.0f%% of the total)\n", p.Uplink, 100*p.Uplink/p.Total)
	// Output:
	// map 74.8 s, shuffle 400 s, reduce 41 s, write 800 s, total 1316 s
	// rack uplinks add 1100 s (84% of the total)
}
