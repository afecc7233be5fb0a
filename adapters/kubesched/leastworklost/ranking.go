package leastworklost

import (
	"cmp"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/preempt"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// A Rank is one pod's place in preempt's victim order.
type Rank struct {
	// Order is the pod's position in the order preempt.GP takes victims,
	// 0 first: the most recently started pod goes first.
	Order int
	// WorkLost is the pod's run time so far in seconds, preempt's
	// (now − start)·slots with one slot per pod.
	WorkLost float64
}

// Cluster maps pods that may be preempted to preempt's input: one task per
// pod, holding one slot since podjob.Started(pod, now); one job per pod
// owner (package podjob). Times are seconds before now (Cluster.Now = 0),
// so they are exact. Task IDs number the pods in (namespace, name, UID)
// order and jobs are indexed in job-key order, so the result does not
// depend on the order pods are given in. It also returns the pods in task
// order.
func Cluster(pods []*v1.Pod, now time.Time) (preempt.Cluster, []*v1.Pod) {
	sorted := slices.Clone(pods)
	slices.SortFunc(sorted, func(a, b *v1.Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	keys := make([]types.UID, len(sorted))
	for i, p := range sorted {
		keys[i] = podjob.JobKey(p)
	}
	jobKeys := slices.Clone(keys)
	slices.Sort(jobKeys)
	jobKeys = slices.Compact(jobKeys)

	c := preempt.Cluster{Now: 0, Jobs: make([]preempt.Job, len(jobKeys)), Tasks: make([]preempt.Task, len(sorted))}
	for i, p := range sorted {
		job, _ := slices.BinarySearch(jobKeys, keys[i])
		age := now.Sub(podjob.Started(p, now)).Seconds()
		if age > preempt.MaxTime {
			age = preempt.MaxTime
		}
		c.Tasks[i] = preempt.Task{ID: int64(i), Job: job, Start: -age, Slots: 1}
	}
	return c, sorted
}

// Ranks asks preempt's Global Preemption (GP Algorithm 1, step 2: no job
// starves others, so the zero GPOptions) for every pod, and returns each
// pod's place in its order and its work lost. Step 2 takes the most recently
// started tasks cluster-wide first, ties to the lower job index, then the
// lower task ID.
func Ranks(pods []*v1.Pod, now time.Time, ws *preempt.Workspace) (map[types.UID]Rank, error) {
	out := make(map[types.UID]Rank, len(pods))
	return out, rankInto(out, pods, now, ws)
}

// rankInto is Ranks writing each pod's rank into dst.
func rankInto(dst map[types.UID]Rank, pods []*v1.Pod, now time.Time, ws *preempt.Workspace) error {
	c, sorted := Cluster(pods, now)
	d, err := ws.GP(c, len(c.Tasks), preempt.GPOptions{})
	if err != nil {
		return err
	}
	for i, v := range d.Victims {
		dst[sorted[v.Task].UID] = Rank{Order: i, WorkLost: v.WorkLost}
	}
	return nil
}
