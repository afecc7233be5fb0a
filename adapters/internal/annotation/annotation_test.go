package annotation

import (
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/internal/annotation/annotationtest"
)

var origin = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// reference maps a vector with the contract alone: Lookup over the pod and
// the Job, the parsers, and the run-time precedence (runtime, then the job
// type's row of the table). Each adapter's tests check their own mapping
// against the same vectors.
func reference(f annotationtest.File, v annotationtest.Vector) (annotationtest.Want, map[string]error) {
	var w annotationtest.Want
	errs := map[string]error{}
	if s, _, ok := Lookup(annotationtest.Deadline, v.Pod, v.Job); ok {
		d, err := ParseDeadline(s, v.Created)
		if err != nil {
			errs[annotationtest.Deadline] = err
		} else {
			w.Deadline, w.HasDeadline = d, true
		}
	}
	runtimeOK := true
	if s, _, ok := Lookup(annotationtest.Runtime, v.Pod, v.Job); ok {
		d, err := ParseRuntime(s)
		if err != nil {
			errs[annotationtest.Runtime] = err
			runtimeOK = false
		} else {
			w.Runtime, w.HasRuntime = d, true
		}
	}
	if s, _, ok := Lookup(annotationtest.JobType, v.Pod, v.Job); ok {
		jt, err := ParseJobType(s)
		if err != nil {
			errs[annotationtest.JobType] = err
		} else {
			w.JobType = jt
		}
	}
	switch {
	case !runtimeOK || errs[annotationtest.JobType] != nil:
	case w.HasRuntime:
		w.Estimate, w.HasEstimate = w.Runtime, true
	case w.JobType != "":
		w.Estimate, w.HasEstimate = f.JobTypes()[w.JobType]
	}
	return w, errs
}

// TestVectors checks the vectors against the contract itself, so that a
// vector an adapter fails on is the adapter's bug, not the file's.
func TestVectors(t *testing.T) {
	f, vs, err := annotationtest.Load(annotationtest.Kubernetes)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			got, errs := reference(f, v)
			annotationtest.Check(t, v, got, func(concept string) error { return errs[concept] })
		})
	}
}

func TestParseDeadline(t *testing.T) {
	tests := []struct {
		v       string
		want    time.Time
		wantErr string
	}{
		{"2026-11-24T18:00:00Z", time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC), ""},
		{"90m", origin.Add(90 * time.Minute), ""},
		{"1ns", origin.Add(1), ""},
		{"9999-12-31T23:59:59Z", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), ""},
		{"", time.Time{}, "empty"},
		{"2026-11-24", time.Time{}, "neither"},
		{"1d", time.Time{}, "neither"},
		{"-1ns", time.Time{}, "relative deadline"},
		{"87600h0m0.000000001s", time.Time{}, "relative deadline"},
	}
	for _, tt := range tests {
		got, err := ParseDeadline(tt.v, origin)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseDeadline(%q) = %v, %v; want an error containing %q", tt.v, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseDeadline(%q) = %v, %v; want %v", tt.v, got, err, tt.want)
		}
	}
}

func TestIsRelative(t *testing.T) {
	for v, want := range map[string]bool{"90m": true, " 1h ": true, "-5m": true, "2026-11-24T18:00:00Z": false, "x": false} {
		if got := IsRelative(v); got != want {
			t.Errorf("IsRelative(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestValidJobType(t *testing.T) {
	for name, ok := range map[string]bool{"etl": true, "a": true, "0": true, "etl-2": true, strings.Repeat("a", 63): true,
		"": false, "-a": false, "a-": false, "A": false, "a.b": false, "a_b": false, strings.Repeat("a", 64): false, "é": false} {
		if err := ValidJobType(name); (err == nil) != ok {
			t.Errorf("ValidJobType(%q) = %v, want ok %v", name, err, ok)
		}
	}
}

func TestParseRates(t *testing.T) {
	got, err := ParseRates(" a100=3, t4 = 1.5 ")
	if err != nil || len(got) != 2 || got["a100"] != 3 || got["t4"] != 1.5 {
		t.Errorf("ParseRates = %v, %v", got, err)
	}
	for _, bad := range []string{"", "a100", "=3", "a=1,a=2", "a=0", "a=NaN", "a=1e7", "a=x"} {
		if _, err := ParseRates(bad); err == nil {
			t.Errorf("ParseRates(%q) accepted", bad)
		}
	}
}

func TestLookup(t *testing.T) {
	pod := map[string]string{Deadline: "1h"}
	job := map[string]string{Deadline: "2h", JobType: "etl"}
	if v, layer, ok := Lookup(Deadline, pod, job); v != "1h" || layer != 0 || !ok {
		t.Errorf("Lookup(deadline) = %q, %d, %v; want the pod's", v, layer, ok)
	}
	if v, layer, ok := Lookup(JobType, pod, job); v != "etl" || layer != 1 || !ok {
		t.Errorf("Lookup(job-type) = %q, %d, %v; want the Job's", v, layer, ok)
	}
	if _, layer, ok := Lookup(Runtime, pod, nil); ok || layer != -1 {
		t.Errorf("Lookup(runtime) found %d", layer)
	}
}
