package admission

import (
	"errors"
	"fmt"
)

// ErrBadInput is matched (with errors.Is) by every error this package returns
// for caller data that is NaN, infinite, negative where a count or capacity is
// needed, out of range, empty where one is needed, or of mismatched length.
var ErrBadInput = errors.New("admission: bad input")

// ErrUnknownJob is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError a Queue returns for a job ID that is not queued.
var ErrUnknownJob = errors.New("admission: unknown job")

// ErrNoPendingTask is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError Queue.Start returns for a job whose tasks have all been
// started.
var ErrNoPendingTask = errors.New("admission: job has no pending task")

// A ValueError reports one input value that is out of range. Field names the
// input with its index where it is one element of a slice, for example
// "Queue[3].Deadline".
type ValueError struct {
	Field string // the input, e.g. "Queue[3].Deadline"
	// Value is the offending value as given: a float64, an int count or an
	// int64 ID (so a large ID prints exactly); 0 for a nil model.
	Value  any
	Reason string // what is wrong, e.g. "must be finite"
	// Err is the cause the error also matches through errors.Unwrap: a
	// sentinel (ErrUnknownJob, ErrNoPendingTask) or a distribution's own
	// error (MarginAt); nil for none.
	Err error
}

// Error returns the package name, field, value, reason and cause.
func (e *ValueError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("admission: %s = %v: %s: %v", e.Field, e.Value, e.Reason, e.Err)
	}
	return fmt.Sprintf("admission: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is reports whether target is ErrBadInput.
func (e *ValueError) Is(target error) bool { return target == ErrBadInput }

// Unwrap returns the cause, Err.
func (e *ValueError) Unwrap() error { return e.Err }
