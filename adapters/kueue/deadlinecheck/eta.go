package deadlinecheck

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// KueueOrder compares two pending workloads as Kueue v0.19's ClusterQueue
// queue orders them (its default configuration): higher Priority first,
// then earlier QueueTime, then UID.
func KueueOrder(a, b Workload) int {
	return queuePlace{priority: a.Priority, queueTime: a.QueueTime, uid: a.UID}.compare(queuePlace{priority: b.Priority, queueTime: b.QueueTime, uid: b.UID})
}

// A queuePlace is what places a pending workload in Kueue's queue
// (KueueOrder) and when it enters it.
type queuePlace struct {
	priority  int64
	queueTime time.Time
	uid       types.UID
	notBefore time.Time
}

// compare orders two places as KueueOrder orders their workloads.
func (a queuePlace) compare(b queuePlace) int {
	return cmp.Or(cmp.Compare(b.priority, a.priority), a.queueTime.Compare(b.queueTime), cmp.Compare(a.uid, b.uid))
}

// An etaJob is one workload in the ETA simulation.
type etaJob struct {
	// share is the fraction of the nominal quota it holds while it runs:
	// its pods left over its Slots, at most 1 (a workload larger than the
	// nominal quota is taken to need all of it).
	share float64
	// run is, per sample, its (remaining) run time once started; nil when
	// it has no run-time estimate (it then takes no time).
	run []float64
	// notBefore is when it enters the queue, seconds from now.
	notBefore float64
	// ghost: it is predicted at its place in the queue, but holds no quota
	// and holds no one back (it is being deactivated).
	ghost bool
	// priority is its priority in Kueue's queue: the arrivals of a
	// priority take their place after the jobs of at least it.
	priority int64
	// expires: the check rejects it if it gets quota after latest
	// (seconds from now), when its deadline no longer holds alone
	// (etaLatest); it then holds no quota, as a ghost.
	expires bool
	latest  float64
}

// holds reports whether j, getting quota at q, holds it: not a ghost and
// not past its latest start.
func (j *etaJob) holds(q float64) bool {
	return !j.ghost && !(j.expires && q > j.latest)
}

// etas predicts the start and finish of every pending workload, writing
// outcome ETAs and Pending notes. The model is Kueue's admission on the
// ClusterQueue's nominal quota, sample by sample (the workloads' Monte-
// Carlo run times): the workloads holding quota (promised, and those Ready
// in this plan) run their remaining time; the pending ones (waiting, and
// those sent to Retry, requeued behind their backoff with the eviction as
// their queue time) wait in Kueue's queue order (KueueOrder). Whenever quota
// frees (a workload finishes) or a workload enters the queue, Kueue's
// strategy admits: StrictFIFO takes workloads from the head while the head
// fits the free quota; BestEffortFIFO takes, in order, every workload that
// fits. A workload fits when its share (pods left / Slots) is at most the
// free share of the quota. Each workload's time from its start to its
// finish is its run time plus the control plane's delay, drawn per sample
// (etaDelay: T = R + δ). A pending workload with a deadline that gets
// quota after its latest start (etaLatest: the deadline less what the
// check's alone test needs at the confidence p) is rejected by the check
// then, and holds no quota (the package doc gives why and the figures).
// The p50 and p90 of the samples (jct type-7 quantiles) are the ETA; a
// workload's own ETA is where it gets quota in every sample, past its
// latest start or not.
//
// Approximations, all documented in the package doc: a workload past its
// latest start still counts among those ahead for the skip cost and,
// under StrictFIFO, holds back those behind it until it gets quota (the
// check deactivates it at its latest start, in the reconcile after);
// arrivals still to come are never rejected; shares of different
// pod shapes are summed (each on its own bottleneck resource), borrowing
// from a cohort is not counted, workloads of the ClusterQueue not behind
// the check are not seen, a workload with quota but no run-time estimate
// is taken to free its quota at once, and admission takes no time beyond
// Config.StartDelay, which every pod's run time includes, and the skip
// cost (delay.skip, skips.go): under BestEffortFIFO a workload found
// fitting gets its quota only after Kueue's scheduler has tried the
// waiting workloads ahead of it that do not fit.
func etas(q Queue, ws []Workload, works []*work, outs []Outcome, now time.Time, samples int, p float64, delay etaDelay, arr arrivalInput, sc *etaScratch) error {
	if sc == nil {
		sc = &etaScratch{}
	}
	sc.startPass(q, ws, works, outs, now, samples, p, delay, arr)
	_, err := sc.step(math.MaxInt)
	sc.results(outs)
	return err
}

// etaLatest returns the latest time, seconds from now, at which pending
// workload w with samples wk passes the check's alone test at confidence
// p when it gets quota: its deadline less admission.AloneDeadline of its
// own samples (Plan's step 3; a waiting workload's own samples do not
// change while it waits). ok is false without a deadline or when the
// samples are refused.
func etaLatest(w Workload, wk *work, now time.Time, p float64) (latest float64, ok bool) {
	if !w.HasDeadline() || wk == nil {
		return 0, false
	}
	need, ok := wk.aloneNeed(p)
	if !ok {
		return 0, false
	}
	return seconds(w.Deadline.Sub(now)) - need, true
}

// An etaRole is what a workload is in the ETA replay.
type etaRole int

const (
	etaOut   etaRole = iota // not in it: deactivated, blocked, or never fitting
	etaHolds                // holds quota: promised, or made Ready in this plan
	etaWaits                // waits in Kueue's queue: pending, sent to Retry, or deactivated now
)

// etaRoleOf returns w's role in the ETA replay, given its outcome o; a
// workload that never fits the quota and has no verdict gets its note.
func etaRoleOf(q Queue, w Workload, o *Outcome) etaRole {
	switch {
	case w.Phase == Deactivated || w.Blocked != nil:
	case w.Phase == Promised || (o.Verdict != nil && o.Verdict.State == kueue.CheckStateReady && !o.Deactivate):
		return etaHolds
	case w.Pods > 0 && w.Slots == 0:
		if o.Verdict == nil {
			o.Note = pendingNeverFits(q.Name, w)
		}
	case o.Verdict == nil || o.Deactivate || o.Verdict.State == kueue.CheckStateRetry:
		return etaWaits
	}
	return etaOut
}

// share is a workload's fraction of the nominal quota: pods left / Slots,
// at most 1.
func share(w Workload) float64 {
	if w.Slots <= 0 {
		return 1
	}
	return min(1, float64(w.Pods-w.Done)/float64(w.Slots))
}

// fitSlack absorbs rounding in sums of shares.
const fitSlack = 1e-9

// A simulation replays Kueue's admission for one sample at a time over the
// same jobs; its slices are reused from sample to sample and, kept in an
// etaScratch, from pass to pass.
//
// Each instant at which quota frees or a job enters the queue, Kueue's
// strategy walks the queue in order. The walk is done by search rather
// than by visiting every waiting job: a segment tree over queue positions
// finds the next job that fits the free quota (and, under StrictFIFO, the
// first one that blocks those behind it) in O(log jobs), so one sample
// costs O((jobs + events) log jobs) instead of O(jobs × events). The jobs
// start in the same order at the same instants, with the same arithmetic
// on the free quota, as in a walk over every job.
//
// With arrivals (arrivals.go), the queue has, after the jobs of each
// priority the arrivals are drawn with, a run of slots for the arrivals of
// that priority; a slot holds no job until an arrival fills it.
type simulation struct {
	ends endHeap
	// entries are the times jobs enter the queue after now, ascending;
	// byEntry are the jobs in order of entry; minShare is the smallest
	// share of a job or arrival: with less quota free none can start.
	entries  []float64
	byEntry  []int
	minShare float64
	tree     posTree
	started  []bool
	// lo0 and hi0 are the tree with the jobs that enter at once
	// (byEntry[:first]), the same at the start of every sample.
	lo0, hi0 []float64
	first    int
	// block holds the jobs' run times of samples [from, to), sample by
	// sample (job k's in sample s at (s-from)*len(jobs) + k, 0 for a job
	// without one): a sample reads them in order instead of one from
	// each job's own slice.
	block    []float64
	from, to int

	// Queue positions: posOf[k] is job k's; at[p] is position p's job,
	// or len(jobs) + a for arrival slot a. The slots of priority block b
	// (blockPrio, descending) are b*arr.slots onward, at positions
	// blockPos[b] onward; recBlock is each record's block, fill each
	// block's slots filled in the sample, arrShare and arrRun each slot's
	// arrival's share and run time in the sample.
	posOf, at          []int
	blockPrio          []int64
	blockPos, recBlock []int
	fill               []int
	arrShare, arrRun   []float64
	pcg                *rand.PCG
	rng                *rand.Rand

	// pace is the time Kueue's scheduler takes to come to a job that
	// fits (etaDelay.pace; zero: none); with a skip cost, present counts
	// the jobs in the queue and not started by position, present0 as at
	// the start of every sample (skips.go).
	pace     walkPace
	present  presence
	present0 []int32
}

// runBlock is how many samples' run times a simulation holds at once.
const runBlock = 32

// runsOf returns the jobs' run times in sample s (0 for a job without
// one), loading the block of samples from s on when s is not in sim's.
func (sim *simulation) runsOf(jobs []etaJob, s int) []float64 {
	n := len(jobs)
	if s < sim.from || s >= sim.to {
		sim.from, sim.to = s, s+runBlock
		for _, j := range jobs {
			if j.run != nil {
				sim.to = min(sim.to, len(j.run))
			}
		}
		sim.to = max(sim.to, s+1)
		sim.block = slices.Grow(sim.block[:0], n*(sim.to-sim.from))[:n*(sim.to-sim.from)]
		for k, j := range jobs {
			for b := range sim.to - sim.from {
				r := 0.0
				if j.run != nil {
					r = j.run[sim.from+b]
				}
				sim.block[b*n+k] = r
			}
		}
	}
	b := s - sim.from
	return sim.block[b*n : (b+1)*n]
}

// newSimulation prepares a simulation of jobs with arrivals arr (nil:
// none) and Kueue's walk at pace (zero: none).
func newSimulation(jobs []etaJob, arr *etaArrivals, pace walkPace) *simulation {
	sim := &simulation{}
	sim.prepare(jobs, arr, pace)
	return sim
}

// prepare makes sim a simulation of jobs with arrivals arr (nil: none)
// and Kueue's walk at pace, reusing its slices: the queue's positions, the jobs
// in order of entry, the entry times, and the queue at the start of every
// sample (the jobs that enter at once, in the tree).
func (sim *simulation) prepare(jobs []etaJob, arr *etaArrivals, pace walkPace) {
	n := len(jobs)
	sim.minShare = math.Inf(1)
	sim.entries = sim.entries[:0]
	sim.byEntry = sim.byEntry[:0]
	for k, j := range jobs {
		sim.minShare = min(sim.minShare, j.share)
		if j.notBefore > 0 {
			sim.entries = append(sim.entries, j.notBefore)
		}
		sim.byEntry = append(sim.byEntry, k)
	}
	slices.Sort(sim.entries)
	sim.entries = slices.Compact(sim.entries)
	slices.SortStableFunc(sim.byEntry, func(a, b int) int { return cmp.Compare(jobs[a].notBefore, jobs[b].notBefore) })
	sim.started = slices.Grow(sim.started[:0], n)[:n]
	sim.layout(jobs, arr)
	sim.tree.init(len(sim.at))
	sim.first = 0
	for sim.first < len(sim.byEntry) && jobs[sim.byEntry[sim.first]].notBefore <= 0 {
		k := sim.byEntry[sim.first]
		sim.tree.leaf(sim.posOf[k], jobs[k].share, !jobs[k].ghost)
		sim.first++
	}
	sim.tree.build()
	sim.from, sim.to = 0, 0
	sim.lo0 = append(sim.lo0[:0], sim.tree.lo...)
	sim.hi0 = append(sim.hi0[:0], sim.tree.hi...)
	sim.pace = pace
	if pace.skip > 0 {
		sim.present.init(len(sim.at))
		for _, k := range sim.byEntry[:sim.first] {
			sim.present.leaf(sim.posOf[k])
		}
		sim.present.build()
		sim.present0 = append(sim.present0[:0], sim.present.n...)
	}
}

// layout places the jobs (in queue order) and, with arrivals, a block of
// arr.slots slots for each priority of arr's records right after the jobs
// of at least that priority, in descending priority.
func (sim *simulation) layout(jobs []etaJob, arr *etaArrivals) {
	n := len(jobs)
	sim.blockPrio = sim.blockPrio[:0]
	slots := 0
	if arr.on() {
		slots = arr.slots
		sim.blockPrio = append(sim.blockPrio, arr.priorities...)
		slices.SortFunc(sim.blockPrio, descending)
		sim.blockPrio = slices.Compact(sim.blockPrio)
		sim.recBlock = sim.recBlock[:0]
		for r, p := range arr.priorities {
			b, _ := slices.BinarySearchFunc(sim.blockPrio, p, descending)
			sim.recBlock = append(sim.recBlock, b)
			sim.minShare = min(sim.minShare, arr.shares[r])
		}
		if sim.pcg == nil {
			sim.pcg = &rand.PCG{}
			sim.rng = rand.New(sim.pcg)
		}
	}
	nb := len(sim.blockPrio)
	sim.posOf = slices.Grow(sim.posOf[:0], n)[:n]
	sim.at = slices.Grow(sim.at[:0], n+nb*slots)[:0]
	sim.blockPos = sim.blockPos[:0]
	place := func() {
		b := len(sim.blockPos)
		sim.blockPos = append(sim.blockPos, len(sim.at))
		for i := range slots {
			sim.at = append(sim.at, n+b*slots+i)
		}
	}
	for k, j := range jobs {
		for len(sim.blockPos) < nb && j.priority < sim.blockPrio[len(sim.blockPos)] {
			place()
		}
		sim.posOf[k] = len(sim.at)
		sim.at = append(sim.at, k)
	}
	for len(sim.blockPos) < nb {
		place()
	}
	sim.fill = slices.Grow(sim.fill[:0], nb)[:nb]
	sim.arrShare = slices.Grow(sim.arrShare[:0], nb*slots)[:nb*slots]
	sim.arrRun = slices.Grow(sim.arrRun[:0], nb*slots)[:nb*slots]
}

// run fills starts[k][s] with job k's start in sample s (+Inf if it never
// starts), with the arrivals arr draws in sample s (nil: none; arr must be
// the one sim was prepared with).
func (sim *simulation) run(running, jobs []etaJob, arr *etaArrivals, strict bool, s int, starts [][]float64) {
	free := sim.ends.reset(running, s)
	copy(sim.tree.lo, sim.lo0)
	copy(sim.tree.hi, sim.hi0)
	counted := sim.pace.skip > 0
	if counted {
		copy(sim.present.n, sim.present0)
	}
	// walk is when Kueue's scheduler last began to walk the queue from its
	// head: the requeue batch after the last instant quota freed, now at
	// first.
	walk := 0.0
	clear(sim.started)
	n := len(jobs)
	left := n
	entered := sim.first // sim.byEntry[:entered] are in the tree or started
	runs := sim.runsOf(jobs, s)
	entry := 0 // sim.entries[entry] is the next time a job enters the queue
	// arrival is the time of the next arrival, drawn the drawn so far.
	arrival, drawn := math.Inf(1), 0
	if arr.on() {
		sim.pcg.Seed(arr.seed, uint64(s))
		clear(sim.fill)
		arrival = sim.rng.ExpFloat64() / arr.rate
	}
	for t := 0.0; ; {
		for entered < len(sim.byEntry) && jobs[sim.byEntry[entered]].notBefore <= t {
			k := sim.byEntry[entered]
			sim.tree.set(sim.posOf[k], jobs[k].share, !jobs[k].ghost)
			if counted {
				sim.present.add(sim.posOf[k], 1)
			}
			entered++
		}
		for arrival <= t {
			r := sim.rng.IntN(len(arr.shares))
			b := arr.block(r, arrival, sim.blockPrio, sim.recBlock[r])
			a := b*arr.slots + sim.fill[b]
			sim.arrShare[a], sim.arrRun[a] = arr.shares[r], arr.run(r, s)
			sim.tree.set(sim.blockPos[b]+sim.fill[b], arr.shares[r], true)
			if counted {
				sim.present.add(sim.blockPos[b]+sim.fill[b], 1)
			}
			sim.fill[b]++
			if drawn++; drawn == arr.slots {
				arrival = math.Inf(1)
			} else {
				arrival += sim.rng.ExpFloat64() / arr.rate
			}
		}
		if free+fitSlack >= sim.minShare {
			// Started jobs and empty slots hold no share in the tree.
			for from := 0; ; {
				fit := free + fitSlack
				if fit < sim.minShare {
					break // no job fits: the search would find none
				}
				p := sim.tree.firstAtMost(from, fit)
				if p < 0 {
					break
				}
				if strict {
					if b := sim.tree.firstBlocking(from, fit); b >= 0 && b < p {
						break
					}
				}
				sim.tree.unset(p)
				var ahead int32 // waiting jobs ahead, with a skip cost
				if counted {
					ahead = sim.present.below(p)
					sim.present.add(p, -1)
				}
				// When it gets quota: t without a pace (walk ≤ t then).
				q := max(t, walk+sim.pace.skip*float64(ahead))
				var sh, r float64
				ghost := false
				if k := sim.at[p]; k < n {
					j := &jobs[k]
					starts[k][s] = q
					sim.started[k] = true
					left--
					sh, r, ghost = j.share, runs[k], !j.holds(q)
				} else {
					sh, r = sim.arrShare[k-n], sim.arrRun[k-n]
				}
				// A job that takes no time holds nothing: every end is
				// later than its start, so each instant gets one pass in
				// queue order.
				if !ghost && r > 0 {
					free -= sh
					sim.ends.push(end{at: q + r, share: sh})
				}
				from = p + 1
			}
		}
		if left == 0 {
			return
		}
		var more, freed bool
		if t, entry, free, freed, more = advance(&sim.ends, sim.entries, entry, t, free, arrival); !more {
			for k, done := range sim.started {
				if !done {
					starts[k][s] = math.Inf(1)
				}
			}
			return
		}
		if freed {
			walk = t + sim.pace.requeue
		}
	}
}

// advance moves a simulation from instant t to the next: the next end of
// a running job, entry into the queue (entries[entry:] are those after t,
// ascending) or arrival (+Inf: none), whichever comes first, freeing the
// quota of the jobs that end by then (freed: at least one). more is false
// when nothing comes after t.
func advance(ends *endHeap, entries []float64, entry int, t, free, arrival float64) (next float64, nextEntry int, nextFree float64, freed, more bool) {
	for entry < len(entries) && entries[entry] <= t {
		entry++
	}
	next = math.Inf(1)
	if len(*ends) > 0 {
		next = (*ends)[0].at
	}
	if entry < len(entries) {
		next = min(next, entries[entry])
	}
	next = min(next, arrival)
	if math.IsInf(next, 1) {
		return t, entry, free, false, false
	}
	next = max(t, next)
	for len(*ends) > 0 && (*ends)[0].at <= next {
		free += ends.pop().share
		freed = true
	}
	return next, entry, min(free, 1), freed, true
}

// A posTree is a segment tree over queue positions holding, for the jobs
// in the queue and not started, their share: the least one of each range
// (to find the next job that fits) and the largest of the jobs that hold
// back those behind them under StrictFIFO (all but ghosts).
type posTree struct {
	size   int
	lo, hi []float64 // per node: least share; largest blocking share
}

// init empties the tree for n positions, reusing its slices.
func (tr *posTree) init(n int) {
	tr.size = 1
	for tr.size < n {
		tr.size *= 2
	}
	tr.lo = slices.Grow(tr.lo[:0], 2*tr.size)[:2*tr.size]
	tr.hi = slices.Grow(tr.hi[:0], 2*tr.size)[:2*tr.size]
	for i := range tr.lo {
		tr.lo[i], tr.hi[i] = math.Inf(1), math.Inf(-1)
	}
}

// leaf sets job k's leaf as set does, without its ancestors; build then
// sets those of every leaf at once.
func (tr *posTree) leaf(k int, share float64, blocking bool) {
	tr.lo[k+tr.size] = share
	tr.hi[k+tr.size] = math.Inf(-1)
	if blocking {
		tr.hi[k+tr.size] = share
	}
}

// build sets every inner node from its children.
func (tr *posTree) build() {
	for i := tr.size - 1; i >= 1; i-- {
		tr.lo[i] = min(tr.lo[2*i], tr.lo[2*i+1])
		tr.hi[i] = max(tr.hi[2*i], tr.hi[2*i+1])
	}
}

// set puts job k in the tree with its share; blocking: it holds back
// those behind it when it does not fit (StrictFIFO).
func (tr *posTree) set(k int, share float64, blocking bool) {
	hi := math.Inf(-1)
	if blocking {
		hi = share
	}
	tr.update(k, share, hi)
}

func (tr *posTree) unset(k int) { tr.update(k, math.Inf(1), math.Inf(-1)) }

func (tr *posTree) update(k int, lo, hi float64) {
	i := k + tr.size
	tr.lo[i], tr.hi[i] = lo, hi
	for i > 1 {
		i /= 2
		l, h := min(tr.lo[2*i], tr.lo[2*i+1]), max(tr.hi[2*i], tr.hi[2*i+1])
		if l == tr.lo[i] && h == tr.hi[i] {
			return // the ancestors hold the same least and largest shares
		}
		tr.lo[i], tr.hi[i] = l, h
	}
}

// firstAtMost returns the first position at or after from whose job's
// share is at most x (it fits), or -1.
func (tr *posTree) firstAtMost(from int, x float64) int { return tr.find(from, x, false) }

// firstBlocking returns the first position at or after from whose job
// blocks and has a share above x (it does not fit), or -1.
func (tr *posTree) firstBlocking(from int, x float64) int { return tr.find(from, x, true) }

// find returns the first leaf position at or after from with a share at
// most x (blocking: a blocking share above x), or -1: from the leaf at
// from, up while the node holds none and is a right child, on to the
// subtree right of it, and down to its first such leaf.
func (tr *posTree) find(from int, x float64, blocking bool) int {
	if from >= tr.size {
		return -1
	}
	i := from + tr.size
	for !tr.holds(i, x, blocking) {
		for i&1 == 1 {
			i >>= 1
		}
		if i == 0 {
			return -1
		}
		i++
	}
	for i < tr.size {
		i *= 2
		if !tr.holds(i, x, blocking) {
			i++
		}
	}
	return i - tr.size
}

// holds reports whether node i's range has a share at most x (blocking:
// a blocking share above x).
func (tr *posTree) holds(i int, x float64, blocking bool) bool {
	if blocking {
		return tr.hi[i] > x
	}
	return tr.lo[i] <= x
}

// reset empties h and puts in it the ends of the running jobs in sample
// s; it returns the share of the quota they leave free.
func (h *endHeap) reset(running []etaJob, s int) float64 {
	*h = (*h)[:0]
	free := 1.0
	for _, r := range running {
		if r.run[s] > 0 {
			free -= r.share
			h.push(end{at: r.run[s], share: r.share})
		}
	}
	return free
}

// An end is when a running workload frees its share of the quota.
type end struct{ at, share float64 }

// endHeap is a binary min-heap of ends by time (ties: smaller share first),
// without the allocations of container/heap's interface.
type endHeap []end

func (h endHeap) less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].share < h[j].share)
}

func (h *endHeap) push(e end) {
	*h = append(*h, e)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if !a.less(i, p) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

func (h *endHeap) pop() end {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(a) && a.less(l, m) {
			m = l
		}
		if r < len(a) && a.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
