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
// a nil *rand.Rand: all randomness comes from the caller's source.
var ErrNilRand = errors.New("placement: nil *rand.Rand")

// Defaults of SearchConfig's zero fields.
const (
	DefaultPopulation     = 100    // thesis §3.2.3, after its sensitivity analysis
	DefaultOffspringRate  = 0.1    // thesis §3.2.3: at least 10% new offspring
	DefaultWeakRate       = 0.05   // a few weak survivors for diversity
	DefaultMaxEvaluations = 10_000 // used when both budgets are zero
)

// SearchConfig tunes Search. The zero value is ready to use: population 100,
// 10% new offspring per generation, 5% weak survivors, 10,000 evaluations,
// heuristic seeds on, predicted completion time as the objective.
type SearchConfig struct {
	// Population is the number of candidates per generation. Zero means
	// DefaultPopulation. Valid range [2, 1e5] (the thesis tried 10–500;
	// the bound keeps a generation's memory, Population·(servers + 4·VMs)
	// bytes, well below a gigabyte on any real topology).
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
	// from this field. Valid range [0, +∞).
	MaxEvaluations int
	// MaxGenerations stops the search after this many generations (not
	// counting the initial population). Zero means no limit from this field.
	// When both budgets are zero MaxEvaluations is DefaultMaxEvaluations.
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
	// completion time (Evaluator.CompletionTime).
	Objective func(servers []int) float64
}

// A SearchResult is the best placement a search found.
type SearchResult struct {
	Servers     []int   // the chosen servers, indices into Topology.Servers, increasing
	Fitness     float64 // the objective's value on Servers (seconds, by default)
	Evaluations int     // objective evaluations made, initial population included
	Generations int     // generations bred after the initial population
	// BestSeed is the best objective value among the seeded candidates
	// (heuristics and SearchConfig.Seeds); +Inf when there were none.
	// Fitness ≤ BestSeed always.
	BestSeed float64
	// History[g] is the best fitness after generation g (History[0]: the
	// initial population). It never increases.
	History []float64
}

// Search runs TARA's genetic algorithm (thesis 004 §3.2.3) for app on t and
// returns the best placement found.
//
// A candidate is a bit string over the available servers (ordered by rack,
// then index) with exactly app.VMs ones. The initial population holds the
// heuristic placements (RR-R, RR-S, H-1, H-2 and, for every rack that can
// hold all app.VMs VMs, the placement on that rack's fastest servers),
// cfg.Seeds, then uniformly random candidates. Each
// generation breeds k = ceil(OffspringRate·Population) offspring from
// parents picked by binary tournament; each offspring comes from one of, with
// equal probability: mutation (move one VM: exchange a 1 and a 0), swap
// (exchange equal-length substrings of the bit string between two racks,
// followed by a mutation if that changed nothing), or two-point crossover of
// two parents followed by repair (random flips until exactly app.VMs ones).
// The next generation is the k offspring, floor(WeakRate·Population)
// candidates drawn at random from the rest, and the fittest of the old
// population (ties kept in population order). The best candidate therefore
// always survives, so History never increases and the result is never worse
// than the best seed.
//
// The search is deterministic: equal inputs and equal rng states give equal
// results bit for bit. It reads no clock: a caller wanting a time limit
// converts it into MaxEvaluations. Errors match ErrBadInput (invalid t, app,
// cfg or seeds) or are ErrNilRand.
func Search(t Topology, app Application, cfg SearchConfig, rng *rand.Rand) (SearchResult, error) {
	if rng == nil {
		return SearchResult{}, ErrNilRand
	}
	ev, err := NewEvaluator(t, app)
	if err != nil {
		return SearchResult{}, err
	}
	if err := cfg.withDefaults(); err != nil {
		return SearchResult{}, err
	}
	var seeds [][]int
	if !cfg.NoHeuristicSeeds {
		for _, h := range Heuristics {
			s, err := h.Place(t, app.VMs)
			if err != nil {
				return SearchResult{}, err // cannot happen after NewEvaluator
			}
			seeds = append(seeds, s)
		}
		seeds = append(seeds, taraSingleRackSeeds(t, app.VMs)...)
	}
	for i, s := range cfg.Seeds {
		if _, err := ev.Predict(s); err != nil {
			var ve *ValueError
			if errors.As(err, &ve) {
				ve.Field = fmt.Sprintf("SearchConfig.Seeds[%d]: %s", i, ve.Field)
			}
			return SearchResult{}, err
		}
		seeds = append(seeds, s)
	}
	ga := newTaraGA(t, ev, cfg, rng)
	return ga.run(seeds), nil
}

// withDefaults fills zero fields and validates the rest.
func (c *SearchConfig) withDefaults() error {
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
		return &ValueError{Field: "SearchConfig.Population", Value: float64(c.Population), Reason: "must be in [2, 1e5]"}
	case !(c.OffspringRate >= 0.1) || !(c.OffspringRate < 1):
		return &ValueError{Field: "SearchConfig.OffspringRate", Value: c.OffspringRate, Reason: "must be in [0.1, 1)"}
	case !(c.WeakRate >= 0) || !(c.WeakRate < 1):
		return &ValueError{Field: "SearchConfig.WeakRate", Value: c.WeakRate, Reason: "must be in [0, 1)"}
	case c.MaxEvaluations < 0:
		return &ValueError{Field: "SearchConfig.MaxEvaluations", Value: float64(c.MaxEvaluations), Reason: "must be >= 0"}
	case c.MaxGenerations < 0:
		return &ValueError{Field: "SearchConfig.MaxGenerations", Value: float64(c.MaxGenerations), Reason: "must be >= 0"}
	}
	if c.Population-c.offspring()-c.weak() < 1 {
		return &ValueError{Field: "SearchConfig.WeakRate", Value: c.WeakRate, Reason: "offspring and weak survivors leave no room for the fittest"}
	}
	return nil
}

func (c *SearchConfig) offspring() int {
	return int(math.Ceil(c.OffspringRate * float64(c.Population)))
}

func (c *SearchConfig) weak() int { return int(c.WeakRate * float64(c.Population)) }

// taraCandidate is one GA individual: bits over available-server ordinals
// and the ordinals of its ones, increasing.
type taraCandidate struct {
	bits []bool
	ones []int32
	fit  float64
}

// taraGA holds one search's state and scratch space.
type taraGA struct {
	cfg    SearchConfig
	rng    *rand.Rand
	obj    func([]int) float64
	r, n   int
	avail  []int      // ordinal -> server index, ordered by (rack, index)
	ordOf  []int32    // server index -> ordinal, −1 when unavailable
	blocks [][2]int32 // ordinal range [lo, hi) of each rack with available servers

	pop, kids []taraCandidate
	servers   []int   // scratch: a candidate as server indices
	tmpA      []int32 // scratch for repair and random draws
	tmpB      []int32
	perm      []int32 // scratch permutation of ordinals for random candidates
	best      taraCandidate
	evals     int
}

func newTaraGA(t Topology, ev *Evaluator, cfg SearchConfig, rng *rand.Rand) *taraGA {
	g := &taraGA{cfg: cfg, rng: rng, obj: cfg.Objective, r: ev.r}
	if g.obj == nil {
		g.obj = func(s []int) float64 { return ev.predict(s).Total }
	}
	g.avail = slices.Concat(availableByRack(t)...)
	g.n = len(g.avail)
	g.ordOf = make([]int32, len(t.Servers))
	for i := range g.ordOf {
		g.ordOf[i] = -1
	}
	for o, s := range g.avail {
		g.ordOf[s] = int32(o)
		if o == 0 || t.Servers[g.avail[o-1]].Rack != t.Servers[s].Rack {
			g.blocks = append(g.blocks, [2]int32{int32(o), int32(o)})
		}
		g.blocks[len(g.blocks)-1][1] = int32(o + 1)
	}
	// Memory follows the candidates actually evaluated, not Population: a
	// large Population with a small budget never fills (and never breeds).
	g.pop = make([]taraCandidate, 0, min(cfg.Population, 1024))
	g.best = g.newCandidate()
	g.best.fit = math.Inf(1)
	g.servers = make([]int, g.r)
	g.tmpA = make([]int32, 0, g.n)
	g.tmpB = make([]int32, 0, g.n)
	g.perm = make([]int32, g.n)
	for i := range g.perm {
		g.perm[i] = int32(i)
	}
	return g
}

func (g *taraGA) newCandidate() taraCandidate {
	return taraCandidate{bits: make([]bool, g.n), ones: make([]int32, 0, g.r)}
}

// evaluate scores c with the objective and records it if it is the best.
func (g *taraGA) evaluate(c *taraCandidate) {
	for j, o := range c.ones {
		g.servers[j] = g.avail[o]
	}
	f := g.obj(g.servers)
	if math.IsNaN(f) {
		f = math.Inf(1)
	}
	c.fit = f
	g.evals++
	if f < g.best.fit || g.best.fit == math.Inf(1) && len(g.best.ones) == 0 {
		g.copyCandidate(&g.best, c)
	}
}

func (g *taraGA) copyCandidate(dst, src *taraCandidate) {
	copy(dst.bits, src.bits)
	dst.ones = append(dst.ones[:0], src.ones...)
	dst.fit = src.fit
}

// syncOnes rebuilds c.ones from c.bits.
func (g *taraGA) syncOnes(c *taraCandidate) {
	c.ones = c.ones[:0]
	for o, b := range c.bits {
		if b {
			c.ones = append(c.ones, int32(o))
		}
	}
}

func (g *taraGA) budgetLeft(k int) bool {
	return g.cfg.MaxEvaluations == 0 || g.evals+k <= g.cfg.MaxEvaluations
}

func (g *taraGA) run(seeds [][]int) SearchResult {
	res := SearchResult{BestSeed: math.Inf(1)}
	for _, s := range seeds {
		if !g.budgetLeft(1) {
			break
		}
		c := g.newCandidate()
		for _, srv := range s {
			c.bits[g.ordOf[srv]] = true
		}
		g.syncOnes(&c)
		g.evaluate(&c)
		res.BestSeed = min(res.BestSeed, c.fit)
		g.pop = append(g.pop, c)
	}
	for len(g.pop) < g.cfg.Population && g.budgetLeft(1) {
		c := g.newCandidate()
		for i := range g.r { // partial Fisher–Yates over ordinals
			j := i + g.rng.IntN(g.n-i)
			g.perm[i], g.perm[j] = g.perm[j], g.perm[i]
			c.bits[g.perm[i]] = true
		}
		g.syncOnes(&c)
		g.evaluate(&c)
		g.pop = append(g.pop, c)
	}
	if len(g.pop) > g.cfg.Population { // more seeds than places: keep the fittest
		slices.SortStableFunc(g.pop, func(a, b taraCandidate) int { return cmp.Compare(a.fit, b.fit) })
		g.pop = g.pop[:g.cfg.Population]
	}
	res.History = append(res.History, g.best.fit)
	k := g.cfg.offspring()
	for len(g.pop) == g.cfg.Population && g.budgetLeft(k) &&
		(g.cfg.MaxGenerations == 0 || res.Generations < g.cfg.MaxGenerations) {
		if g.kids == nil { // the offspring buffers, once breeding starts
			g.kids = make([]taraCandidate, k)
			for i := range g.kids {
				g.kids[i] = g.newCandidate()
			}
		}
		g.generation()
		res.Generations++
		res.History = append(res.History, g.best.fit)
	}
	res.Servers = make([]int, 0, g.r)
	for _, o := range g.best.ones {
		res.Servers = append(res.Servers, g.avail[o])
	}
	slices.Sort(res.Servers)
	res.Fitness = g.best.fit
	res.Evaluations = g.evals
	return res
}

// generation breeds len(g.kids) offspring and selects the next population.
func (g *taraGA) generation() {
	for i := range g.kids {
		kid := &g.kids[i]
		switch g.rng.IntN(3) {
		case 0:
			g.copyCandidate(kid, g.tournament())
			g.mutate(kid)
		case 1:
			g.copyCandidate(kid, g.tournament())
			if !g.swapRacks(kid) {
				g.mutate(kid)
			}
		default:
			g.crossover(kid, g.tournament(), g.tournament())
		}
		g.syncOnes(kid)
		g.evaluate(kid)
	}
	// Rank the old population, keep the fittest, draw the weak from the
	// rest, and put the offspring in the remaining places.
	slices.SortStableFunc(g.pop, func(a, b taraCandidate) int { return cmp.Compare(a.fit, b.fit) })
	p, k, w := len(g.pop), len(g.kids), g.cfg.weak()
	elite := p - k - w
	for i := elite; i < elite+w; i++ {
		j := i + g.rng.IntN(p-i)
		g.pop[i], g.pop[j] = g.pop[j], g.pop[i]
	}
	for i := range g.kids { // exchange buffers: the dropped become scratch
		g.pop[p-k+i], g.kids[i] = g.kids[i], g.pop[p-k+i]
	}
}

// tournament returns the fitter of two uniformly drawn candidates (the first
// drawn on a tie).
func (g *taraGA) tournament() *taraCandidate {
	a := &g.pop[g.rng.IntN(len(g.pop))]
	b := &g.pop[g.rng.IntN(len(g.pop))]
	if b.fit < a.fit {
		return b
	}
	return a
}

// mutate moves one VM: a uniformly drawn 1 becomes 0 and a uniformly drawn 0
// becomes 1. c.ones must match c.bits on entry; it is stale on return.
func (g *taraGA) mutate(c *taraCandidate) {
	if g.r == g.n {
		return
	}
	one := c.ones[g.rng.IntN(len(c.ones))]
	zero := int32(-1)
	for range 16 {
		if u := int32(g.rng.IntN(g.n)); !c.bits[u] {
			zero = u
			break
		}
	}
	if zero < 0 { // mostly ones: draw from the explicit list of zeros
		zeros := g.tmpA[:0]
		for o, b := range c.bits {
			if !b {
				zeros = append(zeros, int32(o))
			}
		}
		zero = zeros[g.rng.IntN(len(zeros))]
	}
	c.bits[one], c.bits[zero] = false, true
}

// swapRacks exchanges a substring of one rack's bits with an equally long
// substring of another rack's; it reports whether the candidate changed.
func (g *taraGA) swapRacks(c *taraCandidate) bool {
	if len(g.blocks) < 2 {
		return false
	}
	a := g.rng.IntN(len(g.blocks))
	b := g.rng.IntN(len(g.blocks) - 1)
	if b >= a {
		b++
	}
	la := g.blocks[a][1] - g.blocks[a][0]
	lb := g.blocks[b][1] - g.blocks[b][0]
	l := 1 + g.rng.Int32N(min(la, lb))
	oa := g.blocks[a][0] + g.rng.Int32N(la-l+1)
	ob := g.blocks[b][0] + g.rng.Int32N(lb-l+1)
	changed := false
	for i := range l {
		x, y := &c.bits[oa+i], &c.bits[ob+i]
		if *x != *y {
			*x, *y = *y, *x
			changed = true
		}
	}
	return changed
}

// crossover writes into kid the two-point crossover of a and b (b's bits on
// a random range of ordinals, a's elsewhere), then repairs it to exactly r
// ones by flipping uniformly drawn surplus ones or missing zeros.
func (g *taraGA) crossover(kid, a, b *taraCandidate) {
	lo, hi := g.rng.IntN(g.n+1), g.rng.IntN(g.n+1)
	if lo > hi {
		lo, hi = hi, lo
	}
	copy(kid.bits, a.bits)
	copy(kid.bits[lo:hi], b.bits[lo:hi])
	ones, zeros := g.tmpA[:0], g.tmpB[:0]
	for o, bit := range kid.bits {
		if bit {
			ones = append(ones, int32(o))
		} else {
			zeros = append(zeros, int32(o))
		}
	}
	flip, to := ones, false
	if len(ones) < g.r {
		flip, to = zeros, true
	}
	excess := len(ones) - g.r
	if excess < 0 {
		excess = -excess
	}
	for i := range excess {
		j := i + g.rng.IntN(len(flip)-i)
		flip[i], flip[j] = flip[j], flip[i]
		kid.bits[flip[i]] = to
	}
}

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
