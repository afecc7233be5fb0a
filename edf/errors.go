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
	Field  string  // the input, e.g. "Jobs[3].Deadline"
	Value  float64 // the offending value (counts and IDs converted to float64; 0 for a nil model)
	Reason string  // what is wrong, e.g. "must be finite"
	// kind is a sentinel the error also matches (ErrUnknownJob,
	// ErrNoPendingTask, ErrNilModel), or nil.
	kind error
}

// Error formats the field, the value and the reason.
func (e *ValueError) Error() string {
	return fmt.Sprintf("edf: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is reports whether target is ErrBadInput or the sentinel this error
// stands for (ErrUnknownJob, ErrNoPendingTask or ErrNilModel, where the
// function's doc says so).
func (e *ValueError) Is(target error) bool {
	return target == ErrBadInput || e.kind != nil && target == e.kind
}
