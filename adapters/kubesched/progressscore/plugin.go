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
// whose fastest nodes are full still runs elsewhere. PreScore skips, and
// Score is not called, when every node would score the same: when no
// pending job has a rate other than 1, and when the scores it computed are
// equal on every node type (a job with no rates of its own, say, that
// Algorithm 2 passes over on every type for an older pending job). A score
// added equally to every node changes neither the ranking nor the ties
// kube-scheduler draws among the best, so the skip only saves the calls. A
// node the tally does not know yet scores 0 when PreScore does not skip
// and nothing when it does, like the others.
// A malformed schedkit.io/rates on the pod being scheduled gives a Warning
// event on the pod and rates of 1.
//
// # Counts and cost
//
// The counts come from a tally (internal/tally) fed by the scheduler's
// informers, not from listing pods; a profile has one, shared with
// DeadlineAdmission (tally.Shared), so the pod events are counted once.
// Running pods are the job's live assigned pods (bound, or assumed by this
// plugin's or DeadlineAdmission's Reserve until bound or unreserved) on nodes of each type, pending the live unassigned pods of
// the profile's scheduler name, and a job's creation and reference come
// from its owning Job or, without one, its first pod. The plugin keeps the
// pending jobs in a progressshare Pool and writes only the jobs that
// changed since its last cycle (TestPropQueue: the scores equal Score on
// the job states recounted from every pod, after any sequence of events,
// with and without the affinity rule). Delays are on a clock of seconds
// since the plugin started, so a job is written when it changes, not
// because time passes; a job whose LastLaunch depends on now (a running
// pod with no start time yet) is written again each cycle while it does.
// A cycle costs O(changed jobs · log jobs) to update, and per node type
// what Algorithm 2 reads: the jobs in increasing progress share up to the
// one that launches, and, with the affinity rule, the jobs behind it
// (skipped when affinityBounded holds and the jobs' demands fit in the
// cluster). Nothing grows with the number of pods or nodes, and the
// cluster's slots are mapped again only when nodes, their types or
// capacities change.
//
// # Opportunistic batching
//
// kube-scheduler (OpportunisticBatching, on by default) signs each pod
// when it enters the scheduling queue, from the pod alone. After a full
// cycle it keeps the feasible nodes' raw scores, and a next pod of the
// profile with an equal signature, scheduled in the very next cycle
// (the previous pod placed, no nominated node) within 500 ms of that
// full cycle, takes the best remaining node as a hint (only the previous
// pod's node is filtered again and, while it fits, scored again); the
// hint is placed once it passes the Filter plugins, without PreScore or
// Score for the other nodes. A pod that any PreFilter, Filter, PreScore
// or Score plugin refuses to sign takes a full cycle and drops the cache.
// SignPod refuses every pod, so a schedkit profile never batches. (At its
// default args PodTopologySpread refuses every pod as well, so neither
// does kube-scheduler's default profile.) No signature is correct,
// because what a pod's scores depend on is not in the pod and moves
// within a batch (TestNoSignature):
//
//   - a pod whose PreScore skips (no pending job rated) scores the same on
//     every node only while no rated job is pending; a rated job arriving
//     during a batch makes an unrated pod's scores differ by node type
//     (50 on gpu-a100, 100 on cpu-standard in the example), and the
//     batch would keep the skip;
//   - pods of one job score alike in one state, but each placement
//     changes the job's progress share and so Algorithm 2's order: once
//     a pod of a job ahead of another starts, the job may fall behind,
//     and its next pod's score on the other nodes of that type drops
//     (100 to 50 in the example);
//   - the delay term moves with the clock, so a job's score changes when
//     delay/maxDelay passes 1 − Pref, also within a batch.
//
// In-tree plugins refuse on the same grounds (PodTopologySpread for any
// pod with spread constraints, its system default ones included,
// InterPodAffinity for pods with affinity terms).
//
// For 100 pending jobs on 1,000 nodes of two types (110,000 slots), a
// cycle with one job changed since the last took 30–55 µs and no
// allocation (BenchmarkScore/queue), where mapping the same job states
// with Cluster.Jobs and scoring them took 1.5–3.6 ms and 404 allocations
// (BenchmarkScore/mapping, which leaves out the pass over every pod that
// counted them): go test -run XXX -bench Score -benchtime 1000x -cpu 1
// -count 2, 2 cores shared with other sessions at load average 28–30.
package progressscore

import (
	"context"
	"fmt"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// Name is the plugin's name in the registry and in configurations.
const Name = "ProgressShare"

// ProgressShare is the ProgressShare Score plugin.
type ProgressShare struct {
	fh    fwk.Handle
	args  *Args
	clock clock.PassiveClock
	jobs  owner.Resolver
	tally *tally.Tally

	mu    sync.Mutex
	queue *queue
}

var (
	_ fwk.PreScorePlugin = (*ProgressShare)(nil)
	_ fwk.ScorePlugin    = (*ProgressShare)(nil)
	_ fwk.ReservePlugin  = (*ProgressShare)(nil)
	_ fwk.SignPlugin     = (*ProgressShare)(nil)
)

// Build makes the plugin on the scheduler's handle (the factory.Build of
// the registry), on the profile's shared tally: it counts the pods of the
// handle's profile (spec.schedulerName equal to the profile's name) from
// the scheduler's informers.
func Build(ctx context.Context, args *Args, h fwk.Handle, env factory.Env) (fwk.Plugin, error) {
	t, err := env.Tallies.For(ctx, h, args.NodeTypeLabel)
	if err != nil {
		return nil, err
	}
	pl := &ProgressShare{fh: h, args: args, clock: env.Clock, jobs: owner.NewResolver(h), tally: t}
	pl.queue = newQueue(pl.rates, env.Clock.Now())
	return pl, nil
}

// Name returns Name.
func (pl *ProgressShare) Name() string { return Name }

const stateKey fwk.StateKey = Name

// scores are the scores of one cycle by type index, and the cluster
// mapping's node types they were computed for (never written after
// NewCluster: a change of the nodes makes a new mapping).
type scores struct {
	nodeType map[string]int // node name → index into byType
	byType   []int64
}

func (s *scores) Clone() fwk.StateData { return s }

// PreScore computes the score of every node type for the pod.
func (pl *ProgressShare) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) *fwk.Status {
	now := pl.clock.Now()
	self := pl.jobs.Job(pod)
	if err := self.Err(annotation.Rates); err != nil {
		pl.fh.EventRecorder().Eventf(pod, nil, v1.EventTypeWarning, Name, "Scoring", "ignoring rates: %v", err)
	}
	selfRates := pl.rates(self)

	pl.mu.Lock()
	defer pl.mu.Unlock()
	q := pl.queue
	var (
		s    *scores
		err  error
		skip bool
	)
	pl.tally.Read(func(v *tally.View) {
		if err = q.update(v, pl.args.options(), now); err != nil {
			return
		}
		if skip = !q.anyRated(self.Key, selfRates); skip {
			return
		}
		s = &scores{nodeType: q.cluster.NodeType, byType: make([]int64, len(q.cluster.Types))}
		if err = q.scores(s.byType, self, selfRates, v.Job(self.Key)); err == nil {
			skip = uniform(s.byType)
		}
	})
	if err != nil {
		return fwk.AsStatus(err)
	}
	if skip {
		return fwk.NewStatus(fwk.Skip)
	}
	if logger := klog.FromContext(ctx).V(5); logger.Enabled() {
		logger.Info("Progress-share scores", "pod", klog.KObj(pod), "job", self.Ref, "types", q.cluster.Types, "scores", s.byType)
	}
	state.Write(stateKey, s)
	return nil
}

// uniform reports whether every node type has the same score: then the
// scores add the same to every node and rank none above another.
func uniform(byType []int64) bool {
	for _, v := range byType {
		if v != byType[0] {
			return false
		}
	}
	return true
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

// Reserve counts the pod as running on the node from now on (the
// scheduler has assumed it there), before the informer reports it bound.
func (pl *ProgressShare) Reserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	pl.tally.Assume(pod.UID, node)
	return nil
}

// Unreserve forgets Reserve's assumption (the binding failed).
func (pl *ProgressShare) Unreserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) {
	pl.tally.Forget(pod.UID)
}

// Score returns the score PreScore computed for the node's type, the type
// the tally's mapping gave the node by its name. It reads the name, not
// the node's labels: Score runs once per node and cycle, and a lookup in
// each node's own label map (cold in the cache at thousands of nodes) cost
// several times the rest of the call.
func (pl *ProgressShare) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	d, err := state.Read(stateKey)
	if err != nil {
		return 0, fwk.AsStatus(fmt.Errorf("%s: reading PreScore state: %w", Name, err))
	}
	s := d.(*scores)
	t, ok := s.nodeType[n.Node().Name]
	if !ok {
		return 0, nil // a node the tally did not know yet
	}
	return s.byType[t], nil
}

// ScoreExtensions returns nil: scores are already in [0, 100].
func (pl *ProgressShare) ScoreExtensions() fwk.ScoreExtensions { return nil }

// SignPod refuses to sign any pod (see "Opportunistic batching" in the
// package doc): a pod's scores depend on its own job, on the other pending
// jobs and on the time, none of which a signature made from the pod alone
// can hold, and they change with the placements a batch makes.
func (pl *ProgressShare) SignPod(context.Context, *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	return nil, fwk.NewStatus(fwk.Unschedulable, "progress-share scores depend on the other jobs")
}
