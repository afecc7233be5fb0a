package tct

import (
	"fmt"
	"math"
)

// FitOptions tunes FitExp2. The zero value is ready to use: unit weights and
// the default iteration budget.
type FitOptions struct {
	// Weights, when not nil, weight each squared residual: FitExp2 minimises
	// Σ Weights[i]·(y[i] − TCT(x[i]))². It must have len(x) elements, each
	// in [0, 1e100] (so the weighted SSE of data up to 1e100 stays finite:
	// a weight of 1e300 makes even the rounding of a value of 1e100
	// overflow it); a zero weight ignores the point entirely (it sets no
	// scale and counts in no report figure). nil means all 1.
	Weights []float64

	// MaxIterations bounds each Levenberg–Marquardt run (the exploratory
	// run from each start and the polishing run); a polish that ends on it
	// while still descending (its SSE below half of where it began) goes on
	// from its end point, at most twice more. Zero means 100; negative is
	// an error.
	MaxIterations int
}

// FitReport describes how well an exp2 fit matches its data and how the
// search went.
type FitReport struct {
	// SSE is the weighted sum of squared residuals Σ wᵢ(yᵢ − TCT(xᵢ))² of the
	// returned model, in squared y units (wᵢ = 1 without weights).
	SSE float64
	// RMSE is Eq. 8, √(Σ(yᵢ − TCT(xᵢ))²/n), unweighted, over the n points
	// with positive weight (all points without weights).
	RMSE float64
	// NRMSE is Eq. 9, RMSE/(max y − min y) over the same points; 0 when
	// those y are all equal (the fit is then exact).
	NRMSE float64
	// Iterations is the number of Levenberg–Marquardt iterations of the
	// winning start, exploration plus polish (at most 4·MaxIterations); 0
	// when no search was needed (constant y).
	Iterations int
	// Evaluations counts model evaluations over all runs and the rate
	// pairs the scan screened.
	Evaluations int
	// Converged reports that the winning run stopped on a convergence test
	// (or the fit is exact), not on MaxIterations.
	Converged bool
	// Collapsed reports that the search ended with b = d to working
	// precision (the rates agree to √ε, or the two terms cancel each other
	// by more than 10⁸ times the data, losing half of float64's digits).
	// That is the limit of exp2 towards one exponential plus a linear term,
	// t·e^(b·x), which is not exp2, so the returned model is then the best
	// one-exponential fit in exp2 form (C = 0, D = 0), or a run that ended
	// at separated rates with a lower SSE if there is one.
	Collapsed bool
	// Cancellation is the size of the larger term A·e^(B·x) or C·e^(D·x)
	// over the data's x range, divided by max|y|: about 1 when the terms are
	// well separated. Large values (≥ 10³) mean the fit approaches b = d
	// with large opposite amplitudes: the curve is fine but A and C are
	// ill-determined. NIST BoxBOD's best exp2 has about 10⁴; collapse is
	// declared beyond 10⁸.
	Cancellation float64
	// Start is the start point of the winning run.
	Start FitStart
}

// FitStart is a start point of the rate search, in the units of x.
type FitStart struct {
	// Kind says where the start came from (see the package doc):
	// "residual" (the best one-exponential rate paired with the scanned
	// rate that best fits its residual), "relaxed" (a local minimum of the
	// scan's table with both rates free to first order, moved by that
	// first-order step), "scan" (a local minimum of the scan's table of
	// rate pairs, or its lowest representable pair), "halves" (log-linear
	// fits of the lower and upper half of the x range), "spike" (the best
	// one-exponential rate paired with a bound of the rate box), "through"
	// (a point of the separation profile from a run that ended near
	// b = d), "single" (the one-exponential fit used when the search
	// collapsed) or "constant" (all y equal; no search).
	Kind string
	// B and D are the start rates.
	B, D float64
}

// FitExp2 fits the exp2 model of Eq. 1, y ≈ A·e^(B·x) + C·e^(D·x), to the
// points (x[i], y[i]) by (weighted) nonlinear least squares, as MATLAB's
// fit(x, y, 'exp2') does, and reports the fit's quality (Eq. 8–9).
//
// Method (variable projection): x is mapped to t = (x − min x)/(max x − min x)
// ∈ [0, 1] and y is divided by max|y|, so no data scale can overflow exp. For
// fixed rates the best amplitudes are an exact two-column weighted linear
// least-squares solve, so the search runs over the two rates only, in the
// bounded box below. A scan covers the box: rates whose normalised columns
// lie a bounded angle apart, every pair of them and every limit b = d
// screened, plain and with both rates free to first order.
// Levenberg–Marquardt with Kaufman's Jacobian of the projected residual runs
// from the scan's lowest local minima and lowest representable pair, from
// the best one-exponential fit paired with the scanned rate that best
// completes it and with each bound of the box (that rate then searched in
// its tail e^(rate·h), h the gap from the end point to the next one), and
// from log-linear fits of the two halves of the data; it stops early when
// its first two runs settle well inside the exp2 family. The best run is polished, and from the lowest
// run that ended near b = d the rates are followed apart. The lowest SSE
// wins; ties go to the earlier start; the result is deterministic. Unless
// the fit collapses to b = d, its SSE is at most that of every pair of
// scanned rates whose terms stay within 10⁸ times the data; the package doc
// states what that guarantees, under which conditions, and what the search
// reaches beyond it.
//
// Rates are kept within |B|·max|x| ≤ 300 and |B|·(max x − min x) ≤ 200 (the
// same for D), so every returned parameter is finite and TCT is finite on
// the data. Data whose best fit needs steeper rates (e^300 ≈ 10^130 change
// over the data) get the best fit within those bounds.
//
// Edge cases: all y equal gives the exact fit A = y, B = C = D = 0. Data of a
// single exponential give it back (the second term then has C ≈ 0). When the
// search collapses to B = D (see FitReport.Collapsed) the best
// one-exponential fit is returned in exp2 form with C = D = 0.
//
// Errors (each a *ValueError matching ErrBadInput): len(x) ≠ len(y), a
// weight slice of another length, a NaN or infinite x, y or weight (the
// field names its index, e.g. "y[17]"), |x|, |y| or a weight above 1e100, x values
// spanning less than 1e-300 (but not all equal), more than MaxFitPoints
// points, a negative weight, a negative MaxIterations, or fewer than 4
// distinct x values with positive weight. FitExp2 does not modify its
// arguments.
func FitExp2(x, y []float64, opt FitOptions) (Exp2, FitReport, error) {
	var w fitWork
	if err := w.load(x, y, opt); err != nil {
		return Exp2{}, FitReport{}, err
	}
	m, rep := w.solve()
	fitReportQuality(&rep, m, x, y, opt.Weights)
	return m, rep, nil
}

// fitMaxAbs bounds |x| and |y| so that squares and sums stay finite.
const fitMaxAbs = 1e100

// fitMinSpan is the least max x − min x of data with distinct x: rates are
// per unit of x and reach 200/span, so a smaller span (a subnormal one
// above all) would give rates, and start points, beyond float64.
const fitMinSpan = 1e-300

// MaxFitPoints bounds len(x) of FitExp2 and the task records of TrainExp2:
// the search keeps a few dozen float64 per point, so a fit at the bound
// takes about a second and a quarter of a GiB (see Limits in the package
// doc).
const MaxFitPoints = 1 << 20

// Rate bounds in units of the unit span t ∈ [0, 1].
const (
	fitMaxRateSpan = 200.0 // |β| ≤ 200: e^β over the data
	fitMaxRateAbs  = 300.0 // |b|·max|x| ≤ 300: converting back to x is finite
)

// fitReportQuality fills the SSE, RMSE and NRMSE of rep from model m on the
// original data, over the points with positive weight (all without weights).
func fitReportQuality(rep *FitReport, m Exp2, x, y, weights []float64) {
	var sse, ss float64
	n := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range x {
		wi := 1.0
		if weights != nil {
			if wi = weights[i]; !(wi > 0) {
				continue
			}
		}
		r := y[i] - m.TCT(x[i])
		ss += r * r
		sse += wi * r * r
		n++
		lo, hi = min(lo, y[i]), max(hi, y[i])
	}
	rep.SSE = sse
	rep.RMSE = math.Sqrt(ss / float64(n))
	rep.NRMSE = 0
	if hi > lo {
		rep.NRMSE = rep.RMSE / (hi - lo)
	}
}

// fitValidate checks the inputs of FitExp2 and returns the first problem.
func fitValidate(x, y []float64, opt FitOptions) error {
	if len(x) != len(y) {
		return &ValueError{Field: "len(y)", Value: len(y), Reason: fmt.Sprintf("must equal len(x) = %d", len(x))}
	}
	if opt.Weights != nil && len(opt.Weights) != len(x) {
		return &ValueError{Field: "len(Weights)", Value: len(opt.Weights), Reason: fmt.Sprintf("must equal len(x) = %d", len(x))}
	}
	if opt.MaxIterations < 0 {
		return &ValueError{Field: "MaxIterations", Value: opt.MaxIterations, Reason: "must be ≥ 0"}
	}
	if len(x) > MaxFitPoints {
		return &ValueError{Field: "len(x)", Value: len(x), Reason: fmt.Sprintf("must be at most MaxFitPoints = %d", MaxFitPoints)}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range x {
		if err := fitCheckValue("x", i, x[i]); err != nil {
			return err
		}
		if err := fitCheckValue("y", i, y[i]); err != nil {
			return err
		}
		if opt.Weights != nil {
			wi := opt.Weights[i]
			if !exp2Finite(wi) || !(wi >= 0) || wi > fitMaxAbs {
				return &ValueError{Field: fmt.Sprintf("Weights[%d]", i), Value: wi, Reason: "must be finite, ≥ 0 and ≤ 1e100"}
			}
		}
		lo, hi = min(lo, x[i]), max(hi, x[i])
	}
	if span := hi - lo; span > 0 && span < fitMinSpan {
		return &ValueError{Field: "x", Value: span, Reason: "spans less than 1e-300: rates per unit of x would overflow"}
	}
	return nil
}

// fitCheckValue checks one data value: finite and at most fitMaxAbs.
func fitCheckValue(name string, i int, v float64) error {
	if !exp2Finite(v) {
		return &ValueError{Field: fmt.Sprintf("%s[%d]", name, i), Value: v, Reason: "must be finite"}
	}
	if math.Abs(v) > fitMaxAbs {
		return &ValueError{Field: fmt.Sprintf("%s[%d]", name, i), Value: v, Reason: "magnitude must be ≤ 1e100"}
	}
	return nil
}
