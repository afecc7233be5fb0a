package deadline

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/tct/jct"
)

// The application tags the controller reads: the annotation contract's keys
// (adapters/internal/annotation), one tag key=value each. YARN stores tags
// in lower case (a tag is case-insensitive) and accepts at most 10 of at
// most 100 ASCII characters each (yarn.resourcemanager.application.max-tags
// and max-tag.length); the keys are lower case and the values short. A
// MapReduce job sets them with -Dmapreduce.job.tags=…; any client with
// ApplicationSubmissionContext.setApplicationTags.
const (
	// TagDeadline is the app's deadline in the annotation contract's
	// grammar (annotation.ParseDeadline): an RFC 3339 time, whose "t" and
	// "z" may be lower case (schedkit.io/deadline=2026-11-24t18:00:00z), or
	// a Go duration after the app's start, its startedTime
	// (schedkit.io/deadline=45m). An app without it is not a deadline app
	// and is left alone.
	TagDeadline = annotation.Deadline
	// TagJobType names the job type (a name in the -models catalog) whose
	// fitted model predicts the app's tasks, a DNS-1123 label; without it
	// the controller uses its -default-model.
	TagJobType = annotation.JobType
	// TagTasks is the app's number of map tasks, an integer in [1,
	// jct.MaxMaps]; without it the model's typical count (its median) is
	// used.
	TagTasks = annotation.Tasks
)

// tagPrefix marks the tags this package reads: the annotation contract's
// (schedkit.io/…) and any other schedkit.… key, which is an error (a
// misspelt key, or the schedkit.deadline of an older client, must not
// silently disable a deadline).
const tagPrefix = "schedkit."

// Spec is what an app's schedkit tags say.
type Spec struct {
	// Deadline is the absolute deadline in milliseconds since the epoch,
	// when HasDeadline.
	Deadline    int64
	HasDeadline bool
	// JobType is the job type named by TagJobType, "" if absent.
	JobType string
	// Tasks is TagTasks, 0 if absent.
	Tasks int
}

// ErrBadTag is matched (errors.Is) by every error ParseTags returns.
var ErrBadTag = errors.New("deadline: bad tag")

// A TagError names the tag that could not be used and its key.
type TagError struct {
	Tag, Key string
	Reason   string
}

// Error returns the tag and the reason.
func (e *TagError) Error() string { return fmt.Sprintf("tag %q: %s", e.Tag, e.Reason) }

// Is reports whether target is ErrBadTag.
func (e *TagError) Is(target error) bool { return target == ErrBadTag }

// ParseTags reads the schedkit tags among tags (other tags are ignored),
// lower-cased as the RM stores them. started is the app's startedTime in
// milliseconds since the epoch, the origin of a relative deadline. Each tag
// that cannot be used is a *TagError (several are one error that
// unwraps to them, errors.Is and errors.As see each): an unknown schedkit.… key, schedkit.io/runtime or
// schedkit.io/rates (not read under YARN), a key given twice, a tag
// without "=", a value the annotation contract rejects (its text), a
// relative deadline on an app with no start time, and a task count outside
// [1, jct.MaxMaps]. The Spec holds the tags that could be used.
func ParseTags(tags []string, started int64) (Spec, error) {
	var p tagParser
	for _, tag := range tags {
		p.tag(tag, started)
	}
	return p.result()
}

// parseTagList is ParseTags over the RM's comma-separated
// applicationTags, read in place.
func parseTagList(list string, started int64) (Spec, error) {
	var p tagParser
	for list != "" {
		var tag string
		tag, list, _ = strings.Cut(list, ",")
		p.tag(tag, started)
	}
	return p.result()
}

// A tagParser reads one app's tags, one after another.
type tagParser struct {
	s    Spec
	errs []error
	seen [len(annotation.Keys)]bool
}

// tag reads one tag.
func (p *tagParser) tag(tag string, started int64) {
	tag = strings.TrimSpace(tag)
	t := strings.ToLower(tag)
	if !strings.HasPrefix(t, tagPrefix) {
		return
	}
	key, val, ok := strings.Cut(t, "=")
	key = strings.TrimSpace(key)
	if !ok {
		p.errs = append(p.errs, &TagError{tag, key, "no \"=\" between key and value"})
		return
	}
	k := slices.Index(annotation.Keys[:], key)
	if k < 0 {
		p.errs = append(p.errs, &TagError{tag, key, "unknown key " + key + " (known: " + TagDeadline + ", " + TagJobType + ", " + TagTasks + ")"})
		return
	}
	if p.seen[k] {
		p.errs = append(p.errs, &TagError{tag, key, "key " + key + " given twice"})
		return
	}
	p.seen[k] = true
	if err := p.s.set(key, val, started); err != nil {
		p.errs = append(p.errs, &TagError{tag, key, err.Error()})
	}
}

// result is the Spec of the tags read and their errors.
func (p *tagParser) result() (Spec, error) {
	switch len(p.errs) {
	case 0:
		return p.s, nil
	case 1:
		return p.s, p.errs[0]
	}
	return p.s, tagErrors(p.errs)
}

// tagErrors are the *TagErrors of one app's tags, on one line.
type tagErrors []error

func (e tagErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e tagErrors) Unwrap() []error { return e }

// set reads one tag's value into s.
func (s *Spec) set(key, val string, started int64) error {
	switch key {
	case TagDeadline:
		if started <= 0 && annotation.IsRelative(val) {
			return errors.New("relative deadline on an app without a start time")
		}
		d, err := annotation.ParseDeadline(val, time.UnixMilli(started))
		if err != nil {
			return err
		}
		s.Deadline, s.HasDeadline = d.UnixMilli(), true
	case TagJobType:
		name, err := annotation.ParseJobType(val)
		if err != nil {
			return err
		}
		s.JobType = name
	case TagTasks:
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || n < 1 || n > jct.MaxMaps {
			return fmt.Errorf("task count must be an integer in [1, %d]", jct.MaxMaps)
		}
		s.Tasks = n
	default: // schedkit.io/runtime, schedkit.io/rates
		return errors.New(key + " is not read under YARN: the job type's fitted model predicts the app's tasks")
	}
	return nil
}

// Tag returns the tag of key and value as the RM stores it:
// lower(key)=lower(value), the mapping of the annotation contract's keys to
// YARN tags.
func Tag(key, value string) string { return strings.ToLower(key + "=" + value) }

// DeadlineTag returns the TagDeadline tag of an absolute deadline in
// milliseconds since the epoch: RFC 3339 in UTC to the millisecond, as the
// RM stores it (schedkit.io/deadline=2026-11-24t18:00:00.000z, 45
// characters).
func DeadlineTag(ms int64) string {
	return Tag(TagDeadline, time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00"))
}
