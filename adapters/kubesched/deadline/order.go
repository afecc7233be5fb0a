package deadline

import (
	"cmp"
	"time"

	"github.com/schedkit/schedkit/edf"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// A Key is what the queue order reads from one queued entity.
type Key struct {
	// Deadline is the job's deadline in seconds since the Unix epoch, or
	// edf.NoDeadline() (+Inf) when it has none or its annotation is malformed.
	Deadline float64
	// Priority is the pod's priority (spec.priority), as PrioritySort reads it.
	Priority int32
	// Timestamp is when the entity entered the scheduling queue.
	Timestamp time.Time
	// Namespace, Name and UID identify the pod (or pod group); together they
	// are unique among queued entities.
	Namespace, Name string
	UID             types.UID
}

// KeyOf maps a queued pod, its owning Job (nil if none was found) and its
// queue timestamp to its Key. A malformed deadline counts as none.
func KeyOf(pod *v1.Pod, owner *batchv1.Job, timestamp time.Time) Key {
	k := Key{
		Deadline:  edf.NoDeadline(),
		Priority:  corev1helpers.PodPriority(pod),
		Timestamp: timestamp,
		Namespace: pod.Namespace,
		Name:      pod.Name,
		UID:       pod.UID,
	}
	if d, ok, err := podjob.DeadlineOf(pod, owner); err == nil && ok {
		k.Deadline = podjob.Seconds(d)
	}
	return k
}

// Compare orders two keys as the Deadline queue sort does, returning -1
// when a goes first:
//
//  1. jobs with a deadline before jobs without, earlier deadlines first
//     (edf.CompareDeadline, the first key of edf.CompareEDF; +Inf last);
//  2. higher priority first, then earlier queue timestamp (PrioritySort);
//  3. namespace, name, UID: a unique key, so no two queued pods tie.
func Compare(a, b Key) int {
	return cmp.Or(
		edf.CompareDeadline(a.Deadline, b.Deadline),
		cmp.Compare(b.Priority, a.Priority),
		a.Timestamp.Compare(b.Timestamp),
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
		cmp.Compare(a.UID, b.UID),
	)
}
