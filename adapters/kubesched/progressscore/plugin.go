// Package progressscore is the ProgressShare Score plugin (named apart from
// schedkit's progressshare package, whose decisions it calls): for jobs that run
// at different speeds on different node types (a GPU job 3 times faster on
// one accelerator model), it prefers the nodes where the job's rate,
// relative to its own rates across the cluster, is highest, and it orders
// the competing jobs by progress share (Lee thesis §4.3, Eq. 4.1), so that
// an accelerator goes to the job it helps and no job is starved. The
// decisions are schedkit's progressshare package: PickProgressShare
// (Algorithm 2) and Pref (Eq. 4.4).
//
// # Model
//
// Every node has one slot per pod it can hold (status.allocatable pods) and
// a type, the value of the nodeTypeLabel label. A job (pods with one
// controller owner, package podjob) has a rate per node type:
// schedkit.io/rates on the pod or its owning Job, else the rates of its
// schedkit.io/job-type in the args, else 1 everywhere; types it does not
// list run at 1. Its running pods are its assigned pods by node type, its
// pending blocks its unassigned pods of the same scheduler, and its delay
// the time since it last started a pod (or was created). Reading input
// costs nothing (no data locality in Kubernetes), and every rate is known,
// so no job is in the calibration phase.
//
// For the pod being scheduled, PreScore scores each node type (Score):
//
//	50 · [Algorithm 2, offered a slot of the type, gives it to the pod's job]
//	+ 50 · Pref(job, slot of the type)
//
// Algorithm 2 takes the jobs with pending pods in increasing progress share
// (ties: the other jobs by creation, then reference, the pod's own job
// last), each taking the slot iff 1 − Pref ≤ delay/maxDelay. So a job
// behind in progress takes any node; a job ahead of another that prefers
// this node type leaves it to that job; and a fresh job waits (scores lower)
// for its fastest type until maxDelay has passed. The second term ranks the
// job's own preference among nodes where the first term is equal.
//
// With affinityFactor set, progressshare's affinity rule (§4.3.1.4's prose)
// applies on top: the job Algorithm 2 picks is passed over for a job whose
// relative rate on the node type is at least affinityFactor times its own,
// so a job that runs equally fast everywhere leaves an accelerator to a job
// it speeds up even while it is behind in progress share (with
// affinityBounded, only while it already runs at least its slot share).
//
// A Score plugin ranks feasible nodes; it cannot hold a pod back, so a job
// whose fastest nodes are full still runs elsewhere. When no pending job
// has a rate other than 1, PreScore skips (every node would score the same).
// A malformed schedkit.io/rates on the pod being scheduled gives a Warning
// event on the pod and rates of 1.
//
// Cost per scheduling cycle: O(pods) to count running and pending pods,
// and two progressshare calls per node type; the cluster index is rebuilt
// only when nodes, their types or capacities change. Mapping and scoring
// for 100 pending jobs on 1,000 nodes of two types (110,000 slots) took
// 0.6–0.9 ms per pod (BenchmarkScore, go test -bench . -benchtime 100x
// -cpu 1, 2 cores shared with other builds at load average 16).
package progressscore

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/utils/clock"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// Name is the plugin's name in the registry and in configurations.
const Name = "ProgressShare"

// ProgressShare is the ProgressShare Score plugin.
type ProgressShare struct {
	fh    fwk.Handle
	args  *Args
	clock clock.PassiveClock
	jobs  owner.Resolver
	pods  corelisters.PodLister

	mu          sync.Mutex
	fingerprint uint64
	cluster     Cluster
	sched       *ps.Scheduler
}

var (
	_ fwk.PreScorePlugin = (*ProgressShare)(nil)
	_ fwk.ScorePlugin    = (*ProgressShare)(nil)
	_ fwk.SignPlugin     = (*ProgressShare)(nil)
)

// Build makes the plugin on the scheduler's handle (the factory.Build of
// the registry).
func Build(_ context.Context, args *Args, h fwk.Handle, c clock.PassiveClock) (fwk.Plugin, error) {
	return &ProgressShare{
		fh: h, args: args, clock: c,
		jobs: owner.NewResolver(h),
		pods: h.SharedInformerFactory().Core().V1().Pods().Lister(),
	}, nil
}

// Name returns Name.
func (pl *ProgressShare) Name() string { return Name }

const stateKey fwk.StateKey = Name

type scores struct {
	byType map[string]int64
	label  string
}

func (s *scores) Clone() fwk.StateData { return s }

// PreScore computes the score of every node type for the pod.
func (pl *ProgressShare) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) *fwk.Status {
	now := pl.clock.Now()
	nodes, err := pl.fh.SnapshotSharedLister().NodeInfos().List()
	if err != nil {
		return fwk.AsStatus(err)
	}
	selfJob := pl.jobs.Job(pod)
	if err := selfJob.Err(annotation.Rates); err != nil {
		pl.fh.EventRecorder().Eventf(pod, nil, v1.EventTypeWarning, Name, "Scoring", "ignoring rates: %v", err)
	}
	jobs, err := pl.pending(pod, selfJob)
	if err != nil {
		return fwk.AsStatus(err)
	}
	if !anyRates(jobs) {
		return fwk.NewStatus(fwk.Skip)
	}
	for _, n := range nodes {
		t := n.Node().Labels[pl.args.NodeTypeLabel]
		for _, pi := range n.GetPods() {
			p := pi.GetPod()
			key, _ := podjob.Key(p)
			j, ok := jobs[key]
			if !ok {
				continue
			}
			j.Running[t]++
			if s := podjob.Started(p, now); s.After(j.LastLaunch) {
				j.LastLaunch = s
			}
		}
	}

	pl.mu.Lock()
	defer pl.mu.Unlock()
	if err := pl.index(nodes); err != nil {
		return fwk.AsStatus(err)
	}
	list := make([]JobState, 0, len(jobs))
	for _, j := range jobs {
		list = append(list, *j)
	}
	psJobs, self := pl.cluster.Jobs(list, selfJob.Key, now)
	byType, err := Score(pl.sched, pl.cluster, psJobs, self)
	if err != nil {
		return fwk.AsStatus(err)
	}
	klog.FromContext(ctx).V(5).Info("Progress-share scores", "pod", klog.KObj(pod), "job", selfJob.Ref, "scores", byType)
	state.Write(stateKey, &scores{byType: byType, label: pl.args.NodeTypeLabel})
	return nil
}

// pending groups the unassigned pods of the pod's scheduler by job.
func (pl *ProgressShare) pending(pod *v1.Pod, self podjob.Job) (map[types.UID]*JobState, error) {
	all, err := pl.pods.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	jobs := map[types.UID]*JobState{}
	add := func(p *v1.Pod, j podjob.Job) {
		s, ok := jobs[j.Key]
		if !ok {
			s = &JobState{Key: j.Key, Ref: j.Ref, Created: j.Created, Rates: pl.rates(j), Running: map[string]int{}, LastLaunch: j.Created}
			jobs[j.Key] = s
		}
		s.Pending++
		if p.CreationTimestamp.Time.Before(s.Created) {
			s.Created = p.CreationTimestamp.Time
		}
	}
	seenSelf := false
	for _, p := range all {
		if p.Spec.NodeName != "" || p.DeletionTimestamp != nil || p.Spec.SchedulerName != pod.Spec.SchedulerName ||
			p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if p.UID == pod.UID {
			seenSelf = true
			add(p, self)
			continue
		}
		key, _ := podjob.Key(p)
		if s, ok := jobs[key]; ok {
			s.Pending++
			continue
		}
		add(p, pl.jobs.Job(p))
	}
	if !seenSelf {
		add(pod, self)
	}
	return jobs, nil
}

// rates returns a job's rates: its annotation, else its job type's, else nil.
func (pl *ProgressShare) rates(j podjob.Job) map[string]float64 {
	if j.Rates != nil {
		return j.Rates
	}
	for _, c := range pl.args.JobTypes {
		if c.Name == j.JobType {
			return c.Rates
		}
	}
	return nil
}

func anyRates(jobs map[types.UID]*JobState) bool {
	for _, j := range jobs {
		for _, r := range j.Rates {
			if r != 1 {
				return true
			}
		}
	}
	return false
}

// index rebuilds the cluster and its progressshare.Scheduler when the
// nodes, their types or capacities changed.
func (pl *ProgressShare) index(nodes []fwk.NodeInfo) error {
	list := make([]Node, len(nodes))
	h := fnv.New64a()
	for i, n := range nodes {
		node := n.Node()
		capacity := int(node.Status.Allocatable.Pods().Value())
		capacity = max(capacity, len(n.GetPods()), 1)
		list[i] = Node{Name: node.Name, Type: node.Labels[pl.args.NodeTypeLabel], Capacity: capacity}
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", list[i].Name, list[i].Type, strconv.Itoa(capacity))
	}
	fp := h.Sum64()
	if pl.sched != nil && fp == pl.fingerprint {
		return nil
	}
	c, err := NewCluster(list)
	if err != nil {
		return err
	}
	s, err := ps.NewScheduler(c.Slots, pl.args.options())
	if err != nil {
		return err
	}
	pl.cluster, pl.sched, pl.fingerprint = c, s, fp
	return nil
}

// Score returns the score PreScore computed for the node's type.
func (pl *ProgressShare) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	d, err := state.Read(stateKey)
	if err != nil {
		return 0, fwk.AsStatus(fmt.Errorf("%s: reading PreScore state: %w", Name, err))
	}
	s := d.(*scores)
	return s.byType[n.Node().Labels[s.label]], nil
}

// ScoreExtensions returns nil: scores are already in [0, 100].
func (pl *ProgressShare) ScoreExtensions() fwk.ScoreExtensions { return nil }

// SignPod refuses to sign: a pod's scores depend on the other jobs' running
// and pending pods, which change with every placement.
func (pl *ProgressShare) SignPod(context.Context, *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	return nil, fwk.NewStatus(fwk.Unschedulable, "progress-share scores depend on the other jobs")
}
