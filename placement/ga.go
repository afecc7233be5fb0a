package placement

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// gaOperators selects the GA's operators. Search always uses taraOperators;
// the other settings exist so that tests can measure what each change of
// the thesis's operators buys (TestSearchOperatorStudy).
type gaOperators struct {
	// tournament is the number of candidates drawn (with replacement) to pick
	// one parent; the fittest wins.
	tournament int
	// weights are the relative probabilities of mutation, swap and
	// crossover.
	weights [3]float64
	// crowding breaks ties in predicted time by uplink crowding (see
	// uplinkLoad); only with the prediction engine as the objective.
	crowding bool
	// directed makes a mutation move a VM out of a rack whose uplink bounds
	// the shuffle or the write; only with the prediction engine as the
	// objective, and only when an uplink binds.
	directed bool
}

// taraOperators is what Search uses: parents by 3-way tournament;
// mutation, swap and crossover with probabilities 1/2, 1/4, 1/4; ties in
// predicted time broken by uplink crowding; mutation directed at the
// bottleneck uplink.
var taraOperators = gaOperators{tournament: 3, weights: [3]float64{2, 1, 1}, crowding: true, directed: true}

// thesisOperators are the operators as the thesis describes them (§3.2.3):
// binary tournament, the three operators with equal probability, a blind
// mutation and no tie-break.
var thesisOperators = gaOperators{tournament: 2, weights: [3]float64{1, 1, 1}}

// Operator indices into gaOperators.weights and gaStats.
const (
	opMutation = iota
	opSwap
	opCrossover
)

// gaStats counts, per operator, the offspring bred, those fitter than their
// fittest parent, those with the same fitness (neutral) and those that
// became the best so far.
type gaStats struct {
	bred, better, neutral, newBest [3]int
}

// taraCandidate is one GA individual: bits over available-server ordinals
// and the ordinals of its ones, increasing; its fitness, its crowding
// tie-break and the blocks whose uplinks bound its shuffle and write (−1:
// none known).
type taraCandidate struct {
	bits                 []bool
	ones                 []int32
	fit, crowding        float64
	hotShuffle, hotWrite int32
}

// taraBetter reports whether a ranks before b: lower fitness, then lower
// crowding.
func taraBetter(a, b *taraCandidate) bool {
	return a.fit < b.fit || a.fit == b.fit && a.crowding < b.crowding
}

func taraCompare(a, b taraCandidate) int {
	return cmp.Or(cmp.Compare(a.fit, b.fit), cmp.Compare(a.crowding, b.crowding))
}

// taraGA holds one search's state and scratch space.
type taraGA struct {
	cfg    SearchOptions
	ops    gaOperators
	rng    *rand.Rand
	ev     *Evaluator          // the objective when cfg.Objective is nil
	obj    func([]int) float64 // cfg.Objective, or nil
	r, n   int
	avail  []int      // ordinal -> server index, ordered by (rack, index)
	ordOf  []int32    // server index -> ordinal, −1 when unavailable
	blocks [][2]int32 // ordinal range [lo, hi) of each rack with available servers
	block  []int32    // rack -> index into blocks, −1 when it has no available server

	pop, kids []taraCandidate
	servers   []int   // scratch: a candidate as server indices
	tmpA      []int32 // scratch for repair and random draws
	tmpB      []int32
	perm      []int32 // scratch permutation of ordinals for random candidates
	best      taraCandidate
	evals     int
	stats     gaStats
	observe   func([]int) // nil, or sees every candidate evaluated (tests)
}

// searchWith runs the GA with the given operators from the seeded
// placements (valid, already checked) and reports the operator statistics.
// observe, when not nil, sees every candidate evaluated.
func searchWith(t Topology, ev *Evaluator, cfg SearchOptions, seeds [][]int, rng *rand.Rand, ops gaOperators, observe func([]int)) (SearchResult, gaStats) {
	g := &taraGA{cfg: cfg, ops: ops, rng: rng, obj: cfg.Objective, r: ev.r, observe: observe}
	if g.obj == nil {
		g.ev = ev
	}
	g.avail = slices.Concat(availableByRack(t)...)
	g.n = len(g.avail)
	g.ordOf = make([]int32, len(t.Servers))
	for i := range g.ordOf {
		g.ordOf[i] = -1
	}
	g.block = make([]int32, len(t.Racks))
	for i := range g.block {
		g.block[i] = -1
	}
	for o, s := range g.avail {
		g.ordOf[s] = int32(o)
		if o == 0 || t.Servers[g.avail[o-1]].Rack != t.Servers[s].Rack {
			g.block[t.Servers[s].Rack] = int32(len(g.blocks))
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
	return g.run(seeds), g.stats
}

func (g *taraGA) newCandidate() taraCandidate {
	return taraCandidate{bits: make([]bool, g.n), ones: make([]int32, 0, g.r)}
}

// evaluate scores c with the objective and records it if it is the best.
func (g *taraGA) evaluate(c *taraCandidate) {
	for j, o := range c.ones {
		g.servers[j] = g.avail[o]
	}
	if g.observe != nil {
		g.observe(g.servers)
	}
	c.crowding, c.hotShuffle, c.hotWrite = 0, -1, -1
	if g.ev != nil {
		p, load := g.ev.predictRacks(g.servers, true)
		c.fit = p.Total
		if g.ops.crowding {
			c.crowding = load.crowding
		}
		if g.ops.directed {
			if load.hotShuffle >= 0 {
				c.hotShuffle = g.block[load.hotShuffle]
			}
			if load.hotWrite >= 0 {
				c.hotWrite = g.block[load.hotWrite]
			}
		}
	} else {
		c.fit = g.obj(g.servers)
	}
	if math.IsNaN(c.fit) {
		c.fit = math.Inf(1)
	}
	g.evals++
	if taraBetter(c, &g.best) || len(g.best.ones) == 0 {
		g.copyCandidate(&g.best, c)
	}
}

func (g *taraGA) copyCandidate(dst, src *taraCandidate) {
	copy(dst.bits, src.bits)
	dst.ones = append(dst.ones[:0], src.ones...)
	dst.fit, dst.crowding = src.fit, src.crowding
	dst.hotShuffle, dst.hotWrite = src.hotShuffle, src.hotWrite
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
		slices.SortStableFunc(g.pop, taraCompare)
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

// pickOperator draws mutation, swap or crossover with the operators' weights.
func (g *taraGA) pickOperator() int {
	w := g.ops.weights
	u := g.rng.Float64() * (w[0] + w[1] + w[2])
	switch {
	case u < w[opMutation]:
		return opMutation
	case u < w[opMutation]+w[opSwap]:
		return opSwap
	}
	return opCrossover
}

// generation breeds len(g.kids) offspring and selects the next population.
func (g *taraGA) generation() {
	for i := range g.kids {
		kid := &g.kids[i]
		op := g.pickOperator()
		var parent *taraCandidate
		switch op {
		case opMutation:
			parent = g.tournament()
			g.copyCandidate(kid, parent)
			g.mutate(kid)
		case opSwap:
			parent = g.tournament()
			g.copyCandidate(kid, parent)
			if !g.swapRacks(kid) {
				g.mutate(kid)
			}
		default:
			a, b := g.tournament(), g.tournament()
			parent = a
			if taraBetter(b, a) {
				parent = b
			}
			g.crossover(kid, a, b)
		}
		parentFit, bestFit := parent.fit, g.best.fit
		g.syncOnes(kid)
		g.evaluate(kid)
		g.stats.bred[op]++
		switch {
		case kid.fit < parentFit:
			g.stats.better[op]++
		case kid.fit == parentFit:
			g.stats.neutral[op]++
		}
		if kid.fit < bestFit {
			g.stats.newBest[op]++
		}
	}
	// Rank the old population, keep the fittest, draw the weak from the
	// rest, and put the offspring in the remaining places.
	slices.SortStableFunc(g.pop, taraCompare)
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

// tournament returns the fittest of ops.tournament uniformly drawn
// candidates (the first drawn on a tie).
func (g *taraGA) tournament() *taraCandidate {
	a := &g.pop[g.rng.IntN(len(g.pop))]
	for range g.ops.tournament - 1 {
		if b := &g.pop[g.rng.IntN(len(g.pop))]; taraBetter(b, a) {
			a = b
		}
	}
	return a
}

// mutate moves one VM: a 1 becomes 0 and a uniformly drawn 0 becomes 1.
// The 1 is drawn uniformly from the rack whose uplink bounds the shuffle or
// the write (one of the two at random when both are known), else from all
// ones. c.ones must match c.bits on entry; it is stale on return.
func (g *taraGA) mutate(c *taraCandidate) {
	if g.r == g.n {
		return
	}
	one := g.hotOne(c)
	if one < 0 {
		one = c.ones[g.rng.IntN(len(c.ones))]
	}
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

// hotOne returns a uniformly drawn 1 of the block whose uplink bounds c's
// shuffle or write, or −1 when neither is known.
func (g *taraGA) hotOne(c *taraCandidate) int32 {
	hot := c.hotShuffle
	if hot < 0 || c.hotWrite >= 0 && g.rng.IntN(2) == 1 {
		hot = c.hotWrite
	}
	if hot < 0 {
		return -1
	}
	b := g.blocks[hot]
	lo := sort32(c.ones, b[0])
	hi := sort32(c.ones, b[1])
	if lo == hi { // cannot happen: an uplink with traffic has VMs
		return -1
	}
	return c.ones[lo+g.rng.IntN(hi-lo)]
}

// sort32 returns the index of the first element of the increasing xs that is
// at least x.
func sort32(xs []int32, x int32) int {
	i, _ := slices.BinarySearch(xs, x)
	return i
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
