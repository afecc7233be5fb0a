package edf

import (
	"cmp"
	"math"
)

// A Job is one queued MapReduce job as the pickers see it (MIMP §5.1). Its
// first five fields are the ones package admission takes too, with the
// same names, types and validity (the package doc's "Jobs").
type Job struct {
	// ID is the caller's job identifier, unique within a Queue; the last
	// EDF and FIFO tie-break.
	ID int64
	// Arrival is the submission time in seconds, finite; FIFO order.
	Arrival float64
	// Deadline is the absolute deadline in seconds, finite, or NoDeadline()
	// (+Inf) for a job without one. NaN and -Inf are bad input.
	Deadline float64
	// Tasks is the number of map tasks not yet started, >= 0.
	Tasks int
	// Model predicts this job's task completion time (Eq. 1). Not nil when
	// Tasks > 0; its times are checked where a decision uses them.
	Model Model
	// Read90 is the 90th percentile read rate of one task on a dedicated
	// worker, per data node (Eq. 5), finite and >= 0; 0 for a job that
	// reads nothing (Pi).
	Read90 float64
}

// NoDeadline returns the Deadline of a job without one, +Inf (KMeans in
// MIMP §6.6). Such a job is never at risk, sorts after every job with a
// deadline under EDF, and competes only in MP's best-fit step.
func NoDeadline() float64 { return math.Inf(1) }

// HasDeadline reports whether j has a deadline (Deadline is not +Inf).
func (j Job) HasDeadline() bool { return !math.IsInf(j.Deadline, 1) }

// CompareEDF orders two jobs earliest deadline first, the order of EDF,
// of MP's step 1 and of Algorithm 2: by Deadline (CompareDeadline: a job
// without a deadline after every job with one), then by Arrival, then by
// ID. It returns -1, 0 or +1 like cmp.Compare; two jobs compare equal only
// if all three keys are equal, which a Queue never holds (IDs are unique).
// NaN keys compare as cmp.Compare says (before everything); Add rejects
// them. package admission's CompareEDF is the same order.
func CompareEDF(a, b Job) int {
	return cmp.Or(CompareDeadline(a.Deadline, b.Deadline), cmp.Compare(a.Arrival, b.Arrival), cmp.Compare(a.ID, b.ID))
}

// CompareDeadline orders two deadlines as EDF does, the first key of
// CompareEDF: the earlier first, NoDeadline() (+Inf) last. It returns -1,
// 0 or +1; NaN compares as cmp.Compare says.
func CompareDeadline(a, b float64) int { return cmp.Compare(a, b) }

// validateJob checks the fields Queue.Add takes: the contract shared with
// package admission (Arrival, Deadline, Tasks, Model) and Read90. The ID's
// uniqueness and the queue's size are the queue's to check.
func validateJob(j *Job) error {
	if !(j.Arrival-j.Arrival == 0) {
		return &ValueError{Field: "Job.Arrival", Value: j.Arrival, Reason: "must be finite"}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1) {
		return &ValueError{Field: "Job.Deadline", Value: j.Deadline, Reason: "must be finite, or NoDeadline() (+Inf)"}
	}
	if j.Tasks < 0 {
		return &ValueError{Field: "Job.Tasks", Value: j.Tasks, Reason: "must be >= 0"}
	}
	if j.Tasks > 0 && nilModel(j.Model) {
		return nilModelError("Job.Model")
	}
	if !(j.Read90 >= 0 && j.Read90 <= math.MaxFloat64) {
		return &ValueError{Field: "Job.Read90", Value: j.Read90, Reason: "must be finite and >= 0"}
	}
	return nil
}
