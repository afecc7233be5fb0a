package annotation

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// anyString draws from a mix of well-formed and arbitrary annotation values.
func anyString() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.String(),
		rapid.SampledFrom([]string{"", "0", "1h", "-1h", "1e9h", "87600h", "87600h1ns", "2026-07-01T15:30:00Z", "9999-12-31T23:59:59Z",
			"0000-01-01T00:00:00Z", "etl", "-etl", "ETL", "a=1", "a=1,b=2", "a=1,a=1", "a=NaN"}),
		rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf("%dm", rapid.Int64Range(math.MinInt32, math.MaxInt32).Draw(t, "minutes"))
		}),
	)
}

// propParse: the parsers never panic; what they accept is in range.
func propParse(t *rapid.T) {
	s := anyString().Draw(t, "value")
	for _, err := range []error{
		func() error { _, err := ParseDeadline(s, origin); return err }(),
		func() error { _, err := ParseRuntime(s); return err }(),
		func() error { _, err := ParseJobType(s); return err }(),
		func() error { _, err := ParseRates(s); return err }(),
	} {
		if err != nil && !errors.Is(err, ErrSyntax) {
			t.Fatalf("%q: error %v does not match ErrSyntax", s, err)
		}
	}
	if d, err := ParseDeadline(s, origin); err == nil && (d.Year() < 1 || d.Year() > 9999) {
		t.Fatalf("ParseDeadline(%q) = %v out of range", s, d)
	}
	if d, err := ParseRuntime(s); err == nil && (d <= 0 || d > MaxDuration) {
		t.Fatalf("ParseRuntime(%q) = %v out of range", s, d)
	}
	if jt, err := ParseJobType(s); err == nil && (ValidJobType(jt) != nil || jt != strings.TrimSpace(s)) {
		t.Fatalf("ParseJobType(%q) = %q", s, jt)
	}
	if r, err := ParseRates(s); err == nil {
		for k, v := range r {
			if k == "" || !ValidRate(v) {
				t.Fatalf("ParseRates(%q) accepted %q=%v", s, k, v)
			}
		}
	}
}

// propRoundTrip: formatted values parse back to themselves.
func propRoundTrip(t *rapid.T) {
	at := time.Unix(rapid.Int64Range(-1e10, 2e11).Draw(t, "unix"), 0).UTC()
	if got, err := ParseDeadline(at.Format(time.RFC3339), origin); err != nil || !got.Equal(at) {
		t.Fatalf("RFC 3339 %v: %v, %v", at, got, err)
	}
	d := time.Duration(rapid.Int64Range(1, int64(MaxDuration)).Draw(t, "d"))
	if got, err := ParseDeadline(d.String(), origin); err != nil || !got.Equal(origin.Add(d)) {
		t.Fatalf("relative %v: %v, %v", d, got, err)
	}
	if got, err := ParseRuntime(d.String()); err != nil || got != d {
		t.Fatalf("runtime %v: %v, %v", d, got, err)
	}
	rates := rapid.MapOfN(rapid.StringMatching(`[a-z0-9][a-z0-9.-]{0,10}`), rapid.Float64Range(1/MaxRate, MaxRate), 1, 5).Draw(t, "rates")
	var parts []string
	for k, v := range rates {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	got, err := ParseRates(strings.Join(parts, ","))
	if err != nil || len(got) != len(rates) {
		t.Fatalf("rates %v: %v, %v", rates, got, err)
	}
	for k, v := range rates {
		if got[k] != v {
			t.Fatalf("rate %s: %v, want %v", k, got[k], v)
		}
	}
}

func TestPropParse(t *testing.T)     { rapid.Check(t, propParse) }
func TestPropRoundTrip(t *testing.T) { rapid.Check(t, propRoundTrip) }
func FuzzParse(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propParse)) }
