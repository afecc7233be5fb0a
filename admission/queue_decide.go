package admission

import "fmt"

// Decide decides whether to admit newJob, arriving at now, against the
// queue's own jobs: the decision Checker.Decide(q.Jobs(), newJob, now, opt)
// makes. In ModeStrict and ModePaper it takes O(log n) for n queued jobs
// instead of one pass, from the queue's search tree (Eq. 7 needs each
// queued job's prefix sum, which the tree keeps per subtree). The evidence
// is then a summary: Checked holds the new job's Check (NewIndex 0) and,
// when a queued job would be hurt, that job's Check after it (Blocking 1);
// Admit, Reason, BlockingID and Probability are Checker.Decide's, and so
// are those two Checks (see below for rounding). ModeWave and
// ModeConfidence plan or sample every job and are passed to a Checker the
// queue keeps, with full evidence.
//
// The tree sums JCTs in its own order, not one after another in EDF order,
// so a prefix sum can differ from Checker.Decide's in the last bits; the
// two decide alike except when a slack is within that rounding of 0 or of
// the new job's JCT. With every time on a binary grid (multiples of a power
// of two small enough that no sum rounds) they are identical
// (TestPropQueueDecide).
//
// Edits made through the slice Jobs returned are taken in first (O(n) once;
// see Jobs). The decision allocates nothing (in ModeWave and ModeConfidence, once the Checker's
// buffers fit). Errors are Checker.Decide's: now not finite; the new job's
// Arrival, Deadline or JCT invalid; its ID already queued ("NewJob.ID",
// naming the queued job's position); a queued deadline − now that overflows
// ("Queue[k].Deadline"); an unknown Mode. The Decision's Checked aliases
// the queue's buffer until the next Decide.
func (q *Queue) Decide(newJob Job, now float64, opt Options) (Decision, error) {
	switch opt.Mode {
	case ModeStrict, ModePaper:
	case ModeWave:
		return q.decideWave(newJob, now, opt)
	default:
		return q.checker.Decide(q.ordered(), newJob, now, opt)
	}
	q.syncBack()
	hasDeadline, dNew, err := validateEq7(&newJob, now)
	if err != nil {
		return Decision{}, err
	}
	x := &q.ix
	// The first bad queued job in EDF order, as Decide's pass meets it: a
	// duplicate of the new job's ID, or (for a new deadline job) a deadline
	// − now that overflows.
	dup, over := -1, -1
	if v, ok := x.byID[newJob.ID]; ok {
		dup = x.rankOf(v)
	}
	if hasDeadline {
		if v := x.firstOverflow(now); v >= 0 {
			over = x.rankOf(v)
		}
	}
	switch {
	case dup >= 0 && (over < 0 || dup <= over): // the pass checks the ID before the deadline
		return Decision{}, &ValueError{Field: "NewJob.ID", Value: float64(newJob.ID), Reason: fmt.Sprintf("duplicates Queue[%d].ID", dup)}
	case over >= 0:
		_, err := relDeadline(&x.nodes[x.firstOverflow(now)].job, over, now)
		return Decision{}, err
	}
	checks := q.checks[:0]
	dec := Decision{Admit: true, Mode: opt.Mode, Reason: ReasonFits, NewIndex: -1, Blocking: -1, Probability: 1}
	if !hasDeadline {
		dec.Reason, dec.Checked = ReasonNoDeadline, checks
		return dec, nil
	}
	sum, _ := x.prefix(&newJob)
	sumW := sum + newJob.JCT
	dec.NewIndex = 0
	checks = append(checks, newCheck(&newJob, newJob.JCT, sumW, dNew, true, true))
	switch {
	case !(sumW <= dNew):
		dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonNewJobLate, 0, 0
	case opt.Mode == ModeStrict:
		if v, here := x.hurt(x.top(), 0, false, &newJob, now, newJob.JCT); v >= 0 {
			n := &x.nodes[v].job
			checks = append(checks, newCheck(n, n.JCT, here+newJob.JCT, n.Deadline-now, false, true))
			dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonQueuedJobHurt, 1, 0
		}
	}
	q.checks = checks
	dec.Checked = checks
	if dec.Blocking >= 0 {
		dec.BlockingID = checks[dec.Blocking].ID
	}
	return dec, nil
}
