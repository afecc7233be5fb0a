package edf

import (
	"errors"
	"fmt"
)

// ErrBadInput is matched (with errors.Is) by every error this package returns
// for caller data that is NaN, infinite, negative where a count or capacity is
// needed, out of range, empty where one is needed, or of mismatched length.
var ErrBadInput = errors.New("edf: bad input")

// A ValueError reports one input value that is out of range. Field names the
// input with its index where it is one element of a slice, for example
// "Jobs[3].Deadline".
type ValueError struct {
	Field string // the input, e.g. "Jobs[3].Deadline"
	// Value is the offending value as given: a float64, an int count or an
	// int64 ID (so a large ID prints exactly); 0 for a nil model.
	Value  any
	Reason string // what is wrong, e.g. "must be finite"
	// Err is the cause the error also matches through errors.Unwrap: a
	// sentinel (ErrUnknownJob, ErrNoPendingTask, ErrNilModel) or a
	// distribution's own error (ErrorAt); nil for none.
	Err error
}

// Error formats the field, the value, the reason and the cause.
func (e *ValueError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("edf: %s = %v: %s: %v", e.Field, e.Value, e.Reason, e.Err)
	}
	return fmt.Sprintf("edf: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is reports whether target is ErrBadInput.
func (e *ValueError) Is(target error) bool { return target == ErrBadInput }

// Unwrap returns the cause, Err.
func (e *ValueError) Unwrap() error { return e.Err }
