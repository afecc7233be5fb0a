// Package testkit holds the helpers the core packages' tests share: the
// bytes a call allocates, the check that an error names the field at fault,
// and the "remove" action of a queue's rapid state machine. Only tests
// import it; the packages themselves still never import each other.
package testkit

import (
	"errors"
	"runtime"
)

// Allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc is
// cumulative, so a collection during f hides nothing).
func Allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Fataler is what the checks need of a test: a *testing.T, testing.B or
// testing.F, or a *rapid.T inside a property.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// FieldCheck returns the check of a package's bad-input errors: it fails t
// unless err matches badInput (the package's ErrBadInput) and holds an
// error of type E (the package's *ValueError) whose field, read by
// fieldOf, is field.
func FieldCheck[E error](badInput error, fieldOf func(E) string) func(t Fataler, err error, field string) {
	return func(t Fataler, err error, field string) {
		t.Helper()
		if got, ok := valueField(err, badInput, fieldOf); !ok || got != field {
			t.Fatalf("error %v, want a ValueError on %s", err, field)
		}
	}
}

// AnyFieldCheck is FieldCheck for inputs whose field at fault the test
// does not name: the ValueError must name some field.
func AnyFieldCheck[E error](badInput error, fieldOf func(E) string) func(t Fataler, err error) {
	return func(t Fataler, err error) {
		t.Helper()
		if got, ok := valueField(err, badInput, fieldOf); !ok || got == "" {
			t.Fatalf("error %v is not a ValueError naming a field", err)
		}
	}
}

// valueField returns the field of err's E, and whether err matches
// badInput and holds an E.
func valueField[E error](err, badInput error, fieldOf func(E) string) (string, bool) {
	var ve E
	if !errors.Is(err, badInput) || !errors.As(err, &ve) {
		return "", false
	}
	return fieldOf(ve), true
}
