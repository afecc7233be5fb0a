// Package valueerr is the one shape of the core packages' bad-input errors:
// each package declares its ValueError as an alias of Error instantiated
// with a tag naming the package and its ErrBadInput, so that every package
// reports a bad value the same way ("pkg: Field = Value: Reason[: Err]")
// while errors.As still tells one package's errors from another's.
package valueerr

import (
	"errors"
	"fmt"
	"strings"
)

// BadInput returns a new ErrBadInput for the package called name: an error
// with the message "name: bad input", the shape Package requires, written
// here once for every package.
func BadInput(name string) error { return errors.New(name + ": bad input") }

// A Package gives the sentinel every error of a package matches, its
// ErrBadInput, whose message starts with the package's name and a colon
// ("admission: bad input"): that name is the prefix of the package's
// messages.
type Package interface {
	BadInput() error
}

// name returns the package name P's sentinel starts with.
func name[P Package]() string {
	var p P
	n, _, _ := strings.Cut(p.BadInput().Error(), ":")
	return n
}

// An Error reports one input value that is out of range.
type Error[P Package] struct {
	// Field names the input, with its index where it is one element of a
	// slice: "Queue[3].Deadline", "Job.Tasks".
	Field string
	// Value is the offending value as given: a float64, an int count or an
	// int64 ID (so a large ID prints exactly); nil where there is none (a
	// nil *rand.Rand).
	Value any
	// Reason says what is wrong: "must be finite".
	Reason string
	// Err is a cause the error also matches through errors.Unwrap: a
	// sentinel of the package (ErrUnknownJob) or a caller's own error (a
	// distribution's); nil for none.
	Err error
}

// Error returns the package name, field, value, reason and cause.
func (e *Error[P]) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s = %v: %s: %v", name[P](), e.Field, e.Value, e.Reason, e.Err)
	}
	return fmt.Sprintf("%s: %s = %v: %s", name[P](), e.Field, e.Value, e.Reason)
}

// Is reports whether target is the package's ErrBadInput.
func (e *Error[P]) Is(target error) bool {
	var p P
	return target == p.BadInput()
}

// Unwrap returns the cause, Err.
func (e *Error[P]) Unwrap() error { return e.Err }
