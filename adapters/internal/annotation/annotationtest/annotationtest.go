// Package annotationtest holds the test vectors of the annotation contract
// (vectors.json, embedded) for the adapters' tests: each adapter builds its
// own objects from a vector (a pod or pod template and the Job that owns
// it), maps them as it maps real ones, and compares what it read with the
// vector's Want and Errors.
package annotationtest

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

//go:embed vectors.json
var vectorsJSON []byte

// Ecosystems a vector can be limited to, and the columns of File.Keys.
const (
	Kubernetes = "kubernetes"
	YARN       = "yarn"
)

// Concepts: the keys of a vector's Pod, Job and Errors.
const (
	Deadline = "deadline"
	Runtime  = "runtime"
	JobType  = "jobType"
	Tasks    = "tasks" // YARN only
)

// Concepts lists the concepts in a fixed order.
var Concepts = [...]string{Deadline, Runtime, JobType, Tasks}

// A File is vectors.json.
type File struct {
	// Keys maps each concept to its key per ecosystem.
	Keys map[string]map[string]string `json:"keys"`
	// Table is the run-time table the estimates assume: each job type's
	// run time (a Go duration), and no default.
	Table struct {
		JobTypes map[string]string `json:"jobTypes"`
	} `json:"table"`
	Vectors []Vector `json:"vectors"`
}

// A Vector is one job's annotations and what an adapter must read from
// them.
type Vector struct {
	Name string `json:"name"`
	// Ecosystems limits the vector; empty: every ecosystem.
	Ecosystems []string `json:"ecosystems"`
	// Pod and Job give values by concept: the pod (or pod template) and
	// the object that owns it, created at Created.
	Pod     map[string]string `json:"pod"`
	Job     map[string]string `json:"job"`
	Created time.Time         `json:"created"`
	Want    Want              `json:"want"`
	// Errors gives, per concept, a piece of the error text the adapter
	// must report for that concept.
	Errors map[string]string `json:"errors"`
}

// Want is what an adapter reads from a vector's annotations.
type Want struct {
	Deadline    time.Time
	HasDeadline bool
	Runtime     time.Duration // schedkit.io/runtime
	HasRuntime  bool
	JobType     string // "": none
	Tasks       int    // schedkit.io/tasks (YARN); 0: none
	// Estimate is the run-time estimate with File.Table; HasEstimate is
	// false when the job has none (the adapter says why in its own words).
	Estimate    time.Duration
	HasEstimate bool
}

// UnmarshalJSON reads want: deadline (RFC 3339), runtime and estimate (Go
// durations; an estimate of "" means none), jobType, tasks.
func (w *Want) UnmarshalJSON(b []byte) error {
	var raw struct {
		Deadline *string `json:"deadline"`
		Runtime  *string `json:"runtime"`
		JobType  string  `json:"jobType"`
		Tasks    int     `json:"tasks"`
		Estimate *string `json:"estimate"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*w = Want{JobType: raw.JobType, Tasks: raw.Tasks}
	var err error
	if raw.Deadline != nil {
		w.HasDeadline = true
		if w.Deadline, err = time.Parse(time.RFC3339, *raw.Deadline); err != nil {
			return err
		}
	}
	if raw.Runtime != nil {
		w.HasRuntime = true
		if w.Runtime, err = time.ParseDuration(*raw.Runtime); err != nil {
			return err
		}
	}
	if raw.Estimate == nil {
		return errors.New(`want without an estimate (give "" for none)`)
	}
	if *raw.Estimate != "" {
		w.HasEstimate = true
		if w.Estimate, err = time.ParseDuration(*raw.Estimate); err != nil {
			return err
		}
	}
	return nil
}

// Load returns the vectors for an ecosystem (Kubernetes, YARN) and the
// file they come from.
func Load(ecosystem string) (File, []Vector, error) {
	var f File
	if err := json.Unmarshal(vectorsJSON, &f); err != nil {
		return File{}, nil, fmt.Errorf("vectors.json: %w", err)
	}
	for name, d := range f.Table.JobTypes {
		if _, err := time.ParseDuration(d); err != nil {
			return File{}, nil, fmt.Errorf("vectors.json: table job type %s: %w", name, err)
		}
	}
	var out []Vector
	for _, v := range f.Vectors {
		if len(v.Ecosystems) == 0 || slices.Contains(v.Ecosystems, ecosystem) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return File{}, nil, fmt.Errorf("vectors.json: no vector for ecosystem %q", ecosystem)
	}
	return f, out, nil
}

// JobTypes returns the table's run time per job type.
func (f File) JobTypes() map[string]time.Duration {
	out := make(map[string]time.Duration, len(f.Table.JobTypes))
	for name, d := range f.Table.JobTypes {
		out[name], _ = time.ParseDuration(d) // checked by Load
	}
	return out
}

// Annotations returns a vector's layer (Pod or Job) as annotations of the
// ecosystem: concept names replaced by their keys. A nil layer gives nil.
func (f File) Annotations(ecosystem string, layer map[string]string) (map[string]string, error) {
	if layer == nil {
		return nil, nil
	}
	out := make(map[string]string, len(layer))
	for concept, v := range layer {
		k, ok := f.Keys[concept][ecosystem]
		if !ok {
			return nil, fmt.Errorf("vectors.json: no %s key for concept %q", ecosystem, concept)
		}
		out[k] = v
	}
	return out, nil
}

// Equal reports whether w and o read the same values (deadlines compared
// as instants).
func (w Want) Equal(o Want) bool {
	return w.Deadline.Equal(o.Deadline) && w.HasDeadline == o.HasDeadline &&
		w.Runtime == o.Runtime && w.HasRuntime == o.HasRuntime && w.JobType == o.JobType && w.Tasks == o.Tasks &&
		w.Estimate == o.Estimate && w.HasEstimate == o.HasEstimate
}

// Check compares what an adapter read from v (got) and the error it
// reported per concept (errOf) with v's Want and Errors.
func Check(t testing.TB, v Vector, got Want, errOf func(concept string) error) {
	t.Helper()
	if !got.Equal(v.Want) {
		t.Errorf("read %+v, want %+v", got, v.Want)
	}
	for _, c := range Concepts {
		err, want := errOf(c), v.Errors[c]
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c, err)
		case want != "" && err == nil:
			t.Errorf("%s: no error, want one containing %q", c, want)
		case want != "" && !strings.Contains(err.Error(), want):
			t.Errorf("%s: error %q, want it to contain %q", c, err, want)
		}
	}
}

// Each runs fn as a subtest for every vector of the ecosystem, with the
// vector's pod and Job annotations under that ecosystem's keys.
func Each(t *testing.T, ecosystem string, fn func(t *testing.T, f File, v Vector, pod, job map[string]string)) {
	t.Helper()
	f, vs, err := Load(ecosystem)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			pod, err := f.Annotations(ecosystem, v.Pod)
			if err != nil {
				t.Fatal(err)
			}
			job, err := f.Annotations(ecosystem, v.Job)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, f, v, pod, job)
		})
	}
}
