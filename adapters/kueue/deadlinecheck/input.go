package deadlinecheck

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Annotation keys a user writes, on the Workload or on the object that owns
// it (the batch/v1 Job, JobSet, …); the Workload's own annotation wins.
const (
	// DeadlineAnnotation is the workload's deadline: an absolute RFC 3339
	// time ("2026-11-24T18:00:00Z") or a positive Go duration ("90m",
	// "2h30m") counted from the creation of the object that carries the
	// annotation.
	DeadlineAnnotation = "schedkit.io/deadline"
	// JobTypeAnnotation names the job type whose run-time model in the
	// check's DeadlineParameters applies to the workload's pods.
	JobTypeAnnotation = "schedkit.io/job-type"
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

// ETAAnnotations lists the annotations the check writes, in a fixed order.
var ETAAnnotations = [...]string{StartP50Annotation, StartP90Annotation, FinishP50Annotation, FinishP90Annotation}

// An InputError reports a value a user wrote that the check cannot use: an
// annotation or a field of the DeadlineParameters. Its message names the
// field and the value; it becomes the Rejected check's message.
type InputError struct {
	Field  string // e.g. `annotation schedkit.io/deadline`
	Value  string // the value as written
	Reason string // what is wrong with it
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s = %q: %s", e.Field, e.Value, e.Reason)
}

// ErrNoEstimate means a workload has no run-time model: no job type
// annotation, no default job type and no spec.maximumExecutionTimeSeconds.
var ErrNoEstimate = errors.New("no run-time estimate: no " + JobTypeAnnotation +
	" annotation, no defaultJobType in the check's DeadlineParameters and no spec.maximumExecutionTimeSeconds")

// ParseDeadline reads a deadline annotation: an RFC 3339 time, or a
// positive Go duration added to created (the creation time of the object
// that carries the annotation). Surrounding spaces are ignored. Anything
// else is an *InputError naming the annotation and the value.
func ParseDeadline(value string, created time.Time) (time.Time, error) {
	v := strings.TrimSpace(value)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d <= 0 {
			return time.Time{}, &InputError{Field: "annotation " + DeadlineAnnotation, Value: value,
				Reason: "a relative deadline must be a positive duration"}
		}
		return created.Add(d), nil
	}
	return time.Time{}, &InputError{Field: "annotation " + DeadlineAnnotation, Value: value,
		Reason: "not an RFC 3339 time (2026-11-24T18:00:00Z) or a positive duration (90m)"}
}

// formatTime is how every time appears in messages and annotations.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
