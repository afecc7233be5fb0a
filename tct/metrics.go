package tct

import (
	"fmt"
	"math"
)

// RMSE returns the root mean square error of predictions against
// observations, MIMP Eq. 8:
//
//	RMSE = √(Σᵢ (obs[i] − pred[i])² / n)
//
// in the observations' unit. It returns a *ValueError (matching ErrBadInput)
// when the slices are empty or of different lengths, or hold a NaN or
// infinite value (the field names its index). A sum that overflows gives an
// error too, never +Inf.
func RMSE(obs, pred []float64) (float64, error) {
	if err := metricsCheck(obs, pred); err != nil {
		return 0, err
	}
	// Scale by the largest |difference| so that the squares cannot overflow.
	scale := 0.0
	for i := range obs {
		scale = max(scale, math.Abs(obs[i]-pred[i]))
	}
	if math.IsInf(scale, 0) {
		return 0, &ValueError{Field: "obs−pred", Value: scale, Reason: "difference overflows"}
	}
	if scale == 0 {
		return 0, nil
	}
	var s float64
	for i := range obs {
		d := (obs[i] - pred[i]) / scale
		s += d * d
	}
	return scale * math.Sqrt(s/float64(len(obs))), nil
}

// NRMSE returns the RMSE normalised by the range of the observations, paper
// MIMP Eq. 9:
//
//	NRMSE = RMSE / (max(obs) − min(obs))
//
// a unitless fraction (Table 2 of the paper reports 7–10% for its models).
// When all observations are equal the range is 0: NRMSE is then 0 if the
// predictions match exactly and an error otherwise; a range so small that
// the quotient overflows is an error too. Other errors as RMSE.
func NRMSE(obs, pred []float64) (float64, error) {
	rmse, err := RMSE(obs, pred)
	if err != nil {
		return 0, err
	}
	lo, hi := obs[0], obs[0]
	for _, v := range obs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	rng := hi - lo
	if rng == 0 {
		if rmse == 0 {
			return 0, nil
		}
		return 0, &ValueError{Field: "obs", Value: lo, Reason: "all observations equal: NRMSE undefined for inexact predictions"}
	}
	if math.IsInf(rng, 0) {
		return 0, &ValueError{Field: "max(obs)−min(obs)", Value: rng, Reason: "range overflows"}
	}
	q := rmse / rng
	if math.IsInf(q, 0) {
		return 0, &ValueError{Field: "NRMSE", Value: q, Reason: "overflows: observation range too small for the error"}
	}
	return q, nil
}

// metricsCheck validates the arguments of RMSE and NRMSE.
func metricsCheck(obs, pred []float64) error {
	if len(obs) == 0 {
		return &ValueError{Field: "len(obs)", Value: 0, Reason: "must be > 0"}
	}
	if len(pred) != len(obs) {
		return &ValueError{Field: "len(pred)", Value: len(pred), Reason: fmt.Sprintf("must equal len(obs) = %d", len(obs))}
	}
	for i := range obs {
		if !exp2Finite(obs[i]) {
			return &ValueError{Field: fmt.Sprintf("obs[%d]", i), Value: obs[i], Reason: "must be finite"}
		}
		if !exp2Finite(pred[i]) {
			return &ValueError{Field: fmt.Sprintf("pred[%d]", i), Value: pred[i], Reason: "must be finite"}
		}
	}
	return nil
}
