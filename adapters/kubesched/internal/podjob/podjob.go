// Package podjob maps a pod, and the batch/v1 Job that owns it, to the job the
// schedkit plugins reason about: its identity, creation time, deadline, run-time
// estimate, job class and per-node-type rates, all read from annotations.
//
// Everything here is a pure function of the objects passed in: no lister, no
// clock. The plugins look the owner up and pass it.
//
// # Annotations
//
// A value on the pod wins over the same annotation on its owning Job, so a
// Job's pod template can carry them (pods inherit template annotations) as
// well as the Job's own metadata.
//
//   - schedkit.io/deadline: an RFC 3339 time ("2026-07-01T12:00:00Z") or a
//     positive Go duration ("90m", "2h30m") after the job's creation. The
//     job's creation is its owning Job's creationTimestamp when the pod has
//     one, else the pod's own, so every pod of a Job gets the same deadline.
//   - schedkit.io/runtime: a positive Go duration, the job's run time from
//     start to finish when it runs (admission's JCT, see package deadline).
//   - schedkit.io/job-class: the name of a row in a plugin's args table
//     (run times for DeadlineAdmission, rates for ProgressShare).
//   - schedkit.io/rates: per-node-type relative speeds, "a100=3,t4=1.5": the
//     job runs 3 times faster on a node whose type label is a100 than on a
//     type it does not list (rate 1).
//
// # Jobs
//
// Pods with the same controller owner are one job; a pod without a controller
// owner is a job of its own. The job's key is the owner's UID (else the pod's),
// and its ID, the int64 schedkit's packages take, is a 63-bit FNV-1a hash of
// that key (two jobs share an ID with probability about n²/2⁶⁴).
package podjob

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Annotation keys.
const (
	AnnotationDeadline = "schedkit.io/deadline"
	AnnotationRuntime  = "schedkit.io/runtime"
	AnnotationJobClass = "schedkit.io/job-class"
	AnnotationRates    = "schedkit.io/rates"
)

// MaxRate bounds a rate in schedkit.io/rates (and in args tables) from above,
// and 1/MaxRate from below, so that every ratio of rates stays finite.
const MaxRate = 1e6

// A Job is the job a pod belongs to, as the plugins see it.
type Job struct {
	// Key is the controller owner's UID, or the pod's when it has none.
	Key types.UID
	// ID is a 63-bit FNV-1a hash of Key, the int64 job ID of edf, admission
	// and preempt.
	ID int64
	// Ref names the job in messages: "Job default/train" or "Pod default/p".
	Ref string
	// Created is the owner's creation time when the owner was given, else
	// the pod's.
	Created time.Time

	// Deadline is set when HasDeadline.
	Deadline    time.Time
	HasDeadline bool
	// Runtime is set when HasRuntime.
	Runtime    time.Duration
	HasRuntime bool
	// Class is schedkit.io/job-class, "" when absent.
	Class string
	// Rates is schedkit.io/rates parsed, nil when absent.
	Rates map[string]float64

	// Problems holds the malformed annotations, by key; the fields they
	// would set are left unset. Each plugin checks the keys it uses (Err).
	Problems map[string]*AnnotationError
}

// Err returns the problem with annotation key, or nil.
func (j Job) Err(key string) error {
	if e, ok := j.Problems[key]; ok {
		return e
	}
	return nil
}

// An AnnotationError reports a malformed annotation, naming the object that
// carries it, the key and the value.
type AnnotationError struct {
	Object     string // "pod default/p" or "Job default/j"
	Annotation string
	Value      string
	Reason     string
}

func (e *AnnotationError) Error() string {
	return fmt.Sprintf("%s: annotation %s=%q: %s", e.Object, e.Annotation, e.Value, e.Reason)
}

// Owner returns the name of the pod's controller owner when it is a batch/v1
// Job, so that the caller can look it up.
func Owner(pod *v1.Pod) (name string, ok bool) {
	ref := metav1.GetControllerOf(pod)
	if ref == nil || ref.Kind != "Job" || ref.APIVersion != batchv1.SchemeGroupVersion.String() {
		return "", false
	}
	return ref.Name, true
}

// Key returns the pod's job key and a reference for messages, from the
// pod's controller owner reference (without needing the owner object).
func Key(pod *v1.Pod) (types.UID, string) {
	if ref := metav1.GetControllerOf(pod); ref != nil {
		return ref.UID, ref.Kind + " " + pod.Namespace + "/" + ref.Name
	}
	return pod.UID, "Pod " + pod.Namespace + "/" + pod.Name
}

// IDOf returns the 63-bit FNV-1a hash of a job key.
func IDOf(key types.UID) int64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int64(h.Sum64() & math.MaxInt64)
}

// Of maps a pod, and its owning Job if the caller found one (nil otherwise),
// to its Job. An owner whose UID does not match the pod's controller
// reference is ignored, as if it had not been found. Malformed annotations
// are recorded in Job.Problems; the other fields are filled.
func Of(pod *v1.Pod, owner *batchv1.Job) Job {
	key, ref := Key(pod)
	if owner != nil && owner.UID != key {
		owner = nil
	}
	j := Job{Key: key, ID: IDOf(key), Ref: ref, Created: pod.CreationTimestamp.Time}
	if owner != nil {
		j.Created = owner.CreationTimestamp.Time
	}
	record := func(m *metav1.ObjectMeta, key, v string, err error) {
		if j.Problems == nil {
			j.Problems = map[string]*AnnotationError{}
		}
		j.Problems[key] = problem(pod, m, key, v, err)
	}
	d, has, err := DeadlineOf(pod, owner)
	if err != nil {
		j.Problems = map[string]*AnnotationError{AnnotationDeadline: err}
	} else {
		j.Deadline, j.HasDeadline = d, has
	}
	if v, m, ok := lookup(pod, owner, AnnotationRuntime); ok {
		if d, err := ParseRuntime(v); err != nil {
			record(m, AnnotationRuntime, v, err)
		} else {
			j.Runtime, j.HasRuntime = d, true
		}
	}
	if v, _, ok := lookup(pod, owner, AnnotationJobClass); ok {
		j.Class = strings.TrimSpace(v)
	}
	if v, m, ok := lookup(pod, owner, AnnotationRates); ok {
		if r, err := ParseRates(v); err != nil {
			record(m, AnnotationRates, v, err)
		} else {
			j.Rates = r
		}
	}
	return j
}

// DeadlineOf returns the deadline of the pod's job, reading only
// schedkit.io/deadline (the hot path of the Deadline queue sort). owner is
// used as in Of.
func DeadlineOf(pod *v1.Pod, owner *batchv1.Job) (time.Time, bool, *AnnotationError) {
	if owner != nil {
		if ref := metav1.GetControllerOfNoCopy(pod); ref == nil || ref.UID != owner.UID {
			owner = nil
		}
	}
	v, m, ok := lookup(pod, owner, AnnotationDeadline)
	if !ok {
		return time.Time{}, false, nil
	}
	created := pod.CreationTimestamp.Time
	if owner != nil {
		created = owner.CreationTimestamp.Time
	}
	d, err := ParseDeadline(v, created)
	if err != nil {
		return time.Time{}, false, problem(pod, m, AnnotationDeadline, v, err)
	}
	return d, true, nil
}

// lookup finds an annotation on the pod, else on its owner; from tells
// which (see source).
func lookup(pod *v1.Pod, owner *batchv1.Job, key string) (value string, from *metav1.ObjectMeta, ok bool) {
	if v, ok := pod.Annotations[key]; ok {
		return v, &pod.ObjectMeta, true
	}
	if owner != nil {
		if v, ok := owner.Annotations[key]; ok {
			return v, &owner.ObjectMeta, true
		}
	}
	return "", nil, false
}

// problem builds the AnnotationError for a value read from m.
func problem(pod *v1.Pod, m *metav1.ObjectMeta, key, value string, err error) *AnnotationError {
	kind := "Job"
	if m == &pod.ObjectMeta {
		kind = "pod"
	}
	return &AnnotationError{Object: kind + " " + m.Namespace + "/" + m.Name, Annotation: key, Value: value, Reason: err.Error()}
}

// MaxDuration bounds relative deadlines and run times: 100 years.
const MaxDuration = 100 * 365 * 24 * time.Hour

// ParseDeadline parses a schedkit.io/deadline value: an RFC 3339 time, or a
// positive Go duration of at most MaxDuration added to created.
func ParseDeadline(v string, created time.Time) (time.Time, error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return time.Time{}, fmt.Errorf("empty; want an RFC 3339 time or a duration such as 90m")
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		if t.Year() < 1 || t.Year() > 9999 {
			return time.Time{}, fmt.Errorf("year %d out of range", t.Year())
		}
		return t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("neither an RFC 3339 time nor a duration such as 90m")
	}
	if d <= 0 || d > MaxDuration {
		return time.Time{}, fmt.Errorf("relative deadline must be in (0, %v]", MaxDuration)
	}
	return created.Add(d), nil
}

// ParseRuntime parses a schedkit.io/runtime value: a positive Go duration of
// at most MaxDuration.
func ParseRuntime(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("not a duration such as 45m")
	}
	if d <= 0 || d > MaxDuration {
		return 0, fmt.Errorf("must be in (0, %v]", MaxDuration)
	}
	return d, nil
}

// ParseRates parses a schedkit.io/rates value, "type=rate[,type=rate...]":
// node type names (label values, non-empty, each once) with rates in
// [1/MaxRate, MaxRate].
func ParseRates(v string) (map[string]float64, error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return nil, fmt.Errorf("empty; want type=rate[,type=rate...]")
	}
	out := map[string]float64{}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%q is not type=rate", part)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("node type %q listed twice", name)
		}
		r, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || !ValidRate(r) {
			return nil, fmt.Errorf("rate %q for node type %q must be a number in [%g, %g]", val, name, 1/MaxRate, MaxRate)
		}
		out[name] = r
	}
	return out, nil
}

// ValidRate reports whether r is a usable relative rate, in [1/MaxRate, MaxRate].
func ValidRate(r float64) bool { return r >= 1/MaxRate && r <= MaxRate }

// Seconds converts a time to seconds since the Unix epoch, the clock every
// schedkit input of these plugins uses. It is exact to well below a
// microsecond for times within a few centuries of now.
func Seconds(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// Started returns when the pod started running: status.startTime, or now for
// a pod that has none yet (bound or assumed but not started), and never later
// than now (a kubelet clock ahead of the scheduler's counts as now). This is
// kube-scheduler's own convention for pods without a start time.
func Started(pod *v1.Pod, now time.Time) time.Time {
	if pod.Status.StartTime == nil {
		return now
	}
	if t := pod.Status.StartTime.Time; t.Before(now) {
		return t
	}
	return now
}
