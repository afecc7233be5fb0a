package deadlinecheck

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// An ETA pass runs in slices: startPass takes the pass's inputs, step
// advances it by a bounded amount of work and reports when it is done,
// and results gives the ETAs and Pending notes. A pass works on its own
// copy of the workloads and outcomes it was started with, and on the
// workloads' samples, which are never changed once drawn; what the caller
// does to its own slices between two steps does not reach it. Its ETAs
// are those of the whole pass on the same inputs, bit for bit, whatever
// the slices (TestPropETASlicesMatchOracle).
//
// The work is counted in predicted starts, one workload in one sample:
// the replay of one sample predicts every pending workload's start (a
// unit of pending starts, and with arrivals one more per arrival it may
// draw: max(64, pending)), and the quantiles of one workload read its
// start in every sample, counted as samples / quantileShare starts (a
// unit; at least one): selecting the p50 and p90 of a start costs about a
// fifth of replaying it (BenchmarkETASlice: 0.051 µs against 0.30 µs at
// 15,000 workloads). With learnt start delays, the slices first add the
// delays to each workload's run times (etaDelay.appendTimes), a unit of
// samples / quantileShare per workload as well. A step runs whole units,
// as many as fit its budget, and at least one; the pass is pending ×
// (samples + ⌊samples / 4⌋) starts in all (with arrivals, max(64,
// pending) × samples more; with delays, (pending + holding) × ⌊samples /
// 4⌋ more). Starting a pass (startPass) is not
// counted: it copies the workloads and outcomes and orders the pending
// workloads (O(workloads + pending log pending)), and adds the delays to
// the arrivals' run times (ArrivalWindow × samples).

// startPass starts a pass over ws (with their samples works and outcomes
// outs) at now, the check deciding at confidence p, dropping any pass in
// progress.
func (sc *etaScratch) startPass(q Queue, ws []Workload, works []*work, outs []Outcome, now time.Time, samples int, p float64, delay etaDelay, arr arrivalInput) {
	sc.begin(len(ws), samples)
	sc.ws = append(emptied(sc.ws), ws...)
	sc.outs = append(emptied(sc.outs), outs...)
	sc.strict, sc.now, sc.samples, sc.delay = q.StrictFIFO, now, samples, delay
	sc.f, sc.next, sc.k, sc.live = 0, 0, 0, true
	ws, outs = sc.ws, sc.outs
	for i, w := range ws {
		switch etaRoleOf(q, w, &outs[i]) {
		case etaHolds:
			if works[i] != nil {
				sc.running = append(sc.running, etaJob{share: share(w), run: sc.times(delay, works[i].own, seconds(w.Executed), false, len(sc.running))})
			}
		case etaWaits:
			sc.pend = append(sc.pend, i)
		}
	}
	pend := sc.pend
	// Each pending workload's place in Kueue's queue: one sent to Retry is
	// evicted now and requeued after RequeueAfter, its eviction its new
	// queue time.
	for _, i := range pend {
		w := &ws[i]
		p := queuePlace{priority: w.Priority, queueTime: w.QueueTime, uid: w.UID, notBefore: w.NotBefore}
		if v := outs[i].Verdict; v != nil && v.State == kueue.CheckStateRetry && !outs[i].Deactivate {
			p.queueTime, p.notBefore = now, now.Add(v.RequeueAfter)
		}
		sc.places[i] = p
	}
	slices.SortFunc(pend, func(a, b int) int { return sc.places[a].compare(sc.places[b]) })
	for _, i := range pend {
		w := &ws[i]
		j := etaJob{share: share(*w), ghost: outs[i].Deactivate, notBefore: max(0, seconds(sc.places[i].notBefore.Sub(now))), priority: sc.places[i].priority}
		if works[i] != nil {
			j.run = sc.times(delay, works[i].own, seconds(w.Executed), true, len(sc.jobs))
			j.latest, j.expires = etaLatest(*w, works[i], now, p)
		}
		sc.jobs = append(sc.jobs, j)
	}
	if len(pend) == 0 {
		sc.fills = sc.fills[:0]
		return
	}
	sc.placeFills()
	sc.rows = sc.startRows(len(sc.jobs), samples)
	var waited time.Duration
	for _, i := range pend {
		if c := ws[i].Created; !c.IsZero() {
			waited = max(waited, now.Sub(c))
		}
	}
	sc.setArrivals(arr, now, len(pend), waited, samples, delay)
	sc.sim.prepare(sc.jobs, &sc.arr, delay.pace)
}

// step advances the pass in progress by at most budget predicted starts
// (at least one unit: a sample of the replay, or one workload's
// quantiles) and reports whether it is done; an error ends it.
func (sc *etaScratch) step(budget int) (done bool, err error) {
	if !sc.live {
		return true, nil
	}
	pend, jobs, starts := sc.pend, sc.jobs, sc.rows
	spent := 0
	fits := func(cost int) bool { return spent == 0 || cost <= budget-spent }
	for ; sc.f < len(sc.fills) && fits(sc.quantileCost()); sc.f++ {
		f := &sc.fills[sc.f]
		sc.delay.appendTimes(f.dst[:0], f.own, f.executed, f.pending)
		spent += sc.quantileCost()
	}
	if sc.f < len(sc.fills) {
		return false, nil
	}
	for ; sc.next < sc.samples && len(pend) > 0 && fits(sc.sampleCost()); sc.next++ {
		sc.sim.run(sc.running, jobs, &sc.arr, sc.strict, sc.next, starts)
		spent += sc.sampleCost()
	}
	if sc.next < sc.samples && len(pend) > 0 {
		return false, nil
	}
	ws, outs, delay, now, finish := sc.ws, sc.outs, sc.delay, sc.now, sc.finish
	for ; sc.k < len(pend) && fits(sc.quantileCost()); sc.k++ {
		spent += sc.quantileCost()
		k, i := sc.k, pend[sc.k]
		w := &ws[i]
		for s, x := range starts[k] {
			starts[k][s] = x + delay.lead(s) // quota to admission
		}
		s50, s90, err := sc.quantiles(starts[k])
		if err != nil {
			sc.end()
			return true, fmt.Errorf("workload %s: %w", w.Key, err)
		}
		if math.IsInf(s50, 1) {
			outs[i].Note = cmp.Or(outs[i].Note, "Pending: no ETA, it does not fit the nominal quota behind the workloads holding it")
			continue
		}
		eta := sc.eta()
		*eta = ETA{Deadline: w.Deadline, StartP50: at(now, s50), StartP90: atUp(now, s90)}
		if r := jobs[k].run; r != nil {
			for s := range finish {
				finish[s] = starts[k][s] - delay.lead(s) + r[s]
			}
			f50, f90, err := sc.quantiles(finish)
			if err != nil {
				sc.end()
				return true, fmt.Errorf("workload %s: %w", w.Key, err)
			}
			eta.FinishP50, eta.FinishP90 = at(now, f50), atUp(now, f90)
		}
		outs[i].ETA = eta
		if outs[i].Verdict == nil {
			sc.note(i, *eta)
		}
	}
	if sc.k < len(pend) {
		return false, nil
	}
	sc.end()
	return true, nil
}

// sampleCost is what the replay of one sample counts, in predicted
// starts: one per pending workload, and one per arrival it may draw.
func (sc *etaScratch) sampleCost() int {
	if sc.arr.on() {
		return len(sc.pend) + sc.arr.slots
	}
	return len(sc.pend)
}

// quantileShare: the quantiles of one workload count as samples /
// quantileShare predicted starts.
const quantileShare = 4

// quantileCost is what the quantiles of one workload count, in predicted
// starts.
func (sc *etaScratch) quantileCost() int { return max(sc.samples/quantileShare, 1) }

// end ends the pass: the outcomes get their Pending notes.
func (sc *etaScratch) end() {
	sc.endNotes(sc.outs)
	sc.live = false
}

// inProgress reports whether a pass has started and not ended.
func (sc *etaScratch) inProgress() bool { return sc.live }

// results gives outs, the outcomes the pass was started with, its ETAs
// and Pending notes.
func (sc *etaScratch) results(outs []Outcome) {
	for i := range outs {
		outs[i].ETA, outs[i].Note = sc.outs[i].ETA, sc.outs[i].Note
	}
}
