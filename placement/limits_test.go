package placement

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// limitTopology has MaxServers servers in MaxRacks racks of one server
// each, every one available.
func limitTopology() Topology {
	t := Topology{Racks: make([]Rack, MaxRacks), Servers: make([]Server, MaxServers)}
	for k := range t.Racks {
		t.Racks[k] = Rack{Uplink: 1e9, BackgroundUplink: 5e8}
	}
	for i := range t.Servers {
		t.Servers[i] = Server{Rack: i % MaxRacks, FreeSlots: 1, Speed: 1, NIC: 1e9}
	}
	return t
}

// TestLimitsTopology builds an Evaluator for MaxServers servers in MaxRacks
// racks and a request for all of them, predicts without allocating, places
// by every heuristic, and refuses one more rack or server naming the field.
func TestLimitsTopology(t *testing.T) {
	top := limitTopology()
	app := ThesisSort()
	app.VMs = MaxServers
	// The runs at the limit take a second; under the race detector only the
	// refusals run (CI runs this test without it too).
	if !raceEnabled {
		testTopologyAtLimit(t, top, app)
	}
	over := top
	over.Racks = append(top.Racks[:MaxRacks:MaxRacks], Rack{Uplink: 1})
	_, err := NewEvaluator(over, app)
	wantField(t, err, "Topology.Racks")
	over = top
	over.Servers = append(top.Servers[:MaxServers:MaxServers], Server{FreeSlots: 1, Speed: 1, NIC: 1})
	_, err = NewEvaluator(over, app)
	wantField(t, err, "Topology.Servers")
	if !raceEnabled {
		if n := testing.AllocsPerRun(2, func() { NewEvaluator(over, app) }); n > 2 {
			t.Errorf("refusing MaxServers+1 allocated %v times, want only the error's", n)
		}
	}
}

// testTopologyAtLimit builds an Evaluator for every server of top, predicts
// without allocating and places by every heuristic.
func testTopologyAtLimit(t *testing.T, top Topology, app Application) {
	var ev *Evaluator
	var err error
	got := testkit.Allocated(func() { ev, err = NewEvaluator(top, app) })
	if err != nil {
		t.Fatal(err)
	}
	// The Evaluator: 45 B per server (rack, availability, four phase
	// times, stamp) and 24 B per rack (uplink, count, two loads).
	if limit := uint64(45*MaxServers + 24*MaxRacks + 1<<16); got > limit {
		t.Errorf("NewEvaluator allocated %d B, over %d B", got, limit)
	}
	all := make([]int, MaxServers)
	for i := range all {
		all[i] = i
	}
	p, err := ev.Predict(all)
	if err != nil || math.IsInf(p.Total, 0) || !(p.Total > 0) {
		t.Fatalf("Predict of every server: %+v, %v", p, err)
	}
	if !raceEnabled {
		if n := testing.AllocsPerRun(2, func() { ev.Predict(all) }); n != 0 {
			t.Errorf("Predict at MaxServers: %v allocations, want 0", n)
		}
	}
	for _, h := range Heuristics {
		if s, err := h.Place(top, MaxServers); err != nil || len(s) != MaxServers {
			t.Fatalf("%v at MaxServers: %d servers, %v", h, len(s), err)
		}
	}
	if s, err := RandomPlacement(top, MaxServers, rand.New(rand.NewPCG(1, 2))); err != nil || len(s) != MaxServers {
		t.Fatalf("RandomPlacement at MaxServers: %d servers, %v", len(s), err)
	}
}

// thesisSeeds is the number of seeds Search adds on the thesis scenario
// (RR-R, RR-S, H-1, H-2; no rack holds all 80 VMs).
const thesisSeeds = 4

// TestLimitsSearch holds Search to MaxSearchWork and MaxSearchMemory on the
// thesis scenario (900 work units and 1,772 bytes a candidate): the largest
// budgets and Population accepted are exactly the bounds, one more is
// refused naming the field, and a search at each bound keeps to it. The
// searches at the bounds take a second or two of CPU each; under the race
// detector (ten times slower) only the bounds are checked, and CI runs this
// test without it too.
func TestLimitsSearch(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	unit := 800 + 80 + 20
	rng := rand.New(rand.NewPCG(1, 2))
	maxEvals := MaxSearchWork / unit
	check := func(cfg SearchOptions) error {
		if err := cfg.withDefaults(); err != nil {
			return err
		}
		return cfg.checkWork(top, app.VMs, thesisSeeds)
	}
	if err := check(SearchOptions{MaxEvaluations: maxEvals}); err != nil {
		t.Fatalf("MaxEvaluations at MaxSearchWork: %v", err)
	}
	_, err := Search(top, app, SearchOptions{MaxEvaluations: maxEvals + 1}, rng)
	wantField(t, err, "SearchOptions.MaxEvaluations")
	// A generation budget counts the seeds, the population and 10 offspring a
	// generation.
	maxGens := (maxEvals - thesisSeeds - DefaultPopulation) / 10
	if err := check(SearchOptions{MaxGenerations: maxGens}); err != nil {
		t.Fatalf("MaxGenerations at MaxSearchWork: %v", err)
	}
	_, err = Search(top, app, SearchOptions{MaxGenerations: maxGens + 1}, rng)
	wantField(t, err, "SearchOptions.MaxGenerations")
	_, err = Search(top, app, SearchOptions{MaxGenerations: math.MaxInt}, rng)
	wantField(t, err, "SearchOptions.MaxGenerations")
	_, err = Search(top, app, SearchOptions{MaxGenerations: math.MaxInt, MaxEvaluations: 1000}, rng)
	if err != nil {
		t.Fatalf("an evaluation budget caps a huge generation budget: %v", err)
	}
	// Memory: Population + seeds + offspring candidates of 1,772 bytes.
	cb := candidateBytes(800, 80)
	maxPop := 0
	for p := 2; p <= 1e5; p++ {
		kept := p + thesisSeeds + int(math.Ceil(DefaultOffspringRate*float64(p)))
		if kept*cb > MaxSearchMemory {
			break
		}
		maxPop = p
	}
	popEvals := maxPop + thesisSeeds + int(math.Ceil(DefaultOffspringRate*float64(maxPop)))
	if err := check(SearchOptions{Population: maxPop, MaxEvaluations: popEvals}); err != nil {
		t.Fatalf("Population %d at MaxSearchMemory: %v", maxPop, err)
	}
	_, err = Search(top, app, SearchOptions{Population: maxPop + 1, MaxEvaluations: popEvals + 1}, rng)
	wantField(t, err, "SearchOptions.Population")
	if raceEnabled {
		return
	}
	for _, c := range []struct {
		name  string
		cfg   SearchOptions
		bytes uint64
	}{
		// Every evaluation keeps nothing new once the population is full:
		// the default population's memory and the history.
		{"MaxSearchWork", SearchOptions{MaxEvaluations: maxEvals}, 4 << 20},
		// The population fills memory; one generation is bred.
		{"MaxSearchMemory", SearchOptions{Population: maxPop, MaxEvaluations: popEvals}, MaxSearchMemory},
	} {
		var res SearchResult
		got := testkit.Allocated(func() { res, err = Search(top, app, c.cfg, rng) })
		if err != nil || math.IsInf(res.Fitness, 0) {
			t.Fatalf("%s: %+v, %v", c.name, res.Fitness, err)
		}
		t.Logf("%s: %d evaluations, %d generations, %.1f MiB", c.name, res.Evaluations, res.Generations, float64(got)/(1<<20))
		if got > c.bytes {
			t.Errorf("%s: allocated %d B, over %d B", c.name, got, c.bytes)
		}
	}
}

// TestLimitsLocality builds a LocalityCluster at MaxLocalityMachines and
// MaxLocalityVMs, fills a Release and an Assign queue to MaxLocalityQueue,
// and checks that each step beyond is refused naming its field and leaving
// the state unchanged, and that a step at the limit allocates nothing.
func TestLimitsLocality(t *testing.T) {
	vms := make([]int, MaxLocalityVMs)
	for v := range vms {
		vms[v] = v
	}
	vms[0] = MaxLocalityMachines - 1
	var c LocalityCluster
	var err error
	got := testkit.Allocated(func() { c, err = NewLocalityCluster(MaxLocalityMachines, vms) })
	if err != nil || c.VMs() != MaxLocalityVMs {
		t.Fatal(err)
	}
	// A copy of vmMachine and two queue headers per machine up to the last.
	if limit := uint64(8*MaxLocalityVMs + 48*MaxLocalityMachines + 1<<16); got > limit {
		t.Errorf("NewLocalityCluster allocated %d B, over %d B", got, limit)
	}
	_, err = NewLocalityCluster(MaxLocalityMachines+1, vms)
	wantField(t, err, "machines")
	_, err = NewLocalityCluster(MaxLocalityMachines, append(vms, 0))
	wantField(t, err, "len(vmMachine)")

	// VM 2 on machine 2 holds the data; free nodes 0 and 1 (machines 0 and
	// 1) queue its tasks there and offer their cores: machine 2's Assign
	// queue grows twice as fast as each Release queue.
	c, err = NewLocalityCluster(3, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	task := []MapTask{{Replicas: []int{2}}}
	for i := range MaxLocalityQueue {
		if _, err := c.AssignMapTask(task, i%2); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if c.AssignQueueLen(2) != MaxLocalityQueue || c.ReleaseQueueLen(0) != MaxLocalityQueue/2 {
		t.Fatalf("queues %d, %d", c.AssignQueueLen(2), c.ReleaseQueueLen(0))
	}
	_, err = c.AssignMapTask(task, 0)
	wantField(t, err, "tasks[0]")
	if c.AssignQueueLen(2) != MaxLocalityQueue || c.ReleaseQueueLen(0) != MaxLocalityQueue/2 {
		t.Fatal("a refused step changed the queues")
	}
	// The Release queue: machine 0 offers cores for tasks stored on 1.
	c, _ = NewLocalityCluster(2, []int{0, 1})
	other := []MapTask{{Replicas: []int{1}}}
	for range MaxLocalityQueue {
		c.AssignMapTask(other, 0)
	}
	_, err = c.AssignMapTask(other, 0)
	wantField(t, err, "node")
	// A step on a full queue that pairs at once (node 1 runs a remote task
	// on machine 1's own core... here: node 1 frees a core on machine 1,
	// where the Assign queue waits) allocates nothing.
	local := []MapTask{{Replicas: []int{0}}}
	if !raceEnabled {
		if n := testing.AllocsPerRun(10, func() { c.AssignMapTask(local, 1) }); n != 0 {
			t.Errorf("a step pairing on a full queue: %v allocations", n)
		}
	}
}
