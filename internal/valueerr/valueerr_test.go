package valueerr

import (
	"errors"
	"testing"
)

var errA, errB = BadInput("a"), BadInput("b")

type pkgA struct{}

func (pkgA) BadInput() error { return errA }

type pkgB struct{}

func (pkgB) BadInput() error { return errB }

// TestError: the message carries the package, field, value as given (an
// int64 ID exactly), reason and cause; the error matches its own package's
// sentinel and its cause, and errors.As tells the packages apart.
func TestError(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&Error[pkgA]{Field: "ID", Value: int64(1<<62 + 1), Reason: "not queued"}, "a: ID = 4611686018427387905: not queued"},
		{&Error[pkgB]{Field: "x", Value: 0.5, Reason: "bad", Err: cause}, "b: x = 0.5: bad: cause"},
		{&Error[pkgA]{Field: "rng", Reason: "nil *rand.Rand"}, "a: rng = <nil>: nil *rand.Rand"},
	} {
		if c.err.Error() != c.want {
			t.Errorf("Error() = %q, want %q", c.err.Error(), c.want)
		}
	}
	var err error = &Error[pkgB]{Field: "x", Err: cause}
	var asA *Error[pkgA]
	if !errors.Is(err, errB) || errors.Is(err, errA) || !errors.Is(err, cause) || errors.As(err, &asA) {
		t.Errorf("matching: Is(b) %v, Is(a) %v, Is(cause) %v, As(a) %v", errors.Is(err, errB), errors.Is(err, errA), errors.Is(err, cause), errors.As(err, &asA))
	}
}

// TestBadInput: the sentinel's message is the package name and "bad
// input", each call a distinct sentinel, and an Error names its package
// from it.
func TestBadInput(t *testing.T) {
	if got := errA.Error(); got != "a: bad input" {
		t.Errorf("BadInput(\"a\") = %q", got)
	}
	if errors.Is(BadInput("a"), errA) {
		t.Error("two BadInput calls gave one sentinel")
	}
	e := &Error[pkgA]{Field: "X", Value: 1, Reason: "r"}
	if got := e.Error(); got != "a: X = 1: r" {
		t.Errorf("Error() = %q, want the package name from the sentinel", got)
	}
}
