package admission

import "fmt"

// decideWave is Decide in ModeWave.
//
// The plan, precisely: the usable slots (R > 0) start free at max(0,
// FreeAt − now) seconds after now. The deadline jobs of the queue, with the
// new job inserted at its EDF place (CompareEDF: deadline, arrival, ID),
// are taken in that order; each job's pending tasks (Job.Tasks) go one at a
// time to the slot that becomes free first — ties to the lowest index in
// Options.Cluster — and occupy it for TCT_j(R) × margin. A job completes
// at the end of its last planned task, or at RunningUntil if that is
// later. Jobs without a deadline are never planned: EDF serves them after
// every deadline job, so they cannot delay one (their running tasks count
// through their slots' FreeAt). The jobs before the new one are planned
// once (the new job cannot change their plan); from the new job on, two
// plans run side by side, with the new job and without it, and a queued
// job is protected iff it completes by its deadline without the new job.
func (c *Checker) decideWave(queue []Job, newJob Job, now float64, opt Options) (Decision, error) {
	if err := validateNow(now); err != nil {
		return Decision{}, err
	}
	margin := opt.Margin
	if margin == 0 {
		margin = 1
	}
	if !(margin > 0 && margin <= MaxMargin) {
		return Decision{}, &ValueError{Field: "Options.Margin", Value: opt.Margin, Reason: "must be 0 (meaning 1) or in (0, MaxMargin]"}
	}
	if err := validateJob(&newJob, -1); err != nil {
		return Decision{}, err
	}
	if err := validateProgress(&newJob, -1); err != nil {
		return Decision{}, err
	}
	if err := validateCluster(opt.Cluster, now); err != nil {
		return Decision{}, err
	}
	if !newJob.HasDeadline() {
		return c.admitNoDeadline(queue, newJob.ID, ModeWave, withProgress)
	}
	dec := Decision{Admit: true, Mode: ModeWave, Reason: ReasonFits, NewIndex: -1, Blocking: -1, Probability: 1}
	dNew, err := relDeadline(&newJob, -1, now)
	if err != nil {
		return Decision{}, err
	}
	planned, err := validatePlanned(&newJob, -1, now, 0)
	if err != nil {
		return Decision{}, err
	}
	with, without := &c.with, &c.without
	with.reset(opt.Cluster, now)
	if len(with.heap) == 0 {
		return Decision{}, &ValueError{Field: "Options.Cluster", Value: float64(len(opt.Cluster)), Reason: "no slot with residual capacity > 0"}
	}
	checks := c.checks[:0]
	fail := func(err error) (Decision, error) {
		c.checks = checks[:0]
		return Decision{}, err
	}
	placed := false
	placeNew := func() error {
		placed = true
		without.copyFrom(with)
		done, span, err := with.place(&newJob, -1, now, margin, opt.Cluster)
		if err != nil {
			return err
		}
		dec.NewIndex = len(checks)
		checks = append(checks, newCheck(&newJob, span, done, dNew, true, true))
		if !(done <= dNew) {
			dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonNewJobLate, dec.NewIndex, 0
		}
		return nil
	}
	for k := range queue {
		if !queuedOK(queue, k, newJob.ID, withProgress) {
			return fail(queuedError(queue, k, newJob.ID, withProgress))
		}
		j := &queue[k]
		if !placed && compareEDF(&newJob, j) < 0 {
			if err := placeNew(); err != nil {
				return fail(err)
			}
		}
		if !j.HasDeadline() {
			continue // planned after every deadline job: cannot delay one
		}
		dk := j.Deadline - now
		if !(dk-dk == 0) { // overflow
			_, err := relDeadline(j, k, now)
			return fail(err)
		}
		if planned, err = validatePlanned(j, k, now, planned); err != nil {
			return fail(err)
		}
		done, span, err := with.place(j, k, now, margin, opt.Cluster)
		if err != nil {
			return fail(err)
		}
		if !placed { // before the new job: unaffected by it
			checks = append(checks, newCheck(j, span, done, dk, false, false))
			continue
		}
		alone, _, err := without.place(j, k, now, margin, opt.Cluster)
		if err != nil {
			return fail(err)
		}
		protected := alone <= dk // meets its deadline without the new job
		checks = append(checks, newCheck(j, span, done, dk, false, protected))
		if protected && !(done <= dk) && dec.Admit {
			dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonQueuedJobHurt, len(checks)-1, 0
		}
	}
	if !placed {
		if err := placeNew(); err != nil {
			return fail(err)
		}
	}
	c.checks = checks
	dec.Checked = checks
	if dec.Blocking >= 0 {
		dec.BlockingID = checks[dec.Blocking].ID
	}
	return dec, nil
}

// validateCluster checks wave mode's slots: at most MaxSlots, each R in
// [0, 1], FreeAt neither NaN nor +Inf and at most MaxDuration after now.
func validateCluster(cluster []Slot, now float64) error {
	if len(cluster) > MaxSlots {
		return &ValueError{Field: "Options.Cluster", Value: float64(len(cluster)), Reason: "more than MaxSlots slots"}
	}
	for i := range cluster {
		s := &cluster[i]
		if !(s.R >= 0 && s.R <= 1) {
			return &ValueError{Field: fmt.Sprintf("Options.Cluster[%d].R", i), Value: s.R, Reason: "residual capacity must be in [0, 1]"}
		}
		if !(s.FreeAt-now <= MaxDuration) {
			return &ValueError{Field: fmt.Sprintf("Options.Cluster[%d].FreeAt", i), Value: s.FreeAt, Reason: "must not be NaN, and at most MaxDuration after now"}
		}
	}
	return nil
}

// validatePlanned checks what planning deadline job k (k < 0: the new job)
// needs beyond queuedOK: RunningUntil at most MaxDuration after now, a
// non-nil model when it has pending tasks, and the running total of
// planned tasks within MaxPlannedTasks. It returns the new total.
func validatePlanned(j *Job, k int, now float64, planned int) (int, error) {
	if !(j.RunningUntil-now <= MaxDuration) {
		return 0, &ValueError{Field: jobField(k, "RunningUntil"), Value: j.RunningUntil, Reason: "more than MaxDuration after now"}
	}
	if j.Tasks == 0 {
		return planned, nil
	}
	if nilModel(j.Model) {
		return 0, &ValueError{Field: jobField(k, "Model"), Value: 0, Reason: "nil model (a nil interface or a nil pointer, map, func or channel) for a job with pending tasks"}
	}
	if j.Tasks > MaxPlannedTasks-planned {
		return 0, &ValueError{Field: jobField(k, "Tasks"), Value: float64(j.Tasks),
			Reason: fmt.Sprintf("planned tasks would exceed MaxPlannedTasks (%d already planned)", planned)}
	}
	return planned + j.Tasks, nil
}

// taskTimeError reports a model value that wave mode cannot plan with.
func taskTimeError(k, slot int, t float64) error {
	return &ValueError{Field: jobField(k, fmt.Sprintf("Model.TCT(Options.Cluster[%d].R)", slot)), Value: t,
		Reason: "model must give a task time in [0, MaxDuration]"}
}
