package podjob

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

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
		annotation.Deadline: "1h", annotation.Runtime: "20m", annotation.JobType: "gpu", annotation.Rates: "a100=3",
	})

	// Owner annotations, relative to the owner's creation.
	j := Of(pod("p", nil, owner), owner)
	if j.Key != owner.UID || j.ID != IDOf(owner.UID) || j.Ref != "Job ns/train" || !j.Created.Equal(t0) {
		t.Errorf("identity = %+v", j)
	}
	if !j.HasDeadline || !j.Deadline.Equal(t0.Add(time.Hour)) || !j.HasRuntime || j.Runtime != 20*time.Minute ||
		j.JobType != "gpu" || j.Rates["a100"] != 3 || len(j.Problems) != 0 {
		t.Errorf("from the owner: %+v", j)
	}

	// The pod's own annotation wins; a relative one still counts from the
	// owner's creation, so every pod of the Job agrees.
	j = Of(pod("p", map[string]string{annotation.Deadline: "2h", annotation.Runtime: "5m"}, owner), owner)
	if !j.Deadline.Equal(t0.Add(2*time.Hour)) || j.Runtime != 5*time.Minute {
		t.Errorf("pod annotations: deadline %v runtime %v", j.Deadline, j.Runtime)
	}

	// Owner not found: the pod's creation is the base and the owner's
	// annotations are not seen, but the job is still the owner's.
	j = Of(pod("p", map[string]string{annotation.Deadline: "2h"}, owner), nil)
	if j.Key != owner.UID || !j.Deadline.Equal(t0.Add(10*time.Minute+2*time.Hour)) || j.HasRuntime {
		t.Errorf("without the owner object: %+v", j)
	}

	// An owner object whose UID does not match is ignored.
	other := job("train", map[string]string{annotation.Deadline: "5m"})
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
	bad := job("bad", map[string]string{annotation.Deadline: "soon", annotation.Rates: "a100=x"})
	j = Of(pod("p", map[string]string{annotation.Runtime: "-1m"}, bad), bad)
	var ae *AnnotationError
	for key, obj := range map[string]string{annotation.Deadline: "Job ns/bad", annotation.Runtime: "pod ns/p", annotation.Rates: "Job ns/bad"} {
		err := j.Err(key)
		if !errors.As(err, &ae) || ae.Object != obj || ae.Annotation != key {
			t.Errorf("Err(%s) = %v, want an AnnotationError on %s", key, err, obj)
		}
	}
	if j.HasDeadline || j.HasRuntime || j.Rates != nil {
		t.Errorf("malformed values were used: %+v", j)
	}
	if want := `Job ns/bad: annotation schedkit.io/deadline="soon": neither an RFC 3339 time (2026-11-24T18:00:00Z) nor a duration such as 90m`; j.Err(annotation.Deadline).Error() != want {
		t.Errorf("message %q, want %q", j.Err(annotation.Deadline), want)
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

// propOf: a job's identity depends only on its controller reference, its
// ID is a non-negative hash of the key, and a pod annotation always wins.
func propOf(t *rapid.T) {
	ann := func(label string) map[string]string {
		return rapid.MapOfN(rapid.SampledFrom([]string{annotation.Deadline, annotation.Runtime, annotation.JobType, annotation.Rates}), anyString(), 0, 4).Draw(t, label)
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
	if v, ok := p.Annotations[annotation.Deadline]; ok {
		d, err := annotation.ParseDeadline(v, j.Created)
		if (err == nil) != j.HasDeadline || (err == nil && !d.Equal(j.Deadline)) || (err != nil) != (j.Err(annotation.Deadline) != nil) {
			t.Fatalf("pod deadline %q: job %+v", v, j)
		}
	}
	dl, has, err := DeadlineOf(p, owner)
	if has != j.HasDeadline || !dl.Equal(j.Deadline) || (err != nil) != (j.Err(annotation.Deadline) != nil) {
		t.Fatalf("DeadlineOf = %v %v %v, Of = %+v", dl, has, err, j)
	}
}

func TestPropOf(t *testing.T) { rapid.Check(t, propOf) }
func FuzzOf(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propOf)) }

// propIDOf: IDOf is hash/fnv's 64-bit FNV-1a of the key with the sign bit
// cleared, and JobKey is Key's key.
func propIDOf(t *rapid.T) {
	key := types.UID(rapid.String().Draw(t, "key"))
	h := fnv.New64a()
	h.Write([]byte(key))
	if got, want := IDOf(key), int64(h.Sum64()&math.MaxInt64); got != want {
		t.Fatalf("IDOf(%q) = %d, want %d", key, got, want)
	}
	var owner *batchv1.Job
	if rapid.Bool().Draw(t, "owned") {
		owner = &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns", UID: key}}
	}
	p := pod("p", nil, owner)
	if k, _ := Key(p); JobKey(p) != k {
		t.Fatalf("JobKey = %q, Key = %q", JobKey(p), k)
	}
}

func TestPropIDOf(t *testing.T) { rapid.Check(t, propIDOf) }

// TestIDOfVectors: FNV-1a's published 64-bit vectors, sign bit cleared.
func TestIDOfVectors(t *testing.T) {
	for _, c := range []struct {
		key  types.UID
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
		{"foobar", 0x85944171f73967e8},
	} {
		if got := IDOf(c.key); got != int64(c.want&math.MaxInt64) {
			t.Errorf("IDOf(%q) = %#x, want %#x", c.key, got, c.want&math.MaxInt64)
		}
	}
}
