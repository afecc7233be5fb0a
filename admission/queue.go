package admission

// Queue keeps admitted, unfinished jobs in strict EDF order (CompareEDF) and
// what happens to them: the caller tells it each task start (Start, with
// the slot and the planned end it knows) and end (End), and the queue keeps
// each job's pending count (Job.Tasks), its running tasks (Job.Running) and
// their latest planned end (Job.RunningUntil), and each slot's planned free
// time, which wave mode plans on. The jobs live in a search tree that
// answers paper and strict mode in O(log n) (Queue.Decide), and the queue
// keeps its wave-mode plan between decisions of one instant. Insert,
// Remove, SetJCT, Start and End are O(log n) (plus the shift of
// Queue.Decide's Eq. 7 sums; End of a job's latest task walks that job's
// running tasks). Once its storage has grown, only Insert of an ID never
// seen may allocate (the ID map). The zero value is an empty queue. A Queue
// is not safe for concurrent use.
//
// A scheduler's loop, with package edf's Queue beside it under the same
// job IDs:
//
//	d, err := q.Decide(job, now, opt) // on arrival; if d.Admit: q.Insert(job)
//	q.Start(id, slot, plannedEnd)     // a task of job id starts on slot
//	q.End(slot, completed)            // the task on slot ends
//	q.Remove(id)                      // the job is done
//
// and q.SetJCT(id, jct) where paper and strict mode's Eq. 6 estimate
// changes.
type Queue struct {
	ix qindex // the jobs, in a search tree in EDF order
	// jobs is the queued jobs in EDF order, current while !stale, for the
	// Workspace that decides confidence mode.
	jobs   []Job
	stale  bool
	checks []Check    // Decide's evidence
	ws     Workspace  // for what Decide passes to a Workspace
	wave   wavePlan   // wave mode's plan of the queued jobs
	sums   eq7Sums    // Eq. 7's prefix sums as Workspace.Decide forms them
	conf   confSums   // confidence mode's checked samples and running sums
	slots  []slotTask // by slot index: the task Start recorded there
	busy   int        // slots with a recorded task
	eff    []Slot     // scratch: Options.Cluster with the recorded tasks
}

// A slotTask is the task Start recorded on one slot: the node of its job
// (-1: none) and its planned end, linked with the job's other running
// tasks.
type slotTask struct {
	v          int32
	end        float64
	prev, next int32 // slot indices, -1 for none
}

// Jobs returns a copy of the queued jobs in EDF order, each with its
// pending count, running tasks and their latest planned end as the queue
// keeps them: the slice Workspace.Decide takes for the same decision as
// Queue.Decide. O(n).
func (q *Queue) Jobs() []Job { return append([]Job(nil), q.ordered()...) }

// ordered is the queued jobs in EDF order, rebuilt after a change, for the
// Queue's own Workspace, which only reads them.
func (q *Queue) ordered() []Job {
	if q.stale || len(q.jobs) != len(q.ix.byID) {
		q.jobs = q.ix.appendInOrder(q.jobs[:0], q.ix.top())
		q.stale = false
	}
	return q.jobs
}

// Status returns the job with the given ID as the queue keeps it; ok is
// false when it is not queued.
func (q *Queue) Status(id int64) (j Job, ok bool) {
	v, ok := q.ix.byID[id]
	if !ok {
		return Job{}, false
	}
	return q.ix.nodes[v].job, true
}

// Ahead returns the number of queued deadline jobs that come before j in
// EDF order (CompareEDF): for a new job with a deadline, its index in the
// evidence Workspace.Decide gives (Decision.NewIndex), which Queue.Decide's
// summary does not carry. O(log n). A *ValueError matching ErrBadInput if
// j's Arrival is not finite or its Deadline is NaN or -Inf.
func (q *Queue) Ahead(j Job) (int, error) {
	if err := validateJob(&j, atNew); err != nil {
		return 0, err
	}
	_, n := q.ix.prefix(&j)
	return min(n, q.ix.deadlineJobs()), nil
}

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.ix.byID) }

// Reset empties the queue and keeps its storage.
func (q *Queue) Reset() {
	q.jobs, q.stale = q.jobs[:0], false
	q.ix.reset()
	q.wave.drop(0)
	q.sums.on = false
	q.conf.on = false
	for i := range q.slots {
		q.slots[i].v = -1
	}
	q.busy = 0
}

// Insert adds j at its EDF position. It checks the fields the package
// doc's "Jobs" lists, as edf.Queue.Add does, then JCT (in [0,
// MaxDuration]) and Running (0: the queue records running tasks with
// Start), then that j's ID is not queued ("Job.ID") and that the queue
// holds fewer than MaxJobs jobs ("Queue.Len"); an error is a *ValueError
// matching ErrBadInput, and the queue is then unchanged. Samples and Model
// are kept as given (Samples not copied, and not to be changed while the
// job is queued: confidence mode keeps sums of them).
func (q *Queue) Insert(j Job) error {
	if err := validateNew(&j, atInsert); err != nil {
		return err
	}
	if _, ok := q.ix.byID[j.ID]; ok {
		return &ValueError{Field: "Job.ID", Value: j.ID, Reason: "already queued"}
	}
	if q.Len() >= MaxJobs {
		return &ValueError{Field: "Queue.Len", Value: q.Len(), Reason: "the queue holds MaxJobs = 2^18 jobs"}
	}
	j.RunningUntil = 0
	if r, ok := q.deadlineRank(q.ix.insert(&j)); ok {
		q.wave.drop(r)
		q.sums.insert(r, j.JCT)
		q.conf.insert(r)
	}
	q.stale = true
	return nil
}

// Remove deletes the job with the given ID and reports whether it was
// queued. Its running tasks, if any, stop holding their slots.
func (q *Queue) Remove(id int64) bool {
	v, ok := q.ix.byID[id]
	if !ok {
		return false
	}
	for s := q.ix.nodes[v].first; s >= 0; {
		next := q.slots[s].next
		q.slots[s] = slotTask{v: -1, prev: -1, next: -1}
		q.busy--
		s = next
	}
	if r, ok := q.deadlineRank(v); ok {
		q.wave.drop(r)
		q.sums.remove(r)
		q.conf.remove(r)
	}
	q.ix.remove(v)
	q.stale = true
	return true
}

// SetJCT replaces the Eq. 6 estimate of the job with the given ID, for
// example after some of its tasks finished. The EDF order does not depend on
// JCT, so the job keeps its place. It returns a *ValueError matching
// ErrBadInput if jct is outside [0, MaxDuration], or if no such job is
// queued ("ID", ErrUnknownJob).
func (q *Queue) SetJCT(id int64, jct float64) error {
	v, ok := q.ix.byID[id]
	if !ok {
		return unknown(id)
	}
	j := Job{JCT: jct}
	if err := validateJCT(&j, q.ix.rankOf(v)); err != nil {
		return err
	}
	q.setJCT(v, jct)
	if k := q.slot(v); k >= 0 {
		q.jobs[k].JCT = jct
	}
	return nil
}

// unknown is the error for an ID that is not queued.
func unknown(id int64) error {
	return &ValueError{Field: "ID", Value: id, Reason: "not queued", Err: ErrUnknownJob}
}

// setJCT changes node v's JCT in the tree and in the Eq. 7 sums.
func (q *Queue) setJCT(v int32, jct float64) {
	if r, ok := q.deadlineRank(v); ok {
		q.sums.set(r, jct)
	}
	q.ix.setJCT(v, jct)
}

// deadlineRank returns node v's EDF position if it has a deadline: its
// index among the deadline jobs, which come first.
func (q *Queue) deadlineRank(v int32) (int, bool) {
	if !q.ix.nodes[v].job.HasDeadline() {
		return 0, false
	}
	return q.ix.rankOf(v), true
}

// slot returns node v's position in the ordered jobs, or -1 when they are
// not current (the next ordered rebuilds them from the tree).
func (q *Queue) slot(v int32) int {
	if q.stale || len(q.jobs) != len(q.ix.byID) {
		return -1
	}
	return q.ix.rankOf(v)
}
