package admission

import "fmt"

// Decide decides whether to admit newJob, arriving at now, against the
// queue's own jobs: the decision Workspace.Decide(q.Jobs(), newJob, now,
// opt) makes (in wave mode with the queue's recorded tasks in opt.Cluster),
// bit for bit, errors included.
//
// In ModeStrict and ModePaper it takes O(log n) for n queued jobs instead
// of one pass, from the queue's search tree, and the evidence is a
// summary: Checked holds the new job's Check (NewIndex 0; Ahead gives its
// place among the queued jobs) and, when a queued job would be hurt, that
// job's Check after it (Blocking 1); Admit, Reason, BlockingID and
// Probability are Workspace.Decide's, and so are those two Checks. The Eq. 7
// sums are formed as Workspace.Decide forms them, one addition after another
// in EDF order (the tree's own sums, formed in another order, may differ
// in the last bits, and only propose the jobs to check): they are kept per
// job and extended, one addition each, from the EDF place of the last
// Insert, Remove or SetJCT as far as a decision reads, so a decision after
// a change near the front of the queue costs up to O(n) additions once,
// and once Queue.Decide has used them an Insert or Remove of a deadline
// job shifts the kept JCTs, O(n) moves of 8 bytes.
//
// In ModeWave the evidence is full, as Workspace.Decide's, and the cluster
// is opt.Cluster with every slot on which the queue records a task (Start)
// busy until that task's planned end; a recorded task on a slot beyond
// opt.Cluster is an error ("Options.Cluster"). The queue keeps its plan of
// its own jobs (without a new job) for the time, cluster and margin of the
// decision (see wavePlan); a decision with the same ones, compared bit for
// bit, plans only the new job and the jobs after it in EDF order, in two
// placements instead of the four Workspace.Decide plans them in, and not
// the jobs before it, whose evidence it copies. Insert, Remove, Start and
// End keep the plan up to the changed job's place. A decision at another time, or on another cluster
// or margin, plans every job again first: the plan's times are relative
// to now, so a plan made at one time is not, to the bit, the plan at
// another. The kept plan takes about 32 bytes per planned task and 72 per
// deadline job. Task models must be functions of r (equal r, equal time)
// and must not change while their job is queued.
// ModeConfidence decides as Workspace.Decide, with full evidence. The
// queue checks each queued deadline job's Samples once, and keeps, for the
// time and the sample count of the decisions, each queued job's Check
// without a new job and the running sums of the samples every 32 deadline
// jobs in EDF order, up to the place of the last Insert or Remove of a
// deadline job: a decision adds the new job and the jobs after it, one
// addition per sample as Workspace.Decide's pass does, and the jobs before
// it only as far as the kept sums do not reach (at most 31 jobs past a kept
// sum, plus any beyond the kept place, which it keeps). A decision at another
// time or with another sample count forms them again first. It takes about
// 8 bytes per sample every 32 deadline jobs and 64 bytes per deadline job;
// queued Samples must not change while their job is queued. A decision the
// pass would refuse, or of a new job without a deadline, goes to a
// Workspace the queue keeps.
//
// The decision allocates nothing once the queue's buffers fit.
// Errors are Workspace.Decide's: now not finite; the new job's Arrival,
// Deadline or JCT invalid; its ID already queued ("NewJob.ID", naming the
// queued job's position); a queued deadline − now that overflows
// ("Queue[k].Deadline"); an unknown Mode; in wave mode those the package
// doc lists. The Decision's Checked aliases the queue's buffer until the
// next Decide.
func (q *Queue) Decide(newJob Job, now float64, opt Options) (Decision, error) {
	switch opt.Mode {
	case ModeStrict, ModePaper:
	case ModeWave:
		return q.decideWave(newJob, now, opt)
	case ModeConfidence:
		return q.decideConfidence(newJob, now, opt)
	default:
		return q.ws.Decide(q.ordered(), newJob, now, opt)
	}
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
		return Decision{}, &ValueError{Field: "NewJob.ID", Value: newJob.ID, Reason: fmt.Sprintf("duplicates Queue[%d].ID", dup)}
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
	_, p := x.prefix(&newJob)
	if !q.sums.on {
		q.sums.start(x)
	}
	sumW := q.sums.at(p-1) + newJob.JCT
	dec.NewIndex = 0
	checks = append(checks, newCheck(&newJob, newJob.JCT, sumW, dNew, true, true))
	switch {
	case !(sumW <= dNew):
		dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonNewJobLate, 0, 0
	case opt.Mode == ModeStrict:
		if v, sum := q.firstHurt(&newJob, p, sumW, now); v >= 0 {
			n := &x.nodes[v].job
			checks = append(checks, newCheck(n, n.JCT, sum, n.Deadline-now, false, true))
			dec.Admit, dec.Reason, dec.Blocking, dec.Probability = false, ReasonQueuedJobHurt, 1, 0
		}
	}
	q.checks = checks
	dec.Checked = checks
	dec.finish(checks)
	return dec, nil
}

// firstHurt returns the first deadline job after newJob in EDF order that
// meets its deadline without it and misses it with it, as Workspace.Decide's
// pass decides (its sums one addition after another in EDF order), and
// that job's Eq. 7 sum with newJob; -1 if none. p is the number of
// deadline jobs before newJob and sumW its own sum.
//
// The tree proposes the candidates: the jobs whose slack without newJob,
// from the tree's sums, lies within eps of [0, JCT_new]. eps bounds how far
// the tree's sums and the pass's may each be from the exact real sums (8
// rounding errors of at most 2^−53 of the largest magnitude per job, far
// more than the (5n + 12) the tree's depth ≤ n and the pass's additions
// can add up to), so every job the pass finds hurt is a candidate. Each
// candidate is then decided with the pass's own sums, in EDF order.
func (q *Queue) firstHurt(newJob *Job, p int, sumW, now float64) (int32, float64) {
	x := &q.ix
	d := len(q.sums.jct)
	if p == d {
		return -1, 0
	}
	mag := abs(now) + newJob.JCT + x.nodes[x.top()].sum +
		max(abs(x.nodes[x.nodeAt(0)].job.Deadline), abs(x.nodes[x.nodeAt(d-1)].job.Deadline))
	eps := mag * float64(16*d+64) * 0x1p-53
	t, sum := p-1, sumW // sum is the pass's sum with newJob up to deadline job t
	after := newJob
	for {
		v := x.band(x.top(), 0, false, after, now, -eps, newJob.JCT+eps)
		if v < 0 {
			return -1, 0
		}
		k := x.rankOf(v)
		for t < k {
			t++
			sum += q.sums.jct[t]
		}
		j := &x.nodes[v].job
		if dk := j.Deadline - now; q.sums.at(k) <= dk && !(sum <= dk) {
			return v, sum
		}
		after = j
	}
}

// abs is |x| (math.Abs, for float64 values known not to be NaN).
func abs(x float64) float64 { return max(x, -x) }
