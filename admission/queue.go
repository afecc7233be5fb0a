package admission

import "slices"

// Queue keeps admitted, unfinished jobs in strict EDF order (CompareEDF), the
// order Decide and DecideConfidence expect, so a scheduler never sorts on the
// decision path. Insert is a binary search and one shift, O(log n + n);
// Remove and SetJCT find the job by ID in O(n). None allocates once the
// backing array has grown to the largest queue. The zero value is an empty
// queue. A Queue is not safe for concurrent use.
//
// Typical use in a simulation, on each arrival:
//
//	d, err := checker.Decide(q.Jobs(), job, now, opts)
//	if err == nil && d.Admit { err = q.Insert(job) }
//
// and on each task completion q.SetJCT(id, newJCT), on job completion
// q.Remove(id).
type Queue struct {
	jobs []Job
}

// Jobs returns the queued jobs in EDF order. The slice aliases the queue's
// storage: it is valid until the next Insert, Remove or Reset, and callers
// must not reorder it. Changing its elements' JCT or Samples is allowed.
func (q *Queue) Jobs() []Job { return q.jobs }

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.jobs) }

// Reset empties the queue and keeps its storage.
func (q *Queue) Reset() { q.jobs = q.jobs[:0] }

// Insert adds j at its EDF position. It returns a *ValueError matching
// ErrBadInput, and leaves the queue unchanged, if j's Arrival is not finite,
// its Deadline is NaN or -Inf, its JCT is NaN, infinite or negative, or its ID
// is already queued. Samples are kept as given (not copied).
func (q *Queue) Insert(j Job) error {
	if err := validateJob(&j, -1); err != nil {
		return err
	}
	if err := validateJCT(&j, -1); err != nil {
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

// SetJCT replaces the Eq. 6 estimate of the job with the given ID, for
// example after some of its tasks finished. The EDF order does not depend on
// JCT, so the job keeps its place. It returns a *ValueError matching
// ErrBadInput if jct is NaN, infinite or negative, or if no such job is
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
