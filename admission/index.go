package admission

import (
	"math"

	"github.com/schedkit/schedkit/internal/freelist"
	"github.com/schedkit/schedkit/internal/treap"
)

// The Queue's index answers paper and strict mode (Eq. 7) in O(log n). It
// is a treap (a balanced search tree with deterministic priorities) of the
// queued jobs in EDF order. Each subtree S carries, over its deadline jobs:
//
//   - sum: Σ JCT;
//   - size: the number of jobs (deadline or not), for a job's EDF position;
//   - minU and maxU: the least and greatest D_k − Σ_{i∈S, i≤k} JCT_i, the
//     job's deadline minus its Eq. 7 prefix counted from the subtree's start.
//
// With P the JCT sum of the deadline jobs before S, job k in S has the
// absolute u_k = (D_k − prefix_k within S) − P, and its Eq. 7 slack at now is
// u_k − now. A queued job after the new one (JCT x) in EDF order is
// protected iff u_k − now ≥ 0 and hurt iff also u_k − now < x. Subtrees are
// combined without knowing P (the left part's sum shifts the right part's
// values), so inserting a job, removing one or changing a JCT updates one
// path, O(log n), and no range of prefix sums is rewritten.
//
// Sums are formed in the tree's order, not one after another in EDF order as
// Workspace.Decide's pass forms them, so a prefix may differ from the pass's
// in the last bits. Queue.Decide therefore uses the tree only to find the
// new job's place and to propose the queued jobs whose slack lies within a
// rounding bound of the band where a job is hurt (band), and decides with
// the pass's own sums (eq7Sums).

// An anode is one job in the index.
type anode struct {
	treap.Links[int32]
	first           int32 // the slot of one of its running tasks (Queue.slots), -1 for none
	job             Job   // its JCT counts only for a deadline job
	size            int32
	sum, minU, maxU float64
}

// qindex is the Queue's search structure.
type qindex struct {
	nodes []anode
	free  []int32
	root  int32
	byID  map[int64]int32
	seq   uint64
}

// reset empties the index.
func (x *qindex) reset() {
	x.nodes, x.free, x.root = x.nodes[:0], x.free[:0], -1
	clear(x.byID)
}

// top returns the root, or -1 when the index is empty (the zero value too).
func (x *qindex) top() int32 {
	if len(x.byID) == 0 {
		return -1
	}
	return x.root
}

// before orders nodes by CompareEDF's keys (IDs are unique in a Queue).
func (x *qindex) before(a, b int32) bool {
	return compareEDF(&x.nodes[a].job, &x.nodes[b].job) < 0
}

// jobBefore reports whether j comes before node v in EDF order.
func (x *qindex) jobBefore(j *Job, v int32) bool { return compareEDF(j, &x.nodes[v].job) < 0 }

// pull recomputes node v's subtree values from its own and its children's.
func (x *qindex) pull(v int32) {
	n := &x.nodes[v]
	sum, size := 0.0, int32(1)
	minU, maxU := math.Inf(1), math.Inf(-1)
	if l := n.Left; l >= 0 {
		ln := &x.nodes[l]
		sum, size, minU, maxU = ln.sum, size+ln.size, ln.minU, ln.maxU
	}
	if n.job.HasDeadline() {
		sum += n.job.JCT
		u := n.job.Deadline - sum
		minU, maxU = min(minU, u), max(maxU, u)
	}
	if r := n.Right; r >= 0 {
		rn := &x.nodes[r]
		minU, maxU = min(minU, rn.minU-sum), max(maxU, rn.maxU-sum)
		sum, size = sum+rn.sum, size+rn.size
	}
	n.sum, n.size, n.minU, n.maxU = sum, size, minU, maxU
}

// Links, Before and Pull let package treap shape the tree.
func (x *qindex) Links(v int32) *treap.Links[int32] { return &x.nodes[v].Links }
func (x *qindex) Before(a, b int32) bool            { return x.before(a, b) }
func (x *qindex) Pull(v int32)                      { x.pull(v) }

// fixAll pulls v and every ancestor.
func (x *qindex) fixAll(v int32) { treap.FixAll(x, v) }

// insert adds j (validated, its ID not queued) and returns its node.
func (x *qindex) insert(j *Job) int32 {
	v := freelist.Take(&x.nodes, &x.free)
	x.seq++
	x.nodes[v] = anode{Links: treap.Links[int32]{Left: -1, Right: -1, Parent: -1, Prio: treap.Priority(x.seq)}, first: -1, job: *j}
	x.pull(v)
	if x.byID == nil {
		x.byID = map[int64]int32{}
	}
	if len(x.byID) == 0 {
		x.root = -1
	}
	x.byID[j.ID] = v
	treap.Insert(x, &x.root, v)
	return v
}

// remove deletes node v.
func (x *qindex) remove(v int32) {
	treap.Remove(x, &x.root, v)
	n := &x.nodes[v]
	delete(x.byID, n.job.ID)
	n.job = Job{} // drop its Model and Samples for the collector
	x.free = append(x.free, v)
}

// setJCT changes node v's JCT.
func (x *qindex) setJCT(v int32, jct float64) {
	if x.nodes[v].job.JCT != jct {
		x.nodes[v].job.JCT = jct
		x.fixAll(v)
	}
}

// appendInOrder appends the jobs below v in EDF order.
func (x *qindex) appendInOrder(dst []Job, v int32) []Job {
	for v >= 0 {
		n := &x.nodes[v]
		dst = x.appendInOrder(dst, n.Left)
		dst = append(dst, n.job)
		v = n.Right
	}
	return dst
}

// prefix returns the JCT sum of the deadline jobs before j in EDF order and
// their number of jobs (deadline or not): j's place.
func (x *qindex) prefix(j *Job) (sum float64, rank int) {
	for v := x.top(); v >= 0; {
		n := &x.nodes[v]
		if x.jobBefore(j, v) {
			v = n.Left
			continue
		}
		if l := n.Left; l >= 0 {
			sum += x.nodes[l].sum
			rank += int(x.nodes[l].size)
		}
		if n.job.HasDeadline() {
			sum += n.job.JCT
		}
		rank++
		v = n.Right
	}
	return sum, rank
}

// nodeAt returns the node at EDF position rank (0 first), or -1.
func (x *qindex) nodeAt(rank int) int32 {
	for v := x.top(); v >= 0; {
		n := &x.nodes[v]
		left := 0
		if n.Left >= 0 {
			left = int(x.nodes[n.Left].size)
		}
		switch {
		case rank < left:
			v = n.Left
		case rank == left:
			return v
		default:
			rank -= left + 1
			v = n.Right
		}
	}
	return -1
}

// next returns the node after v in EDF order, or -1.
func (x *qindex) next(v int32) int32 {
	if r := x.nodes[v].Right; r >= 0 {
		for x.nodes[r].Left >= 0 {
			r = x.nodes[r].Left
		}
		return r
	}
	for p := x.nodes[v].Parent; p >= 0; v, p = p, x.nodes[p].Parent {
		if x.nodes[p].Left == v {
			return p
		}
	}
	return -1
}

// deadlineJobs returns the number of jobs with a deadline: they come first
// in EDF order, before every job without one.
func (x *qindex) deadlineJobs() int {
	_, n := x.prefix(&Job{ID: math.MinInt64, Arrival: math.Inf(-1), Deadline: math.Inf(1)})
	return n
}

// rankOf returns node v's position in EDF order.
func (x *qindex) rankOf(v int32) int {
	rank := 0
	if l := x.nodes[v].Left; l >= 0 {
		rank = int(x.nodes[l].size)
	}
	for c, p := v, x.nodes[v].Parent; p >= 0; c, p = p, x.nodes[p].Parent {
		if x.nodes[p].Right == c {
			rank++
			if l := x.nodes[p].Left; l >= 0 {
				rank += int(x.nodes[l].size)
			}
		}
	}
	return rank
}

// band returns the first deadline job after j in EDF order whose slack at
// now without j, D − now − (its prefix), as the tree's sums give it, lies
// in [lo, hi], or -1. off is the JCT sum of the deadline jobs before the
// subtree at v; after tells whether the whole subtree comes after j.
//
// A subtree is skipped when every deadline job in it has slack below lo
// (maxU − off − now < lo) or above hi (minU − off − now > hi); otherwise
// it is searched left first. Cost: O(log n) plus O(log n) for each subtree
// that mixes slacks below lo with others before the answer.
func (x *qindex) band(v int32, off float64, after bool, j *Job, now, lo, hi float64) int32 {
	for v >= 0 {
		n := &x.nodes[v]
		if after && (n.maxU-off-now < lo || n.minU-off-now > hi) {
			return -1
		}
		lsum := 0.0
		if l := n.Left; l >= 0 {
			lsum = x.nodes[l].sum
		}
		here := off + lsum
		if n.job.HasDeadline() {
			here += n.job.JCT
		}
		if !after && !x.jobBefore(j, v) {
			// v and its left subtree come before j: only the right one counts.
			off, v = here, n.Right
			continue
		}
		if k := x.band(n.Left, off, after, j, now, lo, hi); k >= 0 {
			return k
		}
		if n.job.HasDeadline() {
			if s := n.job.Deadline - now - here; s >= lo && s <= hi {
				return v
			}
		}
		off, v, after = here, n.Right, true
	}
	return -1
}

// firstOverflow returns the first deadline job in EDF order whose deadline
// − now overflows float64, or -1. Deadlines ascend along EDF order (no
// deadline, +Inf, last), and deadline − now overflows only at the low or
// the high end, so this is the first job if it overflows downwards, else the
// first finite deadline that overflows upwards: one descent.
func (x *qindex) firstOverflow(now float64) int32 {
	v := x.top()
	if v < 0 {
		return -1
	}
	for x.nodes[v].Left >= 0 {
		v = x.nodes[v].Left
	}
	if n := &x.nodes[v].job; n.HasDeadline() && math.IsInf(n.Deadline-now, -1) {
		return v
	}
	found := int32(-1)
	for v = x.top(); v >= 0; {
		n := &x.nodes[v]
		switch {
		case !n.job.HasDeadline():
			v = n.Left
		case math.IsInf(n.job.Deadline-now, 1):
			found, v = v, n.Left
		default:
			v = n.Right
		}
	}
	return found
}
