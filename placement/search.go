package placement

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// ErrNilRand is returned by Search and RandomPlacement when the caller passes
// a nil *rand.Rand: all randomness comes from the caller's source. It is a
// *ValueError on "rng", so it matches ErrBadInput, like every error about
// caller data.
var ErrNilRand error = &ValueError{Field: "rng", Value: nil, Reason: "nil *rand.Rand"}

// Defaults of SearchOptions's zero fields.
const (
	DefaultPopulation     = 100    // thesis §3.2.3, after its sensitivity analysis
	DefaultOffspringRate  = 0.1    // thesis §3.2.3: at least 10% new offspring
	DefaultWeakRate       = 0.05   // a few weak survivors for diversity
	DefaultMaxEvaluations = 10_000 // used when both budgets are zero
)

// SearchOptions tunes Search. The zero value is ready to use: population 100,
// 10% new offspring per generation, 5% weak survivors, 10,000 evaluations,
// heuristic seeds on, predicted completion time as the objective. The
// operators themselves (see Search) are fixed.
type SearchOptions struct {
	// Population is the number of candidates per generation. Zero means
	// DefaultPopulation. Valid range [2, 1e5] (the thesis tried 10–500),
	// and the candidates' memory, about Population·(available servers +
	// 4·VMs + 512) bytes, at most MaxSearchMemory.
	Population int
	// OffspringRate is the fraction of every generation made of new
	// offspring: ceil(OffspringRate·Population) candidates are bred and
	// evaluated per generation. Zero means DefaultOffspringRate. Valid range
	// [0.1, 1).
	OffspringRate float64
	// WeakRate is the fraction of the population kept as "weak" survivors:
	// floor(WeakRate·Population) candidates drawn uniformly from those not
	// fit enough to survive on rank. Zero means DefaultWeakRate; a value
	// below 1/Population keeps none. Valid range [0, 1); at least one
	// candidate must survive on rank.
	WeakRate float64
	// MaxEvaluations stops the search before the first generation that would
	// take the number of objective evaluations above it. Zero means no limit
	// from this field. Valid range [0, +∞), and the budget times (available
	// servers + VMs + racks) at most MaxSearchWork.
	MaxEvaluations int
	// MaxGenerations stops the search after this many generations (not
	// counting the initial population). Zero means no limit from this field.
	// When both budgets are zero MaxEvaluations is DefaultMaxEvaluations.
	// With MaxEvaluations zero, the evaluations it implies (seeds,
	// Population, and MaxGenerations times the offspring per generation)
	// count against MaxSearchWork.
	MaxGenerations int
	// NoHeuristicSeeds leaves the heuristic placements out of the initial
	// population: RR-R, RR-S, H-1, H-2 and the single-rack placements (see
	// Search). By default they are in it (§3.2.3).
	NoHeuristicSeeds bool
	// Seeds are further placements (server indices) put in the initial
	// population; each must be a valid placement. When heuristics and seeds
	// outnumber Population, all are evaluated and the fittest Population of
	// them form the initial population.
	Seeds [][]int
	// Objective scores a placement (server indices, owned by Search: do not
	// keep or modify the slice); lower is better. It must be deterministic.
	// NaN scores count as +Inf. Nil means the prediction engine's
	// completion time (Evaluator.CompletionTime); only then does Search
	// know which uplink is the bottleneck, so a caller's objective gets
	// blind mutation and no tie-break (see Search).
	Objective func(servers []int) float64
}

// A SearchResult is the best placement a search found.
type SearchResult struct {
	Servers     []int   // the chosen servers, indices into Topology.Servers, increasing
	Fitness     float64 // the objective's value on Servers (seconds, by default)
	Evaluations int     // objective evaluations made, initial population included
	Generations int     // generations bred after the initial population
	// BestSeed is the best objective value among the seeded candidates
	// (heuristics and SearchOptions.Seeds); +Inf when there were none.
	// Fitness ≤ BestSeed always.
	BestSeed float64
	// History[g] is the best fitness after generation g (History[0]: the
	// initial population). It never increases.
	History []float64
}

// Search runs TARA's genetic algorithm (Lee thesis §3.2.3) for app on t and
// returns the best placement found.
//
// A candidate is a bit string over the available servers (ordered by rack,
// then index) with exactly app.VMs ones. The initial population holds the
// heuristic placements (RR-R, RR-S, H-1, H-2 and, for every rack that can
// hold all app.VMs VMs, the placement on that rack's fastest servers),
// cfg.Seeds, then uniformly random candidates. Each generation breeds
// k = ceil(OffspringRate·Population) offspring; each parent is the fittest
// of three candidates drawn uniformly (a 3-way tournament). An offspring
// comes from mutation with probability 1/2, from swap or crossover with
// 1/4 each:
//   - mutation moves one VM: a 1 becomes 0 and a uniformly drawn 0 becomes
//     1. With the prediction engine as the objective, the VM moved is drawn
//     from the rack whose uplink bounds the parent's shuffle or write (one
//     of the two at random when both are uplink-bound); otherwise, or when
//     the servers' NICs and disks bound both phases, from all its VMs.
//   - swap exchanges equal-length substrings of the bit string between two
//     racks, followed by a mutation if that changed nothing.
//   - crossover is two-point crossover of two parents followed by repair:
//     uniformly drawn surplus ones or missing zeros are flipped until
//     exactly app.VMs ones remain.
//
// Candidates are ranked by fitness; with the prediction engine as the
// objective, equal predicted times are ranked by uplink crowding,
// Σ_k (t_k/t_max)⁴ over the uplink times t_k of the shuffle and of the write
// (fewer uplinks near the bottleneck first), then by population order. The
// next generation is the k offspring, floor(WeakRate·Population)
// candidates drawn at random from the rest, and the best-ranked of the old
// population. The best candidate therefore always survives, so History never
// increases and the result is never worse than the best seed.
//
// The search is deterministic: equal inputs and equal rng states give equal
// results bit for bit. It reads no clock: a caller wanting a time limit
// converts it into MaxEvaluations. Errors match ErrBadInput (invalid t, app,
// cfg or seeds, or a budget beyond MaxSearchWork) or are ErrNilRand.
func Search(t Topology, app Application, cfg SearchOptions, rng *rand.Rand) (SearchResult, error) {
	res, _, err := search(t, app, cfg, rng, taraOperators, nil)
	return res, err
}

// search is Search with the operators given and observe (when not nil)
// called with every candidate evaluated; it also returns the operator
// statistics.
func search(t Topology, app Application, cfg SearchOptions, rng *rand.Rand, ops gaOperators, observe func([]int)) (SearchResult, gaStats, error) {
	if rng == nil {
		return SearchResult{}, gaStats{}, ErrNilRand
	}
	ev, err := NewEvaluator(t, app)
	if err != nil {
		return SearchResult{}, gaStats{}, err
	}
	if err := cfg.withDefaults(); err != nil {
		return SearchResult{}, gaStats{}, err
	}
	var seeds [][]int
	if !cfg.NoHeuristicSeeds {
		for _, h := range Heuristics {
			s, err := h.Place(t, app.VMs)
			if err != nil {
				return SearchResult{}, gaStats{}, err // cannot happen after NewEvaluator
			}
			seeds = append(seeds, s)
		}
		seeds = append(seeds, taraSingleRackSeeds(t, app.VMs)...)
	}
	for i, s := range cfg.Seeds {
		if _, err := ev.Predict(s); err != nil {
			var ve *ValueError
			if errors.As(err, &ve) {
				ve.Field = fmt.Sprintf("SearchOptions.Seeds[%d]: %s", i, ve.Field)
			}
			return SearchResult{}, gaStats{}, err
		}
		seeds = append(seeds, s)
	}
	if err := cfg.checkWork(t, app.VMs, len(seeds)); err != nil {
		return SearchResult{}, gaStats{}, err
	}
	res, st := searchWith(t, ev, cfg, seeds, rng, ops, observe)
	return res, st, nil
}

// MaxSearchWork bounds a search's work: its most evaluations (see
// checkWork) times (available servers + VMs + racks), what one evaluation
// and the breeding of its candidate cost, and (times a few bytes) the
// memory of the candidates it keeps. At the bound a search takes about one
// second of CPU: 300,000 evaluations of the thesis scenario (900 units
// each). A longer search continues from a result's Servers given as Seeds.
const MaxSearchWork = 1 << 28

// checkWork refuses a budget whose work would exceed MaxSearchWork. The most
// evaluations are MaxEvaluations, or with only MaxGenerations the seeds,
// the initial population and MaxGenerations generations of offspring
// (the smaller of the two when both are set).
func (c *SearchOptions) checkWork(t Topology, vms, seeds int) error {
	avail := 0
	for _, s := range t.Servers {
		if s.FreeSlots > 0 {
			avail++
		}
	}
	unit := float64(avail + vms + len(t.Racks))
	evals, field, budget := math.Inf(1), "", 0
	if c.MaxGenerations > 0 {
		evals = float64(seeds) + float64(c.Population) + float64(c.MaxGenerations)*float64(c.offspring())
		field, budget = "SearchOptions.MaxGenerations", c.MaxGenerations
	}
	if c.MaxEvaluations > 0 && float64(c.MaxEvaluations) <= evals {
		evals = float64(c.MaxEvaluations)
		field, budget = "SearchOptions.MaxEvaluations", c.MaxEvaluations
	}
	if w := evals * unit; !(w <= MaxSearchWork) {
		return &ValueError{Field: field, Value: budget, Reason: fmt.Sprintf(
			"up to %.4g evaluations × %.0f (available servers + VMs + racks) is more than MaxSearchWork = 2^28: lower the budget, or continue from a result's Servers as Seeds", evals, unit)}
	}
	// The candidates kept: the initial population (seeds beyond Population
	// included), never more than the evaluations, and the offspring buffers.
	kept := min(float64(seeds)+float64(c.Population), evals) + float64(c.offspring())
	if m := kept * float64(candidateBytes(avail, vms)); !(m <= MaxSearchMemory) {
		return &ValueError{Field: "SearchOptions.Population", Value: c.Population, Reason: fmt.Sprintf(
			"%.0f candidates of %d bytes is more than MaxSearchMemory = 2^27 bytes: lower Population or the budget", kept, candidateBytes(avail, vms))}
	}
	return nil
}

// MaxSearchMemory bounds the bytes of the candidates a search keeps: each
// holds one byte per available server and four per VM, an eighth more for
// the allocator's size classes, and 512 bytes for its header and the
// population's growth (candidateBytes). The thesis scenario fits Population
// 68,850.
const MaxSearchMemory = 1 << 27

func candidateBytes(avail, vms int) int { return (avail+4*vms)*9/8 + 512 }

// withDefaults fills zero fields and validates the rest.
func (c *SearchOptions) withDefaults() error {
	if c.Population == 0 {
		c.Population = DefaultPopulation
	}
	if c.OffspringRate == 0 {
		c.OffspringRate = DefaultOffspringRate
	}
	if c.WeakRate == 0 {
		c.WeakRate = DefaultWeakRate
	}
	if c.MaxEvaluations == 0 && c.MaxGenerations == 0 {
		c.MaxEvaluations = DefaultMaxEvaluations
	}
	switch {
	case c.Population < 2 || c.Population > 1e5:
		return &ValueError{Field: "SearchOptions.Population", Value: c.Population, Reason: "must be in [2, 1e5]"}
	case !(c.OffspringRate >= 0.1) || !(c.OffspringRate < 1):
		return &ValueError{Field: "SearchOptions.OffspringRate", Value: c.OffspringRate, Reason: "must be in [0.1, 1)"}
	case !(c.WeakRate >= 0) || !(c.WeakRate < 1):
		return &ValueError{Field: "SearchOptions.WeakRate", Value: c.WeakRate, Reason: "must be in [0, 1)"}
	case c.MaxEvaluations < 0:
		return &ValueError{Field: "SearchOptions.MaxEvaluations", Value: c.MaxEvaluations, Reason: "must be >= 0"}
	case c.MaxGenerations < 0:
		return &ValueError{Field: "SearchOptions.MaxGenerations", Value: c.MaxGenerations, Reason: "must be >= 0"}
	}
	if c.Population-c.offspring()-c.weak() < 1 {
		return &ValueError{Field: "SearchOptions.WeakRate", Value: c.WeakRate, Reason: "offspring and weak survivors leave no room for the fittest"}
	}
	return nil
}

func (c *SearchOptions) offspring() int {
	return int(math.Ceil(c.OffspringRate * float64(c.Population)))
}

func (c *SearchOptions) weak() int { return int(c.WeakRate * float64(c.Population)) }

// taraSingleRackSeeds returns, for every rack with at least r available
// servers, the placement of all r VMs in that rack on its fastest servers
// (effective core speed, then NIC capacity left, highest first, then index).
// These are the "best-fit" placements of thesis §3.1: a job that fits one
// rack sends nothing over an uplink, and such a placement is hard for the GA
// to reach from a spread population.
func taraSingleRackSeeds(t Topology, r int) [][]int {
	var seeds [][]int
	for _, list := range availableByRack(t) {
		if len(list) < r {
			continue
		}
		slices.SortStableFunc(list, func(a, b int) int {
			sa, sb := t.Servers[a], t.Servers[b]
			return cmp.Or(
				cmp.Compare(sb.Speed*(1-sb.BackgroundCPU), sa.Speed*(1-sa.BackgroundCPU)),
				cmp.Compare(sb.NIC-sb.BackgroundNIC, sa.NIC-sa.BackgroundNIC),
				cmp.Compare(a, b))
		})
		seeds = append(seeds, list[:r:r])
	}
	return seeds
}
