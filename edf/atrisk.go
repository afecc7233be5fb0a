package edf

import "math"

// atRisk is the Eq. 3 test with the incremental rate: the job's remaining
// tasks (pending plus running), covered for k's TCTError and times k's
// need = the margin, exceed what its current slots finish by the deadline.
// Jobs without a deadline are never at risk.
func (s *jobState) atRisk(now float64, k risk) bool {
	remaining := float64(s.Tasks + s.running)
	if s.rate == 0 {
		// No slot: 0 completable tasks (and no ∞·0 = NaN when the
		// time left overflows to +Inf); a job without deadline is not at
		// risk.
		return remaining > 0 && s.Deadline <= math.MaxFloat64
	}
	// A job without deadline has +Inf time left: +Inf < k.of(·) is false,
	// whatever the cover.
	return (s.Deadline-now)*s.rate < k.of(remaining)
}

// AtRisk reports whether the job with the given ID is predicted to miss
// its deadline with its current slots, the test of MP's step 1 with the
// queue's margin m and no TCTError: CompletableTasks (Eq. 3) < m · (pending
// + running tasks). ok is false when the job is not queued or now is NaN
// or infinite.
func (q *Queue) AtRisk(id int64, now float64) (atRisk, ok bool) {
	s := q.find(id)
	if s == nil || !(now-now == 0) {
		return false, false
	}
	return s.atRisk(now, q.baseRisk()), true
}

// baseRisk is the at-risk test of the queue's margin without TCTError.
func (q *Queue) baseRisk() risk { return risk{need: q.cfg.margin(), mean: 1} }

// riskOf is the at-risk test of an MP call with opt: the queue's margin
// and opt's TCTError.
func (q *Queue) riskOf(opt MPOptions) risk {
	if !opt.TCTError.on() {
		return q.baseRisk()
	}
	return risk{need: q.cfg.margin(), mean: opt.TCTError.Mean, spread: opt.TCTError.Spread}
}

// threshold returns job s's at-risk threshold for the index's risk: MP's
// step-1 test s.atRisk(now, risk) holds iff now >= threshold, for every
// finite now (+Inf: never at risk; -Inf: always).
func (q *Queue) threshold(s *jobState) float64 {
	if math.IsInf(s.Deadline, 1) {
		return math.Inf(1)
	}
	remaining := float64(s.Tasks + s.running)
	if s.rate == 0 {
		if remaining > 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return riskFrom(s.Deadline, s.rate, q.ix.risk.of(remaining))
}
