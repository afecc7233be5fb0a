package edf

import "math"

// TCTError is the estimation error of the TCT models that MP protects
// deadlines against (MPOptions.TCTError; beyond MIMP). It summarises the
// distribution of the ratio ν = a task's real completion time / its model's
// TCT_j(r) by two numbers, for the confidence p at which the caller wants
// deadlines kept; ErrorAt derives them from a distribution of ν.
//
// The zero value switches the protection off: MP is MIMP's. Otherwise Mean
// is finite and > 0 and Spread finite and ≥ 0. TCTError{Mean: 1} is an
// exact model: Eq. 3 as printed, with the late-task rule on the predicted
// times.
//
// # How MP uses it
//
// A job j with n remaining tasks (pending plus running) and slot rate sum
// ρ_j = Σ 1/TCT_j(R_i) finishes by its deadline, by Eq. 3, if (D_j −
// now)·ρ_j ≥ n: each task takes its predicted time. With errors its tasks
// take Σ ν_i predicted times, so at confidence p the test needs (D_j −
// now)·ρ_j ≥ Q_p(ν_1 + … + ν_n), the p-quantile of that sum. For independent
// task errors the sum has mean n·Mean and a spread that grows as √n (its
// standard deviation is √n times one task's), so MP covers it with
//
//	cover(n) = n·Mean + √n·Spread,   Spread = Q_p(ν) − Mean
//
// and a job is at risk while CompletableTasks < Margin·cover(n). For
// one task cover(1) is exactly the p-quantile of ν (admission.MarginAt's
// margin); for normally distributed ν it is the p-quantile of the sum at
// every n (Q_p(ν) − Mean = z_p·σ); for a right-skewed ν, such as task
// times, the sum's skew shrinks as 1/√n while cover keeps one task's, so the
// cover errs on the safe side (to the first order of the Cornish–Fisher
// expansion).
//
// Eq. 3 counts a slot's rate 1/TCT_j(r) as progress even when the one task
// it would run there ends after the deadline. The late-task rule closes that
// gap: a task started now on a slot where it takes t = TCT_j(r) ends by
// now + t·cover(1) with probability p; if that is after D_j while on a
// dedicated slot it would end in time (now + TCT_j(Dedicated)·cover(1) ≤
// D_j), MP does not give job j this slot, in either step: a faster slot can
// still serve the job. A job that would be late even on a dedicated slot is
// not refused (it is late anyway, and refusing it would starve it).
//
// What it trades: a larger Mean or Spread makes MP at risk sooner (never
// later: cover is non-decreasing in both for every n ≥ 1) and so closer to
// EDF with an IO check; the late-task rule keeps tasks off slots too slow for
// their deadline, which saves task time as well as deadlines.
type TCTError struct {
	// Mean is E[ν]: 1 for an unbiased model, 1.1 for one whose tasks run 10%
	// longer than predicted on average.
	Mean float64
	// Spread is how far ν's p-quantile lies above its mean, Q_p(ν) − Mean,
	// floored at 0: the margin beyond the mean within which one task's
	// real time stays with probability p.
	Spread float64
}

// on reports whether e switches the protection on.
func (e TCTError) on() bool { return e != TCTError{} }

// taskCover is cover(1), the factor a single task's predicted time is
// covered by: Mean + Spread, the p-quantile of ν.
func (e TCTError) taskCover() float64 { return e.Mean + e.Spread }

// check validates e as MPOptions.TCTError.
func (e TCTError) check() error {
	if !e.on() {
		return nil
	}
	if !(e.Mean > 0 && e.Mean <= math.MaxFloat64) {
		return &ValueError{Field: "MPOptions.TCTError.Mean", Value: e.Mean, Reason: "must be finite and > 0 (or the whole TCTError zero: no protection)"}
	}
	if !(e.Spread >= 0 && e.Spread <= math.MaxFloat64) {
		return &ValueError{Field: "MPOptions.TCTError.Spread", Value: e.Spread, Reason: "must be finite and >= 0"}
	}
	return nil
}

// lateBand returns the deadlines the late-task rule refuses a task of time
// t on this slot for, at now, for a job whose task takes ded on a dedicated
// slot and with c = taskCover(): the job is refused iff lo ≤ D < hi, with
// lo = now + ded·c (later deadlines are reachable on a dedicated slot) and
// hi = now + t·c (earlier ones are missed on this slot). MP's one pass and
// its index compute the band with this one function, so they refuse the
// same jobs bit for bit.
func lateBand(now, t, ded, c float64) (lo, hi float64) {
	return now + ded*c, now + t*c
}

// An ErrorDistribution is a distribution of ν = a task's real completion
// time / its model's TCT_j(r): Mean is E[ν] and Quantile(p) its p-quantile
// for p in [0, 1] or an error. jct.Distribution (of observed/predicted
// ratios) and jct.Lognormal satisfy it, without edf importing tct.
type ErrorDistribution interface {
	Mean() float64
	Quantile(p float64) (float64, error)
}

// ErrorAt returns the TCTError of distribution d at confidence p in [0, 1]:
// Mean = d.Mean() and Spread = d.Quantile(p) − Mean, floored at 0 (a
// quantile below the mean covers nothing beyond it). With it a single task
// is covered at its p-quantile, as admission.MarginAt's margin covers it,
// and n tasks by n·Mean + √n·Spread (TCTError's doc says why).
//
// p is the confidence with which MP's at-risk test expects a job's
// remaining tasks, and the late-task rule a single task, to finish by the
// deadline. Errors (matching ErrBadInput), each naming the field: d nil (a
// nil interface, or a nil pointer, map, func or channel in it)
// ("ErrorDistribution"); p NaN or outside [0, 1] ("p"); a mean that is not
// finite and > 0 ("Mean()"); d.Quantile's own error, wrapped (errors.Is
// and errors.As reach it), or a quantile that is NaN, infinite or negative
// ("Quantile(p)").
func ErrorAt(d ErrorDistribution, p float64) (TCTError, error) {
	if d == nil || nilValue(d) {
		return TCTError{}, &ValueError{Field: "ErrorDistribution", Value: 0, Reason: "nil distribution"}
	}
	if !(p >= 0 && p <= 1) {
		return TCTError{}, &ValueError{Field: "p", Value: p, Reason: "confidence must be in [0, 1]"}
	}
	m := d.Mean()
	if !(m > 0 && m <= math.MaxFloat64) {
		return TCTError{}, &ValueError{Field: "Mean()", Value: m, Reason: "the mean ratio of real to predicted task time must be finite and > 0"}
	}
	q, err := d.Quantile(p)
	if err != nil {
		return TCTError{}, &ValueError{Field: "Quantile(p)", Value: p, Reason: "the distribution failed", Err: err}
	}
	if !(q >= 0 && q <= math.MaxFloat64) {
		return TCTError{}, &ValueError{Field: "Quantile(p)", Value: q, Reason: "the quantile must be finite and >= 0"}
	}
	return TCTError{Mean: m, Spread: max(0, q-m)}, nil
}
