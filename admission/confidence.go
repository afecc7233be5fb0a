package admission

import "fmt"

// decideConfidence is Decide in ModeConfidence (ModeConfidence's doc has
// the rule, the evidence and the errors), with p = Options.Confidence.
func (c *Workspace) decideConfidence(queue []Job, newJob Job, now, p float64) (Decision, error) {
	if !(p >= 0 && p <= 1) {
		return Decision{}, &ValueError{Field: "Options.Confidence", Value: p, Reason: "must be in [0, 1]"}
	}
	if err := validateNow(now); err != nil {
		return Decision{}, err
	}
	if err := validateNew(&newJob, atNew); err != nil {
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
	if n > MaxSamples {
		return Decision{}, &ValueError{Field: "len(NewJob.Samples)", Value: n, Reason: "more than MaxSamples = 2^20"}
	}
	if err := validateSamples(newJob.Samples, -1, n); err != nil {
		return Decision{}, err
	}
	c.grow(n)
	run, runWO, ok := c.run, c.runWO, c.ok
	checks := c.checks[:0]
	placed := false
	placeNew := func() {
		placed = true
		dec.NewIndex = len(checks)
		checks = append(checks, sampledNew(&newJob, run, runWO, ok, dNew))
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
		if placed {
			checks = append(checks, sampledAfterNew(j, run, runWO, ok, dk, p))
			continue
		}
		checks = append(checks, sampledBeforeNew(j, run, dk))
	}
	if !placed {
		placeNew()
	}
	confidenceVerdict(&dec, checks, ok, p)
	c.checks = checks
	return dec, nil
}

// sampledBeforeNew adds the samples of queued job j, which comes before
// the new job in EDF order, to the running sums run and returns its Check.
func sampledBeforeNew(j *Job, run []float64, dk float64) Check {
	fn := float64(len(run))
	meet, sumT, sumP := 0, 0.0, 0.0
	for s, t := range j.Samples {
		run[s] += t
		if run[s] <= dk {
			meet++
		}
		sumT += t
		sumP += run[s]
	}
	return sampledCheck(j, sumT/fn, sumP/fn, dk, float64(meet)/fn, false, false)
}

// sampledNew keeps in runWO the running sums without the new job, adds
// its samples to run, sets ok[s] to whether it meets its deadline dNew in
// sample s, and returns its Check.
func sampledNew(newJob *Job, run, runWO []float64, ok []bool, dNew float64) Check {
	fn := float64(len(run))
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
	return sampledCheck(newJob, sumT/fn, sumP/fn, dNew, float64(meet)/fn, true, true)
}

// sampledAfterNew adds the samples of queued job j, which comes after the
// new job in EDF order, to the running sums with (run) and without (runWO)
// the new job, and returns its Check: protected when it meets its deadline
// dk without the new job with probability at least p, and then ok[s]
// (every protected deadline met in sample s) also asks run[s] ≤ dk.
func sampledAfterNew(j *Job, run, runWO []float64, ok []bool, dk, p float64) Check {
	fn := float64(len(run))
	meet, meetWO, sumT, sumP := 0, 0, 0.0, 0.0
	for s, t := range j.Samples {
		run[s] += t
		if run[s] <= dk {
			meet++
		}
		runWO[s] += t
		if runWO[s] <= dk {
			meetWO++
		}
		sumT += t
		sumP += run[s]
	}
	protected := float64(meetWO)/fn >= p
	if protected {
		for s := range ok {
			ok[s] = ok[s] && run[s] <= dk
		}
	}
	return sampledCheck(j, sumT/fn, sumP/fn, dk, float64(meet)/fn, false, protected)
}

// confidenceVerdict sets dec's Probability (the share of samples s with
// ok[s]), and when it is below p rejects with ReasonLowConfidence, blocked
// by the first protected check of least PMeet; dec.Checked is checks.
func confidenceVerdict(dec *Decision, checks []Check, ok []bool, p float64) {
	all := 0
	for _, b := range ok {
		if b {
			all++
		}
	}
	dec.Probability = float64(all) / float64(len(ok))
	if !(dec.Probability >= p) {
		dec.Admit, dec.Reason = false, ReasonLowConfidence
		for i := range checks {
			if checks[i].Protected && (dec.Blocking < 0 || checks[i].PMeet < checks[dec.Blocking].PMeet) {
				dec.Blocking = i
			}
		}
		dec.BlockingID = checks[dec.Blocking].ID
	}
	dec.Checked = checks
}

// grow sizes the confidence scratch to n samples: run zeroed, ok all true.
func (c *Workspace) grow(n int) {
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
		return &ValueError{Field: jobField(k, "Samples"), Value: len(samples),
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
