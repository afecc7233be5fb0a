package replay

import (
	"math"
	"time"

	"github.com/schedkit/schedkit/tct"
)

// A Result is what one configuration did at one load.
type Result struct {
	Config Config  `json:"config"`
	Rep    int     `json:"rep"`
	Load   string  `json:"load"` // "own", or the multiple of capacity
	Offer  float64 `json:"offeredLoad"`
	Jobs   int     `json:"jobs"`
	Met    int     `json:"met"`
	// Missed: admitted or not, not complete by the deadline (and not
	// rejected); Rejected: by the check.
	Missed int `json:"missed"`
	// Unfinished: of the missed, those neither complete nor failed when
	// the run stopped.
	Unfinished int `json:"unfinished"`
	Rejected   int `json:"rejected"`
	// Admitted counts the Jobs Kueue admitted; AdmittedMissed those of them
	// that missed; MissedShare is their ratio (0 with none admitted).
	Admitted       int     `json:"admitted"`
	AdmittedMissed int     `json:"admittedMissed"`
	MissedShare    float64 `json:"admittedMissedShare"`
	// WaitP50 and WaitP90: seconds from a Job's creation to its admission,
	// over the admitted Jobs.
	WaitP50 float64 `json:"waitP50"`
	WaitP90 float64 `json:"waitP90"`
	// Preempted pods and their run time lost, pod-seconds.
	Preempted int     `json:"preemptedPods"`
	WorkLost  float64 `json:"workLostSeconds"`
	// CPU seconds over the run: Kueue's manager plus schedkit-deadline, and
	// the scheduler the pods use.
	ControllerCPU float64 `json:"controllerCPUSeconds"`
	SchedulerCPU  float64 `json:"schedulerCPUSeconds"`
	// OverheadP50 and OverheadP90: seconds from admission to completion
	// beyond the pods' run time (the control plane's start delay and
	// finish), over the admitted Jobs that completed.
	OverheadP50 float64  `json:"overheadP50Seconds"`
	OverheadP90 float64  `json:"overheadP90Seconds"`
	ETA         ETAStats `json:"eta"`
	// Phases splits the time from creation to completion into its steps.
	Phases []PhaseStat `json:"phases"`
	Wall   float64     `json:"wallSeconds"`
	// LoadAvg is the machine's 1-minute load average when the run started
	// and when it ended (/proc/loadavg; 0 where it cannot be read).
	LoadAvg  [2]float64 `json:"loadAverage"`
	Outcomes []Outcome  `json:"outcomes"`
}

// ETAStats compares the check's first ETA of every workload that waited
// (had an ETA, was admitted and completed) with what happened.
type ETAStats struct {
	N int `json:"n"`
	// StartErrP50: median |predicted start p50 − admission|, seconds;
	// StartCover90: share admitted by their predicted start p90.
	StartErrP50  float64 `json:"startErrP50Seconds"`
	StartCover90 float64 `json:"startCoverage90"`
	// FinishRelErrP50: median |predicted finish p50 − completion| over
	// (completion − the ETA's time); FinishCover90: share completed by
	// their predicted finish p90.
	FinishRelErrP50 float64 `json:"finishRelErrP50"`
	FinishCover90   float64 `json:"finishCoverage90"`
}

// Summarize computes a configuration's result from its outcomes.
func Summarize(c Config, load string, offer float64, outs []Outcome, cpu cpuReading, wall time.Duration) Result {
	r := Result{Config: c, Load: load, Offer: offer, Jobs: len(outs), Outcomes: outs,
		ControllerCPU: cpu.controller, SchedulerCPU: cpu.scheduler, Wall: wall.Seconds()}
	var waits, overheads, startErr, finishErr []float64
	var startIn, finishIn int
	for i := range outs {
		o := &outs[i]
		switch {
		case o.Met():
			r.Met++
		case o.Rejected:
			r.Rejected++
		default:
			r.Missed++
			if o.Finished.IsZero() && !o.Failed {
				r.Unfinished++
			}
		}
		r.Preempted += o.Preempted
		r.WorkLost += o.WorkLost
		if o.Admitted.IsZero() {
			continue
		}
		r.Admitted++
		if !o.Met() {
			r.AdmittedMissed++
		}
		waits = append(waits, max(0, o.Admitted.Sub(o.Created).Seconds()))
		if !o.Finished.IsZero() {
			overheads = append(overheads, o.Finished.Sub(o.Admitted).Seconds()-o.Sub.Run.Seconds())
		}
		if e := o.ETA; e != nil && !o.Finished.IsZero() {
			r.ETA.N++
			startErr = append(startErr, math.Abs(e.StartP50.Sub(o.Admitted).Seconds()))
			if !o.Admitted.After(e.StartP90) {
				startIn++
			}
			span := math.Max(o.Finished.Sub(e.Seen).Seconds(), 1)
			finishErr = append(finishErr, math.Abs(e.FinishP50.Sub(o.Finished).Seconds())/span)
			if !o.Finished.After(e.FinishP90) {
				finishIn++
			}
		}
	}
	if r.Admitted > 0 {
		r.MissedShare = float64(r.AdmittedMissed) / float64(r.Admitted)
	}
	r.WaitP50, r.WaitP90 = quantile(waits, 0.5), quantile(waits, 0.9)
	r.Phases = phases(outs)
	r.OverheadP50, r.OverheadP90 = quantile(overheads, 0.5), quantile(overheads, 0.9)
	if r.ETA.N > 0 {
		r.ETA.StartErrP50 = quantile(startErr, 0.5)
		r.ETA.FinishRelErrP50 = quantile(finishErr, 0.5)
		r.ETA.StartCover90 = float64(startIn) / float64(r.ETA.N)
		r.ETA.FinishCover90 = float64(finishIn) / float64(r.ETA.N)
	}
	return r
}

// quantile is the q-quantile of xs (tct.Percentile: linear between
// closest ranks), 0 for none; the replay's samples are finite durations.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	v, err := tct.Percentile(xs, 100*q)
	if err != nil {
		panic(err) // a NaN or infinite duration: a defect of the replay
	}
	return v
}
