package deadlinecheck

import (
	"sync"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/tct/jct"
	"k8s.io/apimachinery/pkg/types"
)

// A WorkCache keeps the Monte-Carlo samples of each workload between plans
// of the same ClusterQueue: drawing them is most of a plan's cost (pods ×
// samples lognormal draws per workload), and a waiting workload's samples
// never change. Entries are keyed by everything the draws depend on (UID,
// pods left, time executed, slots, model, sample count, seed, start
// delay), so a plan with a cache gives exactly the outcomes of one
// without. The entries a plan did not use are dropped once they outnumber
// a quarter of those it used (plus 64), so a queue's entries stay within
// 1.25 times its live workloads plus 64: each entry is 16 bytes a sample
// (16 KiB at the default 1,000 samples). It also keeps each queue's scratch of the
// decisions, so that a reconcile's plan allocates in proportion to its
// decisions, not to its queue. The zero value is not usable: call
// NewWorkCache. It is safe for concurrent use; plans of one queue at the
// same time each get their own entries and scratch, and the last to end
// is kept.
type WorkCache struct {
	mu     sync.Mutex
	queues map[string]*queueWork
}

type workKey struct {
	uid      types.UID
	left     int
	executed time.Duration
	slots    int
	pod      jct.Lognormal
	exact    float64
	samples  int
	seed     uint64
	delay    time.Duration
}

// queueWork is one queue's kept samples and decision scratch.
type queueWork struct {
	works map[workKey]*keptWork
	plan  uint64 // plans begun
	used  int    // entries the current plan used
	s     decideScratch
}

// keptWork is one entry: the samples, their key and the last plan that
// used them.
type keptWork struct {
	work
	key  workKey
	plan uint64
}

// decideScratch is what decide reuses from one plan of a queue to the
// next: per-workload slices and the promised queue.
type decideScratch struct {
	outs     []Outcome
	jobs     []admission.Job
	works    []*work
	problems []error
	order    []int
	pending  []int
	promised []*work
	q0       admission.Queue
	space    admission.Workspace
	// Kept from the last plan (keptplan.go, with order and q0): the
	// pending workloads as listed and in EDF order, the promised deadline
	// workloads wanted in q0, the jobs it inserted, and the entry each
	// position of ws used.
	pendingRaw, pendingEDF []int
	want                   []int
	inserted               []int64 // IDs q0.Insert took in the last plan
	at                     []*keptWork
}

// NewWorkCache returns an empty cache.
func NewWorkCache() *WorkCache { return &WorkCache{queues: map[string]*queueWork{}} }

// generation is one plan of one queue: its entries and scratch, taken out
// of the cache until end.
type generation struct {
	q *queueWork
}

func (c *WorkCache) begin(queue string) *generation {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queues[queue]
	delete(c.queues, queue)
	if q == nil {
		q = &queueWork{works: map[workKey]*keptWork{}}
	}
	q.plan++
	q.used = 0
	return &generation{q: q}
}

// end puts a plan's entries and scratch back; a plan that ended without
// error first drops the entries it did not use once they outnumber a
// quarter of those it used, plus 64, from the map and from the look-up by
// list position.
func (c *WorkCache) end(queue string, g *generation, ok bool) {
	if c == nil {
		return
	}
	q := g.q
	if ok && len(q.works)-q.used > q.used/4+64 {
		for k, e := range q.works {
			if e.plan != q.plan {
				delete(q.works, k)
			}
		}
		for i, e := range q.s.at {
			if e != nil && e.plan != q.plan {
				q.s.at[i] = nil // dropped: the look-up by position must not keep its samples
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queues[queue] = q
}

// scratch returns the plan's decision scratch; a plan without a cache
// gets its own.
func (g *generation) scratch() *decideScratch {
	if g == nil {
		return &decideScratch{}
	}
	return &g.q.s
}

// work returns w's samples, drawn or remembered.
func (g *generation) work(w Workload, n int, seed uint64, delay time.Duration) (*work, error) {
	if g == nil {
		wk, err := drawWork(w, n, seed, delay)
		return &wk, err
	}
	e, err := g.entry(keyOf(w, n, seed, delay), w)
	if err != nil {
		return nil, err
	}
	return &e.work, nil
}

// workAt is work for the workload at position i of the plan's ws: the
// entry the last plan used at i, when its key is w's, is taken without
// a lookup.
func (g *generation) workAt(i int, w Workload, n int, seed uint64, delay time.Duration) (*work, error) {
	if g == nil {
		return g.work(w, n, seed, delay)
	}
	q := g.q
	k := keyOf(w, n, seed, delay)
	if i < len(q.s.at) {
		if e := q.s.at[i]; e != nil && e.key == k {
			q.use(e)
			return &e.work, nil
		}
	}
	e, err := g.entry(k, w)
	if err != nil {
		return nil, err
	}
	for len(q.s.at) <= i {
		q.s.at = append(q.s.at, nil)
	}
	q.s.at[i] = e
	return &e.work, nil
}

func keyOf(w Workload, n int, seed uint64, delay time.Duration) workKey {
	return workKey{uid: w.UID, left: w.Pods - w.Done, executed: w.Executed, slots: w.Slots, pod: w.RunTime.Pod, exact: w.RunTime.Exact, samples: n, seed: seed, delay: delay}
}

// use counts e as used by the current plan.
func (q *queueWork) use(e *keptWork) {
	if e.plan != q.plan {
		e.plan = q.plan
		q.used++
	}
}

// entry returns the entry of key k, drawing w's samples if there is none.
func (g *generation) entry(k workKey, w Workload) (*keptWork, error) {
	q := g.q
	if e, ok := q.works[k]; ok {
		q.use(e)
		return e, nil
	}
	wk, err := drawWork(w, k.samples, k.seed, k.delay)
	if err != nil {
		return nil, err
	}
	e := &keptWork{work: wk, key: k, plan: q.plan}
	q.works[k] = e
	q.used++
	return e, nil
}
