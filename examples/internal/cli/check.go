package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
)

// A Checker validates flag values before any work starts and collects every
// problem, so a user sees all of them at once. The zero value is ready to
// use. Each message names the flag, the value given and the valid range,
// e.g. "-runs = 0: must be an integer in [1, 1000000]".
type Checker struct {
	errs []error
}

// Err returns the problems found, joined, or nil.
func (c *Checker) Err() error { return errors.Join(c.errs...) }

// Failf records a problem with flag name (without the dash) in its own words.
func (c *Checker) Failf(name, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("-%s %s", name, fmt.Sprintf(format, args...)))
}

// Int checks lo <= v <= hi.
func (c *Checker) Int(name string, v, lo, hi int) {
	if v < lo || v > hi {
		c.Failf(name, "= %d: must be an integer in [%d, %d]", v, lo, hi)
	}
}

// Uint checks lo <= v <= hi.
func (c *Checker) Uint(name string, v, lo, hi uint64) {
	if v < lo || v > hi {
		c.Failf(name, "= %d: must be an integer in [%d, %d]", v, lo, hi)
	}
}

// Float checks that v is a number in the closed range [lo, hi]; an infinite
// bound leaves that side open-ended (NaN is always refused).
func (c *Checker) Float(name string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) {
		c.Failf(name, "= %v: must be a number in %s", v, interval("[", lo, hi, "]"))
	}
}

// FloatAbove checks that v is a number with lo < v <= hi.
func (c *Checker) FloatAbove(name string, v, lo, hi float64) {
	if !(v > lo && v <= hi) {
		c.Failf(name, "= %v: must be a number in %s", v, interval("(", lo, hi, "]"))
	}
}

func interval(open string, lo, hi float64, closeB string) string {
	b := func(x float64) string {
		switch {
		case math.IsInf(x, 1):
			return "+∞"
		case math.IsInf(x, -1):
			return "−∞"
		}
		return fmt.Sprint(x)
	}
	if math.IsInf(hi, 1) {
		closeB = ")"
	}
	if math.IsInf(lo, -1) {
		open = "("
	}
	return open + b(lo) + ", " + b(hi) + closeB
}

// OneOf checks that v is one of the allowed values.
func (c *Checker) OneOf(name, v string, allowed ...string) {
	if !slices.Contains(allowed, v) {
		c.Failf(name, "= %q: must be one of %s", v, strings.Join(allowed, ", "))
	}
}

// File checks that path, when not empty, names a readable regular file.
func (c *Checker) File(name, path string) {
	if path == "" {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		c.Failf(name, "= %q: cannot be read: %v", path, unwrapPath(err))
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		c.Failf(name, "= %q: must be a readable file", path)
	}
}

// Dir checks that path, when not empty, names a directory output files can
// be written into, creating it (and its parents) when it does not exist.
func (c *Checker) Dir(name, path string) {
	if path == "" {
		return
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		c.Failf(name, "= %q: must be a directory that can be created and written: %v", path, unwrapPath(err))
		return
	}
	f, err := os.CreateTemp(path, ".write-check-*")
	if err != nil {
		c.Failf(name, "= %q: directory is not writable: %v", path, unwrapPath(err))
		return
	}
	f.Close()
	os.Remove(f.Name())
}

// unwrapPath drops the *PathError's repetition of the path.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
