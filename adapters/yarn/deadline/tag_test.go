package deadline

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestParseTags(t *testing.T) {
	const started = 1718020800000
	good := []struct {
		tags []string
		want Spec
	}{
		{nil, Spec{}},
		{[]string{"etl", "team-a"}, Spec{}},
		{[]string{"schedkit.deadline=1718024400000"}, Spec{Deadline: 1718024400000}},
		{[]string{"schedkit.deadline=+45m", "schedkit.model=teragen", "schedkit.tasks=96"}, Spec{Deadline: started + 45*60*1000, Model: "teragen", Tasks: 96}},
		// YARN lower-cases tags; a client that did not is read the same.
		{[]string{" Schedkit.Deadline=+1h30m ", "SCHEDKIT.MODEL=Sort_v2.1"}, Spec{Deadline: started + 90*60*1000, Model: "sort_v2.1"}},
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
		{[]string{"schedkit.deadline"}, started, `no "="`},
		{[]string{"schedkit.deadline=tomorrow"}, started, "milliseconds since the epoch"},
		{[]string{"schedkit.deadline=0"}, started, "milliseconds since the epoch"},
		{[]string{"schedkit.deadline=-5"}, started, "milliseconds since the epoch"},
		{[]string{"schedkit.deadline=253402300800000"}, started, "milliseconds since the epoch"},
		{[]string{"schedkit.deadline=+0s"}, started, "positive Go duration"},
		{[]string{"schedkit.deadline=+-5m"}, started, "positive Go duration"},
		{[]string{"schedkit.deadline=+90000h"}, started, "at most 10 years"},
		{[]string{"schedkit.deadline=+5m"}, 0, "without a start time"},
		{[]string{"schedkit.deadline=1", "schedkit.deadline=2"}, started, "given twice"},
		{[]string{"schedkit.deadlin=1"}, started, "unknown key schedkit.deadlin"},
		{[]string{"schedkit.model="}, started, "model name"},
		{[]string{"schedkit.model=a/b"}, started, "model name"},
		{[]string{"schedkit.model=" + strings.Repeat("a", 65)}, started, "model name"},
		{[]string{"schedkit.tasks=0"}, started, "task count"},
		{[]string{"schedkit.tasks=1.5"}, started, "task count"},
		{[]string{"schedkit.tasks=999999999999"}, started, "task count"},
	}
	for _, tt := range bad {
		_, err := ParseTags(tt.tags, tt.started)
		if !errors.Is(err, ErrBadTag) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.tags[len(tt.tags)-1]) {
			t.Errorf("ParseTags(%q) = %v, want an error naming the tag and %q", tt.tags, err, tt.want)
		}
	}
}

// propTags: a valid spec written as tags reads back the same whatever the
// case and the other tags around it; any tag list gives an error matching
// ErrBadTag or a spec within the documented ranges.
func propTags(t *rapid.T) {
	started := rapid.Int64Range(1, 4e12).Draw(t, "started")
	var want Spec
	var tags []string
	if rapid.Bool().Draw(t, "relative") {
		d := time.Duration(rapid.Int64Range(1, int64(maxRelative/time.Millisecond)).Draw(t, "ms")) * time.Millisecond
		tags = append(tags, TagDeadline+"=+"+d.String())
		want.Deadline = started + d.Milliseconds()
	} else {
		want.Deadline = rapid.Int64Range(1, maxEpochMs).Draw(t, "deadline")
		tags = append(tags, fmt.Sprintf("%s=%d", TagDeadline, want.Deadline))
	}
	want.Model = rapid.StringMatching(`[a-z0-9][a-z0-9._-]{0,20}`).Draw(t, "model")
	want.Tasks = rapid.IntRange(1, 1<<27).Draw(t, "tasks")
	tags = append(tags, TagModel+"="+strings.ToUpper(want.Model), fmt.Sprintf("%s=%d", TagTasks, want.Tasks))
	tags = append(tags, rapid.SliceOf(rapid.StringMatching(`[a-z]{1,8}(=[a-z0-9]{0,4})?`)).Draw(t, "others")...)
	perm := rapid.Permutation(tags).Draw(t, "order")
	got, err := ParseTags(perm, started)
	if err != nil || got != want {
		t.Fatalf("ParseTags(%q) = %+v, %v; want %+v", perm, got, err, want)
	}

	junk := rapid.SliceOf(rapid.OneOf(rapid.String(), rapid.StringMatching(`schedkit\.(deadline|model|tasks|x)=[+0-9a-z.-]{0,12}`))).Draw(t, "junk")
	s, err := ParseTags(junk, rapid.Int64Range(-1, 4e12).Draw(t, "start"))
	if err != nil {
		if !errors.Is(err, ErrBadTag) {
			t.Fatalf("error %v does not match ErrBadTag", err)
		}
		return
	}
	if s.Deadline < 0 || s.Deadline > maxEpochMs || s.Tasks < 0 || s.Tasks > 1<<27 || (s.Model != "" && !modelName.MatchString(s.Model)) {
		t.Fatalf("spec out of range: %+v", s)
	}
}

func TestTagsProperties(t *testing.T) { rapid.Check(t, propTags) }
func FuzzTags(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propTags)) }
