package deadline

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
)

// The application tags the controller reads. YARN stores tags in lower case
// (a tag is case-insensitive) and accepts at most 10 of at most 100 ASCII
// characters each (yarn.resourcemanager.application.max-tags and
// max-tag.length), so the keys and values below are lower case and short.
// A MapReduce job sets them with -Dmapreduce.job.tags=…; any client with
// ApplicationSubmissionContext.setApplicationTags.
const (
	// TagDeadline is the app's deadline, in one of two forms:
	//   schedkit.deadline=1718035200000   milliseconds since the epoch (UTC)
	//   schedkit.deadline=+45m            a Go duration after the app's
	//                                     start (its startedTime)
	// An app without it is not a deadline app and is left alone.
	TagDeadline = "schedkit.deadline"
	// TagModel names the job type (a name in the -models catalog) whose
	// fitted model predicts the app's tasks; without it the controller uses
	// its -default-model.
	TagModel = "schedkit.model"
	// TagTasks is the app's number of map tasks, a positive integer;
	// without it the model's typical count (its median) is used.
	TagTasks = "schedkit.tasks"
)

// tagPrefix marks the tags this package owns; a tag with the prefix and
// any other key is an error (a misspelt key must not silently disable a
// deadline).
const tagPrefix = "schedkit."

// maxRelative bounds a relative deadline.
const maxRelative = 10 * 365 * 24 * time.Hour

// maxEpochMs is the last millisecond of year 9999.
const maxEpochMs = 253402300799999

var modelName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Spec is what an app's schedkit tags say.
type Spec struct {
	// Deadline is the absolute deadline in milliseconds since the epoch;
	// 0 means the app has no deadline tag.
	Deadline int64
	// Model is the job type named by TagModel, "" if absent.
	Model string
	// Tasks is TagTasks, 0 if absent.
	Tasks int
}

// ErrBadTag is matched (errors.Is) by every error ParseTags returns.
var ErrBadTag = errors.New("deadline: bad tag")

// A TagError names the tag that could not be used.
type TagError struct {
	Tag    string
	Reason string
}

// Error returns the tag and the reason.
func (e *TagError) Error() string { return fmt.Sprintf("tag %q: %s", e.Tag, e.Reason) }

// Is reports whether target is ErrBadTag.
func (e *TagError) Is(target error) bool { return target == ErrBadTag }

// ParseTags reads the schedkit tags among tags (other tags are ignored).
// started is the app's startedTime in milliseconds since the epoch, the
// origin of a relative deadline. Errors (a *TagError): an unknown
// schedkit.* key, a key given twice, a tag without "=", a deadline that is
// neither a positive epoch millisecond count up to year 9999 nor "+" and a
// positive Go duration of at most ten years, a relative deadline on an
// app with no start time, a model name that is not 1–64 of [a-z0-9._-]
// starting with a letter or digit, and a task count outside [1,
// jct.MaxMaps].
func ParseTags(tags []string, started int64) (Spec, error) {
	return parseTags(slices.Values(tags), started)
}

// parseTags is ParseTags over a sequence of tags, such as the RM's
// comma-separated applicationTags split without a slice.
func parseTags(tags iter.Seq[string], started int64) (Spec, error) {
	var s Spec
	seen := map[string]bool{}
	for tag := range tags {
		tag = strings.TrimSpace(tag)
		t := strings.ToLower(tag)
		if !strings.HasPrefix(t, tagPrefix) {
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		if !ok {
			return Spec{}, &TagError{tag, "no \"=\" between key and value"}
		}
		if seen[key] {
			return Spec{}, &TagError{tag, "key " + key + " given twice"}
		}
		seen[key] = true
		switch key {
		case TagDeadline:
			d, err := parseDeadline(val, started)
			if err != nil {
				return Spec{}, &TagError{tag, err.Error()}
			}
			s.Deadline = d
		case TagModel:
			if !modelName.MatchString(val) {
				return Spec{}, &TagError{tag, "model name must be 1–64 of [a-z0-9._-], starting with a letter or digit"}
			}
			s.Model = val
		case TagTasks:
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > jct.MaxMaps {
				return Spec{}, &TagError{tag, fmt.Sprintf("task count must be an integer in [1, %d]", jct.MaxMaps)}
			}
			s.Tasks = n
		default:
			return Spec{}, &TagError{tag, "unknown key " + key + " (known: " + TagDeadline + ", " + TagModel + ", " + TagTasks + ")"}
		}
	}
	return s, nil
}

func parseDeadline(v string, started int64) (int64, error) {
	if rel, ok := strings.CutPrefix(v, "+"); ok {
		d, err := time.ParseDuration(rel)
		if err != nil || d <= 0 || d > maxRelative {
			return 0, errors.New("relative deadline must be + and a positive Go duration of at most 10 years, e.g. +45m")
		}
		if started <= 0 {
			return 0, errors.New("relative deadline on an app without a start time")
		}
		ms := d.Milliseconds()
		if started > math.MaxInt64-ms || started+ms > maxEpochMs {
			return 0, errors.New("relative deadline beyond year 9999")
		}
		return started + ms, nil
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms <= 0 || ms > maxEpochMs {
		return 0, errors.New("deadline must be milliseconds since the epoch (1 … year 9999) or +duration")
	}
	return ms, nil
}
