package preempt

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Deficiency is a job's share minus the slots it runs, in slots (GP §V):
// freed slots go first to the job with the largest deficiency. It is
// negative for a job above its share. share must be finite and ≥ 0 and
// running ≥ 0; otherwise it returns 0 and an error matching ErrBadInput.
func Deficiency(share float64, running int) (float64, error) {
	if !(share >= 0) || math.IsInf(share, 1) {
		return 0, bad("share", share, "must be finite and ≥ 0")
	}
	if running < 0 {
		return 0, bad("running", running, "must be ≥ 0")
	}
	return deficiency(share, running), nil
}

func deficiency(share float64, running int) float64 { return share - float64(running) }

// DeficiencyOrder returns the job indices 0…len(shares)−1 in the order freed
// slots should go to them (GP §V): largest deficiency share[j] − running[j]
// first, ties to the lower index. shares must be finite and ≥ 0, running ≥ 0,
// both of one length, at most MaxJobs. It writes into dst[:0] (pass nil to
// allocate) and returns it; it allocates nothing when dst has room.
func DeficiencyOrder(shares []float64, running []int, dst []int) ([]int, error) {
	if err := checkLen("shares", len(shares), MaxJobs, "MaxJobs"); err != nil {
		return dst[:0], err
	}
	if len(shares) != len(running) {
		return dst[:0], bad("running", len(running), fmt.Sprintf("length must equal len(shares) = %d", len(shares)))
	}
	for j, s := range shares {
		if !(s >= 0) || math.IsInf(s, 1) {
			return dst[:0], bad(fmt.Sprintf("shares[%d]", j), s, "must be finite and ≥ 0")
		}
		if running[j] < 0 {
			return dst[:0], bad(fmt.Sprintf("running[%d]", j), running[j], "must be ≥ 0")
		}
	}
	dst = dst[:0]
	for j := range shares {
		dst = append(dst, j)
	}
	slices.SortFunc(dst, func(a, b int) int {
		return cmp.Or(
			cmp.Compare(deficiency(shares[b], running[b]), deficiency(shares[a], running[a])),
			cmp.Compare(a, b),
		)
	})
	return dst, nil
}
