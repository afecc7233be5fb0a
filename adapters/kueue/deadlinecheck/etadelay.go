package deadlinecheck

import (
	"fmt"

	"github.com/schedkit/schedkit/tct/jct"
)

// The control plane's time in the ETA. A decision takes one start delay,
// D = Config.StartDelay (with -start-delay-quantile, a high quantile of the
// learnt delays: a workload made Ready meets its deadline unless its own
// delay exceeds it). An ETA is a prediction, not a guarantee: its p50 and
// p90 must be the median and the 90th percentile of when the workload
// finishes, so it takes the delay's whole distribution instead. Sample s
// of workload k's time from admission (or now, once admitted) to finish is
//
//	T[k][s] = R[k][s] + max(δ[s] − E[k], 0),  R[k][s] = own[k][s] − max(D − E[k], 0)
//
// where own[k][s] is the decisions' sample (its pods' remaining run time
// with the part of D still ahead added to every pod, drawWork), E[k] the
// time it has been admitted (Workload.Executed), and δ[s] the type-7
// quantile at u[s] = (s + ½)/n of the observed delays (EstimateDelay's
// observations: the latest finished workloads and the lower bounds of
// those running late) — one draw per sample, stratified, independent of
// the run-time draws. The ETA's finish p50 and p90 are the median and the
// 90th percentile over s of start[s] + T[k][s]; the workloads holding
// quota free it after T too. A workload with an exact run time r waiting
// alone thus finishes at r + the delays' median (p50) and r + their 90th
// percentile (p90). Without enough observations (fewer than
// MinDelayObservations finished) there are no draws and T = own: every
// sample takes D. Approximation: a workload admitted longer than D ago
// keeps its run-time draws conditioned on having run E − D.
type etaDelay struct {
	decided float64   // D, seconds
	draws   []float64 // δ[s], seconds; nil: T = own
}

// delayDraws returns δ[s] for n samples: the type-7 quantiles at
// (s + ½)/n of the delays of obs, in seconds; nil when fewer than
// MinDelayObservations of obs are finished or n < 1.
func delayDraws(obs []DelayObservation, n int) ([]float64, error) {
	if finished, _ := split(obs); finished < MinDelayObservations || n < 1 {
		return nil, nil
	}
	xs := make([]float64, len(obs))
	for i, o := range obs {
		xs[i] = o.Delay.Seconds()
	}
	d, err := jct.NewDistribution(xs)
	if err != nil {
		return nil, fmt.Errorf("start delays: %w", err)
	}
	out := make([]float64, n)
	for s := range out {
		if out[s], err = d.Quantile((float64(s) + 0.5) / float64(n)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// times returns T[k][s] for a workload with decision samples own that
// has been admitted executed seconds: own itself without draws.
func (e etaDelay) times(own []float64, executed float64) []float64 {
	if e.draws == nil || own == nil {
		return own
	}
	ahead := max(e.decided-executed, 0)
	out := make([]float64, len(own))
	for s, x := range own {
		out[s] = max(x-ahead, 0) + max(e.draws[s%len(e.draws)]-executed, 0)
	}
	return out
}
