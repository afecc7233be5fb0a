package placement

import (
	"errors"
	"fmt"
)

// ErrBadInput is matched (with errors.Is) by every error this package returns
// for caller data that is NaN, infinite, negative where a count or capacity is
// needed, out of range, empty where one is needed, or of mismatched length.
var ErrBadInput = errors.New("placement: bad input")

// A ValueError reports one input value that is out of range. Field names the
// input with its index where it is one element of a slice, for example
// "Jobs[3].Deadline".
type ValueError struct {
	Field  string // the input, e.g. "Jobs[3].Deadline"
	Value  any    // the offending value as given: a float64, an int count or an int64 ID
	Reason string // what is wrong, e.g. "must be finite"
}

// Error returns the package name, field, value and reason.
func (e *ValueError) Error() string {
	return fmt.Sprintf("placement: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is reports whether target is ErrBadInput.
func (e *ValueError) Is(target error) bool { return target == ErrBadInput }
