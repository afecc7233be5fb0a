package testkit

import (
	"errors"
	"fmt"
	"testing"
)

var errBad = errors.New("pkg: bad input")

type valueError struct{ field string }

func (e *valueError) Error() string        { return "pkg: " + e.field + " out of range" }
func (e *valueError) Is(target error) bool { return target == errBad }

// recorder is a Fataler that records whether the check failed.
type recorder struct{ failed bool }

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestFieldChecks(t *testing.T) {
	fieldOf := func(e *valueError) string { return e.field }
	want, wantAny := FieldCheck(errBad, fieldOf), AnyFieldCheck(errBad, fieldOf)
	for _, c := range []struct {
		err             error
		field           string
		fails, anyFails bool
	}{
		{&valueError{"x"}, "x", false, false},
		{fmt.Errorf("wrapped: %w", &valueError{"x"}), "x", false, false},
		{&valueError{"x"}, "y", true, false},
		{&valueError{""}, "", false, true},
		{errBad, "", true, true},
		{errors.New("other"), "x", true, true},
		{nil, "", true, true},
	} {
		var r, ra recorder
		want(&r, c.err, c.field)
		wantAny(&ra, c.err)
		if r.failed != c.fails || ra.failed != c.anyFails {
			t.Errorf("%v on %q: FieldCheck failed %v, AnyFieldCheck %v; want %v, %v", c.err, c.field, r.failed, ra.failed, c.fails, c.anyFails)
		}
	}
}
