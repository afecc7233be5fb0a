package progressscore

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// queue is the jobs with pending pods as Algorithm 2 takes them, kept from
// a tally through its Changes in a progressshare Pool: O(log jobs) and a
// move of 4 bytes a job per changed job, and per cycle what the decision
// reads (Pool.PickProgressShare walks the jobs from the lowest progress
// share to the one that launches), with no allocation once the buffers
// have grown.
//
// Times on progressshare's clock are seconds since epoch, the queue's
// creation: a job's LastLaunch is set when the job changes and stays, so
// its delay grows with now without a write. A job whose LastLaunch
// depends on now (a running pod without a start time counts as started
// now; a start or creation after now counts as now) is written again on
// every cycle while it does (floating). The clock never goes back: now is
// at least the latest now a cycle used.
type queue struct {
	rates func(podjob.Job) map[string]float64
	epoch time.Time

	cluster Cluster
	sched   *ps.Scheduler
	pool    *ps.Pool
	slots   []int // slots of each type
	now     time.Time

	byKey    map[types.UID]*entry
	byHandle []*entry // the Pool's handles; handle 0 is the scored pod's job when it has no entry
	free     []int
	floating []*entry
	rated    int // entries with a rate other than 1
	blocks   []ps.Block
	self     ps.Job // the scored pod's job as the pod maps it
	selfE    entry  // its entry under handle 0
	err      error  // the Pool refused a job (a defect: every mapped job is valid)
}

// An entry is one job with pending pods.
type entry struct {
	key     types.UID
	ref     string
	created time.Time
	rates   map[string]float64
	rated   bool // a rate other than 1
	byType  map[string]int
	pending int
	starts  starts
	job     ps.Job // progressshare's job: the cluster's types, pending blocks, LastLaunch
	handle  int    // in the Pool
	float   bool   // LastLaunch depends on now
	listed  bool   // in queue.floating
}

// starts is what LastLaunch needs of a job's running pods: none runs
// (running false), some have no start time (unstarted), else latest is the
// latest start (Unix ns).
type starts struct {
	running, unstarted bool
	latest             int64
}

func startsOf(j *tally.Job) starts {
	s := starts{running: j.Running > 0, unstarted: j.Unstarted > 0}
	if l, ok := j.LatestStart(time.Unix(0, math.MaxInt64)); ok && !s.unstarted {
		s.latest = l.UnixNano()
	}
	return s
}

// lastLaunch is a job's LastLaunch at now: the latest start of its running
// pods (podjob.Started: a pod without a start time, or one after now,
// counts as now), or its creation when that is later or none runs.
func (s starts) lastLaunch(created, now time.Time) time.Time {
	if !s.running {
		return created
	}
	if s.unstarted {
		return now
	}
	l := time.Unix(0, s.latest)
	if l.After(now) {
		l = now
	}
	if created.After(l) {
		return created
	}
	return l
}

func newQueue(rates func(podjob.Job) map[string]float64, epoch time.Time) *queue {
	q := &queue{rates: rates, epoch: epoch.Round(0), byKey: map[types.UID]*entry{}}
	q.byHandle = []*entry{&q.selfE}
	return q
}

// tie is Algorithm 2's tie order of the Pool's handles: by creation, then
// reference, then key (the scored pod's job is placed last by the Pool).
func (q *queue) tie(a, b int) int { return compareEntries(q.byHandle[a], q.byHandle[b]) }

// update reads the tally's changes at now: every job changed since the
// last update, and the nodes when they changed (the cluster is mapped
// again and every entry with it). An error is the cluster's (no nodes, or
// more than progressshare takes); the queue then has no cluster until the
// nodes change again.
func (q *queue) update(v *tally.View, opt ps.Options, now time.Time) error {
	q.now = q.clock(now)
	nodesChanged, reset := v.Changes(q.set)
	if reset {
		// Changes gave every job the tally holds, but entries of jobs it
		// no longer holds may remain: start again from its jobs.
		for _, e := range q.byKey {
			q.remove(e)
		}
		v.EachJob(q.set)
	}
	if q.err != nil {
		return q.err
	}
	if !nodesChanged && q.sched != nil {
		return nil
	}
	q.sched, q.pool, q.err = nil, nil, nil
	c, err := NewCluster(v.Nodes())
	if err != nil {
		return err
	}
	s, err := ps.NewScheduler(c.Slots, opt)
	if err != nil {
		return err
	}
	q.cluster, q.sched, q.slots = c, s, c.SlotsOfType()
	q.pool = s.NewPool(q.tie)
	q.blocks = c.Blocks(len(q.blocks))
	for _, e := range q.byKey {
		q.put(e)
	}
	return q.err
}

// clock returns now as seconds since the epoch are taken: without a
// monotonic reading, and not before the latest now of an update.
func (q *queue) clock(now time.Time) time.Time {
	now = now.Round(0)
	if now.Before(q.now) {
		return q.now
	}
	return now
}

// seconds is t on progressshare's clock.
func (q *queue) seconds(t time.Time) float64 { return t.Sub(q.epoch).Seconds() }

// set records the job with key (nil or without pending pods: forgotten).
func (q *queue) set(key types.UID, j *tally.Job) {
	e, ok := q.byKey[key]
	if j == nil || j.Pending == 0 {
		if ok {
			q.remove(e)
		}
		return
	}
	if !ok {
		e = &entry{key: key, handle: -1}
		q.byKey[key] = e
	} else {
		q.count(e, -1)
		if !e.created.Equal(j.Attr.Created) || e.ref != j.Attr.Ref {
			q.drop(e) // its place in the tie order changes
		}
	}
	q.read(e, j)
	q.count(e, +1)
	q.put(e)
}

// read copies the tally's job into e.
func (q *queue) read(e *entry, j *tally.Job) {
	e.ref, e.created = j.Attr.Ref, j.Attr.Created
	e.rates = q.rates(j.Attr)
	e.rated = rated(e.rates)
	clear(e.byType)
	if e.byType == nil {
		e.byType = make(map[string]int, len(j.ByType))
	}
	for t, n := range j.ByType {
		e.byType[t] = n
	}
	e.pending = j.Pending
	e.starts = startsOf(j)
}

// put maps e onto the cluster at q.now and writes it to the Pool (nothing
// before the queue has a cluster).
func (q *queue) put(e *entry) {
	if q.pool == nil {
		return
	}
	if e.handle < 0 {
		if n := len(q.free); n > 0 {
			e.handle, q.free = q.free[n-1], q.free[:n-1]
		} else {
			e.handle = len(q.byHandle)
			q.byHandle = append(q.byHandle, nil)
		}
		q.byHandle[e.handle] = e
	}
	q.cluster.fill(e.state(), q.slots, &e.job)
	e.job.Pending = q.pending(e.pending)
	e.job.LastLaunch, e.float = q.lastLaunch(e.created, e.starts)
	if e.float && !e.listed {
		e.listed = true
		q.floating = append(q.floating, e)
	}
	if err := q.pool.Set(e.handle, e.job); err != nil && q.err == nil {
		q.err = err
	}
}

// lastLaunch is a job's LastLaunch at q.now on progressshare's clock, and
// whether it depends on now.
func (q *queue) lastLaunch(created time.Time, s starts) (float64, bool) {
	t := s.lastLaunch(created, q.now)
	float := (s.running && s.unstarted) || created.After(q.now) || (s.running && s.latest > q.now.UnixNano())
	if t.After(q.now) {
		t = q.now
	}
	return q.seconds(t), float
}

// refloat writes again, at q.now, the entries whose LastLaunch depends on
// now, and forgets the ones that no longer do.
func (q *queue) refloat() {
	keep := q.floating[:0]
	for _, e := range q.floating {
		if q.byKey[e.key] == e && e.float {
			q.put(e)
		}
		if e.listed = q.byKey[e.key] == e && e.float; e.listed {
			keep = append(keep, e)
		}
	}
	clear(q.floating[len(keep):])
	q.floating = keep
}

// drop takes e out of the Pool; it keeps its handle free.
func (q *queue) drop(e *entry) {
	if e.handle < 0 {
		return
	}
	if q.pool != nil && q.pool.Has(e.handle) {
		if err := q.pool.Remove(e.handle); err != nil && q.err == nil {
			q.err = err
		}
	}
	q.byHandle[e.handle] = nil
	q.free = append(q.free, e.handle)
	e.handle = -1
}

func (q *queue) remove(e *entry) {
	q.drop(e)
	e.float = false
	q.count(e, -1)
	delete(q.byKey, e.key)
}

func (q *queue) count(e *entry, sign int) {
	if e.rated {
		q.rated += sign
	}
}

func compareEntries(a, b *entry) int {
	return cmp.Or(a.created.Compare(b.created), strings.Compare(a.ref, b.ref), cmp.Compare(a.key, b.key))
}

// state is the entry as a JobState (LastLaunch aside).
func (e *entry) state() JobState {
	return JobState{Key: e.key, Ref: e.ref, Created: e.created, Rates: e.rates, Running: e.byType, Pending: e.pending}
}

// rated reports whether a job with these rates runs faster or slower
// anywhere: a rate other than 1.
func rated(rates map[string]float64) bool {
	for _, r := range rates {
		if r != 1 {
			return true
		}
	}
	return false
}

// anyRated reports whether a pending job has a rate other than 1, self
// being the job of the pod scored with the given rates.
func (q *queue) anyRated(self types.UID, selfRates map[string]float64) bool {
	n := q.rated
	if e, ok := q.byKey[self]; ok && e.rated {
		n--
	}
	return n > 0 || rated(selfRates)
}

// scores writes to dst, by type index, the score of every node type (see
// Score) for the pod being scored: its job self (mapped from the pod),
// with rates selfRates and counts j (the tally's job, nil when it has
// none), as Score gives it on Cluster.Jobs of the same job states: the
// other pending jobs by creation, reference and key, self last with at
// least one pending pod. Call it after update returned nil.
func (q *queue) scores(dst []int64, self podjob.Job, selfRates map[string]float64, j *tally.Job) error {
	q.refloat()
	st := JobState{Key: self.Key, Rates: selfRates}
	var s starts
	if j != nil {
		st.Running, st.Pending, s = j.ByType, j.Pending, startsOf(j)
	}
	q.cluster.fill(st, q.slots, &q.self)
	q.self.Pending = q.pending(st.Pending)
	q.self.LastLaunch, _ = q.lastLaunch(self.Created, s)
	h := 0
	e, own := q.byKey[self.Key]
	if own {
		h = e.handle
	} else {
		q.selfE = entry{key: self.Key, ref: self.Ref, created: self.Created}
	}
	swap := !own || !sameJob(e.job, q.self)
	if swap {
		if err := q.pool.Set(h, q.self); err != nil {
			return err
		}
	}
	var err error
	for t, name := range q.cluster.Types {
		slot := q.cluster.First[name]
		var d ps.Decision
		if d, err = q.pool.PickProgressShare(slot, q.seconds(q.now), h); err != nil {
			break
		}
		var pref float64
		if pref, err = q.sched.Pref(slot, q.self, 0); err != nil {
			break
		}
		dst[t] = typeScore(pref, d.Launch && d.Job == h)
	}
	switch {
	case !own:
		if rerr := q.pool.Remove(0); err == nil {
			err = rerr
		}
	case swap:
		if rerr := q.pool.Set(h, e.job); err == nil {
			err = rerr
		}
	}
	return err
}

// sameJob reports whether two jobs of the queue are the same input.
func sameJob(a, b ps.Job) bool {
	return a.LastLaunch == b.LastLaunch && len(a.Pending) == len(b.Pending) &&
		slices.Equal(a.Rates, b.Rates) && slices.Equal(a.Running, b.Running)
}

// pending returns n pending blocks (at least 1), from one shared slice.
func (q *queue) pending(n int) []ps.Block {
	n = max(n, 1)
	if len(q.blocks) < n {
		q.blocks = q.cluster.Blocks(max(n, 2*len(q.blocks)))
	}
	return q.blocks[:n]
}
