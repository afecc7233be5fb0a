package edf

import (
	"fmt"
	"math"
)

// checkTasks validates a task count.
func checkTasks(field string, n int) error {
	if n < 0 {
		return &ValueError{Field: field, Value: n, Reason: "must be >= 0"}
	}
	return nil
}

// slotTimes calls f with TCT_j(R_i) for every slot with R_i > 0 and returns
// the number of such slots. R_i must lie in [0, 1].
func slotTimes(m Model, R []float64, f func(t float64)) (int, error) {
	if nilModel(m) {
		return 0, nilModelError("Model")
	}
	n := 0
	for i, r := range R {
		if !(r >= 0 && r <= 1) {
			return 0, checkFraction(fmt.Sprintf("R[%d]", i), r)
		}
		if r == 0 {
			continue // not this job's slot: contributes nothing (Eq. 3; see the package doc)
		}
		t := m.TCT(r)
		if !validTime(t) {
			return 0, &ValueError{Field: fmt.Sprintf("TCT(R[%d])", i), Value: t, Reason: "model predicts a non-finite or non-positive task time"}
		}
		f(t)
		n++
	}
	return n, nil
}

// CompletableTasks returns MIMP Eq. 3:
//
//	CompletableTasks(j, R) = Σ_{i: R_i > 0} tRemaining / TCT_j(R_i)
//
// the number of tasks job j can finish in the tRemaining seconds left to its
// deadline on the slots it holds. R_i is the fraction of slot i allocated to
// the job (1 = a dedicated slot, the residual capacity for a shared slot,
// 0 = not the job's slot). Only slots with R_i > 0 count: the printed sum runs
// over all slots, but TCT(0) is finite under exp2, so a literal reading would
// count tasks on slots the job does not have. The job is on track iff the
// result is ≥ its remaining task count.
//
// A tRemaining ≤ 0 (deadline passed) gives 0, as does an empty R; a result
// beyond the float64 range is +Inf, never NaN. Errors
// (matching ErrBadInput): tRemaining NaN or infinite, an R_i outside [0, 1],
// a nil model, or a model predicting a non-finite or non-positive time on a
// held slot.
func CompletableTasks(m Model, tRemaining float64, R []float64) (float64, error) {
	if math.IsNaN(tRemaining) || math.IsInf(tRemaining, 0) {
		return 0, &ValueError{Field: "tRemaining", Value: tRemaining, Reason: "must be finite"}
	}
	rate := 0.0
	if _, err := slotTimes(m, R, func(t float64) { rate += 1 / t }); err != nil {
		return 0, err
	}
	if tRemaining <= 0 {
		return 0, nil
	}
	return tRemaining * rate, nil
}

// CompletionTime returns MIMP Eq. 4 as we read it, the predicted map-phase
// completion time in seconds:
//
//	CompletionTime(j, R) = nTasks · Σ_{i: R_i > 0} TCT_j(R_i) / n²
//
// with n the number of slots with R_i > 0: the average TCT over the job's
// slots times the number of waves nTasks/n. The printed Eq. 4 divides by n
// once, which is the time for ONE slot to run every task; we use Eq. 6's
// normalisation instead so that Eq. 4 and the admission test agree. This is
// MIMP's estimator (used by admission, and what Fig. 7 plots); it is
// exact only on identical slots. For heterogeneous slots prefer
// CompletionTimeRate.
//
// nTasks = 0 gives 0. No held slot (n = 0) with nTasks > 0 gives +Inf: the
// job will never finish; so does a sum beyond the float64 range. Never NaN.
// Errors as for CompletableTasks, plus nTasks < 0.
func CompletionTime(m Model, nTasks int, R []float64) (float64, error) {
	if err := checkTasks("nTasks", nTasks); err != nil {
		return 0, err
	}
	sum := 0.0
	n, err := slotTimes(m, R, func(t float64) { sum += t })
	if err != nil {
		return 0, err
	}
	if nTasks == 0 {
		return 0, nil
	}
	if n == 0 {
		return math.Inf(1), nil
	}
	fn := float64(n)
	return float64(nTasks) * (sum / fn) / fn, nil
}

// CompletionTimeRate returns the rate form of the map-phase completion time,
//
//	nTasks / Σ_{i: R_i > 0} 1/TCT_j(R_i)
//
// the fluid makespan when each held slot i completes 1/TCT_j(R_i) tasks per
// second. It is the exact inverse of Eq. 3 (the job is on track iff
// CompletionTimeRate ≤ tRemaining), and it is what the pickers use. On
// identical slots it equals CompletionTime; otherwise it is smaller or equal
// (harmonic vs arithmetic mean). Edge cases and errors as CompletionTime;
// a rate sum that overflows to +Inf gives 0.
func CompletionTimeRate(m Model, nTasks int, R []float64) (float64, error) {
	if err := checkTasks("nTasks", nTasks); err != nil {
		return 0, err
	}
	rate := 0.0
	if _, err := slotTimes(m, R, func(t float64) { rate += 1 / t }); err != nil {
		return 0, err
	}
	if nTasks == 0 {
		return 0, nil
	}
	if !(rate > 0) {
		return math.Inf(1), nil
	}
	return float64(nTasks) / rate, nil
}
