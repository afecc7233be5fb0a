package progressshare

import (
	"cmp"
	"math"
	"slices"
)

// A Pool is a caller-kept set of jobs on which PickProgressShare decides
// without reading every job per decision: a scheduler that keeps its jobs
// from events (a job changes when it launches, finishes or arrives) pays
// the work of a change once, in Set or Remove, instead of on every free
// slot.
//
// Jobs are named by handles the caller chooses, integers in [0, MaxJobs).
// The Pool stands for the slice of its jobs in the caller's tie order (the
// order of the tie function given to NewPool; by handle when it is nil):
// Pool.PickProgressShare(slot, now, last) decides exactly as
// Scheduler.PickProgressShare(slot, jobs, now) on that slice with job last
// moved to its end (last −1: none moved), bit for bit, with Decision.Job
// and Decision.Bypassed given as handles. TestPropPool checks this after
// random sequences of Set and Remove, with every option, calibrating jobs
// and PendingIndexes.
//
// Cost. Set and Remove take O(node types + pending blocks) to validate the
// job and O(log n) comparisons plus a move of O(n) handles (4 bytes each) to
// keep the two orders (by share, by tie). A decision walks the jobs in
// increasing share/weight from the lowest and stops at the first that
// launches, as Algorithm 2 does: O(examined jobs · node types) plus the
// blocks it reads, plus O(calibrating jobs) for the calibration pass; it
// does not read the jobs behind the launched one. What remains linear:
//
//   - the affinity rule, when some job launches, scans the jobs behind it in
//     the order (one relative rate each) for the ones that qualify, unless
//     AffinityBounded is set and the jobs' demands (running plus pending,
//     kept as an exact integer sum) fit in the cluster, when it returns at
//     once;
//   - AffinityBounded's slot-share test sums min(demand, weight·level) over
//     every job in tie order when the demands exceed the slots: a float sum
//     whose rounding depends on its order, so it is not kept incrementally;
//   - after Remove or Set of the job with the latest LastLaunch, the next
//     decision finds the latest again (to reject a now before it, as
//     PickProgressShare does).
//
// Nothing is allocated per decision; Set allocates only when the Pool
// grows. A Pool keeps the Job values it is given, slices included: the
// caller must not change a job's Rates, Running, Pending or Index while it
// is in the Pool (Set it again instead). The tie function must order the
// handles strictly and must not change its answer for handles in the Pool.
// Like its Scheduler, a Pool is not safe for concurrent use.
type Pool struct {
	s   *Scheduler
	tie func(a, b int) int

	jobs []Job // by handle
	in   []bool
	key  []float64 // share/weight as PickProgressShare orders by (jobKey)
	den  []float64 // Σ_{s∈S} CR(s, j), for the relative rate
	cal  []bool
	run  []int // running tasks over all node types

	n      int
	demand int     // Σ running + pending over the Pool's jobs
	ord    []int32 // handles with pending blocks, by (key, tie)
	seq    []int32 // every handle, by tie
	cals   []int32 // handles of calibrating jobs with pending blocks

	maxLL   float64 // latest LastLaunch, valid unless llDirty
	llDirty bool

	candKeys, candRel []float64 // scratch of the affinity rule
	cand              []int32
	candJob           []int32
}

// NewPool returns an empty Pool deciding on s, with ties between jobs of
// equal share/weight broken by tie (lower first; nil: lower handle first).
func (s *Scheduler) NewPool(tie func(a, b int) int) *Pool {
	if tie == nil {
		tie = cmp.Compare[int]
	}
	return &Pool{s: s, tie: tie}
}

// Len returns the number of jobs in the Pool (0 for nil).
func (p *Pool) Len() int {
	if p == nil {
		return 0
	}
	return p.n
}

// Has reports whether the Pool holds a job with handle h.
func (p *Pool) Has(h int) bool {
	return p != nil && h >= 0 && h < len(p.in) && p.in[h]
}

var errPoolNotMade = &ValueError{Field: "Pool", Value: 0, Reason: "not made by Scheduler.NewPool"}

func (p *Pool) check(h int) error {
	if p == nil || p.s == nil {
		return errPoolNotMade
	}
	if h < 0 || h >= MaxJobs {
		return &ValueError{Field: "handle", Value: h, Reason: "must be in [0, MaxJobs)"}
	}
	return nil
}

// Set puts job j in the Pool under handle h, replacing the job it held.
// It returns an error matching ErrBadInput, and changes nothing, for a
// handle outside [0, MaxJobs), a Pool not made by NewPool, and for any job
// Scheduler.Validate rejects other than for a LastLaunch after now (which
// PickProgressShare checks against its now).
func (p *Pool) Set(h int, j Job) error {
	if err := p.check(h); err != nil {
		return err
	}
	s := p.s
	if err := s.checkJob(j, -1, math.MaxFloat64, true); err != nil {
		return err
	}
	for b, blk := range j.Pending {
		if err := s.checkBlock(blk, -1, b); err != nil {
			return err
		}
	}
	key, den, cal, _ := s.jobKey(j, -1, math.MaxFloat64, true)
	if h >= len(p.in) {
		p.grow(h + 1)
	}
	if p.in[h] {
		p.drop(h)
	} else {
		p.n++
		i, _ := slices.BinarySearchFunc(p.seq, int32(h), p.byTie)
		p.seq = slices.Insert(p.seq, i, int32(h))
	}
	p.in[h] = true
	p.jobs[h], p.key[h], p.den[h], p.cal[h] = j, key, den, cal
	p.run[h] = runningTotal(j, s.numTypes)
	p.demand += p.run[h] + len(j.Pending)
	if len(j.Pending) > 0 {
		i, _ := slices.BinarySearchFunc(p.ord, int32(h), p.byShare)
		p.ord = slices.Insert(p.ord, i, int32(h))
		if cal {
			p.cals = append(p.cals, int32(h))
		}
	}
	if !p.llDirty && (p.n == 1 || j.LastLaunch > p.maxLL) {
		p.maxLL = j.LastLaunch
	}
	if cap(p.candJob) < p.n {
		p.cand = make([]int32, 0, 2*p.n)
		p.candJob = make([]int32, 0, 2*p.n)
		p.candKeys = make([]float64, 2*p.n)
		p.candRel = make([]float64, 2*p.n)
	}
	return nil
}

// Remove takes the job with handle h out of the Pool. It returns an error
// matching ErrBadInput, and changes nothing, when the Pool holds no such
// job or was not made by NewPool.
func (p *Pool) Remove(h int) error {
	if err := p.check(h); err != nil {
		return err
	}
	if !p.Has(h) {
		return &ValueError{Field: "handle", Value: h, Reason: "no job in the Pool has it"}
	}
	p.drop(h)
	i, _ := slices.BinarySearchFunc(p.seq, int32(h), p.byTie)
	p.seq = slices.Delete(p.seq, i, i+1)
	p.in[h] = false
	p.jobs[h] = Job{}
	p.n--
	return nil
}

// drop takes job h out of the share order and the sums (not out of seq).
func (p *Pool) drop(h int) {
	j := p.jobs[h]
	p.demand -= p.run[h] + len(j.Pending)
	if len(j.Pending) > 0 {
		i, _ := slices.BinarySearchFunc(p.ord, int32(h), p.byShare)
		p.ord = slices.Delete(p.ord, i, i+1)
		if p.cal[h] {
			k := slices.Index(p.cals, int32(h))
			p.cals[k] = p.cals[len(p.cals)-1]
			p.cals = p.cals[:len(p.cals)-1]
		}
	}
	if j.LastLaunch >= p.maxLL {
		p.llDirty = true
	}
}

func (p *Pool) grow(n int) {
	n = max(n, 2*len(p.in))
	p.jobs = slices.Grow(p.jobs, n-len(p.jobs))[:n]
	p.in = slices.Grow(p.in, n-len(p.in))[:n]
	p.key = slices.Grow(p.key, n-len(p.key))[:n]
	p.den = slices.Grow(p.den, n-len(p.den))[:n]
	p.cal = slices.Grow(p.cal, n-len(p.cal))[:n]
	p.run = slices.Grow(p.run, n-len(p.run))[:n]
}

func (p *Pool) byTie(a, b int32) int { return p.tie(int(a), int(b)) }

func (p *Pool) byShare(a, b int32) int {
	return cmp.Or(cmp.Compare(p.key[a], p.key[b]), p.tie(int(a), int(b)))
}

// latest returns the latest LastLaunch of the Pool's jobs.
func (p *Pool) latest() float64 {
	if p.llDirty {
		p.maxLL = math.Inf(-1)
		for _, h := range p.seq {
			p.maxLL = max(p.maxLL, p.jobs[h].LastLaunch)
		}
		p.llDirty = false
	}
	return p.maxLL
}

// A walk visits the jobs with pending blocks in PickProgressShare's order,
// increasing (share/weight, index) with the Pool's slice as jobs: the share
// order, with job last after every job of its key.
type walk struct {
	p    *Pool
	i    int // next position in ord
	last int // −1, or the handle still to visit
}

func (w *walk) next() (int, bool) {
	p := w.p
	for w.i < len(p.ord) {
		h := int(p.ord[w.i])
		if w.last >= 0 && p.key[h] > p.key[w.last] {
			l := w.last
			w.last = -1
			return l, true
		}
		w.i++
		if h != w.last {
			return h, true
		}
	}
	if w.last >= 0 {
		l := w.last
		w.last = -1
		return l, true
	}
	return -1, false
}

// before reports whether job a comes before job b in the Pool's slice with
// last moved to its end.
func (p *Pool) before(a, b, last int) bool {
	if a == last || b == last {
		return b == last && a != last
	}
	return p.tie(a, b) < 0
}

// PickProgressShare decides for the free slot at time now exactly as
// Scheduler.PickProgressShare on the Pool's jobs in tie order with job last
// (a handle, or −1) moved to the end; Decision.Job and Decision.Bypassed
// are handles. Errors match ErrBadInput: a slot out of range, now not
// finite or before some job's LastLaunch, last neither −1 nor a handle in
// the Pool, a Pool not made by NewPool. It allocates nothing.
func (p *Pool) PickProgressShare(slot int, now float64, last int) (Decision, error) {
	if p == nil || p.s == nil {
		return Decision{}, errPoolNotMade
	}
	s := p.s
	sl, err := s.slot(slot)
	if err != nil {
		return Decision{}, err
	}
	if now-now != 0 {
		return Decision{}, &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	}
	if last != -1 && !p.Has(last) {
		return Decision{}, &ValueError{Field: "last", Value: last, Reason: "must be -1 or a handle in the Pool"}
	}
	if p.n > 0 && !(p.latest() <= now) {
		return Decision{}, &ValueError{Field: "now", Value: now, Reason: "before a job's LastLaunch"}
	}
	return p.pick(slot, sl, now, last)
}

func (p *Pool) pick(slot int, sl Slot, now float64, last int) (Decision, error) {
	s := p.s
	// Calibration first: the lowest weighted slot share, then index.
	calJob := -1
	for _, h32 := range p.cals {
		h := int(h32)
		j := &p.jobs[h]
		if rateOf(*j, sl.Type) != 0 || runningOf(*j, sl.Type) != 0 {
			continue
		}
		if calJob < 0 || p.key[h] < p.key[calJob] || (p.key[h] == p.key[calJob] && p.before(h, calJob, last)) {
			calJob = h
		}
	}
	if calJob >= 0 {
		return s.calibration(slot, p.jobs[calJob], calJob)
	}
	if len(p.ord) == 0 {
		return skip(ReasonNoPendingTask, 0), nil
	}
	w := walk{p: p, last: last}
	if last >= 0 && len(p.jobs[last].Pending) == 0 {
		w.last = -1 // not in the order; its place matters only to the bound's sum
	}
	examined := 0
	for {
		h, ok := w.next()
		if !ok {
			break
		}
		j := &p.jobs[h]
		cal := p.cal[h]
		if !cal && s.opt.MaxDelay > 0 && s.mustDecline(slot, *j, (now-j.LastLaunch)/s.opt.MaxDelay) {
			continue
		}
		examined++
		d, ok, err := s.launches(slot, *j, h, cal, now)
		if err != nil {
			return Decision{}, err
		}
		if ok {
			d.Reason, d.Examined = ReasonPreferred, examined
			if s.opt.AffinityFactor > 0 && !cal {
				return p.affinity(slot, sl, now, d, w, last)
			}
			return d, nil
		}
	}
	return skip(ReasonWaiting, examined), nil
}

// affinity is Scheduler.affinity on the Pool: the candidates are the jobs
// the walk w has not reached that the shortcut does not decline.
func (p *Pool) affinity(slot int, sl Slot, now float64, d Decision, w walk, last int) (Decision, error) {
	s := p.s
	if s.opt.AffinityBounded && float64(p.demand) <= float64(len(s.slots)) {
		return d, nil // every job's slot share is its whole demand: d.Job is below it
	}
	rel := func(h int) float64 { return p.jobs[h].Rates[sl.Type] * float64(len(s.slots)) / p.den[h] }
	rp := rel(d.Job)
	bar := s.opt.AffinityFactor * rp
	p.cand, p.candJob = p.cand[:0], p.candJob[:0]
	for {
		h, ok := w.next()
		if !ok {
			break
		}
		j := &p.jobs[h]
		if p.cal[h] {
			continue // no relative rate: never qualifies
		}
		if s.opt.MaxDelay > 0 && s.mustDecline(slot, *j, (now-j.LastLaunch)/s.opt.MaxDelay) {
			continue
		}
		if r := rel(h); r >= bar && r > rp {
			c := int32(len(p.candJob))
			p.candRel[c], p.candKeys[c] = r, p.key[h]
			p.cand = append(p.cand, c)
			p.candJob = append(p.candJob, int32(h))
		}
	}
	if len(p.cand) == 0 || (s.opt.AffinityBounded && !p.holdsSlotShare(d.Job, last)) {
		return d, nil
	}
	c := order{keys: p.candKeys, rel: p.candRel, h: p.cand}
	c.init()
	for len(c.h) > 0 {
		k := int(p.candJob[c.pop()])
		j := &p.jobs[k]
		d.Examined++
		a, ok, err := s.launches(slot, *j, k, false, now)
		if err != nil {
			return Decision{}, err
		}
		if ok {
			a.Reason, a.Examined, a.Bypassed = ReasonAffinity, d.Examined, d.Job
			return a, nil
		}
	}
	return d, nil
}

// holdsSlotShare is Scheduler.holdsSlotShare summed in the Pool's slice
// order (tie order, last at the end), so that it rounds alike.
func (p *Pool) holdsSlotShare(h, last int) bool {
	mu := float64(p.run[h]) / p.jobs[h].Weight
	var total, level float64
	add := func(k int) {
		j := &p.jobs[k]
		demand := float64(p.run[k] + len(j.Pending))
		total += demand
		level += min(demand, j.Weight*mu)
	}
	for _, k := range p.seq {
		if int(k) != last {
			add(int(k))
		}
	}
	if last >= 0 {
		add(last)
	}
	n := float64(len(p.s.slots))
	return total > n && level >= n
}
