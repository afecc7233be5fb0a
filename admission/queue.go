package admission

import "slices"

// Queue keeps admitted, unfinished jobs in strict EDF order (CompareEDF), the
// order Decide and DecideConfidence expect, so a scheduler never sorts on the
// decision path. Insert is a binary search and one shift, O(log n + n);
// Remove, SetJCT and SetProgress find the job by ID in O(n). None allocates once the
// backing array has grown to the largest queue. The zero value is an empty
// queue. A Queue is not safe for concurrent use.
//
// Typical use in a simulation, on each arrival:
//
//	d, err := checker.Decide(q.Jobs(), job, now, opts)
//	if err == nil && d.Admit { err = q.Insert(job) }
//
// and on each task start or completion q.SetProgress(id, pending,
// runningUntil) (wave mode) or q.SetJCT(id, newJCT) (paper and strict), on
// job completion q.Remove(id).
type Queue struct {
	jobs []Job
}

// Jobs returns the queued jobs in EDF order. The slice aliases the queue's
// storage: it is valid until the next Insert, Remove or Reset, and callers
// must not reorder it. Changing its elements' JCT, Samples, Tasks, Model or
// RunningUntil is allowed (Decide validates them); changing ID, Arrival or
// Deadline is not.
func (q *Queue) Jobs() []Job { return q.jobs }

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.jobs) }

// Reset empties the queue and keeps its storage.
func (q *Queue) Reset() { q.jobs = q.jobs[:0] }

// Insert adds j at its EDF position. It returns a *ValueError matching
// ErrBadInput, and leaves the queue unchanged, if j's Arrival is not finite,
// its Deadline is NaN or -Inf, its JCT is outside [0, MaxDuration], its
// Tasks negative, its RunningUntil NaN or +Inf, or its ID is already
// queued. Samples and Model are kept as given (Samples not copied).
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
	if k := q.index(j.ID); k >= 0 {
		return &ValueError{Field: "NewJob.ID", Value: float64(j.ID), Reason: "already queued"}
	}
	i, _ := slices.BinarySearchFunc(q.jobs, j, CompareEDF)
	q.jobs = slices.Insert(q.jobs, i, j)
	return nil
}

// Remove deletes the job with the given ID and reports whether it was queued.
func (q *Queue) Remove(id int64) bool {
	k := q.index(id)
	if k < 0 {
		return false
	}
	q.jobs = slices.Delete(q.jobs, k, k+1)
	return true
}

// SetProgress records wave mode's view of the job with the given ID after
// a task started or ended: tasks not yet started and the time its running
// tasks are expected to end (see Job.Tasks and Job.RunningUntil). The EDF
// order does not depend on them, so the job keeps its place. It returns a
// *ValueError matching ErrBadInput if tasks < 0, runningUntil is NaN or
// +Inf, or no such job is queued ("ID"); the job is then unchanged.
func (q *Queue) SetProgress(id int64, tasks int, runningUntil float64) error {
	k := q.index(id)
	if k < 0 {
		return &ValueError{Field: "ID", Value: float64(id), Reason: "not queued"}
	}
	j := Job{Tasks: tasks, RunningUntil: runningUntil}
	if err := validateProgress(&j, k); err != nil {
		return err
	}
	q.jobs[k].Tasks, q.jobs[k].RunningUntil = tasks, runningUntil
	return nil
}

// SetJCT replaces the Eq. 6 estimate of the job with the given ID, for
// example after some of its tasks finished. The EDF order does not depend on
// JCT, so the job keeps its place. It returns a *ValueError matching
// ErrBadInput if jct is outside [0, MaxDuration], or if no such job is
// queued ("ID").
func (q *Queue) SetJCT(id int64, jct float64) error {
	k := q.index(id)
	if k < 0 {
		return &ValueError{Field: "ID", Value: float64(id), Reason: "not queued"}
	}
	j := Job{JCT: jct}
	if err := validateJCT(&j, k); err != nil {
		return err
	}
	q.jobs[k].JCT = jct
	return nil
}

// index returns the position of the job with the given ID, or -1.
func (q *Queue) index(id int64) int {
	for k := range q.jobs {
		if q.jobs[k].ID == id {
			return k
		}
	}
	return -1
}
