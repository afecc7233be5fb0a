package placement

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// taraValue draws mostly from [lo, hi] and, when wild is set, one time in
// four an extreme that may be invalid: the ends of [lo, hi] and their
// neighbours beyond, subnormals, ±MaxFloat64, 1e±300, NaN, ±Inf, -1.
func taraValue(t *rapid.T, name string, lo, hi float64, wild bool) float64 {
	if wild && rapid.IntRange(0, 3).Draw(t, name+"Wild") == 0 {
		return rapid.SampledFrom(append(extremes.Edges(lo, hi), -1, math.NaN(), math.Inf(1), math.Inf(-1))).Draw(t, name)
	}
	return rapid.Float64Range(lo, hi).Draw(t, name)
}

// taraCount draws mostly from [lo, hi] and, when wild is set, one time in
// four an int extreme or a value just outside [lo, hi].
func taraCount(t *rapid.T, name string, lo, hi int, wild bool) int {
	if wild && rapid.IntRange(0, 3).Draw(t, name+"Wild") == 0 {
		return extremes.OrIntEdge(rapid.IntRange(lo, hi), lo, hi).Draw(t, name)
	}
	return rapid.IntRange(lo, hi).Draw(t, name)
}

// taraGenProblem draws a small topology and application. With wild set, some
// fields may be out of range; otherwise both are valid.
func taraGenProblem(t *rapid.T, wild bool) (Topology, Application) {
	var top Topology
	racks := rapid.IntRange(1, 5).Draw(t, "racks")
	for range racks {
		up := taraValue(t, "uplink", 1, 1000, wild)
		top.Racks = append(top.Racks, Rack{Uplink: up, BackgroundUplink: up * rapid.Float64Range(0, 0.9).Draw(t, "bgUp")})
	}
	n := rapid.IntRange(1, 24).Draw(t, "servers")
	avail := 0
	for range n {
		nic := taraValue(t, "nic", 10, 2000, wild)
		disk := rapid.SampledFrom([]float64{0, math.Inf(1), 50, 500, 5000}).Draw(t, "disk")
		if wild {
			disk = taraValue(t, "diskWild", 10, 5000, true)
		}
		s := Server{
			Rack:          taraCount(t, "rack", 0, racks-1, wild),
			FreeSlots:     taraCount(t, "free", 0, 2, wild),
			Speed:         taraValue(t, "speed", 0.1, 4, wild),
			BackgroundCPU: taraValue(t, "bgCPU", 0, 0.9, wild),
			NIC:           nic,
			BackgroundNIC: nic * rapid.Float64Range(0, 0.9).Draw(t, "bgNIC"),
			Disk:          disk,
		}
		if !math.IsInf(disk, 1) {
			s.BackgroundDisk = s.disk() * rapid.Float64Range(0, 0.9).Draw(t, "bgDisk")
		}
		if s.FreeSlots > 0 {
			avail++
		}
		top.Servers = append(top.Servers, s)
	}
	if avail == 0 {
		top.Servers[0].FreeSlots = 1
		avail = 1
	}
	app := Application{
		VMs:               rapid.IntRange(1, avail).Draw(t, "vms"),
		MapSlots:          taraCount(t, "mapSlots", 1, 4, wild),
		ReduceSlots:       taraCount(t, "reduceSlots", 1, 4, wild),
		InputBytes:        taraValue(t, "input", 0, 1e4, wild),
		SplitBytes:        taraValue(t, "split", 1, 1e4, wild),
		MapSelectivity:    taraValue(t, "mapSel", 0, 2, wild),
		ReduceSelectivity: taraValue(t, "redSel", 0, 2, wild),
		MapCostPerByte:    taraValue(t, "mapCost", 0, 0.1, wild),
		ReduceCostPerByte: taraValue(t, "redCost", 0, 0.1, wild),
		TaskOverhead:      taraValue(t, "overhead", 0, 5, wild),
		Replication:       taraCount(t, "replication", 1, 4, wild),
	}
	if wild {
		app.VMs = rapid.IntRange(-1, avail+1).Draw(t, "vmsWild")
	}
	return top, app
}

// taraCheckPlacement fails t unless servers are app.VMs distinct available
// servers of top.
func taraCheckPlacement(t interface{ Fatalf(string, ...any) }, top Topology, r int, servers []int) {
	if len(servers) != r {
		t.Fatalf("placement %v names %d servers, want %d", servers, len(servers), r)
	}
	seen := map[int]bool{}
	for _, s := range servers {
		if s < 0 || s >= len(top.Servers) || top.Servers[s].FreeSlots < 1 || seen[s] {
			t.Fatalf("placement %v: server %d unavailable or repeated", servers, s)
		}
		seen[s] = true
	}
}

func TestPropPredictOrderInvariant(t *testing.T) { rapid.Check(t, propPredictOrderInvariant) }
func FuzzPredictOrder(f *testing.F)              { f.Fuzz(rapid.MakeFuzz(propPredictOrderInvariant)) }

// propPredictOrderInvariant: the prediction of a placement does not depend on
// the order the placement or the topology lists servers in, and is finite
// and non-negative.
func propPredictOrderInvariant(t *rapid.T) {
	top, app := taraGenProblem(t, false)
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatalf("valid problem rejected: %v", err)
	}
	avail := top.Available()
	idx := rapid.Permutation(avail).Draw(t, "placement")[:app.VMs]
	want, err := ev.Predict(idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{want.Map, want.Shuffle, want.Reduce, want.Write, want.Total} {
		if !(v >= 0) || math.IsInf(v, 1) {
			t.Fatalf("prediction %+v not finite and non-negative", want)
		}
	}
	perm := rapid.Permutation(taraRange(0, len(top.Servers))).Draw(t, "order")
	inv := make([]int, len(perm))
	shuffled := Topology{Racks: top.Racks, Servers: make([]Server, len(perm))}
	for i, p := range perm {
		shuffled.Servers[i] = top.Servers[p]
		inv[p] = i
	}
	moved := make([]int, len(idx))
	for i, s := range idx {
		moved[len(idx)-1-i] = inv[s]
	}
	ev2, err := NewEvaluator(shuffled, app)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ev2.Predict(moved)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("reordered servers: %+v, want %+v", got, want)
	}
}

func TestPropUplinkPart(t *testing.T) { rapid.Check(t, propUplinkPart) }
func FuzzUplinkPart(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propUplinkPart)) }

// propUplinkPart: Prediction.Uplink is what the rack uplinks add: Total −
// Uplink is the prediction of the same placement with every uplink 10^12
// times wider, and every phase is at least what that prediction gives.
func propUplinkPart(t *rapid.T) {
	top, app := taraGenProblem(t, false)
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatalf("valid problem rejected: %v", err)
	}
	idx := rapid.Permutation(top.Available()).Draw(t, "placement")[:app.VMs]
	p, _ := ev.Predict(idx)
	wide := Topology{Racks: slices.Clone(top.Racks), Servers: top.Servers}
	for k := range wide.Racks {
		wide.Racks[k].Uplink *= 1e12
		wide.Racks[k].BackgroundUplink *= 1e12
	}
	evWide, err := NewEvaluator(wide, app)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := evWide.Predict(idx)
	if !(p.Uplink >= 0) || !scalar.EqualWithinAbsOrRel(p.Total-p.Uplink, q.Total, 1e-9, 1e-9) ||
		q.Uplink > 1e-9*max(1, q.Total) || p.Shuffle < q.Shuffle || p.Write < q.Write {
		t.Fatalf("prediction %+v, with wide uplinks %+v", p, q)
	}
}

func TestPropPredictAnyInput(t *testing.T) { rapid.Check(t, propPredictAnyInput) }
func FuzzPredict(f *testing.F)             { f.Fuzz(rapid.MakeFuzz(propPredictAnyInput)) }

// propPredictAnyInput: arbitrary (possibly invalid) problems and placements
// give ErrBadInput or a finite non-negative prediction, never a panic.
func propPredictAnyInput(t *rapid.T) {
	top, app := taraGenProblem(t, true)
	ev, err := NewEvaluator(top, app)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		return
	}
	servers := rapid.SliceOfN(extremes.OrIntEdge(rapid.IntRange(-1, len(top.Servers)), 0, len(top.Servers)-1), 0, app.VMs+1).Draw(t, "servers")
	p, err := ev.Predict(servers)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		return
	}
	taraCheckPlacement(t, top, app.VMs, servers)
	if !(p.Total >= 0) || math.IsInf(p.Total, 1) {
		t.Fatalf("prediction %+v", p)
	}
}

func TestPropSearch(t *testing.T) { rapid.Check(t, propSearch) }
func FuzzSearch(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propSearch)) }

// propSearch: every candidate the GA evaluates and its result place exactly
// r VMs on distinct available servers; the best fitness never gets worse;
// the result is no worse than the best seed; the budget holds; equal seeds
// give equal results.
func propSearch(t *rapid.T) {
	top, app := taraGenProblem(t, false)
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatalf("valid problem rejected: %v", err)
	}
	cfg := SearchOptions{
		Population:     rapid.IntRange(2, 30).Draw(t, "population"),
		OffspringRate:  rapid.Float64Range(0.1, 0.9).Draw(t, "offspring"),
		WeakRate:       rapid.Float64Range(0, 0.3).Draw(t, "weak"),
		MaxEvaluations: rapid.IntRange(0, 200).Draw(t, "evals"),
		MaxGenerations: rapid.IntRange(0, 20).Draw(t, "gens"),
	}
	if cfg.MaxEvaluations == 0 && cfg.MaxGenerations == 0 {
		cfg.MaxGenerations = 5
	}
	// With the prediction engine as the objective (crowding tie-break and
	// directed mutation at work), observe every candidate; with a caller's
	// objective, through the objective.
	calls := 0
	check := func(s []int) {
		calls++
		taraCheckPlacement(t, top, app.VMs, s)
	}
	observe := check
	engine := rapid.Bool().Draw(t, "engine")
	if !engine {
		cfg.Objective = func(s []int) float64 {
			check(s)
			f, err := ev.CompletionTime(s)
			if err != nil {
				t.Fatalf("candidate %v: %v", s, err)
			}
			return f
		}
		observe = nil
	}
	seed := rapid.Uint64().Draw(t, "seed")
	res, _, err := search(top, app, cfg, rand.New(rand.NewPCG(seed, 1)), taraOperators, observe)
	if err != nil {
		// The only invalid configuration drawn: too many offspring and weak
		// survivors for the population.
		c := cfg
		if !errors.Is(err, ErrBadInput) || c.withDefaults() == nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	taraCheckPlacement(t, top, app.VMs, res.Servers)
	if !slices.IsSorted(res.Servers) {
		t.Fatalf("result %v not sorted", res.Servers)
	}
	if calls != res.Evaluations || (cfg.MaxEvaluations > 0 && calls > cfg.MaxEvaluations) {
		t.Fatalf("%d objective calls, %d reported, budget %d", calls, res.Evaluations, cfg.MaxEvaluations)
	}
	if cfg.MaxGenerations > 0 && res.Generations > cfg.MaxGenerations {
		t.Fatalf("%d generations, budget %d", res.Generations, cfg.MaxGenerations)
	}
	if len(res.History) != res.Generations+1 {
		t.Fatalf("history of %d for %d generations", len(res.History), res.Generations)
	}
	for g := 1; g < len(res.History); g++ {
		if res.History[g] > res.History[g-1] {
			t.Fatalf("best fitness got worse at generation %d: %v", g, res.History)
		}
	}
	if f, _ := ev.CompletionTime(res.Servers); f != res.Fitness || res.Fitness != res.History[len(res.History)-1] {
		t.Fatalf("reported fitness %v, placement scores %v, history ends %v", res.Fitness, f, res.History[len(res.History)-1])
	}
	if !(res.Fitness <= res.BestSeed) {
		t.Fatalf("result %v worse than best seed %v", res.Fitness, res.BestSeed)
	}
	if engine {
		cfg.Objective = nil
	}
	again, err := Search(top, app, cfg, rand.New(rand.NewPCG(seed, 1)))
	if err != nil || !slices.Equal(again.Servers, res.Servers) || again.Fitness != res.Fitness || !slices.Equal(again.History, res.History) {
		t.Fatalf("equal seeds, different results: %+v vs %+v (%v)", res, again, err)
	}
}

func TestPropSearchAnyInput(t *testing.T) { rapid.Check(t, propSearchAnyInput) }
func FuzzSearchAnyInput(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propSearchAnyInput)) }

// propSearchAnyInput: arbitrary (possibly invalid) problems, settings and
// seeds give ErrBadInput or a valid placement, never a panic.
func propSearchAnyInput(t *rapid.T) {
	top, app := taraGenProblem(t, true)
	cfg := SearchOptions{
		Population:     taraCount(t, "population", -1, 12, true),
		OffspringRate:  taraValue(t, "offspring", 0, 1, true),
		WeakRate:       taraValue(t, "weak", 0, 1, true),
		MaxEvaluations: taraCount(t, "evals", -1, 60, true),
		MaxGenerations: taraCount(t, "gens", -1, 5, true),
		Seeds:          rapid.SliceOfN(rapid.SliceOfN(rapid.IntRange(-1, len(top.Servers)), 0, 4), 0, 2).Draw(t, "seeds"),
	}
	if cfg.MaxEvaluations == 0 && cfg.MaxGenerations == 0 {
		cfg.MaxGenerations = 3
	}
	// The extremes' budgets (MaxInt32, 2⁵³+1, MaxInt) are refused by
	// MaxSearchWork unless a small MaxEvaluations caps them, so every check
	// stays fast (TestLimitsSearch runs the bound itself).
	res, err := Search(top, app, cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		return
	}
	taraCheckPlacement(t, top, app.VMs, res.Servers)
	if !(res.Fitness >= 0) || math.IsInf(res.Fitness, 1) {
		t.Fatalf("fitness %v", res.Fitness)
	}
}

func TestPropHeuristics(t *testing.T) { rapid.Check(t, propHeuristics) }
func FuzzHeuristics(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propHeuristics)) }

// propHeuristics: each heuristic and the random policy place exactly r VMs
// on distinct available servers, or return ErrBadInput.
func propHeuristics(t *rapid.T) {
	top, app := taraGenProblem(t, true)
	h := Heuristic(rapid.IntRange(-1, 4).Draw(t, "heuristic"))
	s, err := h.Place(top, app.VMs)
	if err == nil {
		taraCheckPlacement(t, top, app.VMs, s)
	} else if !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %v does not match ErrBadInput", err)
	}
	s, err = RandomPlacement(top, app.VMs, rand.New(rand.NewPCG(1, 2)))
	if err == nil {
		taraCheckPlacement(t, top, app.VMs, s)
	} else if !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %v does not match ErrBadInput", err)
	}
}
