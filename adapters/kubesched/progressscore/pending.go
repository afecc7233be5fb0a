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
// a tally through its Changes: O(1) per changed job (plus a move in the
// order when a job's creation or reference changes), and O(jobs) to
// write the progressshare input of one cycle (Jobs), with no allocation
// once the buffers have grown.
type queue struct {
	rates func(podjob.Job) map[string]float64

	cluster Cluster
	sched   *ps.Scheduler
	slots   []int // slots of each type

	byKey  map[types.UID]*entry
	order  []*entry // by creation, then reference, then key
	rated  int      // entries with a rate other than 1
	blocks []ps.Block
	out    []ps.Job
	self   ps.Job // the pod's own job when it has no entry
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
	job     ps.Job // Rates and Running on the cluster's types
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

func newQueue(rates func(podjob.Job) map[string]float64) *queue {
	return &queue{rates: rates, byKey: map[types.UID]*entry{}}
}

// update reads the tally's changes: every job changed since the last
// update, and the nodes when they changed (the cluster is mapped again and
// every entry with it). An error is the cluster's (no nodes, or more than
// progressshare takes); the queue then has no cluster until the nodes
// change again.
func (q *queue) update(v *tally.View, opt ps.Options) error {
	nodesChanged, reset := v.Changes(q.set)
	if reset {
		// Changes gave every job the tally holds, but entries of jobs it
		// no longer holds may remain: start again from its jobs.
		clear(q.byKey)
		q.order, q.rated = q.order[:0], 0
		v.EachJob(q.set)
	}
	if !nodesChanged && q.sched != nil {
		return nil
	}
	q.sched = nil
	c, err := NewCluster(v.Nodes())
	if err != nil {
		return err
	}
	s, err := ps.NewScheduler(c.Slots, opt)
	if err != nil {
		return err
	}
	q.cluster, q.sched, q.slots = c, s, c.SlotsOfType()
	q.blocks = c.Blocks(len(q.blocks))
	for _, e := range q.order {
		c.fill(e.state(), q.slots, &e.job)
	}
	return nil
}

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
		e = &entry{key: key}
		q.byKey[key] = e
	} else if e.created.Equal(j.Attr.Created) && e.ref == j.Attr.Ref {
		q.count(e, -1)
		q.read(e, j)
		q.count(e, +1)
		return
	} else {
		q.remove(e)
		q.byKey[key] = e
	}
	q.read(e, j)
	q.count(e, +1)
	i, _ := slices.BinarySearchFunc(q.order, e, compareEntries)
	q.order = slices.Insert(q.order, i, e)
}

// read copies the tally's job into e and maps it onto the cluster.
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
	if q.sched != nil {
		q.cluster.fill(e.state(), q.slots, &e.job)
	}
}

func (q *queue) remove(e *entry) {
	i, found := slices.BinarySearchFunc(q.order, e, compareEntries)
	if found {
		q.order = slices.Delete(q.order, i, i+1)
	}
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

// Jobs writes progressshare's input at now for the pod being scored: its
// job self (mapped from the pod), with rates selfRates and counts j (the
// tally's job, nil when it has none), as Cluster.Jobs writes it from the
// same job states: the other pending jobs by creation, reference and key,
// self last with at least one pending pod. It returns the jobs (valid
// until the next call) and the index of self. Call it only when the queue
// has a cluster (update returned nil).
func (q *queue) Jobs(self podjob.Job, selfRates map[string]float64, j *tally.Job, now time.Time) ([]ps.Job, int) {
	out := q.out[:0]
	for _, e := range q.order {
		if e.key == self.Key {
			continue
		}
		out = append(out, e.job)
		last := &out[len(out)-1]
		last.Pending = q.pending(e.pending)
		last.LastLaunch = relative(e.starts.lastLaunch(e.created, now), now)
	}
	st := JobState{Key: self.Key, Rates: selfRates}
	var s starts
	if j != nil {
		st.Running, st.Pending, s = j.ByType, j.Pending, startsOf(j)
	}
	q.cluster.fill(st, q.slots, &q.self)
	q.self.Pending = q.pending(st.Pending)
	q.self.LastLaunch = relative(s.lastLaunch(self.Created, now), now)
	out = append(out, q.self)
	q.out = out
	return out, len(out) - 1
}

// pending returns n pending blocks (at least 1), from one shared slice.
func (q *queue) pending(n int) []ps.Block {
	n = max(n, 1)
	if len(q.blocks) < n {
		q.blocks = q.cluster.Blocks(max(n, 2*len(q.blocks)))
	}
	return q.blocks[:n]
}
