package admission

import "fmt"

// DecideConfidence decides once with fresh buffers; see
// (*Checker).DecideConfidence.
func DecideConfidence(queue []Job, newJob Job, now, p float64) (Decision, error) {
	var c Checker
	return c.DecideConfidence(queue, newJob, now, p)
}

// DecideConfidence is confidence admission (beyond the paper): admit newJob
// iff the estimated probability that every protected deadline is met is at
// least p.
//
// The model is Eq. 7's sequential one with random completion times: jobs run
// one after another in EDF order (CompareEDF, new job inserted), so job k
// completes at now + Σ_{i≤k} T_i, where T_i is job i's completion time alone
// on the cluster. Each deadline job carries N draws of T in Job.Samples (from
// a Monte-Carlo or lognormal model, e.g. package tct; admission does not
// import it). Draw s of the whole set uses draw s of every job (a common
// index): the estimate assumes the jobs' completion times are independent and
// that the caller's draws are independent across jobs (or deliberately
// correlated through the common index, for common random numbers). Then
//
//	P = #{s : Σ_{i≤k} T_i[s] ≤ deadline_k − now for every protected k} / N.
//
// Protected jobs are the new job and every later deadline job whose
// probability of meeting its deadline without the new job is >= p (a job
// already below the target is reported, not protected, just as strict mode
// does not protect a job already late). Earlier jobs are unaffected by the
// new one and not protected. With p = 0 every valid job is admitted; with
// constant samples equal to each job's JCT and p > 0 the decision equals
// strict mode's.
//
// The evidence per job (Decision.Checked, in EDF order, every deadline job):
// JCT and Prefix are sample means, Slack = deadline − now − Prefix, PMeet is
// the marginal probability of meeting the deadline with the new job admitted.
// Decision.Probability is P. On rejection (ReasonLowConfidence) Blocking is
// the protected job with the smallest PMeet (the earliest in EDF order on
// ties). A new job without a deadline is admitted with no evidence, and then
// samples are not needed.
//
// queue follows the same rules as in Decide (strict EDF order, validated in
// one pass). Cost O((len(queue)+1)·N); it allocates nothing once the Checker's
// buffers fit the queue and N.
//
// Errors match ErrBadInput: p outside [0, 1] or NaN ("Confidence"); now not
// finite; bad Arrival/Deadline as in Decide; the queue out of order; a
// duplicate new-job ID; the new job's Samples empty; a deadline job's Samples
// of a different length than the new job's; a sample that is NaN, infinite or
// negative ("Queue[k].Samples[s]"). Job.JCT is ignored. With an error the
// Decision is the zero value.
func (c *Checker) DecideConfidence(queue []Job, newJob Job, now, p float64) (Decision, error) {
	if !(p >= 0 && p <= 1) {
		return Decision{}, &ValueError{Field: "Confidence", Value: p, Reason: "must be in [0, 1]"}
	}
	if err := validateNow(now); err != nil {
		return Decision{}, err
	}
	if err := validateJob(&newJob, -1); err != nil {
		return Decision{}, err
	}
	if !newJob.HasDeadline() {
		return c.admitNoDeadline(queue, newJob.ID, ModeConfidence, withoutExtra)
	}
	dec := Decision{Admit: true, Mode: ModeConfidence, Reason: ReasonFits, NewIndex: -1, Blocking: -1, Probability: 1}
	dNew, err := relDeadline(&newJob, -1, now)
	if err != nil {
		return Decision{}, err
	}
	n := len(newJob.Samples)
	if n == 0 {
		return Decision{}, &ValueError{Field: "NewJob.Samples", Value: 0, Reason: "need at least one sample"}
	}
	if err := validateSamples(newJob.Samples, -1, n); err != nil {
		return Decision{}, err
	}
	c.grow(n)
	run, runWO, ok := c.run, c.runWO, c.ok
	checks := c.checks[:0]
	fn := float64(n)
	placed := false
	placeNew := func() {
		placed = true
		copy(runWO, run)
		meet, sumT, sumP := 0, 0.0, 0.0
		for s, t := range newJob.Samples {
			run[s] += t
			ok[s] = run[s] <= dNew
			if ok[s] {
				meet++
			}
			sumT += t
			sumP += run[s]
		}
		dec.NewIndex = len(checks)
		checks = append(checks, sampledCheck(&newJob, sumT/fn, sumP/fn, dNew, float64(meet)/fn, true, true))
	}
	for k := range queue {
		if !queuedOK(queue, k, newJob.ID, withoutExtra) {
			c.checks = checks[:0]
			return Decision{}, queuedError(queue, k, newJob.ID, withoutExtra)
		}
		j := &queue[k]
		if !placed && compareEDF(&newJob, j) < 0 {
			placeNew()
		}
		if !j.HasDeadline() {
			continue
		}
		dk, err := relDeadline(j, k, now)
		if err == nil {
			err = validateSamples(j.Samples, k, n)
		}
		if err != nil {
			c.checks = checks[:0]
			return Decision{}, err
		}
		meet, meetWO, sumT, sumP := 0, 0, 0.0, 0.0
		for s, t := range j.Samples {
			run[s] += t
			if run[s] <= dk {
				meet++
			}
			if placed {
				runWO[s] += t
				if runWO[s] <= dk {
					meetWO++
				}
			}
			sumT += t
			sumP += run[s]
		}
		protected := placed && float64(meetWO)/fn >= p
		if protected {
			for s := range ok {
				ok[s] = ok[s] && run[s] <= dk
			}
		}
		checks = append(checks, sampledCheck(j, sumT/fn, sumP/fn, dk, float64(meet)/fn, false, protected))
	}
	if !placed {
		placeNew()
	}
	all := 0
	for _, b := range ok {
		if b {
			all++
		}
	}
	dec.Probability = float64(all) / fn
	if !(dec.Probability >= p) {
		dec.Admit, dec.Reason = false, ReasonLowConfidence
		for i := range checks {
			if checks[i].Protected && (dec.Blocking < 0 || checks[i].PMeet < checks[dec.Blocking].PMeet) {
				dec.Blocking = i
			}
		}
		dec.BlockingID = checks[dec.Blocking].ID
	}
	c.checks = checks
	dec.Checked = checks
	return dec, nil
}

// grow sizes the confidence scratch to n samples: run zeroed, ok all true.
func (c *Checker) grow(n int) {
	if cap(c.run) < n {
		c.run = make([]float64, n)
		c.runWO = make([]float64, n)
		c.ok = make([]bool, n)
	}
	c.run, c.runWO, c.ok = c.run[:n], c.runWO[:n], c.ok[:n]
	clear(c.run)
	for s := range c.ok {
		c.ok[s] = true
	}
}

// validateSamples checks that job k (k < 0: the new job) has n samples, each
// in [0, MaxDuration].
func validateSamples(samples []float64, k, n int) error {
	if len(samples) != n {
		return &ValueError{Field: jobField(k, "Samples"), Value: float64(len(samples)),
			Reason: fmt.Sprintf("length must equal the new job's %d", n)}
	}
	for s, t := range samples {
		if !(t >= 0 && t <= MaxDuration) {
			return &ValueError{Field: jobField(k, fmt.Sprintf("Samples[%d]", s)), Value: t, Reason: "must be in [0, MaxDuration]"}
		}
	}
	return nil
}

// sampledCheck builds the evidence for one job in confidence mode from the
// means of its samples and of its sampled prefix sums.
func sampledCheck(j *Job, meanT, meanPrefix, d, pMeet float64, isNew, protected bool) Check {
	return Check{
		ID: j.ID, Deadline: j.Deadline, JCT: meanT,
		Prefix: meanPrefix, Slack: d - meanPrefix, PMeet: pMeet,
		New: isNew, Protected: protected,
	}
}
