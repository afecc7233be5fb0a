package deadlinecheck

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/admission"
)

// etasOracle is the ETA pass computed plainly, as the test oracle of etas:
// fresh slices for every workload, the walk over every waiting job at each
// instant (scanSimulation), the quantiles of jct's Distribution (a sorted
// copy) and the Pending note formatted with fmt (pendingETAOracle). etas
// must give the same ETAs and notes bit for bit. The workloads' roles
// (etaRoleOf) are the pass's own.
func etasOracle(q Queue, ws []Workload, works []*work, outs []Outcome, now time.Time, samples int, p float64, delay etaDelay, in arrivalInput) error {
	var running []etaJob
	var pend []int // indexes into ws, in Kueue order
	for i, w := range ws {
		switch etaRoleOf(q, w, &outs[i]) {
		case etaHolds:
			if works[i] != nil {
				running = append(running, etaJob{share: share(w), run: delay.times(works[i].own, seconds(w.Executed), false)})
			}
		case etaWaits:
			pend = append(pend, i)
		}
	}
	if len(pend) == 0 {
		return nil
	}
	place := func(i int) Workload {
		w := ws[i]
		if v := outs[i].Verdict; v != nil && v.State == kueue.CheckStateRetry && !outs[i].Deactivate {
			// Kueue evicts it now and requeues it after RequeueAfter, its
			// eviction its new queue time.
			w.QueueTime, w.NotBefore = now, now.Add(v.RequeueAfter)
		}
		return w
	}
	slices.SortFunc(pend, func(a, b int) int { return KueueOrder(place(a), place(b)) })
	jobs := make([]etaJob, len(pend))
	for k, i := range pend {
		w := place(i)
		jobs[k] = etaJob{share: share(w), ghost: outs[i].Deactivate, notBefore: max(0, seconds(w.NotBefore.Sub(now))), priority: w.Priority}
		if works[i] != nil {
			jobs[k].run = delay.times(works[i].own, seconds(w.Executed), true)
			// Its latest start: the deadline less the alone test's need,
			// taken afresh from the samples.
			if need, err := admission.AloneDeadline(works[i].own, p); err == nil && w.HasDeadline() {
				jobs[k].latest, jobs[k].expires = seconds(w.Deadline.Sub(now))-need, true
			}
		}
	}
	starts := make([][]float64, len(jobs))
	for k := range starts {
		starts[k] = make([]float64, samples)
	}
	var waited time.Duration // the oldest waiting workload's age
	for _, i := range pend {
		if !ws[i].Created.IsZero() && now.Sub(ws[i].Created) > waited {
			waited = now.Sub(ws[i].Created)
		}
	}
	sim := newScanSimulation(jobs, arrivalsOracle(in, now, len(pend), waited, samples, delay), delay.pace)
	for s := range samples {
		sim.run(running, q.StrictFIFO, s, starts)
	}
	finish := make([]float64, samples)
	for k, i := range pend {
		w := ws[i]
		for s, x := range starts[k] {
			starts[k][s] = x + delay.lead(s) // quota to admission
		}
		s50, s90, err := quantiles(starts[k])
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Key, err)
		}
		if math.IsInf(s50, 1) {
			outs[i].Note = cmp.Or(outs[i].Note, "Pending: no ETA, it does not fit the nominal quota behind the workloads holding it")
			continue
		}
		eta := &ETA{Deadline: w.Deadline, StartP50: at(now, s50), StartP90: atUp(now, s90)}
		if r := jobs[k].run; r != nil {
			for s := range finish {
				finish[s] = starts[k][s] - delay.lead(s) + r[s]
			}
			f50, f90, err := quantiles(finish)
			if err != nil {
				return fmt.Errorf("workload %s: %w", w.Key, err)
			}
			eta.FinishP50, eta.FinishP90 = at(now, f50), atUp(now, f90)
		}
		outs[i].ETA = eta
		if outs[i].Verdict == nil {
			outs[i].Note = pendingETAOracle(*eta)
		}
	}
	return nil
}

// arrivalsOracle is the arrivals of a pass over pending workloads, the
// oldest waited old, from in at now (arrivals.go), built plainly: nil
// with fewer than MinArrivalObservations records or with a record whose
// samples are not samples.
func arrivalsOracle(in arrivalInput, now time.Time, pending int, waited time.Duration, samples int, delay etaDelay) *etaArrivals {
	if len(in.recs) < MinArrivalObservations {
		return nil
	}
	span := now.Sub(in.recs[0].created)
	rate := float64(len(in.recs)) / max(span.Seconds(), 1)
	if len(in.marks) > 0 {
		// Over the look-back: the longer of the records' span and the
		// oldest wait, within the marks.
		lookback := span
		if waited > lookback {
			lookback = waited
		}
		if all := now.Sub(in.marks[0]); all < lookback {
			lookback = all
		}
		n := 0
		for _, m := range in.marks {
			if now.Sub(m) <= lookback {
				n++
			}
		}
		rate = float64(n) / max(lookback.Seconds(), 1)
	}
	a := &etaArrivals{rate: rate, samples: samples, seed: in.seed, slots: max(64, pending)}
	for _, r := range in.recs {
		if len(r.own) != samples {
			return nil
		}
		a.shares = append(a.shares, r.share)
		a.priorities = append(a.priorities, r.priority)
		a.runs = append(a.runs, delay.times(r.own, 0, true)...)
	}
	return a
}

// pendingETAOracle is pendingETA formatted with fmt.
func pendingETAOracle(e ETA) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Pending: predicted start %s (p50) / %s (p90)", formatTime(e.StartP50), formatTime(e.StartP90))
	if e.HasFinish() {
		fmt.Fprintf(&b, ", finish %s (p50) / %s (p90)", formatTime(e.FinishP50), formatTime(e.FinishP90))
	} else {
		b.WriteString(", no run-time estimate for its finish")
	}
	switch {
	case e.Deadline.IsZero():
	case e.HasFinish() && e.FinishP50.After(e.Deadline):
		fmt.Fprintf(&b, ", after its deadline %s at this place in the queue", formatTime(e.Deadline))
	default:
		fmt.Fprintf(&b, ", deadline %s", formatTime(e.Deadline))
	}
	return b.String()
}
