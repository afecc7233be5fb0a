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
	slices.SortFunc(sorted, podOrder)
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
		c.Tasks[i] = task(p, now, int64(i), job)
	}
	return c, sorted
}

// podOrder orders pods by namespace, name and UID: the order of their task
// IDs in Cluster.
func podOrder(a, b *v1.Pod) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

// task is pod p as Cluster gives it to preempt: task id of job job,
// holding one slot since podjob.Started(p, now), in seconds before now
// (Cluster.Now = 0), at most preempt.MaxTime.
func task(p *v1.Pod, now time.Time, id int64, job int) preempt.Task {
	age := min(now.Sub(podjob.Started(p, now)).Seconds(), preempt.MaxTime)
	return preempt.Task{ID: id, Job: job, Start: -age, Slots: 1}
}

// compareRecency compares two pods in preempt.GP's victim order
// (preempt.CompareRecency) as Cluster maps them, in any set of pods that
// holds both: −1 when a is taken first. It reads two pods only: the order
// of their jobs is that of their job keys, the order of their task IDs
// that of podOrder, as in Cluster. The jobs and task IDs are read only
// when the two start together: preempt.CompareRecency reads them only
// then.
func compareRecency(a, b *v1.Pod, now time.Time) (int, error) {
	ta, tb := task(a, now, 0, 0), task(b, now, 0, 0)
	if ta.Start == tb.Start {
		ja, jb := index(cmp.Compare(podjob.JobKey(a), podjob.JobKey(b)))
		ia, ib := index(podOrder(a, b))
		ta.Job, ta.ID, tb.Job, tb.ID = ja, int64(ia), jb, int64(ib)
	}
	return preempt.CompareRecency(ta, tb)
}

// index numbers two values from their comparison c: 0 and 1 when the first
// is lower, 1 and 0 when it is higher, 0 and 0 when they are equal.
func index(c int) (first, second int) {
	return max(c, 0), max(-c, 0)
}

// workLost is a pod's work lost at now: preempt.WorkLost of its task, its
// run time in seconds.
func workLost(p *v1.Pod, now time.Time) float64 {
	w, err := preempt.WorkLost(0, task(p, now, 0, 0))
	if err != nil {
		return 0
	}
	return w
}

// sumWorkLost is the pods' total work lost at now.
func sumWorkLost(pods []*v1.Pod, now time.Time) float64 {
	s := 0.0
	for _, p := range pods {
		s += workLost(p, now)
	}
	return s
}

// Ranks asks preempt's Global Preemption (GP Algorithm 1, step 2: no job
// starves others, so the zero GPOptions) for every pod, and returns each
// pod's place in its order and its work lost. Step 2 takes the most recently
// started tasks cluster-wide first, ties to the lower job index, then the
// lower task ID.
func Ranks(pods []*v1.Pod, now time.Time, ws *preempt.Workspace) (map[types.UID]Rank, error) {
	c, sorted := Cluster(pods, now)
	d, err := ws.GP(c, len(c.Tasks), preempt.GPOptions{})
	if err != nil {
		return nil, err
	}
	out := make(map[types.UID]Rank, len(pods))
	for i, v := range d.Victims {
		out[sorted[v.Task].UID] = Rank{Order: i, WorkLost: v.WorkLost}
	}
	return out, nil
}
