package admission

import "reflect"

// A Quantiler is a distribution of how much longer than predicted a task
// runs: of the ratio observed task time / TCT_j(r), 1 meaning the model was
// exact. Quantile(p) returns its p-quantile for p in [0, 1] or an error.
// jct.Lognormal and jct.Distribution satisfy it, so a caller fits the
// ratios with tct/jct (LognormalFromSamples of observed/predicted, or
// LognormalFromMoments(1, NRMSE²) for an unbiased model whose relative
// error is known) without admission importing tct.
type Quantiler interface {
	Quantile(p float64) (float64, error)
}

// MarginAt returns wave mode's margin (Options.Margin) at confidence p in
// [0, 1]: the p-quantile of the ratio distribution d, so that each planned
// task time TCT_j(r) × margin covers the task's real time with probability
// p. A biased model is corrected too: if tasks run 10% longer than
// predicted on average, the ratios say so.
//
// p is per task. A job meets its planned completion when every task on the
// chain that ends it does, so a job whose last wave has k tasks is covered
// with probability about p^k if task errors are independent; to cover it
// with probability P use p = P^(1/k). The plan is a list schedule on
// heterogeneous slots, where shorter tasks can occasionally delay a job
// (Graham's anomalies), so the margin is a safety factor, not a
// guarantee.
//
// Errors (matching ErrBadInput): d nil (a nil interface, or a nil pointer,
// map, func or channel in it) ("Quantiler"); p outside [0, 1] or NaN ("p");
// d.Quantile's own error, wrapped (errors.Is and errors.As reach it, such
// as jct.ErrBadInput), or a quantile that is not in (0, MaxMargin]
// ("Quantile(p)").
func MarginAt(d Quantiler, p float64) (float64, error) {
	if nilQuantiler(d) {
		return 0, &ValueError{Field: "Quantiler", Value: 0, Reason: "nil distribution"}
	}
	if !(p >= 0 && p <= 1) {
		return 0, &ValueError{Field: "p", Value: p, Reason: "confidence must be in [0, 1]"}
	}
	m, err := d.Quantile(p)
	if err != nil {
		return 0, &ValueError{Field: "Quantile(p)", Value: p, Reason: "the distribution failed", Err: err}
	}
	if !(m > 0 && m <= MaxMargin) {
		return 0, &ValueError{Field: "Quantile(p)", Value: m, Reason: "margin must be in (0, MaxMargin]"}
	}
	return m, nil
}

// nilQuantiler reports whether d is nil or holds a nil pointer, map, func
// or channel.
func nilQuantiler(d Quantiler) bool {
	if d == nil {
		return true
	}
	switch v := reflect.ValueOf(d); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}
