// Package deadline is the Deadline queue-sort plugin: pods of jobs with a
// deadline leave the scheduling queue in earliest-deadline-first order (paper
// MIMP §5.2's EDF, as schedkit's edf and admission packages order jobs), then
// by priority and queue time like the default PrioritySort; pods without a
// deadline come after them in the default order.
//
// The deadline is the schedkit.io/deadline annotation on the pod or on the
// batch/v1 Job that owns it: an RFC 3339 time, or a duration after the
// Job's (else the pod's) creation (see package podjob). A malformed value
// counts as no deadline here; DeadlineAdmission rejects such a pod with a
// message naming the annotation.
//
// The order, ending on a unique key (Compare):
//
//  1. deadline, earliest first; no deadline last;
//  2. priority, highest first;
//  3. time the pod entered the queue, earliest first;
//  4. namespace, name, UID.
//
// A pod group (GenericWorkload) has no deadline of its own here: it sorts
// among the pods without one, by priority and queue time, then by its
// namespace and name.
//
// A pod's deadline is read when the queue first compares it, and again
// whenever the pod changes (a new resourceVersion: every requeue after a
// failed attempt writes its PodScheduled condition), never in between, so
// the queue's heap stays ordered while the pod waits. An edit to the owning
// Job's annotation therefore reaches a waiting pod at its next attempt. At
// start-up the first comparison waits until the scheduler's Job informer has
// synced, so pods that are already queued are not sorted without their
// owners' deadlines.
//
// Cost, measured with go test -run '^$' -bench . -benchtime 200000x -cpu 1
// on 2 cores shared with other builds (load average 11–18, so the spread is
// the machine's): Compare 21–91 ns and KeyOf, a pod's first reading with
// an RFC 3339 deadline, 0.2–0.5 µs, both with 0 allocations. Less is
// Compare on cached keys.
//
// Only one QueueSort plugin may be enabled per scheduler, and every profile
// must use the same one.
package deadline

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/edf"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
)

// Name is the plugin's name in the registry and in configurations.
const Name = "Deadline"

// Deadline is the QueueSort plugin.
type Deadline struct {
	ctx        context.Context
	jobs       owner.Resolver
	jobsSynced cache.InformerSynced
	synced     atomic.Bool

	// keys holds each queued pod's key, computed once per pod version, so
	// that a pod's place in the queue's heap stays put while it waits even
	// if its owning Job is edited (the edit applies from the pod's next
	// update or requeue).
	keys sync.Map // types.UID → cachedKey
}

type cachedKey struct {
	resourceVersion string
	key             Key
}

var _ fwk.QueueSortPlugin = (*Deadline)(nil)

// Build makes the plugin on the scheduler's handle (the factory.Build of
// the registry). It takes no args.
func Build(ctx context.Context, _ *Args, h fwk.Handle, _ factory.Env) (fwk.Plugin, error) {
	pl := &Deadline{ctx: ctx, jobs: owner.NewResolver(h)}
	pl.jobsSynced = h.SharedInformerFactory().Batch().V1().Jobs().Informer().HasSynced
	_, err := h.SharedInformerFactory().Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName != "" {
				pl.keys.Delete(p.UID)
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if p, ok := obj.(*v1.Pod); ok {
				pl.keys.Delete(p.UID)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	return pl, nil
}

// Name returns Name.
func (pl *Deadline) Name() string { return Name }

// Less reports whether a leaves the queue before b (see Compare).
func (pl *Deadline) Less(a, b fwk.QueuedEntityInfo) bool {
	return Compare(pl.key(a), pl.key(b)) < 0
}

type podInfoGetter interface{ GetPodInfo() fwk.PodInfo }

func (pl *Deadline) key(e fwk.QueuedEntityInfo) Key {
	if g, ok := e.(podInfoGetter); ok {
		if pi := g.GetPodInfo(); pi != nil && pi.GetPod() != nil {
			pod := pi.GetPod()
			if c, ok := pl.keys.Load(pod.UID); ok && c.(cachedKey).resourceVersion == pod.ResourceVersion {
				k := c.(cachedKey).key
				k.Timestamp = e.GetTimestamp()
				return k
			}
			pl.waitForJobs()
			k := KeyOf(pod, pl.jobs.Owner(pod), e.GetTimestamp())
			pl.keys.Store(pod.UID, cachedKey{resourceVersion: pod.ResourceVersion, key: k})
			return k
		}
	}
	k := Key{Deadline: edf.NoDeadline(), Priority: e.GetPriority(), Timestamp: e.GetTimestamp()}
	if g, ok := e.(*framework.QueuedPodGroupInfo); ok && g.PodGroupInfo != nil {
		k.Namespace, k.Name = g.Namespace, g.Name
	}
	return k
}

// waitForJobs blocks until the Job informer has synced once. The queue
// sorts pods as the pod informer delivers them at start-up, while the Job
// informer may still be listing; without the wait a pod whose deadline is
// on its owning Job would be sorted as if it had none.
func (pl *Deadline) waitForJobs() {
	if pl.synced.Load() || pl.jobsSynced == nil {
		return
	}
	if cache.WaitForCacheSync(pl.ctx.Done(), pl.jobsSynced) {
		pl.synced.Store(true)
	}
}

// Args are the plugin's args: it takes none, and any given are an error.
type Args struct{}

// UnmarshalJSON accepts only an empty object or null.
func (*Args) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "{}", "null":
		return nil
	}
	return fmt.Errorf("%s takes no args, got %s", Name, b)
}

// SetDefaults does nothing: there are no args.
func (*Args) SetDefaults() {}

// Validate accepts the empty args.
func (*Args) Validate(*field.Path) error { return nil }

// DecodeArgs checks that the profile gives no args.
func DecodeArgs(obj runtime.Object) (*Args, error) { return factory.Decode[Args](Name, obj) }
