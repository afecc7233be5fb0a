package jct

import (
	"math"
	"strconv"
)

// A SizedModel is a job model measured on one input size (Lee thesis
// §5.2.3). Size is in any unit (e.g. GB), finite and > 0; only the phase
// distributions of Model are used.
type SizedModel struct {
	Size  float64
	Model JobModel
}

// AdjustForSize derives the job model for input size size from models
// measured at two or more distinct sizes (Lee thesis §5.2.3, Fig. 5.12/5.13):
// for each phase (Arrival, Map, Shuffle1, Shuffle2, Reduce) it fits the mean
// and, separately, the variance of the phase's lognormal as straight lines
// in the input size by least squares, evaluates both lines at size
// (interpolation inside the measured range, extrapolation outside), and
// turns them back into a lognormal by Eq. 5.1 (LognormalFromMoments). A
// phase that does not depend on size (the map phase, usually) comes out
// flat by itself. The counts of the result are workers, maps and reduces.
//
// Errors (*ValueError): fewer than two distinct sizes, a bad size or
// measured model, a bad count, or a line that gives a mean ≤ 0 or a
// variance < 0 at size (Field "Reduce.mean at size" and the like). A
// negative variance within 1e-9 of the phase's largest measured variance
// is rounding in the fit and is taken as 0.
func AdjustForSize(measured []SizedModel, size float64, workers, maps, reduces int) (JobModel, error) {
	if !(size > 0) || math.IsInf(size, 1) {
		return JobModel{}, &ValueError{Field: "size", Value: size, Reason: "must be finite and > 0"}
	}
	distinct := 0
	for i, sm := range measured {
		if !(sm.Size > 0) || math.IsInf(sm.Size, 1) {
			return JobModel{}, &ValueError{Field: mcIndexed("measured", i) + ".Size", Value: sm.Size, Reason: "must be finite and > 0"}
		}
		for _, ph := range mcPhases() {
			if err := ph.get(&measured[i].Model).validate(mcIndexed("measured", i) + ".Model." + ph.name + "."); err != nil {
				return JobModel{}, err
			}
		}
		if i == 0 || sm.Size != measured[0].Size {
			distinct++
		}
	}
	if len(measured) < 2 || distinct < 2 {
		return JobModel{}, &ValueError{Field: "measured", Value: len(measured), Reason: "need models at two or more distinct sizes"}
	}
	out := JobModel{Workers: workers, Maps: maps, Reduces: reduces}
	for _, ph := range mcPhases() {
		mean, _ := mcLineAt(measured, size, func(m *JobModel) float64 { return ph.get(m).Mean() })
		variance, scale := mcLineAt(measured, size, func(m *JobModel) float64 { return ph.get(m).Variance() })
		if !(mean > 0) || math.IsInf(mean, 1) {
			return JobModel{}, &ValueError{Field: ph.name + ".mean at size " + strconv.FormatFloat(size, 'g', -1, 64), Value: mean, Reason: "the linear fit must give a finite mean > 0"}
		}
		if variance < 0 && variance >= -1e-9*scale {
			variance = 0
		}
		l, err := LognormalFromMoments(mean, variance)
		if err != nil {
			return JobModel{}, &ValueError{Field: ph.name + ".variance at size " + strconv.FormatFloat(size, 'g', -1, 64), Value: variance, Reason: "the linear fit must give a finite variance ≥ 0"}
		}
		*ph.get(&out) = l
	}
	if err := out.Validate(); err != nil {
		return JobModel{}, err
	}
	return out, nil
}

// mcPhase names one of a JobModel's five phase distributions.
type mcPhase struct {
	name string
	get  func(*JobModel) *Lognormal
}

// mcPhases lists a JobModel's five phase distributions by name.
func mcPhases() [5]mcPhase {
	return [5]mcPhase{
		{"Arrival", func(m *JobModel) *Lognormal { return &m.Arrival }},
		{"Map", func(m *JobModel) *Lognormal { return &m.Map }},
		{"Shuffle1", func(m *JobModel) *Lognormal { return &m.Shuffle1 }},
		{"Shuffle2", func(m *JobModel) *Lognormal { return &m.Shuffle2 }},
		{"Reduce", func(m *JobModel) *Lognormal { return &m.Reduce }},
	}
}

// mcLineAt fits y = a + b·Size by least squares over measured (at least two
// distinct sizes) and returns a + b·x and the largest |y| measured.
func mcLineAt(measured []SizedModel, x float64, y func(*JobModel) float64) (at, scale float64) {
	n := float64(len(measured))
	var sx, sy float64
	for i := range measured {
		sx += measured[i].Size
		yi := y(&measured[i].Model)
		sy += yi
		scale = max(scale, math.Abs(yi))
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for i := range measured {
		dx := measured[i].Size - mx
		sxx += dx * dx
		sxy += dx * (y(&measured[i].Model) - my)
	}
	return my + sxy/sxx*(x-mx), scale
}
