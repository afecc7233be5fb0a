package admission

import "slices"

// eq7Sums are the Eq. 7 prefix sums of the queue's deadline jobs formed as
// Workspace.Decide forms them, one float64 addition after another in EDF
// order, so that Queue.Decide's numbers are the pass's to the bit (the
// tree's subtree sums are formed in another order and may differ in the
// last bits). The JCTs are kept in a slice in EDF order once Queue.Decide
// has needed them, and an Insert, Remove or SetJCT of a deadline job at EDF
// position r changes that slice there (an O(n) shift of 8-byte values for
// Insert and Remove) and marks the sums from r on stale; a decision extends
// them, one addition each, only as far as it reads.
type eq7Sums struct {
	on    bool      // jct is kept: a decision has used it
	jct   []float64 // jct[k]: deadline job k's JCT
	sum   []float64 // sum[k] = sum[k−1] + jct[k] (sum[−1] = 0), for k < fresh
	fresh int
}

// start lays out the JCTs of x's deadline jobs in EDF order.
func (e *eq7Sums) start(x *qindex) {
	e.on, e.fresh, e.jct = true, 0, e.jct[:0]
	for v := x.nodeAt(0); v >= 0 && x.nodes[v].job.HasDeadline(); v = x.next(v) {
		e.jct = append(e.jct, x.nodes[v].job.JCT)
	}
}

// insert, remove and set record a change of deadline job r.
func (e *eq7Sums) insert(r int, jct float64) {
	if e.on {
		e.jct = slices.Insert(e.jct, r, jct)
		e.fresh = min(e.fresh, r)
	}
}

func (e *eq7Sums) remove(r int) {
	if e.on {
		e.jct = slices.Delete(e.jct, r, r+1)
		e.fresh = min(e.fresh, r)
	}
}

func (e *eq7Sums) set(r int, jct float64) {
	if e.on {
		e.jct[r] = jct
		e.fresh = min(e.fresh, r)
	}
}

// at returns the sum of the JCTs of deadline jobs 0 … k (0 for k < 0),
// added in EDF order.
func (e *eq7Sums) at(k int) float64 {
	if k < 0 {
		return 0
	}
	if k >= e.fresh {
		if n := len(e.jct) - len(e.sum); n > 0 {
			e.sum = append(e.sum, make([]float64, n)...)
		}
		s := 0.0
		if e.fresh > 0 {
			s = e.sum[e.fresh-1]
		}
		for i := e.fresh; i <= k; i++ {
			s += e.jct[i]
			e.sum[i] = s
		}
		e.fresh = k + 1
	}
	return e.sum[k]
}
