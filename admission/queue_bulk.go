package admission

import (
	"slices"

	"github.com/schedkit/schedkit/internal/treap"
)

// InsertAll adds the jobs of js as Insert would, one after another in the
// order given, and leaves the queue as those Inserts would: the same jobs,
// the same search tree (its shape follows the order given, through the
// treap priorities) and so the same answers to every later call, bit for
// bit. Into an empty queue it builds the tree at once — an O(n log n) sort
// into EDF order and an O(n) build (a Cartesian tree on the treap
// priorities, then each node's subtree values from its children's) instead
// of n descents and rotations; into a queue that holds jobs it inserts one
// by one. It allocates O(len(js)) scratch once.
//
// Every job is checked as Insert checks it, before any is added; an error
// is a *ValueError matching ErrBadInput naming the job by its index
// ("Queue[k].Deadline" for js[k]; "Job.ID" for an ID queued already or
// given twice, "Queue.Len" when the jobs would not fit under MaxJobs), and
// the queue is then unchanged. A nil or empty js changes nothing.
func (q *Queue) InsertAll(js []Job) error {
	if len(js) == 0 {
		return nil
	}
	if q.Len()+len(js) > MaxJobs {
		return &ValueError{Field: "Queue.Len", Value: q.Len() + len(js), Reason: "the queue would hold more than MaxJobs = 2^18 jobs"}
	}
	seen := make(map[int64]struct{}, len(js))
	for k := range js {
		j := js[k]
		if err := validateNew(&j, k); err != nil {
			return err
		}
		_, queued := q.ix.byID[j.ID]
		_, twice := seen[j.ID]
		if queued || twice {
			return &ValueError{Field: "Job.ID", Value: j.ID, Reason: "already queued or given twice"}
		}
		seen[j.ID] = struct{}{}
	}
	if q.Len() > 0 {
		for _, j := range js {
			if err := q.Insert(j); err != nil {
				panic("admission: InsertAll: a checked job refused: " + err.Error()) // broken invariant
			}
		}
		return nil
	}
	q.ix.build(js)
	q.wave.drop(0)
	q.sums.on = false // laid out again from the tree by the next decision
	q.conf.on = false
	q.stale = true
	return nil
}

// build fills the empty index with js, giving each job the node and the
// priority Insert would have given it in that order.
func (x *qindex) build(js []Job) {
	if x.byID == nil {
		x.byID = make(map[int64]int32, len(js))
	}
	order := make([]int32, len(js))
	x.nodes = slices.Grow(x.nodes, max(len(js)-len(x.free), 0))
	for k := range js {
		var v int32
		if n := len(x.free); n > 0 {
			v, x.free = x.free[n-1], x.free[:n-1]
		} else {
			v = int32(len(x.nodes))
			x.nodes = append(x.nodes, anode{})
		}
		x.seq++
		x.nodes[v] = anode{Links: treap.Links[int32]{Left: -1, Right: -1, Parent: -1, Prio: treap.Priority(x.seq)}, first: -1, job: js[k]}
		x.nodes[v].job.RunningUntil = 0
		x.byID[js[k].ID] = v
		order[k] = v
	}
	slices.SortFunc(order, func(a, b int32) int { return compareEDF(&x.nodes[a].job, &x.nodes[b].job) })
	// The right spine of the tree built so far is kept in spine (reusing
	// order's prefix, which has been read): each node in EDF order hangs
	// the spine's nodes of lower priority as its left subtree and becomes
	// the right child of the spine's last node of higher priority.
	spine := order[:0]
	for _, v := range order {
		last := int32(-1)
		for len(spine) > 0 && x.nodes[spine[len(spine)-1]].Prio < x.nodes[v].Prio {
			last, spine = spine[len(spine)-1], spine[:len(spine)-1]
		}
		if last >= 0 {
			x.nodes[v].Left, x.nodes[last].Parent = last, v
		}
		if len(spine) > 0 {
			p := spine[len(spine)-1]
			x.nodes[p].Right, x.nodes[v].Parent = v, p
		}
		spine = append(spine, v)
	}
	x.root = spine[0]
	x.pullSubtree(x.root)
}

// pullSubtree recomputes the values of every node below v, children first.
func (x *qindex) pullSubtree(v int32) {
	if v < 0 {
		return
	}
	x.pullSubtree(x.nodes[v].Left)
	x.pullSubtree(x.nodes[v].Right)
	x.pull(v)
}
