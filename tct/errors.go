package tct

import (
	"errors"
	"fmt"
)

// ErrBadInput is matched (with errors.Is) by every error this package returns
// for caller data that is NaN, infinite, out of range or of mismatched length.
var ErrBadInput = errors.New("tct: bad input")

// A ValueError reports one input value that is NaN, infinite or out of range.
// Field names the input, with its index where it is one element of a slice,
// for example "y[17]" or "Exp2.B".
type ValueError struct {
	Field  string // the input, e.g. "x[3]"
	Value  any    // the offending value as given: a float64, an int count or an int64 ID
	Reason string // what is wrong, e.g. "must be finite"
}

// Error returns the package name, field, value and reason, for example
// "pkg: Jobs[3].Deadline = NaN: must be finite".
func (e *ValueError) Error() string {
	return fmt.Sprintf("tct: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is reports whether target is ErrBadInput.
func (e *ValueError) Is(target error) bool { return target == ErrBadInput }
