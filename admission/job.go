package admission

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/internal/job"
)

// A Job is one job as admission control sees it: a queued job or the one
// arriving. It is package edf's Job too (one type, declared once under
// internal/), so a scheduler describes a job once and passes the same value
// to both queues. Times are seconds on the caller's clock (the same clock
// as the now argument of a decision). Admission reads:
//
//   - ID, Arrival, Deadline: every mode; EDF order (CompareEDF). A job
//     without a deadline (NoDeadline()) is always admitted and left out of
//     every prefix sum, so it never delays a deadline job.
//   - Tasks and Model: wave mode plans the pending tasks, and needs, for a
//     deadline job with pending tasks, a valid task time (> 0 and at most
//     MaxDuration) on every slot the plan puts one of its tasks on; the
//     other modes do not read them.
//   - JCT (MIMP Eq. 6, usually from JCT the function): paper and strict.
//   - Samples: confidence mode, for the new job and every queued deadline
//     job, all of one common length.
//   - Running and RunningUntil: wave mode completes a job no earlier than
//     RunningUntil while Running > 0 (then neither NaN nor +Inf, and at
//     most MaxDuration after now). A Queue keeps both from Start and End.
//
// Read90 is edf's and ignored here. The package doc's "Jobs" gives the
// contract every job entering a queue or a decision meets.
type Job = job.Job

// NoDeadline returns the Deadline of a job without one, +Inf.
func NoDeadline() float64 { return job.NoDeadline() }

// CompareEDF orders jobs in earliest-deadline-first order: by Deadline
// (no deadline, +Inf, last), then by Arrival, then by ID. It returns -1, 0
// or +1 like cmp.Compare. Two jobs compare equal only if all three keys are
// equal, which a valid queue never contains (IDs are unique). It is the
// order Decide expects of its queue and the order an EDF scheduler serves
// jobs in, so the prefix sums of Eq. 7 follow the schedule; it is
// edf.CompareEDF too. NaN keys compare as cmp.Compare says (before
// everything); validation rejects them first.
func CompareEDF(a, b Job) int { return job.CompareEDF(&a, &b) }

// compareEDF is CompareEDF on pointers (the decision path calls it once or
// twice per queued job).
func compareEDF(a, b *Job) int { return job.CompareEDF(a, b) }

// jobField names a field of queued job k, of the new job of a decision
// (k = atNew) or of a job given to Queue.Insert (k = atInsert). It is
// called only on error paths, so the decision path does not allocate.
func jobField(k int, field string) string {
	switch k {
	case atNew:
		return "NewJob." + field
	case atInsert:
		return "Job." + field
	}
	return fmt.Sprintf("Queue[%d].%s", k, field)
}

// The k of jobField for the jobs outside a queue.
const (
	atNew    = -1 // the new job of a decision
	atInsert = -2 // a job given to Queue.Insert
)

// validateJob checks the fields every mode needs of queued job k (k < 0: the
// new job).
func validateJob(j *Job, k int) error {
	if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) {
		return &ValueError{Field: jobField(k, "Arrival"), Value: j.Arrival, Reason: "must be finite"}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1) {
		return &ValueError{Field: jobField(k, "Deadline"), Value: j.Deadline, Reason: "must be finite, or NoDeadline() (+Inf)"}
	}
	return nil
}

// validateQueued checks queued job k: its own fields, strict EDF order after
// the previous job, and an ID different from the new job's.
func validateQueued(queue []Job, k int, newID int64) error {
	j := &queue[k]
	if err := validateJob(j, k); err != nil {
		return err
	}
	if k > 0 && compareEDF(&queue[k-1], j) >= 0 {
		return &ValueError{
			Field:  fmt.Sprintf("Queue[%d]", k),
			Value:  j.ID,
			Reason: "queue not in strict EDF order (Deadline, Arrival, ID) at this job",
		}
	}
	if j.ID == newID {
		return &ValueError{Field: "NewJob.ID", Value: newID, Reason: fmt.Sprintf("duplicates Queue[%d].ID", k)}
	}
	return nil
}

// The per-mode fields queuedOK and queuedError check besides the common
// ones (ID, Arrival, Deadline, EDF order).
const (
	withoutExtra = iota // confidence mode: samples are checked separately
	withJCT             // paper and strict: Job.JCT
	withProgress        // wave: Job.Tasks, Job.Running and Job.RunningUntil
)

// queuedOK is the decision path's fast validity test of queued job k: the
// conditions of validateQueued (and, per extra, validateJCT or
// validateProgress) written as plain comparisons, so that a valid queue
// costs a few instructions per job. x-x == 0 holds exactly for finite x;
// y >= -MaxFloat64 rejects NaN and -Inf. The previous job was validated
// already, so its keys are not NaN and < is CompareEDF.
func queuedOK(queue []Job, k int, newID int64, extra int) bool {
	j := &queue[k]
	if !(j.Arrival-j.Arrival == 0) || !(j.Deadline >= -math.MaxFloat64) || j.ID == newID {
		return false
	}
	switch extra {
	case withJCT:
		if !(j.JCT >= 0 && j.JCT <= MaxDuration) {
			return false
		}
	case withProgress:
		if j.Tasks < 0 || j.Running < 0 || j.Running > 0 && !(j.RunningUntil < math.Inf(1)) {
			return false
		}
	}
	if k == 0 {
		return true
	}
	p := &queue[k-1]
	return p.Deadline < j.Deadline ||
		p.Deadline == j.Deadline && (p.Arrival < j.Arrival || p.Arrival == j.Arrival && p.ID < j.ID)
}

// queuedError returns the error queuedOK found, from the detailed checks.
func queuedError(queue []Job, k int, newID int64, extra int) error {
	if err := validateQueued(queue, k, newID); err != nil {
		return err
	}
	var err error
	switch extra {
	case withJCT:
		err = validateJCT(&queue[k], k)
	case withProgress:
		err = validateProgress(&queue[k], k)
	}
	if err != nil {
		return err
	}
	panic("admission: queuedOK and validateQueued disagree") // a broken internal invariant
}

// validateJCT checks Job.JCT for the deterministic modes.
func validateJCT(j *Job, k int) error {
	if !(j.JCT >= 0 && j.JCT <= MaxDuration) {
		return &ValueError{Field: jobField(k, "JCT"), Value: j.JCT, Reason: "must be in [0, MaxDuration]"}
	}
	return nil
}

// validateProgress checks the wave-mode fields every queued job must have
// valid wherever it is used: Tasks >= 0, Running >= 0 and, when Running >
// 0, RunningUntil neither NaN nor +Inf (its distance from now is checked by
// the decision).
func validateProgress(j *Job, k int) error {
	if j.Tasks < 0 {
		return &ValueError{Field: jobField(k, "Tasks"), Value: j.Tasks, Reason: "must be >= 0"}
	}
	if j.Running < 0 {
		return &ValueError{Field: jobField(k, "Running"), Value: j.Running, Reason: "must be >= 0"}
	}
	if j.Running > 0 && !(j.RunningUntil < math.Inf(1)) {
		return &ValueError{Field: jobField(k, "RunningUntil"), Value: j.RunningUntil, Reason: "must not be NaN or +Inf while tasks run"}
	}
	return nil
}

// validateNew checks a job entering a queue (k = atInsert) or arriving at
// a decision (k = atNew), in every mode: the entry contract both packages
// check alike (the package doc's "Jobs"). A job a decision does not refuse
// as bad input, Insert takes (but for its ID and the queue's size, which
// the queue checks).
func validateNew(j *Job, k int) error {
	if f, ok := job.Check(j); !ok {
		return &ValueError{Field: jobField(k, f.Field), Value: f.Value, Reason: f.Reason}
	}
	return nil
}

// relDeadline returns deadline − now for a job with a deadline, or an error
// if that overflows (both are finite here, so only an overflow makes it
// infinite).
func relDeadline(j *Job, k int, now float64) (float64, error) {
	d := j.Deadline - now
	if math.IsInf(d, 0) {
		return 0, &ValueError{Field: jobField(k, "Deadline"), Value: j.Deadline, Reason: "deadline − now overflows float64"}
	}
	return d, nil
}

// validateNow checks the decision time.
func validateNow(now float64) error {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	}
	return nil
}
