package deadlinecheck

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// The arrivals the ETA expects. A waiting workload's start depends on
// the workloads that will join its ClusterQueue after the ETA is taken:
// under BestEffortFIFO a later workload that fits the free quota is
// admitted before an older one that does not, and a later one of higher
// priority goes ahead in the queue. Each ClusterQueue's check learns its
// arrivals and the ETA replays them, drawn anew in every sample:
//
//   - Records: the latest ArrivalWindow workloads seen with a run-time
//     model and nothing run yet (waiting, or holding quota not yet
//     admitted; not deactivated or being deactivated), by creation time; each
//     record is the workload's creation time, priority, share of the
//     nominal quota (pods / Slots, at most 1) and its decisions' run-time
//     samples (own).
//   - Rate: λ = n / L, the arrivals n seen over the look-back L up to
//     now. L is the longer of the records' span (now − c₁, c₁ the oldest
//     creation among them) and the age of the oldest workload waiting in
//     the pass (now − its creation), at least one second, and at most
//     the span of the arrivals kept (the latest maxArrivalMarks, their
//     creation times): the arrivals that delay a waiting workload come
//     over its wait, so the rate is measured over about as long as the
//     queue's workloads wait, not over the last burst. With no workload
//     waiting longer than the records' span, λ = m / (now − c₁), m the
//     records. It falls while none come. With fewer than
//     MinArrivalObservations records there are no arrivals.
//   - Sample s draws, from a stream seeded with Config.Seed and s, the
//     gaps between arrivals, exponential with rate λ, and for each
//     arrival a record, uniformly: the arrival has that record's share
//     and priority, and in sample s the run time of a pending workload
//     with that record's samples (own[s] with the control plane's delay,
//     etaDelay). It takes its place in Kueue's queue behind every waiting
//     workload of at least its priority (it is the newest) and ahead of
//     those of lower priority.
//   - With the EDF priority boost (priorityboost.go), a record's priority
//     carries its workload's boost, which falls with its deadline. An
//     arrival drawn like it comes with the same relative deadline (from
//     creation): arriving t seconds from now, its boost is that of now +
//     t plus the relative deadline, at most its boost arriving now less
//     ⌊t⌋. The records' priorities arriving now are grouped into at most
//     maxArrivalBlocks runs of slots, each at the highest priority of its
//     group; an arrival t seconds from now takes the last run of a
//     priority at least its own now less ⌊t⌋ (etaArrivals.block): at or
//     ahead of its place in Kueue's queue, never behind, so the ETAs of
//     the workloads it passes err late, by at most the workloads between
//     its place and its run's.
//   - At most max(minArrivalSlots, pending) arrivals per sample, and none
//     after the last workload waiting now has started: the replay of a
//     sample ends there.
//
// The arrivals are the same in every pass until the records change: a
// pass's ETAs move with the queue, not with fresh draws. Approximations:
// the arrivals form a Poisson process (a burst of submissions is spread
// at the mean rate of the look-back, and a rate that falls or rises over
// the coming wait is taken at its past mean); an arrival the check would
// reject still takes quota in the replay; arrivals the check does not
// see (other ClusterQueues of a cohort) are not counted.

// Bounds of the arrival model.
const (
	// MinArrivalObservations is how many arrivals a ClusterQueue's check
	// must have seen before its ETAs count later ones.
	MinArrivalObservations = 10
	// ArrivalWindow is how many of the latest arrivals the model is
	// taken over.
	ArrivalWindow = 50
	// minArrivalSlots is the fewest arrivals a sample may draw.
	minArrivalSlots = 64
	// maxArrivalBlocks bounds the distinct priorities arrivals are drawn
	// with: each has its run of slots in the replay's queue.
	maxArrivalBlocks = 8
	// maxArrivalMarks is how many of the latest arrivals' creation times
	// the rate's look-back counts over.
	maxArrivalMarks = 4096
)

// An arrivalRecord is one workload seen arriving at a ClusterQueue.
type arrivalRecord struct {
	arrivalMark
	priority int64
	// boost is the EDF boost priority holds (Workload.Boost; 0: none), of
	// the workload's deadline rel after its creation.
	boost int32
	rel   time.Duration
	share float64
	own   []float64 // its decisions' run-time samples; never changed
}

// An arrivalMark is one arrival's creation time and UID.
type arrivalMark struct {
	created time.Time
	uid     types.UID
}

// compare orders marks by creation, then UID.
func (m arrivalMark) compare(x arrivalMark) int {
	return cmp.Or(m.created.Compare(x.created), cmp.Compare(m.uid, x.uid))
}

// arrivalLearner keeps, per ClusterQueue and check, its arrivals. It is
// safe for concurrent use.
type arrivalLearner struct {
	mu   sync.Mutex
	seen map[etaPassKey]arrivalHistory
}

// arrivalHistory is one ClusterQueue's arrivals: the marks of the latest
// maxArrivalMarks and the records of the latest ArrivalWindow, each by
// creation time (ties by UID), in that order.
type arrivalHistory struct {
	recs  []arrivalRecord
	marks []arrivalMark
}

func newArrivalLearner() *arrivalLearner {
	return &arrivalLearner{seen: map[etaPassKey]arrivalHistory{}}
}

// observe records the workloads of ws that arrive: those with samples in
// works and nothing run yet, waiting or holding quota (a workload Kueue
// admits at once takes quota as much as one that waits), neither
// deactivated nor being deactivated (outs) nor blocked. A workload older
// than every record of a full window costs O(1).
func (l *arrivalLearner) observe(key etaPassKey, ws []Workload, works []*work, outs []Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.seen[key]
	recs, marks := h.recs, h.marks
	for i := range ws {
		w := &ws[i]
		if works[i] == nil || w.Executed != 0 || w.Created.IsZero() {
			continue
		}
		m := arrivalMark{created: w.Created, uid: w.UID}
		if len(marks) == maxArrivalMarks && m.compare(marks[0]) < 0 {
			continue
		}
		if w.Phase == Deactivated || w.Blocked != nil || outs[i].Deactivate {
			continue
		}
		at, found := slices.BinarySearchFunc(marks, m, arrivalMark.compare)
		if found {
			continue
		}
		marks = slices.Insert(marks, at, m)
		if len(marks) > maxArrivalMarks {
			marks = slices.Delete(marks, 0, 1)
		}
		r := arrivalRecord{arrivalMark: m, priority: w.Priority, share: share(*w), own: works[i].own}
		if w.Boost != 0 {
			r.boost, r.rel = w.Boost, w.Deadline.Sub(w.Created)
		}
		if len(recs) == ArrivalWindow && m.compare(recs[0].arrivalMark) < 0 {
			continue
		}
		at, _ = slices.BinarySearchFunc(recs, r, func(a, b arrivalRecord) int { return a.compare(b.arrivalMark) })
		recs = slices.Insert(recs, at, r)
		if len(recs) > ArrivalWindow {
			recs = slices.Delete(recs, 0, 1)
		}
	}
	l.seen[key] = arrivalHistory{recs: recs, marks: marks}
}

// input returns key's records (a copy) and their creation times
// (appended to marks[:0]), with seed: an ETA pass's arrivals.
func (l *arrivalLearner) input(key etaPassKey, seed uint64, marks []time.Time) arrivalInput {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.seen[key]
	in := arrivalInput{recs: slices.Clone(h.recs), marks: marks[:0], seed: seed}
	for _, m := range h.marks {
		in.marks = append(in.marks, m.created)
	}
	return in
}

// forget drops the records of a ClusterQueue that is gone.
func (l *arrivalLearner) forget(cq string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.seen {
		if k.queue == cq {
			delete(l.seen, k)
		}
	}
}

// arrivalRate is λ at now, per second, over the creation times marks
// (ascending; nil: the records') with the look-back of a pass whose
// oldest waiting workload is waited old (0 with fewer than
// MinArrivalObservations records).
func arrivalRate(recs []arrivalRecord, marks []time.Time, now time.Time, waited time.Duration) float64 {
	if len(recs) < MinArrivalObservations {
		return 0
	}
	span := now.Sub(recs[0].created)
	if len(marks) == 0 {
		return float64(len(recs)) / max(span.Seconds(), 1)
	}
	lookback := min(max(span, waited), now.Sub(marks[0]))
	from := now.Add(-lookback)
	n := len(marks) - sort.Search(len(marks), func(i int) bool { return !marks[i].Before(from) })
	return float64(n) / max(lookback.Seconds(), 1)
}

// An arrivalInput is what an ETA pass draws its arrivals from: a
// ClusterQueue's check's records, the creation times of its latest
// arrivals (ascending; nil: the records') and Config.Seed. The zero
// value: none.
type arrivalInput struct {
	recs  []arrivalRecord
	marks []time.Time
	seed  uint64
}

// etaArrivals is the arrivals of one ETA pass: rate λ per second (0:
// none), and per record its share, priority and run times with the
// control plane's delay (runs[r*samples+s]); seed selects the streams;
// slots is the most arrivals a sample draws.
type etaArrivals struct {
	rate       float64
	shares     []float64
	priorities []int64
	// exact and drifts: with the EDF boost, a record's priority falls as
	// its arrival comes later (arrivalPriority): drifts[r] says so, and
	// exact[r] is record r's priority arriving now, before grouping (nil:
	// no record drifts).
	exact   []int64
	drifts  []bool
	runs    []float64
	samples int
	seed    uint64
	slots   int
}

// arrivalPriority is the priority an arrival drawn like r at now or
// later is placed with: r's, its boost moved to now plus r's relative
// deadline when boosted.
func (r arrivalRecord) arrivalPriority(now time.Time) int64 {
	if r.boost == 0 {
		return r.priority
	}
	return r.priority - int64(r.boost) + int64(DeadlineBoost(now.Add(r.rel)))
}

// groupPriorities lifts each of ps to the highest of its group, so that
// at most maxArrivalBlocks distinct values remain: the distinct values,
// descending, are cut into maxArrivalBlocks runs of nearly equal length
// (the longer ones first). scratch is reused for the distinct values.
func groupPriorities(ps, scratch []int64) []int64 {
	d := append(scratch[:0], ps...)
	slices.SortFunc(d, descending)
	d = slices.Compact(d)
	if len(d) <= maxArrivalBlocks {
		return d
	}
	for i, p := range ps {
		at, _ := slices.BinarySearchFunc(d, p, descending)
		// Distinct value at of len(d) falls in run g; the run's first
		// value is its highest.
		g := at * maxArrivalBlocks / len(d)
		ps[i] = d[(g*len(d)+maxArrivalBlocks-1)/maxArrivalBlocks]
	}
	return d
}

// block returns the run of slots an arrival of record r, t seconds after
// now, takes: blocks are the distinct grouped priorities, descending,
// and recBlock r's own run. A record that drifts arrives with a priority
// of at most exact[r] − ⌊t⌋ (its deadline, and so its boost's rounded-up
// seconds, at least ⌊t⌋ later than arriving now), and takes the last run
// of a priority at least that: at or ahead of its place in Kueue's
// queue, never behind, and never ahead of its own group's run (whose
// priority is at least exact[r] ≥ p).
func (a *etaArrivals) block(r int, t float64, blocks []int64, recBlock int) int {
	if a.drifts == nil || !a.drifts[r] {
		return recBlock
	}
	p := a.exact[r] - int64(min(math.Floor(t), math.MaxInt32))
	// The first run below p; the one before it is the last at least p.
	return sort.Search(len(blocks), func(i int) bool { return blocks[i] < p }) - 1
}

// descending orders priorities highest first.
func descending(a, b int64) int { return cmp.Compare(b, a) }

// on reports whether the pass draws arrivals.
func (a *etaArrivals) on() bool { return a != nil && a.rate > 0 && len(a.shares) > 0 }

// run is record r's run time in sample s.
func (a *etaArrivals) run(r, s int) float64 { return a.runs[r*a.samples+s] }

// setArrivals makes sc.arr the arrivals of a pass over pending
// workloads, the oldest waited old, from in at now, reusing its slices:
// none when the records are too few or a record's samples are not the
// pass's.
func (sc *etaScratch) setArrivals(in arrivalInput, now time.Time, pending int, waited time.Duration, samples int, delay etaDelay) {
	a, recs := &sc.arr, in.recs
	*a = etaArrivals{shares: a.shares[:0], priorities: a.priorities[:0], runs: a.runs[:0], samples: samples, seed: in.seed,
		slots: max(minArrivalSlots, pending), exact: a.exact[:0], drifts: a.drifts[:0]}
	for _, r := range recs {
		if len(r.own) != samples {
			return
		}
	}
	if a.rate = arrivalRate(recs, in.marks, now, waited); a.rate == 0 {
		return
	}
	drifting := slices.ContainsFunc(recs, func(r arrivalRecord) bool { return r.boost != 0 })
	for _, r := range recs {
		p := r.arrivalPriority(now)
		a.shares = append(a.shares, r.share)
		a.priorities = append(a.priorities, p)
		if drifting {
			a.exact = append(a.exact, p)
			a.drifts = append(a.drifts, r.boost != 0)
		}
		if delay.ready == nil {
			a.runs = append(a.runs, r.own...)
		} else {
			a.runs = delay.appendTimes(a.runs, r.own, 0, true)
		}
	}
	sc.distinct = groupPriorities(a.priorities, sc.distinct)
}
