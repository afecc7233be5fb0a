// Package podjob maps a pod, and the batch/v1 Job that owns it, to the job the
// schedkit plugins reason about: its identity, creation time, deadline, run
// time, job type and per-node-type rates, all read from annotations.
//
// Everything here is a pure function of the objects passed in: no lister, no
// clock. The plugins look the owner up and pass it.
//
// # Annotations
//
// The keys, their grammar and bounds are the adapters' one contract,
// package adapters/internal/annotation: schedkit.io/deadline,
// schedkit.io/runtime, schedkit.io/job-type and schedkit.io/rates. A value
// on the pod wins over the same key on its owning Job (pods inherit their
// template's annotations), and a relative deadline counts from the job's
// creation: its owning Job's creationTimestamp when the pod has one, else
// the pod's own, so every pod of a Job gets the same deadline.
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
	"math"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
)

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
	// JobType is schedkit.io/job-type, "" when absent.
	JobType string
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

// KueuePodSetLabel is the label Kueue writes into the pod template of a
// workload when it admits it (the name of the pod set).
const KueuePodSetLabel = "kueue.x-k8s.io/podset"

// AdmittedByKueue reports whether the pod belongs to a workload Kueue has
// admitted: it carries KueuePodSetLabel.
func AdmittedByKueue(pod *v1.Pod) bool {
	_, ok := pod.Labels[KueuePodSetLabel]
	return ok
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
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		return ref.UID, ref.Kind + " " + pod.Namespace + "/" + ref.Name
	}
	return pod.UID, "Pod " + pod.Namespace + "/" + pod.Name
}

// JobKey returns the pod's job key as Key does, without the reference (it
// allocates nothing).
func JobKey(pod *v1.Pod) types.UID {
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		return ref.UID
	}
	return pod.UID
}

// IDOf returns the 63-bit FNV-1a hash of a job key.
func IDOf(key types.UID) int64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= fnvPrime64
	}
	return int64(h & math.MaxInt64)
}

// FNV-1a's 64-bit parameters (hash/fnv's).
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

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
		j.Problems = map[string]*AnnotationError{annotation.Deadline: err}
	} else {
		j.Deadline, j.HasDeadline = d, has
	}
	if v, m, ok := lookup(pod, owner, annotation.Runtime); ok {
		if d, err := annotation.ParseRuntime(v); err != nil {
			record(m, annotation.Runtime, v, err)
		} else {
			j.Runtime, j.HasRuntime = d, true
		}
	}
	if v, m, ok := lookup(pod, owner, annotation.JobType); ok {
		if jt, err := annotation.ParseJobType(v); err != nil {
			record(m, annotation.JobType, v, err)
		} else {
			j.JobType = jt
		}
	}
	if v, m, ok := lookup(pod, owner, annotation.Rates); ok {
		if r, err := annotation.ParseRates(v); err != nil {
			record(m, annotation.Rates, v, err)
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
	v, m, ok := lookup(pod, owner, annotation.Deadline)
	if !ok {
		return time.Time{}, false, nil
	}
	created := pod.CreationTimestamp.Time
	if owner != nil {
		created = owner.CreationTimestamp.Time
	}
	d, err := annotation.ParseDeadline(v, created)
	if err != nil {
		return time.Time{}, false, problem(pod, m, annotation.Deadline, v, err)
	}
	return d, true, nil
}

// lookup finds an annotation on the pod, else on its owner; from tells
// which (see source).
func lookup(pod *v1.Pod, owner *batchv1.Job, key string) (value string, from *metav1.ObjectMeta, ok bool) {
	var ownerAnn map[string]string
	if owner != nil {
		ownerAnn = owner.Annotations
	}
	v, layer, ok := annotation.Lookup(key, pod.Annotations, ownerAnn)
	switch {
	case !ok:
		return "", nil, false
	case layer == 0:
		return v, &pod.ObjectMeta, true
	default:
		return v, &owner.ObjectMeta, true
	}
}

// problem builds the AnnotationError for a value read from m.
func problem(pod *v1.Pod, m *metav1.ObjectMeta, key, value string, err error) *AnnotationError {
	kind := "Job"
	if m == &pod.ObjectMeta {
		kind = "pod"
	}
	return &AnnotationError{Object: kind + " " + m.Namespace + "/" + m.Name, Annotation: key, Value: value, Reason: err.Error()}
}

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
