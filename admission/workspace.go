package admission

// A Workspace holds the scratch buffers of admission decisions over a queue
// the caller holds (a []Job in EDF order, rebuilt from the caller's own
// records), so that, once they have grown to the queue's size, a decision
// allocates nothing. A scheduler that keeps its jobs in a Queue decides with
// Queue.Decide instead: the same decision, bit for bit. Keep one Workspace
// and reuse it for every decision. The zero value is ready to use. A Workspace is not safe for concurrent use; the Decision.Checked
// it returns aliases its buffer until the next call.
type Workspace struct {
	checks []Check
	// Wave-mode plans with the new job and without it, each task on the
	// slot that frees first (with, without) or where it ends first (ef…).
	with, without     plan
	efWith, efWithout plan
	layout            layout // the slots grouped by residual capacity
	// Confidence-mode scratch, one entry per sample index.
	run   []float64 // sampled prefix sums with the new job
	runWO []float64 // sampled prefix sums without it
	ok    []bool    // every protected job so far met its deadline in sample i
}

// Decide decides whether to admit newJob, arriving at time now (seconds), to
// a cluster whose admitted, unfinished jobs are queue, in the mode opt.Mode
// (see Mode): wave mode (the zero value) plans the pending tasks on
// opt.Cluster; paper and strict mode sum MIMP Eq. 7 over Job.JCT;
// confidence mode samples Job.Samples (see ModeConfidence).
//
// queue must be in strict EDF order as CompareEDF defines it (deadline, then
// arrival, then ID; jobs without a deadline last) — Queue keeps a slice in
// that order incrementally; a caller can also sort with
// slices.SortFunc(q, CompareEDF). Decide validates the order in its single
// pass instead of sorting, so it allocates nothing once the Workspace's
// buffers fit the queue (and the cluster). The new job takes its place in
// that order: queued jobs with an equal deadline that arrived earlier come
// before it (the paper says "earlier deadline"; serving equal deadlines by
// arrival is what an EDF scheduler does, so the sum is the schedule's and
// the rule is slightly more conservative).
//
// Only deadline jobs are summed or planned: jobs without a deadline are
// validated but never delay a deadline job. A new job without a deadline
// is admitted (ReasonNoDeadline) with empty evidence. Paper and strict
// mode take each job's JCT as the caller last computed it (typically Eq. 6
// of its remaining tasks) and do not evaluate models; wave mode evaluates
// each planned task's TCT_j(r) with Job.Model.
//
// Errors match ErrBadInput: now not finite; an Arrival that is not finite; a
// Deadline that is NaN or -Inf, or whose distance from now overflows; a JCT
// outside [0, MaxDuration] (paper, strict); a queue out of strict EDF order;
// the new job's ID already in the queue; an unknown Mode; in wave mode the
// errors listed in the package doc (margin, cluster, Tasks, RunningUntil,
// models, limits). Duplicate IDs inside the queue with different deadlines
// or arrivals are not detected (they only blur Check.ID). With an error the
// Decision is the zero value (not admitted, no evidence).
func (c *Workspace) Decide(queue []Job, newJob Job, now float64, opt Options) (Decision, error) {
	if err := checkQueueLen(len(queue)); err != nil {
		return Decision{}, err
	}
	switch opt.Mode {
	case ModeWave:
		return c.decideWave(queue, newJob, now, opt)
	case ModeStrict, ModePaper:
	case ModeConfidence:
		return c.decideConfidence(queue, newJob, now, opt.Confidence)
	default:
		return Decision{}, &ValueError{Field: "Options.Mode", Value: opt.Mode, Reason: "unknown mode"}
	}
	hasDeadline, dNew, err := validateEq7(&newJob, now)
	if err != nil {
		return Decision{}, err
	}
	dec := Decision{Admit: true, Mode: opt.Mode, Reason: ReasonFits, NewIndex: -1, Blocking: -1, Probability: 1}
	if !hasDeadline {
		dec.Reason = ReasonNoDeadline
	}
	checks := c.checks[:0]
	placed := !hasDeadline // the new job has its place in checks (or needs none)
	sumWO := 0.0           // Σ JCT of the queued deadline jobs so far, without the new job
	sumW := 0.0            // the same with the new job, once placed
	reject := func(i int, r Reason) {
		if dec.Admit {
			dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, r, i, 0
		}
	}
	placeNew := func() {
		placed = true
		sumW = sumWO + newJob.JCT
		dec.NewIndex = len(checks)
		checks = append(checks, newCheck(&newJob, newJob.JCT, sumW, dNew, true, true))
		if !(sumW <= dNew) {
			reject(dec.NewIndex, ReasonNewJobLate)
		}
	}
	for k := range queue {
		if !queuedOK(queue, k, newJob.ID, withJCT) {
			c.checks = checks[:0]
			return Decision{}, queuedError(queue, k, newJob.ID, withJCT)
		}
		j := &queue[k]
		if !placed && compareEDF(&newJob, j) < 0 {
			placeNew()
		}
		if !hasDeadline || !j.HasDeadline() {
			continue // nothing to sum: no new deadline to check, or a job without one
		}
		dk := j.Deadline - now
		if !(dk-dk == 0) { // overflow
			c.checks = checks[:0]
			_, err := relDeadline(j, k, now)
			return Decision{}, err
		}
		sumWO += j.JCT
		switch {
		case dec.NewIndex < 0: // before the new job: unaffected by it
			checks = append(checks, newCheck(j, j.JCT, sumWO, dk, false, false))
		case opt.Mode == ModePaper: // after the new job: outside Eq. 7's set
		default: // strict, after the new job
			sumW += j.JCT
			protected := sumWO <= dk // meets its deadline without the new job
			checks = append(checks, newCheck(j, j.JCT, sumW, dk, false, protected))
			if protected && !(sumW <= dk) {
				reject(len(checks)-1, ReasonQueuedJobHurt)
			}
		}
	}
	if !placed {
		placeNew()
	}
	c.checks = checks
	dec.Checked = checks
	if dec.Blocking >= 0 {
		dec.BlockingID = checks[dec.Blocking].ID
	}
	return dec, nil
}

// newCheck builds the evidence for one job from its own time jct (Eq. 6,
// or wave mode's planned span), its predicted completion prefix (seconds
// after now) and its relative deadline d = deadline − now.
func newCheck(j *Job, jct, prefix, d float64, isNew, protected bool) Check {
	pMeet := 0.0
	if prefix <= d {
		pMeet = 1
	}
	return Check{
		ID: j.ID, Deadline: j.Deadline, JCT: jct,
		Prefix: prefix, Slack: d - prefix, PMeet: pMeet,
		New: isNew, Protected: protected,
	}
}

// admitNoDeadline validates the queue (common fields plus extra) and admits
// a new job without deadline, with no evidence: it is never checked.
func (c *Workspace) admitNoDeadline(queue []Job, newID int64, mode Mode, extra int) (Decision, error) {
	for k := range queue {
		if !queuedOK(queue, k, newID, extra) {
			return Decision{}, queuedError(queue, k, newID, extra)
		}
	}
	return Decision{Admit: true, Mode: mode, Reason: ReasonNoDeadline, NewIndex: -1, Blocking: -1, Probability: 1, Checked: c.checks[:0]}, nil
}

// validateEq7 checks the decision time and the new job for paper and strict
// mode, and returns whether it has a deadline and its deadline − now.
func validateEq7(j *Job, now float64) (hasDeadline bool, dNew float64, err error) {
	if err := validateNow(now); err != nil {
		return false, 0, err
	}
	if err := validateNew(j, atNew); err != nil {
		return false, 0, err
	}
	if !j.HasDeadline() {
		return false, 0, nil
	}
	dNew, err = relDeadline(j, atNew, now)
	return true, dNew, err
}
