package admission

import "fmt"

// decideWave is Decide in ModeWave.
//
// The plan, precisely: the usable slots (R > 0) start free at max(0,
// FreeAt − now) seconds after now. The deadline jobs of the queue, with the
// new job inserted at its EDF place (CompareEDF: deadline, arrival, ID),
// are taken in that order, and each job's pending tasks (Job.Tasks) are
// placed one at a time, each occupying its slot for TCT_j(R) × margin. Two
// placements are planned side by side: first free, each task on the slot
// that becomes free first (ties: the lowest index in Options.Cluster), what
// a scheduler does that hands every free slot to the earliest-deadline job
// (MP with an at-risk job); and end first, each task on the slot where it
// ends first, the least free time + TCT_j(R) × margin (ties: the lowest
// index), what a scheduler does that lets a task wait for a faster slot. A
// job completes at the end of its last planned task, or at RunningUntil if
// that is later. Jobs without a deadline are never planned: EDF serves them
// after every deadline job, so they cannot delay one (their running tasks
// count through their slots' FreeAt).
//
// The new job must complete by its deadline first free. The jobs before it
// are planned once in each placement (the new job cannot change their
// plan); from the new job on, each placement runs with the new job and
// without it. A queued job is protected iff it completes by its deadline
// without the new job in either placement, and then must still do so with
// it in every placement in which it did without; its evidence (Prefix,
// Slack, JCT) is from the later of those, and from first free for every
// other job.
func (c *Workspace) decideWave(queue []Job, newJob Job, now float64, opt Options) (Decision, error) {
	margin, err := waveArgs(&newJob, now, opt)
	if err != nil {
		return Decision{}, err
	}
	if err := validateCluster(opt.Cluster, now); err != nil {
		return Decision{}, err
	}
	if !newJob.HasDeadline() {
		return c.admitNoDeadline(queue, newJob.ID, ModeWave, withProgress)
	}
	dec := waveDecision()
	dNew, err := relDeadline(&newJob, -1, now)
	if err != nil {
		return Decision{}, err
	}
	planned, err := validatePlanned(&newJob, -1, now, 0)
	if err != nil {
		return Decision{}, err
	}
	// Two placements, each planned with and without the new job: first
	// free (ff) and end first (ef).
	ffW, ffWO, efW, efWO := &c.with, &c.without, &c.efWith, &c.efWithout
	ffW.reset(&c.layout, opt.Cluster, now)
	if len(ffW.heap) == 0 {
		return Decision{}, &ValueError{Field: "Options.Cluster", Value: len(opt.Cluster), Reason: "no slot with residual capacity > 0"}
	}
	efW.copyFrom(ffW)
	efW.endFirst = true
	checks := c.checks[:0]
	fail := func(err error) (Decision, error) {
		c.checks = checks[:0]
		return Decision{}, err
	}
	placed := false
	placeNew := func() error {
		placed = true
		ffWO.copyFrom(ffW)
		efWO.copyFrom(efW)
		if err := c.layout.taskTimes(&newJob, -1, margin); err != nil {
			return err
		}
		checks = dec.placeNew(ffW, efW, &newJob, now, dNew, checks)
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
		if err := c.layout.taskTimes(j, k, margin); err != nil {
			return fail(err)
		}
		done, span := ffW.place(j, now)
		efDone, efSpan := efW.place(j, now)
		if !placed { // before the new job: unaffected by it
			checks = append(checks, newCheck(j, span, done, dk, false, false))
			continue
		}
		ffAlone, _ := ffWO.place(j, now)
		efAlone, _ := efWO.place(j, now)
		checks = dec.judge(j, dk, done, span, efDone, efSpan, ffAlone, efAlone, checks)
	}
	if !placed {
		if err := placeNew(); err != nil {
			return fail(err)
		}
	}
	c.checks = checks
	dec.finish(checks)
	return dec, nil
}

// waveArgs checks what a wave decision needs before the cluster: now, the
// margin and the new job's own fields. It returns the margin in effect (0
// means 1).
func waveArgs(newJob *Job, now float64, opt Options) (margin float64, err error) {
	if err := validateNow(now); err != nil {
		return 0, err
	}
	margin = opt.Margin
	if margin == 0 {
		margin = 1
	}
	if !(margin > 0 && margin <= MaxMargin) {
		return 0, &ValueError{Field: "Options.Margin", Value: opt.Margin, Reason: "must be 0 (meaning 1) or in (0, MaxMargin]"}
	}
	if err := validateNew(newJob, atNew); err != nil {
		return 0, err
	}
	return margin, nil
}

// waveDecision is a wave decision before any job is judged: admitted.
func waveDecision() Decision {
	return Decision{Admit: true, Mode: ModeWave, Reason: ReasonFits, NewIndex: -1, Blocking: -1, Probability: 1}
}

// placeNew plans the new job in the first-free plan ff and the end-first
// plan ef (its task times are in their layout), appends its evidence to
// checks and rejects it if it completes after its deadline (dNew after
// now).
func (dec *Decision) placeNew(ff, ef *plan, j *Job, now, dNew float64, checks []Check) []Check {
	done, span := ff.place(j, now)
	ef.place(j, now)
	dec.NewIndex = len(checks)
	checks = append(checks, newCheck(j, span, done, dNew, true, true))
	if !(done <= dNew) {
		dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonNewJobLate, dec.NewIndex, 0
	}
	return checks
}

// judge appends the evidence for queued deadline job j after the new one
// in EDF order and rejects the new job if j is hurt. dk is j's deadline −
// now; done and span its completion and span with the new job first free,
// efDone and efSpan end first; ffAlone and efAlone its completions without
// the new job. It is protected if on time without the new job in either
// placement, and then judged by the later of its completions with the new
// job among the placements in which it was on time.
func (dec *Decision) judge(j *Job, dk, done, span, efDone, efSpan, ffAlone, efAlone float64, checks []Check) []Check {
	ffOK, efOK := ffAlone <= dk, efAlone <= dk
	if efOK && (!ffOK || efDone > done) {
		done, span = efDone, efSpan
	}
	protected := ffOK || efOK
	checks = append(checks, newCheck(j, span, done, dk, false, protected))
	if protected && !(done <= dk) && dec.Admit {
		dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonQueuedJobHurt, len(checks)-1, 0
	}
	return checks
}

// finish sets the evidence and the blocking job's ID.
func (dec *Decision) finish(checks []Check) {
	dec.Checked = checks
	if dec.Blocking >= 0 {
		dec.BlockingID = checks[dec.Blocking].ID
	}
}

// validateCluster checks wave mode's slots: at most MaxSlots, each R in
// [0, 1] and, for a busy slot, FreeAt neither NaN nor +Inf and at most
// MaxDuration after now.
func validateCluster(cluster []Slot, now float64) error {
	if len(cluster) > MaxSlots {
		return &ValueError{Field: "Options.Cluster", Value: len(cluster), Reason: "more than MaxSlots slots"}
	}
	for i := range cluster {
		s := &cluster[i]
		if !(s.R >= 0 && s.R <= 1) {
			return &ValueError{Field: fmt.Sprintf("Options.Cluster[%d].R", i), Value: s.R, Reason: "residual capacity must be in [0, 1]"}
		}
		if s.Busy && !(s.FreeAt-now <= MaxDuration) {
			return &ValueError{Field: fmt.Sprintf("Options.Cluster[%d].FreeAt", i), Value: s.FreeAt, Reason: "must not be NaN, and at most MaxDuration after now"}
		}
	}
	return nil
}

// validatePlanned checks what planning deadline job k (newJob: the new job)
// needs beyond queuedOK: RunningUntil at most MaxDuration after now (while
// tasks run), a
// non-nil model when it has pending tasks, and the running total of
// planned tasks within MaxPlannedTasks. It returns the new total.
func validatePlanned(j *Job, k int, now float64, planned int) (int, error) {
	if j.Running > 0 && !(j.RunningUntil-now <= MaxDuration) {
		return 0, &ValueError{Field: jobField(k, "RunningUntil"), Value: j.RunningUntil, Reason: "more than MaxDuration after now"}
	}
	if j.Tasks == 0 {
		return planned, nil
	}
	if nilModel(j.Model) {
		return 0, &ValueError{Field: jobField(k, "Model"), Value: 0, Reason: "nil model (a nil interface or a nil pointer, map, func or channel) for a job with pending tasks"}
	}
	if j.Tasks > MaxPlannedTasks-planned {
		return 0, &ValueError{Field: jobField(k, "Tasks"), Value: j.Tasks,
			Reason: fmt.Sprintf("planned tasks would exceed MaxPlannedTasks (%d already planned)", planned)}
	}
	return planned + j.Tasks, nil
}

// taskTimes evaluates job j's task time × margin on every group of slots
// into l.times (k names the job in errors, -1 the new job). A job without
// pending task needs none. Every usable slot is a candidate for every task,
// so the model must give a time in (0, MaxDuration] at every usable R; the
// error names the lowest slot index with the first bad R in Cluster order.
func (l *layout) taskTimes(j *Job, k int, margin float64) error {
	if j.Tasks == 0 {
		return nil
	}
	for g := range l.groups {
		t := j.Model.TCT(l.groups[g].r)
		if !(t > 0 && t <= MaxDuration) {
			return taskTimeError(k, int(l.groups[g].first), t)
		}
		l.times[g] = t * margin
	}
	return nil
}

// taskTimeError reports a model value that wave mode cannot plan with.
func taskTimeError(k, slot int, t float64) error {
	return &ValueError{Field: jobField(k, fmt.Sprintf("Model.TCT(Options.Cluster[%d].R)", slot)), Value: t,
		Reason: "model must give a task time in (0, MaxDuration]"}
}
