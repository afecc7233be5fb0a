// Package testkit holds the helpers the core packages' tests share: the
// bytes a call allocates, the check that an error names the field at fault,
// and the "remove" action of a queue's rapid state machine. Only tests
// import it; the packages themselves still never import each other.
package testkit

import (
	"errors"
	"runtime"
	"testing"
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

// FieldCheck returns the check of a package's bad-input errors: it fails t
// unless err matches badInput (the package's ErrBadInput) and holds an
// error of type E (the package's *ValueError) whose field, read by
// fieldOf, is field.
func FieldCheck[E error](badInput error, fieldOf func(E) string) func(t testing.TB, err error, field string) {
	return func(t testing.TB, err error, field string) {
		t.Helper()
		var ve E
		if !errors.Is(err, badInput) || !errors.As(err, &ve) || fieldOf(ve) != field {
			t.Fatalf("error %v, want a ValueError on %s", err, field)
		}
	}
}
