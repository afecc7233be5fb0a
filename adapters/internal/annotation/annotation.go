package annotation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Annotation keys.
const (
	Deadline = "schedkit.io/deadline"
	Runtime  = "schedkit.io/runtime"
	JobType  = "schedkit.io/job-type"
	Rates    = "schedkit.io/rates"
	// Tasks is read under YARN only: a Kubernetes job's task count is in
	// its spec (completions, parallelism), a YARN app's is not.
	Tasks = "schedkit.io/tasks"
)

// Keys lists the annotation keys, in a fixed order.
var Keys = [...]string{Deadline, Runtime, JobType, Rates, Tasks}

// MaxDuration bounds relative deadlines and run times: ten years.
const MaxDuration = 10 * 365 * 24 * time.Hour

// MaxRate bounds a rate in schedkit.io/rates (and in rate tables) from
// above, and 1/MaxRate from below, so every ratio of rates stays finite.
const MaxRate = 1e6

// maxJobType is the longest job type name (a DNS-1123 label).
const maxJobType = 63

// The grammars, as error texts name them.
const (
	deadlineGrammar = "an RFC 3339 time (2026-11-24T18:00:00Z) or a duration such as 90m"
	jobTypeGrammar  = "a job type is 1–63 lower-case letters, digits and '-', starting and ending with a letter or digit"
)

// ErrSyntax is matched (errors.Is) by every error the Parse functions and
// ValidJobType return: the value breaks the grammar or the bounds.
var ErrSyntax = errors.New("annotation: malformed value")

// A syntaxError says what the grammar or the bound is.
type syntaxError struct{ msg string }

func (e *syntaxError) Error() string        { return e.msg }
func (e *syntaxError) Is(target error) bool { return target == ErrSyntax }

func syntax(format string, args ...any) error { return &syntaxError{fmt.Sprintf(format, args...)} }

var (
	errEmpty        = syntax("empty; want %s", deadlineGrammar)
	errNotDeadline  = syntax("neither an RFC 3339 time (2026-11-24T18:00:00Z) nor a duration such as 90m")
	errNotDuration  = syntax("not a duration such as 45m")
	errRelativeSpan = syntax("a relative deadline must be a duration in (0s, %v]", MaxDuration)
	errRuntimeSpan  = syntax("a run time must be a duration in (0s, %v]", MaxDuration)
	errJobType      = syntax("not a job type: %s", jobTypeGrammar)
)

// ParseDeadline parses a schedkit.io/deadline value: an RFC 3339 time with
// a year in [1, 9999], or a Go duration in (0, MaxDuration] added to origin
// (the job's creation). The time's "T" and "Z" may be lower case (RFC 3339
// §5.6 allows it; YARN lower-cases every tag); a duration's units are
// lower case already. The result is in UTC.
func ParseDeadline(v string, origin time.Time) (time.Time, error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return time.Time{}, errEmpty
	}
	if t, err := time.Parse(time.RFC3339, upperTZ(s)); err == nil {
		if t.Year() < 1 {
			return time.Time{}, syntax("year %d out of range [1, 9999]", t.Year())
		}
		return t.UTC(), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return time.Time{}, errNotDeadline
	}
	if d <= 0 || d > MaxDuration {
		return time.Time{}, errRelativeSpan
	}
	return origin.Add(d).UTC(), nil
}

// upperTZ returns s with a lower-case RFC 3339 "t" and "z" upper-cased, as
// time.Parse wants them; other values come back as they are, unallocated.
func upperTZ(s string) string {
	if len(s) > 10 && (s[10] == 't' || s[len(s)-1] == 'z') {
		return strings.ToUpper(s)
	}
	return s
}

// IsRelative reports whether a schedkit.io/deadline value is a duration
// (counted from the job's creation) rather than a time.
func IsRelative(v string) bool {
	_, err := time.ParseDuration(strings.TrimSpace(v))
	return err == nil
}

// ParseRuntime parses a schedkit.io/runtime value: a Go duration in
// (0, MaxDuration].
func ParseRuntime(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		return 0, errNotDuration
	}
	if d <= 0 || d > MaxDuration {
		return 0, errRuntimeSpan
	}
	return d, nil
}

// ParseJobType parses a schedkit.io/job-type value: a DNS-1123 label.
func ParseJobType(v string) (string, error) {
	s := strings.TrimSpace(v)
	if err := ValidJobType(s); err != nil {
		return "", err
	}
	return s, nil
}

// ValidJobType reports whether name is a job type name (a DNS-1123 label),
// the rule for annotation values and for the names in the adapters' tables.
func ValidJobType(name string) error {
	if len(name) == 0 || len(name) > maxJobType {
		return errJobType
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(name)-1) {
			return errJobType
		}
	}
	return nil
}

// ParseRates parses a schedkit.io/rates value, "type=rate[,type=rate...]":
// node types (label values, non-empty, each once) with rates in
// [1/MaxRate, MaxRate].
func ParseRates(v string) (map[string]float64, error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return nil, syntax("empty; want type=rate[,type=rate...]")
	}
	out := map[string]float64{}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, syntax("%q is not type=rate", part)
		}
		if _, dup := out[name]; dup {
			return nil, syntax("node type %q listed twice", name)
		}
		r, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || !ValidRate(r) {
			return nil, syntax("rate %q for node type %q must be a number in [%g, %g]", val, name, 1/MaxRate, MaxRate)
		}
		out[name] = r
	}
	return out, nil
}

// ValidRate reports whether r is a usable relative rate, in [1/MaxRate, MaxRate].
func ValidRate(r float64) bool { return r >= 1/MaxRate && r <= MaxRate }

// Lookup finds key in the layers of a job, innermost first (the pod or pod
// template, then its owner): the first layer carrying it wins. It returns
// the value and the index of the layer it came from.
func Lookup(key string, layers ...map[string]string) (value string, layer int, ok bool) {
	for i, l := range layers {
		if v, ok := l[key]; ok {
			return v, i, true
		}
	}
	return "", -1, false
}
