package admission

// Queue keeps admitted, unfinished jobs in strict EDF order (CompareEDF), the
// order Decide and DecideConfidence expect, so a scheduler never sorts on the
// decision path. The jobs live in a search tree that answers paper and
// strict mode in O(log n) (Queue.Decide), and the queue keeps its wave-mode
// plan between decisions of one instant; Insert, Remove, SetJCT and
// SetProgress are O(log n) (plus the shift of Queue.Decide's Eq. 7 sums). Jobs lays them out in a slice in EDF order for
// Checker.Decide, O(n) the first time after a change. Once the storage has
// grown to the largest queue, only Insert of an ID never seen may allocate
// (the ID map). The zero value is an empty queue. A Queue is not safe for
// concurrent use.
//
// Typical use in a simulation, on each arrival:
//
//	d, err := q.Decide(job, now, opts) // or checker.Decide(q.Jobs(), job, now, opts)
//	if err == nil && d.Admit { err = q.Insert(job) }
//
// and on each task start or completion q.SetProgress(id, pending,
// runningUntil) (wave mode) or q.SetJCT(id, newJCT) (paper and strict), on
// job completion q.Remove(id).
type Queue struct {
	ix qindex // the jobs, in a search tree in EDF order
	// jobs is the slice Jobs returned, in EDF order; current while !stale.
	// While out, the caller may have edited it, so its editable fields
	// are the truth until syncBack copies them into the tree.
	jobs    []Job
	stale   bool
	out     bool
	checks  []Check  // Decide's evidence
	checker Checker  // for what Decide passes to a Checker
	wave    wavePlan // wave mode's plan of the queued jobs
	sums    eq7Sums  // Eq. 7's prefix sums as Checker.Decide forms them
}

// Jobs returns the queued jobs in EDF order (O(n) the first time after an
// Insert, Remove or Reset, then the same slice). The slice aliases the
// queue's storage: it is valid until the next Insert, Remove, Reset or
// Queue.Decide, and callers must not reorder it. Changing its elements'
// JCT, Samples, Tasks, Model or RunningUntil is allowed (Checker.Decide
// validates them) and is kept: the next Insert, Remove, Reset or
// Queue.Decide takes the changes in (O(n)); changing ID, Arrival or
// Deadline is not.
func (q *Queue) Jobs() []Job {
	jobs := q.ordered()
	q.out = true
	return jobs
}

// ordered is Jobs without handing the slice out, for the Queue's own
// Checker, which only reads it.
func (q *Queue) ordered() []Job {
	q.syncBack()
	if q.stale || len(q.jobs) != len(q.ix.byID) {
		q.jobs = q.ix.appendInOrder(q.jobs[:0], q.ix.top())
		q.stale = false
	}
	return q.jobs
}

// syncBack takes in the caller's edits to the slice Jobs handed out. An
// edit of a deadline job's Tasks, Model or RunningUntil drops the wave
// plan from that job on.
func (q *Queue) syncBack() {
	if !q.out {
		return
	}
	q.out = false
	for k := range q.jobs {
		j := &q.jobs[k]
		v, ok := q.ix.byID[j.ID]
		if !ok {
			continue // the caller changed an ID, which Jobs forbids
		}
		n := &q.ix.nodes[v].job
		if j.Tasks != n.Tasks || !sameBits(j.RunningUntil, n.RunningUntil) || !sameModel(j.Model, n.Model) {
			q.wave.edited = true
			q.dropFrom(v)
		}
		n.Samples, n.Tasks, n.Model, n.RunningUntil = j.Samples, j.Tasks, j.Model, j.RunningUntil
		if j.JCT != n.JCT && validateJCT(j, k) == nil {
			q.setJCT(v, j.JCT)
		}
	}
}

// Ahead returns the number of queued deadline jobs that come before j in
// EDF order (CompareEDF): for a new job with a deadline, its index in the
// evidence Checker.Decide gives (Decision.NewIndex), which Queue.Decide's
// summary does not carry. O(log n). A *ValueError matching ErrBadInput if
// j's Arrival is not finite or its Deadline is NaN or -Inf.
func (q *Queue) Ahead(j Job) (int, error) {
	if err := validateJob(&j, -1); err != nil {
		return 0, err
	}
	_, n := q.ix.prefix(&j)
	return min(n, q.ix.deadlineJobs()), nil
}

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.ix.byID) }

// Reset empties the queue and keeps its storage.
func (q *Queue) Reset() {
	q.jobs, q.stale, q.out = q.jobs[:0], false, false
	q.ix.reset()
	q.wave.drop(0)
	q.sums.on = false
}

// Insert adds j at its EDF position. It returns a *ValueError matching
// ErrBadInput, and leaves the queue unchanged, if j's Arrival is not finite,
// its Deadline is NaN or -Inf, its JCT is outside [0, MaxDuration], its
// Tasks negative, its RunningUntil NaN or +Inf, its ID is already queued,
// or the queue holds MaxJobs jobs. Samples and Model are kept as given (Samples not copied).
func (q *Queue) Insert(j Job) error {
	if err := validateJob(&j, -1); err != nil {
		return err
	}
	if err := validateJCT(&j, -1); err != nil {
		return err
	}
	if err := validateProgress(&j, -1); err != nil {
		return err
	}
	if _, ok := q.ix.byID[j.ID]; ok {
		return &ValueError{Field: "NewJob.ID", Value: float64(j.ID), Reason: "already queued"}
	}
	if q.Len() >= MaxJobs {
		return &ValueError{Field: "Queue.Len", Value: float64(q.Len()), Reason: "the queue holds MaxJobs = 2^18 jobs"}
	}
	q.syncBack()
	if r, ok := q.deadlineRank(q.ix.insert(&j)); ok {
		q.wave.drop(r)
		q.sums.insert(r, j.JCT)
	}
	q.stale = true
	return nil
}

// Remove deletes the job with the given ID and reports whether it was queued.
func (q *Queue) Remove(id int64) bool {
	v, ok := q.ix.byID[id]
	if !ok {
		return false
	}
	q.syncBack()
	if r, ok := q.deadlineRank(v); ok {
		q.wave.drop(r)
		q.sums.remove(r)
	}
	q.ix.remove(v)
	q.stale = true
	return true
}

// SetProgress records wave mode's view of the job with the given ID after
// a task started or ended: tasks not yet started and the time its running
// tasks are expected to end (see Job.Tasks and Job.RunningUntil). The EDF
// order does not depend on them, so the job keeps its place. It returns a
// *ValueError matching ErrBadInput if tasks < 0, runningUntil is NaN or
// +Inf, or no such job is queued ("ID"); the job is then unchanged.
func (q *Queue) SetProgress(id int64, tasks int, runningUntil float64) error {
	v, ok := q.ix.byID[id]
	if !ok {
		return &ValueError{Field: "ID", Value: float64(id), Reason: "not queued"}
	}
	j := Job{Tasks: tasks, RunningUntil: runningUntil}
	if err := validateProgress(&j, q.ix.rankOf(v)); err != nil {
		return err
	}
	n := &q.ix.nodes[v].job
	if n.Tasks != tasks || !sameBits(n.RunningUntil, runningUntil) {
		q.dropFrom(v)
	}
	n.Tasks, n.RunningUntil = tasks, runningUntil
	if k := q.slot(v); k >= 0 {
		q.jobs[k].Tasks, q.jobs[k].RunningUntil = tasks, runningUntil
	}
	return nil
}

// SetJCT replaces the Eq. 6 estimate of the job with the given ID, for
// example after some of its tasks finished. The EDF order does not depend on
// JCT, so the job keeps its place. It returns a *ValueError matching
// ErrBadInput if jct is outside [0, MaxDuration], or if no such job is
// queued ("ID").
func (q *Queue) SetJCT(id int64, jct float64) error {
	v, ok := q.ix.byID[id]
	if !ok {
		return &ValueError{Field: "ID", Value: float64(id), Reason: "not queued"}
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

// slot returns node v's position in the slice Jobs handed out, or -1 when
// that slice is not current (the next Jobs rebuilds it from the tree).
func (q *Queue) slot(v int32) int {
	if q.stale || len(q.jobs) != len(q.ix.byID) {
		return -1
	}
	return q.ix.rankOf(v)
}
