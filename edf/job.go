package edf

import (
	"cmp"

	"github.com/schedkit/schedkit/internal/job"
)

// A Job is one queued MapReduce job as the pickers see it (MIMP §5.1). It
// is package admission's Job too (one type, declared once under
// internal/), so a scheduler describes a job once and passes the same value
// to both queues. edf reads ID, Arrival, Deadline, Tasks and Model (the
// package doc's "Jobs") and Read90, the 90th percentile read rate of one
// task on a dedicated worker per data node (Eq. 5; 0 for a job that reads
// nothing, Pi). JCT and Samples are admission's: ignored here and not
// kept, so Queue.Status returns them zero. Status reports Running, the
// job's tasks started and not ended, and leaves RunningUntil 0 (edf does
// not keep planned ends).
type Job = job.Job

// NoDeadline returns the Deadline of a job without one, +Inf (KMeans in
// MIMP §6.6). Such a job is never at risk, sorts after every job with a
// deadline under EDF, and competes only in MP's best-fit step.
func NoDeadline() float64 { return job.NoDeadline() }

// CompareEDF orders two jobs earliest deadline first, the order of EDF,
// of MP's step 1 and of Algorithm 2: by Deadline (CompareDeadline: a job
// without a deadline after every job with one), then by Arrival, then by
// ID. It returns -1, 0 or +1 like cmp.Compare; two jobs compare equal only
// if all three keys are equal, which a Queue never holds (IDs are unique).
// NaN keys compare as cmp.Compare says (before everything); Add rejects
// them. It is package admission's CompareEDF too.
func CompareEDF(a, b Job) int { return job.CompareEDF(&a, &b) }

// CompareDeadline orders two deadlines as EDF does, the first key of
// CompareEDF: the earlier first, NoDeadline() (+Inf) last. It returns -1,
// 0 or +1; NaN compares as cmp.Compare says.
func CompareDeadline(a, b float64) int { return cmp.Compare(a, b) }

// validateJob checks the entry contract Queue.Add and package admission's
// Queue.Insert share (the package doc's "Jobs"). The ID's uniqueness and
// the queue's size are the queue's to check.
func validateJob(j *Job) error {
	f, ok := job.Check(j)
	switch {
	case ok:
		return nil
	case f.Field == "Model":
		return nilModelError("Job.Model")
	}
	return &ValueError{Field: "Job." + f.Field, Value: f.Value, Reason: f.Reason}
}
