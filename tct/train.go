package tct

import (
	"errors"
	"fmt"
)

// A TaskRecord is one measured map task of a job type: the residual CPU
// capacity its slot had when it started and how long it took.
type TaskRecord struct {
	Residual float64 // residual capacity r of the slot, a fraction in [0, 1]
	Duration float64 // task completion time, seconds, > 0
}

// A Training is a job type's fitted TCT model (MIMP §5.1 "model training").
type Training struct {
	// Model predicts the task completion time in seconds (Eq. 1).
	Model Exp2
	// Normalised is Model divided by the dedicated baseline: it predicts
	// TCT relative to a dedicated slot, the quantity MIMP Fig. 6 plots.
	Normalised Exp2
	// Report is the fit of Normalised to the normalised durations. Its
	// NRMSE (Eq. 9, scale-free, so the same for Model) is the number MIMP
	// Table 2 reports (7–10% on the paper's cluster); its SSE and RMSE are
	// in units of the baseline.
	Report FitReport
}

// TrainExp2 fits the TCT model of one job type from its task records and
// the dedicated-slot baseline, as MIMP §5.1 and §6.3.1 do: each duration is
// normalised by baseline (the mean task completion time of the job type on
// a dedicated slot, seconds), exp2 is fitted to (Residual, Duration/baseline)
// with FitExp2 and opt, and the fit is scaled back to seconds.
//
// It returns a *ValueError (matching ErrBadInput) when baseline is not a
// finite positive number, a record's Residual is outside [0, 1] or NaN, a
// Duration is not finite and positive (fields such as "tasks[3].Duration"),
// a baseline so small that a normalised duration exceeds 1e100 ("baseline"),
// fewer than 4 distinct residual capacities ("tasks"), and for the other
// errors of FitExp2 (weights of the wrong length …). It allocates the
// normalised copies of the data.
func TrainExp2(tasks []TaskRecord, baseline float64, opt FitOptions) (Training, error) {
	if !exp2Finite(baseline) || !(baseline > 0) {
		return Training{}, &ValueError{Field: "baseline", Value: baseline, Reason: "must be finite and > 0"}
	}
	if len(tasks) > MaxFitPoints {
		return Training{}, &ValueError{Field: "len(tasks)", Value: len(tasks), Reason: fmt.Sprintf("must be at most MaxFitPoints = %d", MaxFitPoints)}
	}
	x := make([]float64, len(tasks))
	y := make([]float64, len(tasks))
	for i, t := range tasks {
		if !(t.Residual >= 0 && t.Residual <= 1) {
			return Training{}, &ValueError{Field: fmt.Sprintf("tasks[%d].Residual", i), Value: t.Residual, Reason: "must be in [0, 1]"}
		}
		if !exp2Finite(t.Duration) || !(t.Duration > 0) {
			return Training{}, &ValueError{Field: fmt.Sprintf("tasks[%d].Duration", i), Value: t.Duration, Reason: "must be finite and > 0"}
		}
		x[i] = t.Residual
		y[i] = t.Duration / baseline
		if !(y[i] <= fitMaxAbs) {
			// A subnormal baseline: the normalised duration leaves the
			// range FitExp2 takes. Name the caller's field, not y[i].
			return Training{}, &ValueError{Field: "baseline", Value: baseline,
				Reason: fmt.Sprintf("too small: tasks[%d].Duration / baseline = %v is above 1e100", i, y[i])}
		}
	}
	norm, rep, err := FitExp2(x, y, opt)
	if err != nil {
		var ve *ValueError
		if errors.As(err, &ve) && ve.Field == "x" {
			// FitExp2's x is the records' residuals.
			return Training{}, &ValueError{Field: "tasks", Value: ve.Value, Reason: "need at least 4 distinct Residual values with positive weight"}
		}
		return Training{}, err
	}
	model := Exp2{A: norm.A * baseline, B: norm.B, C: norm.C * baseline, D: norm.D}
	if model.Validate() != nil {
		// Only a baseline near the float64 maximum can overflow the scale-up.
		return Training{}, &ValueError{Field: "baseline", Value: baseline, Reason: "too large: the scaled model overflows"}
	}
	return Training{Model: model, Normalised: norm, Report: rep}, nil
}
