package preempt

import (
	"fmt"
	"math"
)

// Default parameters of GP §V–VI.
const (
	DefaultBusySlots        = 0.9  // p: a slot sample is busy above 90% occupancy
	DefaultBusyTime         = 0.8  // t: the cluster is busy above 80% of the window
	DefaultWindow           = 180  // the observation window, 3 minutes, in seconds
	DefaultKillFraction     = 0.5  // graduated kill before T_timeout
	DefaultDominantFraction = 0.9  // 90%-of-queue exception
	DefaultPreemptInterval  = 10.0 // Algorithm 1's preemptInterval in seconds
)

// Starves reports whether a long job starves the others: the three
// conditions of GP §V all hold.
//
//  1. the job holds more slots than its fair share: held > share;
//  2. the cluster is busy (for more than t% of the window more than p% of
//     slots were occupied; see OccupancyWindow.Busy);
//  3. the slots requested by the other jobs' queued tasks exceed n_task:
//     queued > nTask (see NTask). queued leaves out the long job's own
//     queued tasks: a job does not starve itself, and counting them would
//     let each starvation kill, which queues the victims again, feed the
//     condition that caused it.
//
// Both comparisons are strict. NaN in share, queued or nTask makes the
// answer false.
func Starves(held int, share float64, busy bool, queued int, nTask float64) bool {
	return float64(held) > share && busy && float64(queued) > nTask
}

// NTask is the n_task threshold of starvation condition (3) from Little's
// law (GP §V, Eq. 1–2): E(ANP) = (L − L_queueing)/L, so keeping the mean
// ANP above π needs a mean queue length below L·(1 − π). L is the mean number
// in the system (jobs, or tasks if the queue is counted in tasks, as
// condition (3) does), ≥ 0 and finite; π ∈ [0, 1]. It returns L·(1 − π):
// L for π = 0, 0 for π = 1.
func NTask(l, pi float64) (float64, error) {
	if !(l >= 0) || math.IsInf(l, 1) {
		return 0, bad("L", l, "must be finite and ≥ 0")
	}
	if !(pi >= 0 && pi <= 1) {
		return 0, bad("pi", pi, "must be in [0, 1]")
	}
	return l * (1 - pi), nil
}

// ExpectedANP is Eq. 2 of GP: E(ANP) = (L − L_queueing)/L, the mean ANP
// implied by L jobs in the system of which lq are queued, by Little's law.
// It needs 0 ≤ lq ≤ L, both finite; L = 0 (an empty system) gives 1.
func ExpectedANP(l, lq float64) (float64, error) {
	if !(l >= 0) || math.IsInf(l, 1) {
		return 0, bad("L", l, "must be finite and ≥ 0")
	}
	if !(lq >= 0 && lq <= l) {
		return 0, bad("Lq", lq, "must be in [0, L]")
	}
	if l == 0 {
		return 1, nil
	}
	return (l - lq) / l, nil
}

// GraduatedKill is the number of a starving long job's overflowing tasks to
// kill (GP §V): while starvation has lasted less than timeout seconds
// (T_timeout), only ⌈fraction·overflow⌉ of them, so one task at least when
// there is any; from timeout on, all of them. overflow ≥ 0, starvingFor ≥ 0
// and timeout ≥ 0 finite, fraction ∈ (0, 1]. A zero timeout kills all at
// once. Every overflow up to math.MaxInt is exact: the result is in
// [0, overflow] (⌈fraction·overflow⌉ is computed in float64, so above 2⁵³ it
// is rounded to a representable count, never past overflow).
func GraduatedKill(overflow int, starvingFor, timeout, fraction float64) (int, error) {
	switch {
	case overflow < 0:
		return 0, bad("overflow", overflow, "must be ≥ 0")
	case !(starvingFor >= 0) || math.IsInf(starvingFor, 1):
		return 0, bad("starvingFor", starvingFor, "must be finite and ≥ 0")
	case !(timeout >= 0) || math.IsInf(timeout, 1):
		return 0, bad("timeout", timeout, "must be finite and ≥ 0")
	case !(fraction > 0 && fraction <= 1):
		return 0, bad("fraction", fraction, "must be in (0, 1]")
	}
	return graduatedKill(overflow, starvingFor, timeout, fraction), nil
}

func graduatedKill(overflow int, starvingFor, timeout, fraction float64) int {
	if starvingFor >= timeout {
		return overflow
	}
	// Compare in float64 before converting: near MaxInt, float64(overflow)
	// rounds up to 2⁶³ and int(2⁶³) is not representable.
	n := math.Ceil(fraction * float64(overflow))
	if n >= float64(overflow) {
		return overflow
	}
	return int(n)
}

// QueueDominated reports the 90%-of-queue exception of GP §VI: more than
// fraction (0.9 in the paper) of the queued demand belongs to one job. When
// it holds, GP kills no long-job task to serve the queue, because a long
// queue made by one large job is not starvation. queued[j] ≥ 0 is job j's
// queued slots, len(queued) ≤ MaxJobs; fraction ∈ (0, 1]. An empty or
// all-zero queue is not dominated. To judge a long job, pass the queues of
// the other jobs, as GP does (see Starves).
func QueueDominated(queued []int, fraction float64) (bool, error) {
	if !(fraction > 0 && fraction <= 1) {
		return false, bad("fraction", fraction, "must be in (0, 1]")
	}
	if err := checkLen("queued", len(queued), MaxJobs, "MaxJobs"); err != nil {
		return false, err
	}
	total, most := 0.0, 0.0
	for j, q := range queued {
		if q < 0 {
			return false, bad(fmt.Sprintf("queued[%d]", j), q, "must be ≥ 0")
		}
		total += float64(q)
		most = max(most, float64(q))
	}
	return total > 0 && most > fraction*total, nil
}
