package deadlinecheck

import (
	"errors"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
)

// Annotation keys a user writes, on the Job's pod template, on the Workload
// or on the object that owns it (the batch/v1 Job, JobSet, …): the
// schedkit contract of every Kubernetes adapter (package
// adapters/internal/annotation), so the kube-scheduler plugins read the
// same Job the same way.
const (
	// DeadlineAnnotation is the workload's deadline: an RFC 3339 time
	// ("2026-11-24T18:00:00Z") or a Go duration in (0, ten years] ("90m",
	// "2h30m") counted from the job's creation.
	DeadlineAnnotation = annotation.Deadline
	// RuntimeAnnotation is the job's run time from start to finish (a Go
	// duration); every pod of the workload is taken to run that long, side
	// by side. It wins over the job type's model.
	RuntimeAnnotation = annotation.Runtime
	// JobTypeAnnotation names the job type whose run-time model in the
	// check's DeadlineParameters applies to the workload's pods.
	JobTypeAnnotation = annotation.JobType
)

// Annotations the check writes on every pending Workload behind it: the
// predicted start and finish, median and 90th percentile, as RFC 3339 UTC
// times. A workload without a run-time estimate gets no finish annotations.
const (
	StartP50Annotation  = "schedkit.io/predicted-start-p50"
	StartP90Annotation  = "schedkit.io/predicted-start-p90"
	FinishP50Annotation = "schedkit.io/predicted-finish-p50"
	FinishP90Annotation = "schedkit.io/predicted-finish-p90"
)

// RejectionAnnotation is the check's rejection message, written on a
// Workload the check rejects before it acts: Kueue deactivates a rejected
// workload and its eviction resets the check's state and message, so the
// check puts the message back on its (Pending) state from here, and
// kubectl describe shows it among the annotations too.
const RejectionAnnotation = "schedkit.io/rejection"

// ETAAnnotations lists the ETA annotations the check writes, in a fixed order.
var ETAAnnotations = [...]string{StartP50Annotation, StartP90Annotation, FinishP50Annotation, FinishP90Annotation}

// An InputError reports a value a user wrote that the check cannot use: an
// annotation or a field of the DeadlineParameters. Its message names the
// field and the value; it becomes the Rejected check's message.
type InputError struct {
	Field  string // e.g. `annotation schedkit.io/deadline`
	Value  string // the value as written
	Reason string // what is wrong with it
	// Err is the annotation contract's error when the value breaks its
	// grammar or bounds (errors.Is(err, annotation.ErrSyntax)); nil when
	// the value is well formed but unusable here (a job type the
	// DeadlineParameters do not list, a bad model).
	Err error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s = %q: %s", e.Field, e.Value, e.Reason)
}

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }

// syntaxError is the InputError of an annotation whose value breaks the
// contract's grammar or bounds.
func syntaxError(key, value string, err error) *InputError {
	return &InputError{Field: "annotation " + key, Value: value, Reason: err.Error(), Err: err}
}

// ErrNoEstimate means a workload has no run-time model: no run-time or job
// type annotation, no default job type and no
// spec.maximumExecutionTimeSeconds.
var ErrNoEstimate = errors.New("no run-time estimate: no " + RuntimeAnnotation + " or " + JobTypeAnnotation +
	" annotation, no defaultJobType in the check's DeadlineParameters and no spec.maximumExecutionTimeSeconds")

// ParseDeadline reads a deadline annotation with the contract's parser: an
// RFC 3339 time, or a duration added to created (the job's creation).
// Anything else is an *InputError naming the annotation and the value.
func ParseDeadline(value string, created time.Time) (time.Time, error) {
	t, err := annotation.ParseDeadline(value, created)
	if err != nil {
		return time.Time{}, syntaxError(DeadlineAnnotation, value, err)
	}
	return t, nil
}

// formatTime is how every time appears in messages and annotations.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// appendTime appends formatTime(t) to b.
func appendTime(b []byte, t time.Time) []byte { return t.UTC().AppendFormat(b, time.RFC3339) }
