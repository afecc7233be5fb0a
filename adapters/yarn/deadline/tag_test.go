package deadline

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/internal/annotation/annotationtest"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// TestAnnotationVectors reads the shared test vectors of the annotation
// contract (adapters/internal/annotation/annotationtest) as YARN reads an
// app: the vector's Job values as its tags, lower(key)=lower(value) as the
// RM stores them, and its creation as the app's startedTime. The estimate
// is the model of the app's job type in a catalog of the vector table's
// types, each with a map-task mean equal to the table's run time, so the
// mean read back names the model found. The Kueue and kube-scheduler
// adapters' tests read the same file.
func TestAnnotationVectors(t *testing.T) {
	annotationtest.Each(t, annotationtest.YARN, func(t *testing.T, f annotationtest.File, v annotationtest.Vector, _, job map[string]string) {
		var cfg Config
		table := f.JobTypes()
		for _, name := range slices.Sorted(maps.Keys(table)) {
			cfg.Catalog.Types = append(cfg.Catalog.Types, trace.JobType{Name: name, Map: trace.LognormalFit{MeanS: table[name].Seconds()}})
		}
		var tags []string
		for _, k := range slices.Sorted(maps.Keys(job)) {
			tags = append(tags, Tag(k, job[k]))
		}
		s, err := ParseTags(tags, v.Created.UnixMilli())
		got := annotationtest.Want{JobType: s.JobType, Tasks: s.Tasks, HasDeadline: s.HasDeadline}
		if s.HasDeadline {
			got.Deadline = time.UnixMilli(s.Deadline)
		}
		if typ, err := jobTypeOf(s, cfg); err == nil {
			got.Estimate, got.HasEstimate = time.Duration(typ.Map.MeanS*float64(time.Second)), true
		}
		annotationtest.Check(t, v, got, func(concept string) error {
			for _, e := range tagErrs(err) {
				if e.Key == f.Keys[concept][annotationtest.YARN] {
					return e
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrBadTag) {
			t.Errorf("error %v does not match ErrBadTag", err)
		}
	})
}

// tagErrs returns the *TagErrors err holds.
func tagErrs(err error) []*TagError {
	var out []*TagError
	if te, ok := err.(*TagError); ok {
		return append(out, te)
	}
	if m, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range m.Unwrap() {
			out = append(out, tagErrs(e)...)
		}
	}
	return out
}

func TestParseTags(t *testing.T) {
	const started = 1718020800000
	good := []struct {
		tags []string
		want Spec
	}{
		{nil, Spec{}},
		{[]string{"etl", "team-a", "schedkitx=1"}, Spec{}},
		{[]string{"schedkit.io/deadline=2024-06-10t13:00:00z"}, Spec{Deadline: 1718024400000, HasDeadline: true}},
		{[]string{"schedkit.io/deadline=1970-01-01t00:00:00z"}, Spec{Deadline: 0, HasDeadline: true}},
		{[]string{"schedkit.io/deadline=45m", "schedkit.io/job-type=teragen", "schedkit.io/tasks=96"}, Spec{Deadline: started + 45*60*1000, HasDeadline: true, JobType: "teragen", Tasks: 96}},
		// YARN lower-cases tags; a client that did not is read the same.
		{[]string{" Schedkit.IO/Deadline=+1h30m ", "SCHEDKIT.IO/JOB-TYPE=Sort-V2"}, Spec{Deadline: started + 90*60*1000, HasDeadline: true, JobType: "sort-v2"}},
		{[]string{DeadlineTag(1718024400123)}, Spec{Deadline: 1718024400123, HasDeadline: true}},
	}
	for _, tt := range good {
		got, err := ParseTags(tt.tags, started)
		if err != nil || got != tt.want {
			t.Errorf("ParseTags(%q) = %+v, %v; want %+v", tt.tags, got, err, tt.want)
		}
	}
	bad := []struct {
		tags    []string
		started int64
		want    string
	}{
		{[]string{"schedkit.io/deadline"}, started, `no "="`},
		{[]string{"schedkit.io/deadline=tomorrow"}, started, "neither an RFC 3339 time"},
		{[]string{"schedkit.io/deadline=1718024400000"}, started, "neither an RFC 3339 time"},
		{[]string{"schedkit.io/deadline=0s"}, started, "a relative deadline must be a duration in (0s, 87600h0m0s]"},
		{[]string{"schedkit.io/deadline=-5m"}, started, "a relative deadline must be"},
		{[]string{"schedkit.io/deadline=87601h"}, started, "a relative deadline must be"},
		{[]string{"schedkit.io/deadline=5m"}, 0, "without a start time"},
		{[]string{"schedkit.io/deadline=1h", "schedkit.io/deadline=2h"}, started, "given twice"},
		{[]string{"schedkit.io/deadlin=1h"}, started, "unknown key schedkit.io/deadlin"},
		{[]string{"schedkit.deadline=1718024400000"}, started, "unknown key schedkit.deadline (known: schedkit.io/deadline"},
		{[]string{"schedkit.io/runtime=10m"}, started, "not read under YARN"},
		{[]string{"schedkit.io/rates=a=1"}, started, "not read under YARN"},
		{[]string{"schedkit.io/job-type="}, started, "not a job type"},
		{[]string{"schedkit.io/job-type=a/b"}, started, "not a job type"},
		{[]string{"schedkit.io/job-type=sort_v2.1"}, started, "not a job type"},
		{[]string{"schedkit.io/job-type=" + strings.Repeat("a", 64)}, started, "not a job type"},
		{[]string{"schedkit.io/tasks=0"}, started, "task count"},
		{[]string{"schedkit.io/tasks=1.5"}, started, "task count"},
		{[]string{"schedkit.io/tasks=999999999999"}, started, "task count"},
	}
	for _, tt := range bad {
		_, err := ParseTags(tt.tags, tt.started)
		if !errors.Is(err, ErrBadTag) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.tags[len(tt.tags)-1]) {
			t.Errorf("ParseTags(%q) = %v, want an error naming the tag and %q", tt.tags, err, tt.want)
		}
	}
	// Every bad tag is reported, and the good ones are still read.
	s, err := ParseTags([]string{"schedkit.io/deadline=soon", "schedkit.io/job-type=etl", "schedkit.io/tasks=-1"}, started)
	if n := len(tagErrs(err)); n != 2 || s != (Spec{JobType: "etl"}) || strings.Contains(err.Error(), "\n") {
		t.Errorf("ParseTags = %+v, %q (%d tag errors); want the job type and two errors on one line", s, err, n)
	}
}

// propTags: a valid spec written as tags reads back the same whatever the
// case and the other tags around it; any tag list gives an error matching
// ErrBadTag or a spec within the documented ranges.
func propTags(t *rapid.T) {
	started := rapid.Int64Range(1, 4e12).Draw(t, "started")
	want := Spec{HasDeadline: true}
	var tags []string
	if rapid.Bool().Draw(t, "relative") {
		d := time.Duration(rapid.Int64Range(1, int64(annotation.MaxDuration/time.Millisecond)).Draw(t, "ms")) * time.Millisecond
		tags = append(tags, Tag(TagDeadline, d.String()))
		want.Deadline = started + d.Milliseconds()
	} else {
		want.Deadline = rapid.Int64Range(-62135596800000, 253402300799999).Draw(t, "deadline")
		tags = append(tags, DeadlineTag(want.Deadline))
	}
	want.JobType = rapid.StringMatching(`[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?`).Draw(t, "jobType")
	want.Tasks = rapid.IntRange(1, 1<<27).Draw(t, "tasks")
	tags = append(tags, strings.ToUpper(TagJobType+"="+want.JobType), fmt.Sprintf("%s=%d", TagTasks, want.Tasks))
	tags = append(tags, rapid.SliceOf(rapid.StringMatching(`[a-z]{1,8}(=[a-z0-9]{0,4})?`)).Draw(t, "others")...)
	perm := rapid.Permutation(tags).Draw(t, "order")
	got, err := ParseTags(perm, started)
	if err != nil || got != want {
		t.Fatalf("ParseTags(%q) = %+v, %v; want %+v", perm, got, err, want)
	}

	junk := rapid.SliceOf(rapid.OneOf(rapid.String(), rapid.StringMatching(`schedkit\.io/(deadline|job-type|tasks|runtime|x)=[+0-9a-z.:-]{0,24}`))).Draw(t, "junk")
	s, err := ParseTags(junk, rapid.Int64Range(-1, 4e12).Draw(t, "start"))
	if err != nil && !errors.Is(err, ErrBadTag) {
		t.Fatalf("error %v does not match ErrBadTag", err)
	}
	if s.Tasks < 0 || s.Tasks > 1<<27 || (s.JobType != "" && annotation.ValidJobType(s.JobType) != nil) || (!s.HasDeadline && s.Deadline != 0) {
		t.Fatalf("spec out of range: %+v", s)
	}
}

func TestPropTags(t *testing.T) { rapid.Check(t, propTags) }
func FuzzTags(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propTags)) }
