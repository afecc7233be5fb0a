package admission

import (
	"cmp"
	"fmt"
	"math"
)

// A Job is one job as admission control sees it: a queued job or the one
// arriving. Times are seconds on the caller's clock (the same clock as the
// now argument of Decide).
type Job struct {
	// ID identifies the job. IDs must be unique within a queue and the new
	// job; it is the last EDF tie-break.
	ID int64
	// Arrival is the time the job was submitted (finite). It is the second
	// EDF tie-break; a new job normally arrives at now.
	Arrival float64
	// Deadline is the absolute time by which the job should complete, or
	// math.Inf(1) for a job without a deadline. Such a job is always
	// admitted, sorts after every deadline job in EDF order and is left out
	// of every prefix sum, so it never delays a deadline job. NaN and -Inf
	// are bad input. A deadline already in the past is allowed: that job
	// simply has negative slack.
	Deadline float64
	// JCT is the job's estimated completion time in seconds if it ran alone
	// on the whole cluster: 000 Eq. 6, usually from JCT (the function) with
	// the job's remaining tasks. In [0, MaxDuration]. Used by Decide in
	// paper and strict mode; ignored by wave and confidence mode (but still
	// validated by Queue.Insert, so leave it 0 if unused).
	JCT float64
	// Samples are draws of the job's completion time alone on the cluster
	// (seconds, in [0, MaxDuration]), for example from a Monte-Carlo model.
	// Used only by DecideConfidence, which needs them for the new job and
	// every queued deadline job, all of one common length. Decide ignores
	// them in the other modes.
	Samples []float64

	// Wave mode (ModeWave) plans the job's tasks on the cluster's slots
	// from the following three fields; the other modes ignore them.

	// Tasks is the number of the job's tasks not yet started, >= 0. Running
	// tasks are not counted: they hold their slots (Slot.FreeAt) and end by
	// RunningUntil.
	Tasks int
	// Model predicts one task's time on a slot: TCT(r) seconds at residual
	// capacity r (000 Eq. 1; tct.Exp2 satisfies it). Needed, non-nil, for a
	// deadline job with Tasks > 0; it must give a time in [0, MaxDuration]
	// on every slot the plan puts one of its tasks on.
	Model Model
	// RunningUntil is the absolute time (seconds) by which the job's running
	// tasks are expected to end: the latest of their slots' FreeAt. A value
	// at or before now (0 when now > 0, or math.Inf(-1)) means none runs.
	// NaN and +Inf are bad input, as is RunningUntil − now > MaxDuration.
	RunningUntil float64
}

// HasDeadline reports whether j has a deadline (Deadline is not +Inf).
func (j Job) HasDeadline() bool { return !math.IsInf(j.Deadline, 1) }

// CompareEDF orders jobs in earliest-deadline-first order: by Deadline
// (no deadline, +Inf, last), then by Arrival, then by ID. It returns -1, 0 or +1 like
// cmp.Compare. Two jobs compare equal only if all three keys are equal, which
// a valid queue never contains (IDs are unique). It is the order Decide
// expects of its queue and the order an EDF scheduler serves jobs in, so the
// prefix sums of Eq. 7 follow the schedule. NaN keys compare as cmp.Compare
// says (before everything); validation rejects them first.
func CompareEDF(a, b Job) int { return compareEDF(&a, &b) }

// compareEDF is CompareEDF on pointers, short-circuiting after the first
// unequal key (the decision path calls it once or twice per queued job).
func compareEDF(a, b *Job) int {
	if c := cmp.Compare(a.Deadline, b.Deadline); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Arrival, b.Arrival); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// jobField names a field of queued job k, or of the new job when k < 0. It is
// called only on error paths, so the decision path does not allocate.
func jobField(k int, field string) string {
	if k < 0 {
		return "NewJob." + field
	}
	return fmt.Sprintf("Queue[%d].%s", k, field)
}

// validateJob checks the fields every mode needs of queued job k (k < 0: the
// new job).
func validateJob(j *Job, k int) error {
	if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) {
		return &ValueError{Field: jobField(k, "Arrival"), Value: j.Arrival, Reason: "must be finite"}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1) {
		return &ValueError{Field: jobField(k, "Deadline"), Value: j.Deadline, Reason: "must be finite, or +Inf for no deadline"}
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
			Value:  float64(j.ID),
			Reason: "queue not in strict EDF order (Deadline, Arrival, ID) at this job",
		}
	}
	if j.ID == newID {
		return &ValueError{Field: "NewJob.ID", Value: float64(newID), Reason: fmt.Sprintf("duplicates Queue[%d].ID", k)}
	}
	return nil
}

// The per-mode fields queuedOK and queuedError check besides the common
// ones (ID, Arrival, Deadline, EDF order).
const (
	withoutExtra = iota // confidence mode: samples are checked separately
	withJCT             // paper and strict: Job.JCT
	withProgress        // wave: Job.Tasks and Job.RunningUntil
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
		if j.Tasks < 0 || !(j.RunningUntil < math.Inf(1)) {
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

// validateProgress checks the wave-mode fields every job must have valid
// wherever it is used: Tasks >= 0 and RunningUntil neither NaN nor +Inf
// (its distance from now is checked by the decision).
func validateProgress(j *Job, k int) error {
	if j.Tasks < 0 {
		return &ValueError{Field: jobField(k, "Tasks"), Value: float64(j.Tasks), Reason: "must be >= 0"}
	}
	if !(j.RunningUntil < math.Inf(1)) {
		return &ValueError{Field: jobField(k, "RunningUntil"), Value: j.RunningUntil, Reason: "must not be NaN or +Inf"}
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
