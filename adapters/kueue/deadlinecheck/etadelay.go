package deadlinecheck

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/tct/jct"
)

// The control plane's time in the ETA. A decision takes one start delay,
// D = Config.StartDelay (with -start-delay-quantile, a high quantile of the
// learnt delays: a workload made Ready meets its deadline unless its own
// delay exceeds it). An ETA is a prediction, not a guarantee: its p50 and
// p90 must be the median and the 90th percentile of when the workload
// starts and finishes, so it takes the delays' whole distribution
// instead, from the observations EstimateDelay is taken over (the latest
// finished workloads and the lower bounds of those running late). Each
// observation j gives Delay[j] (the check's Ready to its end, less the
// run time), Decide[j] (QuotaReserved to the check's Ready) and Admit[j]
// (Ready to Admitted). Sample s of n takes u[s] = (s + ½)/n, stratified
// and independent of the run-time draws:
//
//	δ[s]    the type-7 quantile at u[s] of Delay,
//	wait[s] the type-7 quantile at u[s] of Decide + Delay (observations
//	        ordered by it), and lead[s] = Decide + Admit of the same
//	        observations, interpolated with the same weights.
//
// A workload the check made Ready holds quota, from now, for
//
//	T[k][s] = R[k][s] + max(δ[s] − E[k], 0),  R[k][s] = own[k][s] − max(D − E[k], 0)
//
// where own[k][s] is the decisions' sample (its pods' remaining run time
// with the part of D still ahead added to every pod, drawWork) and E[k]
// the time it has been admitted (Workload.Executed). A pending workload
// that gets quota at q[k][s] in the replay of Kueue's queue holds it for
// T[k][s] = R[k][s] + wait[s] and is predicted to start (be admitted) at
// q[k][s] + lead[s] and to finish at q[k][s] + T[k][s]. The ETA's p50 and
// p90 are the median and 90th percentile over s. A workload with an exact
// run time r waiting alone on free quota thus finishes at r plus the
// median of Decide + Delay (p50), r plus their 90th percentile (p90).
// Without enough observations (fewer than MinDelayObservations finished)
// there are no draws: T = own and lead = 0, every sample takes D.
//
// A pending workload's wait and lead are drawn from the workloads that
// waited like it (DelayObservation.Waited: the check gave them an ETA)
// once MinDelayObservations of them have finished; before, from all. The
// workloads that wait for quota are admitted when a running one finishes,
// often several at once, and the control plane then has more to do than
// for a workload admitted on arrival: on the simulated cluster of
// adapters/cluster at half its capacity, their delay had p50 2–3 s and
// p90 3–5 s against 1.4 s and 2.1–3.0 s for the workloads admitted on
// arrival; at twice its capacity, where nearly every workload waits and
// is admitted one at a time, 1.5 s and 2.0–2.1 s against 1.8 s and
// 2.7 s. δ, the delay of the workloads already Ready, is drawn from all.
// Approximation: a workload admitted longer than D ago keeps its run-time
// draws conditioned on having run E − D.
type etaDelay struct {
	decided            float64   // D, seconds
	ready, wait, leads []float64 // δ, wait, lead per sample, seconds; nil: T = own, lead 0
	// pace is Kueue's scheduler's pace through its queue (skips.go;
	// zero: none).
	pace walkPace
}

// delayDraws returns the ETA's delay for n samples from obs, without
// draws when fewer than MinDelayObservations of obs are finished or n < 1;
// waited are the observations of workloads that waited for quota (some
// may be in obs too), a pending workload's wait and lead are drawn from
// them when MinDelayObservations of them are finished.
func delayDraws(obs, waited []DelayObservation, n int, decided float64) (etaDelay, error) {
	e := etaDelay{decided: decided}
	if finished, _ := split(obs); finished < MinDelayObservations || n < 1 {
		return e, nil
	}
	pending := obs
	if finished, _ := split(waited); finished >= MinDelayObservations {
		pending = waited
	}
	xs := make([]float64, len(obs))
	for i, o := range obs {
		xs[i] = o.Delay.Seconds()
	}
	d, err := jct.NewDistribution(xs)
	if err != nil {
		return e, fmt.Errorf("start delays: %w", err)
	}
	byWait := slices.Clone(pending)
	slices.SortFunc(byWait, func(a, b DelayObservation) int {
		return cmp.Or(cmp.Compare(a.Decide+a.Delay, b.Decide+b.Delay), cmp.Compare(a.Decide+a.Admit, b.Decide+b.Admit))
	})
	e.ready, e.wait, e.leads = make([]float64, n), make([]float64, n), make([]float64, n)
	for s := range n {
		u := (float64(s) + 0.5) / float64(n)
		if e.ready[s], err = d.Quantile(u); err != nil {
			return e, err
		}
		// Type-7 between the closest ranks of the observations by wait.
		h := u * float64(len(byWait)-1)
		lo := int(h)
		hi := min(lo+1, len(byWait)-1)
		f := h - float64(lo)
		at := func(g func(DelayObservation) float64) float64 {
			return g(byWait[lo]) + f*(g(byWait[hi])-g(byWait[lo]))
		}
		e.wait[s] = at(func(o DelayObservation) float64 { return (o.Decide + o.Delay).Seconds() })
		e.leads[s] = at(func(o DelayObservation) float64 { return (o.Decide + o.Admit).Seconds() })
	}
	return e, nil
}

// times returns T[k][s] for a workload with decision samples own that
// has been admitted executed seconds (pending: waiting for quota or sent
// to Retry; else the check made it Ready): own itself without draws.
func (e etaDelay) times(own []float64, executed float64, pending bool) []float64 {
	if e.ready == nil || own == nil {
		return own
	}
	return e.appendTimes(make([]float64, 0, len(own)), own, executed, pending)
}

// appendTimes appends T[k][s] for every sample s of own to dst (times with
// draws).
func (e etaDelay) appendTimes(dst, own []float64, executed float64, pending bool) []float64 {
	ahead := max(e.decided-executed, 0)
	for s, x := range own {
		d := e.ready[s%len(e.ready)]
		if pending {
			d = e.wait[s%len(e.wait)]
		}
		dst = append(dst, max(x-ahead, 0)+max(d-executed, 0))
	}
	return dst
}

// lead is a pending workload's time from getting quota to its admission
// in sample s: 0 without draws.
func (e etaDelay) lead(s int) float64 {
	if e.leads == nil {
		return 0
	}
	return e.leads[s%len(e.leads)]
}
