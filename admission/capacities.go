package admission

import (
	"fmt"
	"math"
)

// Capacities is a cluster's residual capacities (the R of JCT's cluster)
// read once, so that the Eq. 6 estimates of many jobs on one cluster do not
// each walk every slot. It keeps the usable slots (R > 0) in cluster order
// as runs of equal R: a cluster of 50,000 dedicated containers (every R =
// 1) is one run. Make it with NewCapacities; the zero value is a cluster
// with no usable slot.
type Capacities struct {
	runs  []capRun
	slots int // usable slots, Eq. 6's n
}

// A capRun is a maximal run of usable slots of equal residual capacity,
// consecutive in cluster order once the slots with R = 0 are skipped.
type capRun struct {
	r     float64 // the residual capacity of each of its slots
	first int     // the cluster index of its first slot
	count int     // its number of slots
}

// NewCapacities reads cluster, every slot's residual capacity R_i in [0, 1]
// in a fixed order, as JCT takes it (Busy and FreeAt are not read). A NaN or
// out-of-range capacity is a *ValueError naming it ("Cluster[i].R"), as JCT
// reports it. O(len(cluster));
// the result holds one entry per run of equal R and does not alias
// cluster.
func NewCapacities(cluster []Slot) (Capacities, error) {
	var c Capacities
	for i := range cluster {
		r := cluster[i].R
		if !(r >= 0 && r <= 1) {
			return Capacities{}, capacityError(i, r)
		}
		if r == 0 {
			continue
		}
		c.slots++
		if k := len(c.runs) - 1; k >= 0 && c.runs[k].r == r {
			c.runs[k].count++
			continue
		}
		c.runs = append(c.runs, capRun{r: r, first: i, count: 1})
	}
	return c, nil
}

// Slots returns the number of usable slots (R > 0): n in Eq. 6.
func (c Capacities) Slots() int { return c.slots }

// JCTOn returns JCT(m, nRemaining, cluster) for the cluster c was read from:
// the same float64, bit for bit, and the same error. It evaluates m once per
// run of equal R instead of once per slot, and adds each run's task times
// in O(log slots) (addRepeated) instead of one addition per slot, so it
// takes O(runs · log slots) instead of O(len(cluster)): one evaluation and
// about a hundred float operations for a cluster of identical slots. Like
// JCT it allocates nothing.
//
// m must be a function of r (equal r, equal time), as every Model is meant
// to be: JCT calls it once per slot, JCTOn once per run. Errors match JCT's,
// in the same order: a nil model ("Model"), nRemaining < 0, no usable slot
// (ErrNoCapacity), the first slot in cluster order whose task time is NaN,
// not > 0 or beyond MaxDuration ("TCT(Cluster[i])"), a result beyond
// MaxDuration ("JCT").
func JCTOn[M Model](m M, nRemaining int, c Capacities) (float64, error) {
	if err := checkJCTArgs(m, nRemaining); err != nil {
		return 0, err
	}
	sum := 0.0
	for _, run := range c.runs {
		t := m.TCT(run.r)
		if !(t > 0 && t <= MaxDuration) {
			return 0, tctError(run.first, t)
		}
		sum = addRepeated(sum, t, run.count)
	}
	return eq6(sum, c.slots, nRemaining)
}

// addRepeated returns what c additions of t to s give when each is rounded
// to float64 in turn, fl(…fl(fl(s+t)+t)…+t), for finite s, t ≥ 0: the sum
// JCT forms over a run of equal task times, in O(log c) operations instead
// of c.
//
// Why it is exact. Within one binade [2^e, 2^(e+1)) the float64 values are
// the multiples of u = 2^(e−52), and so is s. While the exact s + t stays
// below 2^(e+1), fl(s+t) is the multiple of u nearest to s + t, ties to an
// even multiple: s + round_u(t), where round_u(t) depends on s only in a tie
// (t an odd multiple of u/2), and there only on the parity of s/u. A result
// of a tie is even, and adding an even multiple of u keeps it even, so after
// one addition inside the binade every further addition inside it adds the
// same d. The loop makes two real additions inside the binade, takes d =
// s2 − s1 (exact: both lie in the binade), adds k·d at once for the k
// further additions whose exact sum provably stays below 2^(e+1) (t ≤ d +
// u/2, so k·d/u + 1 ≤ (2^(e+1) − s2)/u suffices), and goes on with real
// additions into the next binade. Below 2^−1022 the spacing is 2^−1074
// throughout and the same holds. Each binade costs a few operations, and a
// sum of c terms crosses O(log c) binades. TestPropAddRepeated checks it
// against the c additions, ties and subnormals included.
func addRepeated(s, t float64, c int) float64 {
	if !(t > 0) {
		if t == 0 {
			return s // s + 0 = s for s ≥ 0
		}
		return addEach(s, t, c) // outside the precondition: no shortcut
	}
	for c > 0 {
		u, top := spacing(s)
		if math.IsInf(top, 1) {
			s += t
			c--
			continue
		}
		s1 := s + t
		c--
		if c == 0 || !(s1 < top) {
			s = s1
			continue
		}
		s2 := s1 + t
		c--
		if c == 0 || !(s2 < top) {
			s = s2
			continue
		}
		d := s2 - s1
		if d == 0 {
			return s2 // t < u/2 (or a tie rounding down): nothing more changes s
		}
		g, dd := int64((top-s2)/u), int64(d/u) // exact integers below 2^53
		k := min((g-1)/dd, int64(c))
		s = s2 + float64(float64(k*dd)*u) // exact: a multiple of u below top; the conversion forbids fusion
		c -= int(k)
	}
	return s
}

// addEach adds t to s c times, one addition after another.
func addEach(s, t float64, c int) float64 {
	for range c {
		s += t
	}
	return s
}

// spacing returns the gap u between neighbouring float64 values at s ≥ 0
// and the end top of the range from s on where that gap holds: 2^−1074 up
// to 2^−1022 for zero and subnormal s, else u = 2^(e−52) up to 2^(e+1) for s
// in [2^e, 2^(e+1)). top is +Inf in the last binade, where addRepeated then
// adds one term at a time.
func spacing(s float64) (u, top float64) {
	exp := math.Float64bits(s) >> 52 & 0x7ff
	switch {
	case exp == 0:
		return 0x1p-1074, 0x1p-1022
	case exp >= 2046:
		return math.Inf(1), math.Inf(1)
	case exp > 52:
		u = math.Float64frombits((exp - 52) << 52)
	default:
		u = math.Float64frombits(1 << (exp - 1)) // subnormal: 2^(exp−1075)
	}
	return u, math.Float64frombits((exp + 1) << 52)
}

// capacityError reports slot i's residual capacity outside [0, 1].
func capacityError(i int, r float64) error {
	return &ValueError{Field: fmt.Sprintf("Cluster[%d].R", i), Value: r, Reason: "residual capacity must be in [0, 1]"}
}

// tctError reports a model time on slot i that Eq. 6 cannot use.
func tctError(i int, t float64) error {
	return &ValueError{Field: fmt.Sprintf("TCT(Cluster[%d])", i), Value: t, Reason: "model must give a task time in (0, MaxDuration]"}
}
