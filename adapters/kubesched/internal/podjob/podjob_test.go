package podjob

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func TestParseDeadline(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Time
		wantErr string
	}{
		{in: "2026-07-01T15:30:00Z", want: time.Date(2026, 7, 1, 15, 30, 0, 0, time.UTC)},
		{in: " 2026-07-01T15:30:00+02:00 ", want: time.Date(2026, 7, 1, 13, 30, 0, 0, time.UTC)},
		{in: "90m", want: t0.Add(90 * time.Minute)},
		{in: "2h30m", want: t0.Add(150 * time.Minute)},
		{in: "", wantErr: "empty"},
		{in: "tomorrow", wantErr: "neither an RFC 3339 time nor a duration"},
		{in: "2026-07-01", wantErr: "neither"},
		{in: "0s", wantErr: "relative deadline must be in (0,"},
		{in: "-5m", wantErr: "relative deadline must be in (0,"},
		{in: "1000000h", wantErr: "relative deadline must be in (0,"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDeadline(tt.in, t0)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseDeadline(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !got.Equal(tt.want) {
				t.Fatalf("ParseDeadline(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseRuntime(t *testing.T) {
	for in, want := range map[string]time.Duration{"45m": 45 * time.Minute, " 1h ": time.Hour, "1.5h": 90 * time.Minute} {
		if got, err := ParseRuntime(in); err != nil || got != want {
			t.Errorf("ParseRuntime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0s", "-1m", "soon", "1000000h"} {
		if got, err := ParseRuntime(in); err == nil {
			t.Errorf("ParseRuntime(%q) = %v, want an error", in, got)
		}
	}
}

func TestParseRates(t *testing.T) {
	got, err := ParseRates("a100=3, t4 = 1.5")
	if err != nil || len(got) != 2 || got["a100"] != 3 || got["t4"] != 1.5 {
		t.Fatalf("ParseRates = %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"":              "empty",
		"a100":          "is not type=rate",
		"=3":            "is not type=rate",
		"a100=3,a100=2": "listed twice",
		"a100=fast":     "must be a number",
		"a100=0":        "must be a number in",
		"a100=NaN":      "must be a number in",
		"a100=+Inf":     "must be a number in",
		"a100=1e7":      "must be a number in",
	} {
		if _, err := ParseRates(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRates(%q) error %v, want one containing %q", in, err, want)
		}
	}
}

func pod(name string, ann map[string]string, owner *batchv1.Job) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: "ns", UID: types.UID("pod-" + name),
		CreationTimestamp: metav1.NewTime(t0.Add(10 * time.Minute)), Annotations: ann,
	}}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: owner.Name, UID: owner.UID, Controller: ptr.To(true)}}
	}
	return p
}

func job(name string, ann map[string]string) *batchv1.Job {
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: "ns", UID: types.UID("job-" + name), CreationTimestamp: metav1.NewTime(t0), Annotations: ann,
	}}
}

func TestOf(t *testing.T) {
	owner := job("train", map[string]string{
		AnnotationDeadline: "1h", AnnotationRuntime: "20m", AnnotationJobClass: "gpu", AnnotationRates: "a100=3",
	})

	// Owner annotations, relative to the owner's creation.
	j := Of(pod("p", nil, owner), owner)
	if j.Key != owner.UID || j.ID != IDOf(owner.UID) || j.Ref != "Job ns/train" || !j.Created.Equal(t0) {
		t.Errorf("identity = %+v", j)
	}
	if !j.HasDeadline || !j.Deadline.Equal(t0.Add(time.Hour)) || !j.HasRuntime || j.Runtime != 20*time.Minute ||
		j.Class != "gpu" || j.Rates["a100"] != 3 || len(j.Problems) != 0 {
		t.Errorf("from the owner: %+v", j)
	}

	// The pod's own annotation wins; a relative one still counts from the
	// owner's creation, so every pod of the Job agrees.
	j = Of(pod("p", map[string]string{AnnotationDeadline: "2h", AnnotationRuntime: "5m"}, owner), owner)
	if !j.Deadline.Equal(t0.Add(2*time.Hour)) || j.Runtime != 5*time.Minute {
		t.Errorf("pod annotations: deadline %v runtime %v", j.Deadline, j.Runtime)
	}

	// Owner not found: the pod's creation is the base and the owner's
	// annotations are not seen, but the job is still the owner's.
	j = Of(pod("p", map[string]string{AnnotationDeadline: "2h"}, owner), nil)
	if j.Key != owner.UID || !j.Deadline.Equal(t0.Add(10*time.Minute+2*time.Hour)) || j.HasRuntime {
		t.Errorf("without the owner object: %+v", j)
	}

	// An owner object whose UID does not match is ignored.
	other := job("train", map[string]string{AnnotationDeadline: "5m"})
	other.UID = "someone-else"
	if j := Of(pod("p", nil, owner), other); j.HasDeadline {
		t.Errorf("a mismatched owner's annotation was read: %+v", j)
	}

	// A pod without a controller is its own job.
	j = Of(pod("solo", nil, nil), nil)
	if j.Key != "pod-solo" || j.Ref != "Pod ns/solo" || j.HasDeadline {
		t.Errorf("solo pod: %+v", j)
	}

	// Malformed annotations are all reported, naming object, key and value.
	bad := job("bad", map[string]string{AnnotationDeadline: "soon", AnnotationRates: "a100=x"})
	j = Of(pod("p", map[string]string{AnnotationRuntime: "-1m"}, bad), bad)
	var ae *AnnotationError
	for key, obj := range map[string]string{AnnotationDeadline: "Job ns/bad", AnnotationRuntime: "pod ns/p", AnnotationRates: "Job ns/bad"} {
		err := j.Err(key)
		if !errors.As(err, &ae) || ae.Object != obj || ae.Annotation != key {
			t.Errorf("Err(%s) = %v, want an AnnotationError on %s", key, err, obj)
		}
	}
	if j.HasDeadline || j.HasRuntime || j.Rates != nil {
		t.Errorf("malformed values were used: %+v", j)
	}
	if want := `Job ns/bad: annotation schedkit.io/deadline="soon": neither an RFC 3339 time nor a duration such as 90m`; j.Err(AnnotationDeadline).Error() != want {
		t.Errorf("message %q, want %q", j.Err(AnnotationDeadline), want)
	}
}

func TestStarted(t *testing.T) {
	p := &v1.Pod{}
	if got := Started(p, t0); !got.Equal(t0) {
		t.Errorf("no startTime: %v, want now", got)
	}
	p.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(-time.Hour)))
	if got := Started(p, t0); !got.Equal(t0.Add(-time.Hour)) {
		t.Errorf("started an hour ago: %v", got)
	}
	p.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(time.Minute)))
	if got := Started(p, t0); !got.Equal(t0) {
		t.Errorf("start after now: %v, want now", got)
	}
}

// anyString draws from a mix of well-formed and arbitrary annotation values.
func anyString() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.String(),
		rapid.SampledFrom([]string{"", "0", "1h", "-1h", "1e9h", "2026-07-01T15:30:00Z", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "a=1", "a=1,b=2", "a=1,a=1", "a=NaN"}),
		rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf("%dm", rapid.Int64Range(math.MinInt32, math.MaxInt32).Draw(t, "minutes"))
		}),
	)
}

// propParse: the parsers never panic; what they accept is in range.
func propParse(t *rapid.T) {
	s := anyString().Draw(t, "value")
	if d, err := ParseDeadline(s, t0); err == nil && (d.Year() < 1 || d.Year() > 9999+100) {
		t.Fatalf("ParseDeadline(%q) = %v out of range", s, d)
	}
	if d, err := ParseRuntime(s); err == nil && (d <= 0 || d > MaxDuration) {
		t.Fatalf("ParseRuntime(%q) = %v out of range", s, d)
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
	if got, err := ParseDeadline(at.Format(time.RFC3339), t0); err != nil || !got.Equal(at) {
		t.Fatalf("RFC 3339 %v: %v, %v", at, got, err)
	}
	d := time.Duration(rapid.Int64Range(1, int64(MaxDuration)).Draw(t, "d"))
	if got, err := ParseDeadline(d.String(), t0); err != nil || !got.Equal(t0.Add(d)) {
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

// propOf: a job's identity depends only on its controller reference, its
// ID is a non-negative hash of the key, and a pod annotation always wins.
func propOf(t *rapid.T) {
	ann := func(label string) map[string]string {
		return rapid.MapOfN(rapid.SampledFrom([]string{AnnotationDeadline, AnnotationRuntime, AnnotationJobClass, AnnotationRates}), anyString(), 0, 4).Draw(t, label)
	}
	var owner *batchv1.Job
	if rapid.Bool().Draw(t, "owned") {
		owner = job(rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "job"), ann("jobAnnotations"))
	}
	p := pod("p", ann("podAnnotations"), owner)
	j := Of(p, owner)
	key, _ := Key(p)
	if j.Key != key || j.ID != IDOf(key) || j.ID < 0 {
		t.Fatalf("identity %+v, key %v", j, key)
	}
	if v, ok := p.Annotations[AnnotationDeadline]; ok {
		d, err := ParseDeadline(v, j.Created)
		if (err == nil) != j.HasDeadline || (err == nil && !d.Equal(j.Deadline)) || (err != nil) != (j.Err(AnnotationDeadline) != nil) {
			t.Fatalf("pod deadline %q: job %+v", v, j)
		}
	}
	dl, has, err := DeadlineOf(p, owner)
	if has != j.HasDeadline || !dl.Equal(j.Deadline) || (err != nil) != (j.Err(AnnotationDeadline) != nil) {
		t.Fatalf("DeadlineOf = %v %v %v, Of = %+v", dl, has, err, j)
	}
}

func TestPropParse(t *testing.T)     { rapid.Check(t, propParse) }
func TestPropRoundTrip(t *testing.T) { rapid.Check(t, propRoundTrip) }
func TestPropOf(t *testing.T)        { rapid.Check(t, propOf) }

func FuzzParse(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propParse)) }
func FuzzOf(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(propOf)) }
