package placement

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// taraBruteForce returns the least completion time over every r-subset of
// the available servers.
func taraBruteForce(t *testing.T, top Topology, app Application) float64 {
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatal(err)
	}
	avail := top.Available()
	best := math.Inf(1)
	pick := make([]int, 0, app.VMs)
	var rec func(from int)
	rec = func(from int) {
		if len(pick) == app.VMs {
			f, err := ev.CompletionTime(pick)
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, f)
			return
		}
		for i := from; i <= len(avail)-(app.VMs-len(pick)); i++ {
			pick = append(pick, avail[i])
			rec(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	rec(0)
	return best
}

// TestSearchFindsOptimum compares the GA with exhaustive search on a problem
// small enough to enumerate (C(16,6) = 8008 candidates) and too big for one
// rack, where no heuristic is optimal.
func TestSearchFindsOptimum(t *testing.T) {
	top := taraTinyTopology(4, 100, 300, 150, 200)
	top.Servers[5].BackgroundCPU = 0.7 // a slow server in the fastest rack
	top.Servers[12].NIC = 50           // a thin NIC in the 200 B/s rack
	top.Servers[13].BackgroundNIC = 990
	app := taraTinyApp()
	app.VMs = 6
	want := taraBruteForce(t, top, app)
	for seed := range uint64(5) {
		res, err := Search(top, app, SearchOptions{Population: 30, MaxEvaluations: 3000}, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Fitness != want {
			t.Errorf("seed %d: GA found %v, optimum %v", seed, res.Fitness, want)
		}
	}
	ev, _ := NewEvaluator(top, app)
	for _, h := range Heuristics {
		s, _ := h.Place(top, app.VMs)
		if f, _ := ev.CompletionTime(s); f == want {
			t.Errorf("%v is already optimal (%v): the test is too easy", h, f)
		}
	}
}

// TestSearchThesisScenario: on the thesis scenario TARA beats every
// heuristic and the best of 300 random candidates.
func TestSearchThesisScenario(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Search(top, app, SearchOptions{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluations != DefaultMaxEvaluations || res.Generations != 990 {
		t.Fatalf("%d evaluations in %d generations, want 10000 in 990", res.Evaluations, res.Generations)
	}
	for _, h := range Heuristics {
		s, _ := h.Place(top, app.VMs)
		f, _ := ev.CompletionTime(s)
		if !(res.Fitness < f) {
			t.Errorf("TARA %v s, %v %v s", res.Fitness, h, f)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		s, _ := RandomPlacement(top, app.VMs, rng)
		if f, _ := ev.CompletionTime(s); !(res.Fitness < f) {
			t.Errorf("TARA %v s, a random candidate %v s", res.Fitness, f)
		}
	}
}

func TestSearchDeterministic(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	cfg := SearchOptions{MaxEvaluations: 500}
	a, err := Search(top, app, cfg, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Search(top, app, cfg, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(a.Servers, b.Servers) || a.Fitness != b.Fitness || !slices.Equal(a.History, b.History) {
		t.Fatal("equal seeds gave different searches")
	}
}

func TestSearchGenerationBudget(t *testing.T) {
	top, app := taraTinyTopology(5, 100, 300, 150), taraTinyApp()
	res, err := Search(top, app, SearchOptions{Population: 20, OffspringRate: 0.25, MaxGenerations: 7}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	// 20 initial candidates, then 7 generations of ceil(0.25·20) = 5.
	if res.Generations != 7 || res.Evaluations != 20+7*5 || len(res.History) != 8 {
		t.Fatalf("%d generations, %d evaluations, history %d", res.Generations, res.Evaluations, len(res.History))
	}
}

func TestSearchObjectiveAndSeeds(t *testing.T) {
	// A custom objective: the sum of the chosen servers' indices. Its
	// optimum is the r lowest available indices; seeding it makes the result
	// exact, and the GA must keep it.
	top := taraTinyTopology(6, 100, 100, 100)
	app := taraTinyApp()
	obj := func(s []int) float64 {
		sum := 0
		for _, x := range s {
			sum += x
		}
		return float64(sum)
	}
	cfg := SearchOptions{Objective: obj, NoHeuristicSeeds: true, Seeds: [][]int{{3, 0, 2, 1}}, MaxGenerations: 3}
	res, err := Search(top, app, cfg, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Servers, []int{0, 1, 2, 3}) || res.Fitness != 6 || res.BestSeed != 6 {
		t.Fatalf("got %v (%v), best seed %v", res.Servers, res.Fitness, res.BestSeed)
	}
	// A NaN objective counts as +Inf and does not break the search.
	cfg = SearchOptions{Objective: func([]int) float64 { return math.NaN() }, MaxEvaluations: 200}
	res, err = Search(top, app, cfg, rand.New(rand.NewPCG(5, 5)))
	if err != nil || !math.IsInf(res.Fitness, 1) || len(res.Servers) != app.VMs {
		t.Fatalf("NaN objective: %+v, %v", res, err)
	}
}

func TestSearchBadInput(t *testing.T) {
	top, app := taraTinyTopology(4, 100, 100), taraTinyApp()
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name  string
		top   Topology
		app   Application
		cfg   SearchOptions
		field string
	}{
		{"population 1", top, app, SearchOptions{Population: 1}, "SearchOptions.Population"},
		{"negative population", top, app, SearchOptions{Population: -3}, "SearchOptions.Population"},
		{"huge population", top, app, SearchOptions{Population: 1 << 40}, "SearchOptions.Population"},
		{"population above 1e5", top, app, SearchOptions{Population: 100_001}, "SearchOptions.Population"},
		{"offspring below 10%", top, app, SearchOptions{OffspringRate: 0.05}, "SearchOptions.OffspringRate"},
		{"offspring 100%", top, app, SearchOptions{OffspringRate: 1}, "SearchOptions.OffspringRate"},
		{"NaN offspring", top, app, SearchOptions{OffspringRate: math.NaN()}, "SearchOptions.OffspringRate"},
		{"negative weak", top, app, SearchOptions{WeakRate: -0.1}, "SearchOptions.WeakRate"},
		{"NaN weak", top, app, SearchOptions{WeakRate: math.NaN()}, "SearchOptions.WeakRate"},
		{"no room for the fittest", top, app, SearchOptions{OffspringRate: 0.5, WeakRate: 0.5}, "SearchOptions.WeakRate"},
		{"negative evaluations", top, app, SearchOptions{MaxEvaluations: -1}, "SearchOptions.MaxEvaluations"},
		{"negative generations", top, app, SearchOptions{MaxGenerations: -1}, "SearchOptions.MaxGenerations"},
		{"seed too short", top, app, SearchOptions{Seeds: [][]int{{0, 1}}}, "SearchOptions.Seeds[0]: servers"},
		{"seed repeats", top, app, SearchOptions{Seeds: [][]int{{0, 1, 2, 3}, {0, 1, 1, 3}}}, "SearchOptions.Seeds[1]: servers[2]"},
		{"seed out of range", top, app, SearchOptions{Seeds: [][]int{{0, 1, 2, 99}}}, "SearchOptions.Seeds[0]: servers[3]"},
		{"invalid application", top, Application{}, SearchOptions{}, "Application.VMs"},
		{"invalid topology", Topology{}, app, SearchOptions{}, "Topology.Racks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Search(tt.top, tt.app, tt.cfg, rng)
			wantField(t, err, tt.field)
		})
	}
	if _, err := Search(top, app, SearchOptions{}, nil); !errors.Is(err, ErrNilRand) {
		t.Fatalf("nil rng: %v", err)
	}
}

func TestSearchAllServers(t *testing.T) {
	// r equal to the available servers: one candidate only; mutation and
	// swap have nothing to move.
	top, app := taraTinyTopology(2, 100, 100), taraTinyApp()
	res, err := Search(top, app, SearchOptions{MaxGenerations: 5}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || !slices.Equal(res.Servers, []int{0, 1, 2, 3}) {
		t.Fatalf("got %+v, %v", res, err)
	}
}

// TestSearchSingleRack: when the job fits one rack, the best placement keeps
// all traffic off the uplinks; it is isolated in the search space (moving one
// VM out costs cross-rack replica writes), and the single-rack seeds let
// the GA start from it. Rack 1 has the fastest uplink but a slow server;
// rack 0 holds the optimum.
func TestSearchSingleRack(t *testing.T) {
	top := taraTinyTopology(5, 100, 300, 150)
	top.Servers[6].BackgroundCPU = 0.7
	top.Servers[12].NIC = 50
	app := taraTinyApp()
	app.VMs = 5
	want := taraBruteForce(t, top, app)
	res, err := Search(top, app, SearchOptions{Population: 30, MaxEvaluations: 500}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Fitness != want || !slices.Equal(res.Servers, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("GA found %v (%v), optimum %v", res.Servers, res.Fitness, want)
	}
}

func TestSingleRackSeeds(t *testing.T) {
	top := taraTinyTopology(6, 100, 100, 100)
	top.Servers[2].BackgroundCPU = 0.5 // slowest in rack 0
	top.Servers[3].BackgroundNIC = 10  // thinner NIC in rack 0
	top.Servers[8].FreeSlots = 0       // rack 1 has only 4 available
	top.Servers[9].FreeSlots = 0
	got := taraSingleRackSeeds(top, 5)
	want := [][]int{{0, 1, 4, 5, 3}, {12, 13, 14, 15, 16}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// A huge Population with a small budget costs memory for the candidates
// evaluated, not for the Population (it once allocated the offspring
// buffers of ceil(0.1·Population) candidates up front: 400 MB for
// Population 1e6, then the bound, on this topology).
func TestSearchHugePopulationSmallBudget(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Search(top, app, SearchOptions{Population: 100_000, MaxEvaluations: 50}, rand.New(rand.NewPCG(1, 1)))
	runtime.ReadMemStats(&after)
	if err != nil || res.Evaluations != 50 || res.Generations != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	if b := after.TotalAlloc - before.TotalAlloc; b > 4<<20 {
		t.Errorf("Search allocated %d bytes for 50 evaluations", b)
	}
}
