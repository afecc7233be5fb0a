// Package leastworklost is the LeastWorkLostPreemption PostFilter plugin, a
// replacement for DefaultPreemption that throws away as little work as it
// can: among the nodes where evicting lower-priority pods makes the
// preemptor fit, it evicts the most recently started pods and picks the
// node where the victims' run time lost is least. The victim order is
// schedkit's preempt.GP (Global Preemption, GP Algorithm 1 step 2),
// and the work lost is preempt's (now − start) per victim.
//
// # What it keeps from DefaultPreemption
//
// It runs kube-scheduler's own preemption machinery (the preemption
// Evaluator and the DefaultPreemption plugin of Kubernetes 1.37) and changes
// three of its choices:
//
//   - Eligibility is kube's: only pods of strictly lower priority than the
//     preemptor are victims, a pod with preemptionPolicy Never never
//     preempts, and a preemptor whose nominated node still has terminating
//     victims waits. On top of that, the eviction step itself refuses any
//     victim whose priority is not below the preemptor's.
//   - Victims on a node: kube removes every eligible pod, checks that the
//     preemptor fits, then gives pods back most important first while it
//     still fits, PodDisruptionBudget-violating pods before the others.
//     Here "more important" is higher priority first (as kube), then later
//     in preempt.GP's order, which takes the most recently started pods
//     first (ties: job key, then pod namespace and name): within a
//     priority the oldest pods are given back first and the youngest are
//     evicted. DefaultPreemption also keeps older pods first, so on any one
//     node both choose the same victims (up to ties in start time); the work
//     saved comes from the choice of node.
//   - The node: kube picks the fewest PDB violations, then the lowest
//     highest victim priority, the lowest sum of priorities, the fewest
//     victims and the latest start. Here the order is (OrderedScoreFuncs):
//     1. fewest PodDisruptionBudget violations;
//     2. lowest highest victim priority;
//     3. least work lost: the sum of the victims' run times;
//     4. fewest victims;
//     5. node name, so two nodes never tie.
//     And every node where preemption may help is a candidate (args); a
//     node that cannot come first is not dry-run (Cost). With fewer
//     candidates than nodes (minCandidateNodesPercentage below 100), the
//     candidates are the preemptor's window: the potential nodes from an
//     offset taken from the preemptor's UID (offsetOf) where kube takes a
//     random one, so the preemptors spread over the cluster as
//     DefaultPreemption's do, as many as the args give, not counting the
//     nodes whose bound (Cost) shows that no dry run finds victims there
//     (kube's scan from the same offset would go past those too). The
//     node chosen is the one dry runs of every node of the window would
//     choose, so the choice depends on the cluster and the preemptor
//     alone, where kube's parallel dry runs, which stop once enough
//     candidates are found, make DefaultPreemption's vary from run to
//     run. When the window's first dry runs (Cost) find no candidate there,
//     kube's scan from the same offset runs instead, and which nodes it
//     dry-runs depends on its parallel runs.
//
// PodDisruptionBudgets are read as DefaultPreemption reads them (their
// status.disruptionsAllowed), and a PDB-violating victim is taken only when
// no other victim set fits.
//
// One more guard than DefaultPreemption: a preemptor does not preempt again
// while a victim of its previous preemption is leaving (the API server has
// accepted its deletion) but is still in the scheduler's snapshot (the
// deletion event not yet processed). Without it, a victim deleted at once
// (grace period 0) can be chosen a second time, and the second, empty
// preemption can gate the preemptor until the scheduler's periodic flush
// of unschedulable pods (5 minutes by default); the tests hit that race
// under load before the guard.
//
// # Reporting
//
// Each preemption records an event on the preemptor (reason
// LeastWorkLostPreemption) naming the node, the victims with their run
// times and the total work lost, with the work other candidate nodes would
// have lost and, for each that would have lost no more, why it was passed
// over (more PodDisruptionBudget violations, or a victim of higher
// priority: EventMessage); and observes schedkit_preemption_work_lost_seconds (histogram),
// schedkit_preemption_work_lost_seconds_total and
// schedkit_preemption_victims_total, labelled by profile. Work lost is in
// pod·seconds; a pod without status.startTime has run 0 s (kube's own
// convention for assumed and not yet started pods).
//
// # Cost
//
// Each dry run sorts its node's victims as DefaultPreemption does, with
// preempt.CompareRecency in place of the start-time comparison: two pods
// are compared as preempt.GP orders them (start, job key, pod), which is a
// total order on pods, so sorting one node's pods orders them as GP
// ranking the whole cluster would (TestPropMoreImportant), at no cost
// beyond the sort. A dry run costs what DefaultPreemption's costs on the
// same node (BenchmarkPostFilter).
//
// When no scheduler extender takes part in preemption, most candidate
// nodes are not dry-run, and the node chosen is the same: of every node
// where preemption may help (the default args), or of the preemptor's
// window (below 100 %, whose nodes are bounded in scan order until it is
// full). Each node gets a bound: a
// key that comes no later in the node order than any victim set its dry
// run could choose (0 PodDisruptionBudget violations; its lowest priority
// below the preemptor's; the fewest victims whose requests cover the CPU,
// memory and ephemeral storage NodeResourcesFit finds missing, counting the
// pods nominated to the node as the Filter plugins do, and the pod
// capacity; the least run time that many of its lowest-priority pods
// hold). The nodes of lowest bound are dry-run first, up to four, until
// one is a candidate; the dry runs then go only to the nodes whose bound
// does not come after that candidate, lowest bound first, and skip any
// whose bound comes after the best candidate found meanwhile. A node
// skipped cannot be chosen, so the choice is every dry run's
// (TestPropBoundKeepsChoice, against the plugin with the bound off;
// TestPropWindowKeepsChoice, against the plugin with the bound off over
// the window's nodes). Without a candidate among the first four dry runs
// every node is dry-run (below 100 %, kube's scan runs). The bounding
// reads every node's pods once, in parallel. In the
// scheduler_perf Preemption shape (nodes full of equal pods, three victims
// anywhere), one node of 500 is dry-run (TestBoundSkipsDryRuns). Where
// bounds are loose, as when a filter other than NodeResourcesFit keeps the
// preemptor off most nodes, more nodes are dry-run, up to all of them.
// Victims that are pod groups (the GenericWorkload feature) are bounded
// only during the dry runs.
//
// BenchmarkPostFilter and BenchmarkPostFilterNominated, 2 cores, 2026-11-29
// (go test -run '^$' -bench PostFilter ./leastworklost), one PostFilter at
// 5,000 nodes in that shape: every node a candidate, 16 ms (27 ms of CPU)
// with the bound against 138 ms (256 ms) without it; DefaultPreemption at
// its 10 % of the nodes, 11–16 ms (21–29 ms). After 1,500 preemptions
// whose preemptors wait nominated (no start times), 29 ms (54 ms of CPU)
// against DefaultPreemption's 23 ms (42 ms): the nominated pods of every
// node are looked up, and the scheduler's queue hands out a copy of each.
// At DefaultPreemption's 10 % (its window of 500 nodes narrowed by the
// bound; 64 preemptor UIDs in turn, three runs on the idle machine,
// 2026-11-29, go test -c, then the binary with -test.run '^$' -test.bench
// 'PostFilterNominated/(DefaultPreemption|LeastWorkLostPreemption)$|PostFilter/nodes=5000/(DefaultPreemption|LeastWorkLostPreemption)$'
// -test.benchtime 64x -test.benchmem): with start times, 1.1–1.4 ms
// (1.7–2.3 ms of CPU, 349–387 allocations) against DefaultPreemption's
// 5.5–6.1 ms (10.4–11.6 ms, 45,223); with the 1,500 nominated
// preemptors, 2.5–2.9 ms (3.9–4.4 ms, about 5,500) against 10.7–11.2 ms
// (20.4–21.7 ms, about 73,000). Before the window it ran the same 500 dry
// runs as DefaultPreemption, plus its victim order, record and event:
// 10.7–11.5 ms against 9.9–11.1 ms in the nominated state.
//
// # Enabling
//
// Enable it under multiPoint (it is a PostFilter plugin and, for
// asynchronous preemption, a PreEnqueue plugin that holds the preemptor back
// while its victims are evicted) and disable DefaultPreemption. The plugin
// does not preempt for pod groups (the GenericWorkload feature, off by
// default in 1.37): a profile that schedules them should keep
// DefaultPreemption enabled at podGroupPostFilter.
package leastworklost

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/words"
)

// Name is the plugin's name in the registry and in configurations.
const Name = "LeastWorkLostPreemption"

// LeastWorkLostPreemption is the LeastWorkLostPreemption plugin.
type LeastWorkLostPreemption struct {
	fh        fwk.Handle
	args      *Args
	clock     clock.PassiveClock
	dp        *defaultpreemption.DefaultPreemption
	evaluator *preemption.Evaluator

	// now is the time of the preemption in progress, at which every pod's
	// run time is read. PostFilter runs in the scheduling cycle, one pod at
	// a time, and sets it for the duration of one Preempt call; the dry
	// runs' victim order (moreImportant) and the node order read it.
	now atomic.Pointer[time.Time]

	// victims remembers, per preemptor UID, the victims of its last
	// preemption until the scheduler's snapshot no longer holds them, and
	// evicted the victims whose deletion the API server has accepted, until
	// the informer reports them gone.
	victims sync.Map // types.UID → []*v1.Pod
	evicted sync.Map // types.UID → struct{}
	// nominatedRequests keeps nominated pods' requests (nominatedOn)
	// until they are bound or gone.
	nominatedRequests sync.Map // types.UID → requestEntry
	pods              corelisters.PodLister

	// exhaustive is whether the preemption in progress dry-runs every
	// node where preemption may help (GetOffsetAndNumCandidates), so that
	// a node may be skipped by its bound (lowerKey). unbounded turns the
	// bound off (tests compare the two).
	exhaustive atomic.Bool
	unbounded  bool
	// rec is the record of the preemption in progress, set by PostFilter
	// for GetOffsetAndNumCandidates (the preemptor's UID) and
	// OrderedScoreFuncs (the keys it holds).
	rec atomic.Pointer[record]
	// podGroups is whether victims may be pod groups (the GenericWorkload
	// feature), which narrow does not bound.
	podGroups bool
}

var (
	_ fwk.PostFilterPlugin  = (*LeastWorkLostPreemption)(nil)
	_ fwk.PreEnqueuePlugin  = (*LeastWorkLostPreemption)(nil)
	_ fwk.EnqueueExtensions = (*LeastWorkLostPreemption)(nil)
	_ preemption.Interface  = evaluatorInterface{}
)

// Build makes the plugin on the scheduler's handle (the factory.Build of
// the registry): kube's DefaultPreemption with the victim order, node order
// and reporting described in the package doc.
func Build(ctx context.Context, args *Args, h fwk.Handle, env factory.Env) (fwk.Plugin, error) {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	dp, err := defaultpreemption.New(ctx, &config.DefaultPreemptionArgs{
		MinCandidateNodesPercentage: *args.MinCandidateNodesPercentage,
		MinCandidateNodesAbsolute:   *args.MinCandidateNodesAbsolute,
	}, h, fts)
	if err != nil {
		return nil, err
	}
	pl := &LeastWorkLostPreemption{fh: h, args: args, clock: env.Clock, dp: dp, podGroups: fts.EnableGenericWorkload}
	dp.MoreImportantVictim = pl.moreImportant
	evict := dp.Executor.PreemptPod
	dp.Executor.PreemptPod = func(ctx context.Context, cand preemption.Candidate, preemptor preemption.ExecutorPreemptor, victim *v1.Pod, pluginName string) (bool, error) {
		if p := corev1helpers.PodPriority(victim); p >= preemptor.Priority() {
			return false, fmt.Errorf("%s: refusing to evict %s/%s: its priority %d is not below the preemptor's %d", Name, victim.Namespace, victim.Name, p, preemptor.Priority())
		}
		inMemory, err := evict(ctx, cand, preemptor, victim, pluginName)
		if err == nil && !inMemory {
			pl.evicted.Store(victim.UID, struct{}{})
		}
		return inMemory, err
	}
	pl.evaluator = preemption.NewEvaluator(Name, h, evaluatorInterface{dp, pl}, dp.Executor)
	pl.pods = h.SharedInformerFactory().Core().V1().Pods().Lister()
	if _, err := h.SharedInformerFactory().Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) { pl.podUpdated(obj) },
		DeleteFunc: pl.podDeleted,
	}); err != nil {
		return nil, err
	}
	registerMetrics()
	return pl, nil
}

// Name returns Name.
func (pl *LeastWorkLostPreemption) Name() string { return Name }

// PreEnqueue holds a preemptor back while its victims are being evicted
// (asynchronous preemption), as DefaultPreemption does.
func (pl *LeastWorkLostPreemption) PreEnqueue(ctx context.Context, p *v1.Pod) *fwk.Status {
	return pl.dp.PreEnqueue(ctx, p)
}

// EventsToRegister is DefaultPreemption's.
func (pl *LeastWorkLostPreemption) EventsToRegister(ctx context.Context) ([]fwk.ClusterEventWithHint, error) {
	return pl.dp.EventsToRegister(ctx)
}

// PostFilter preempts for pod (see the package doc).
func (pl *LeastWorkLostPreemption) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	defer schedmetrics.PreemptionAttempts.Inc()
	if msg := pl.victimLeaving(pod); msg != "" {
		return nil, fwk.NewStatus(fwk.Unschedulable, "preemption: "+msg)
	}
	now := pl.clock.Now()
	pl.now.Store(&now)
	defer pl.now.Store(nil)
	rec := &record{nodes: map[string]nodeVictims{}, now: now, uid: pod.UID, bound: !pl.unbounded && !preemptingExtender(pl.fh)}
	state.Write(recordKey, rec)
	pl.rec.Store(rec)
	defer pl.rec.Store(nil)

	result, status := pl.evaluator.Preempt(ctx, state, pod, potentialNodes{NodeToStatusReader: m, ctx: ctx, pl: pl, state: state, pod: pod, rec: rec})
	if status.IsSuccess() && result != nil && result.NominatingInfo != nil && result.NominatedNodeName != "" {
		victims := pl.report(ctx, pod, result.NominatedNodeName, rec, now)
		pl.victims.Store(pod.UID, victims)
	}
	if msg := status.Message(); msg != "" {
		return result, fwk.NewStatus(status.Code(), "preemption: "+msg)
	}
	return result, status
}

// victimLeaving returns why pod must not preempt again yet: a victim of its
// previous preemption is leaving (the API server accepted its deletion, or
// no longer has it, or is deleting it) but the scheduler's snapshot still
// holds it, so a new dry run would pick victims to replace one that is
// already going. Its removal from the snapshot requeues the pod. A victim
// whose eviction failed does not hold the pod back.
func (pl *LeastWorkLostPreemption) victimLeaving(pod *v1.Pod) string {
	v, ok := pl.victims.Load(pod.UID)
	if !ok {
		return ""
	}
	for _, victim := range v.([]*v1.Pod) {
		n, err := pl.fh.SnapshotSharedLister().NodeInfos().Get(victim.Spec.NodeName)
		if err != nil || !slices.ContainsFunc(n.GetPods(), func(pi fwk.PodInfo) bool { return pi.GetPod().UID == victim.UID }) {
			continue
		}
		_, leaving := pl.evicted.Load(victim.UID)
		if cur, err := pl.pods.Pods(victim.Namespace).Get(victim.Name); err != nil || cur.UID != victim.UID || cur.DeletionTimestamp != nil {
			leaving = true
		}
		if leaving {
			return fmt.Sprintf("waiting for preempted pod %s/%s to leave node %s", victim.Namespace, victim.Name, victim.Spec.NodeName)
		}
	}
	pl.victims.Delete(pod.UID)
	return ""
}

// moreImportant is the victim order given to DefaultPreemption's
// SelectVictimsOnNode: higher priority first, then later in preempt.GP's
// order (older pods are more important, kept first), compared pod by pod
// (compareRecency), so a dry run costs no more than sorting its node's
// victims. Pod groups, and a comparison outside a preemption, fall back to
// kube's MoreImportantVictim.
func (pl *LeastWorkLostPreemption) moreImportant(a, b preemption.Victim) bool {
	if a.Priority() != b.Priority() {
		return a.Priority() > b.Priority()
	}
	if now := pl.now.Load(); now != nil && len(a.Pods()) == 1 && len(b.Pods()) == 1 {
		if c, err := compareRecency(a.Pods()[0].GetPod(), b.Pods()[0].GetPod(), *now); err == nil {
			return c > 0
		}
	}
	return preemption.MoreImportantVictim(a, b)
}

// evaluatorInterface is DefaultPreemption with LeastWorkLost's candidate
// count, node order and victim recording.
type evaluatorInterface struct {
	*defaultpreemption.DefaultPreemption
	pl *LeastWorkLostPreemption
}

// GetOffsetAndNumCandidates dry-runs Args.NumCandidates of the n potential
// nodes: every one from the first, or fewer from the preemptor's offset
// (offsetOf), the scan wrapping around as kube's does. When the potential
// nodes are the preemptor's window narrowed (narrowWindow), it dry-runs
// every one.
func (e evaluatorInterface) GetOffsetAndNumCandidates(n int32) (int32, int32) {
	r := e.pl.rec.Load()
	c := e.pl.args.NumCandidates(n)
	if r != nil && r.window {
		c = n // the window's nodes that may be chosen, every one dry-run
	}
	e.pl.exhaustive.Store(c == n)
	if c == n {
		return 0, c
	}
	var uid types.UID
	if r != nil {
		uid = r.uid
	}
	return offsetOf(uid, n), c
}

// offsetOf is where a scan of fewer than all n > 0 potential nodes starts
// for the preemptor of that UID: its 32-bit FNV-1a hash modulo n.
// DefaultPreemption draws the offset at random so that preemptors do not
// all dry-run, and nominate, the same first nodes (the snapshot lists the
// nodes in one fixed order); a hash of the UID spreads them alike, and a
// preemptor tried again starts where it started before.
func offsetOf(uid types.UID, n int32) int32 {
	h := fnv.New32a()
	h.Write([]byte(uid))
	return int32(h.Sum32() % uint32(n))
}

// SelectVictimsOnNode is DefaultPreemption's, with the victim order of
// moreImportant; it records the victims for the report. When every
// potential node (or every node of the narrowed window) is dry-run and no
// extender takes part in preemption, a node whose bound (lowerKey) comes
// after a candidate already found is not dry-run: it cannot be chosen.
func (e evaluatorInterface) SelectVictimsOnNode(ctx context.Context, state fwk.CycleState, preemptor *v1.Pod, nodeInfo fwk.NodeInfo,
	victims []*preemption.DomainVictim, pdbs []*policy.PodDisruptionBudget) ([]*v1.Pod, int, *fwk.Status) {
	var rec *record
	if d, err := state.Read(recordKey); err == nil {
		rec = d.(*record)
	}
	if rec != nil && rec.bound && e.pl.exhaustive.Load() {
		nominated := func() nominatedLoad { return e.pl.nominatedOn(nodeInfo.Node().Name, preemptor) }
		if best, beaten := rec.beatsNode(state, preemptor, nodeInfo, victims, nominated); beaten {
			return nil, 0, fwk.NewStatus(fwk.Unschedulable, fmt.Sprintf("preemption here cannot rank before node %s", best))
		}
	}
	pods, violations, status := e.DefaultPreemption.SelectVictimsOnNode(ctx, state, preemptor, nodeInfo, victims, pdbs)
	if rec != nil && status.IsSuccess() && len(pods) > 0 {
		rec.add(nodeInfo.Node().Name, pods, violations)
	}
	return pods, violations, status
}

// preemptingExtender reports whether a scheduler extender takes part in
// preemption: it may drop candidates after the dry runs, so every node
// must be dry-run.
func preemptingExtender(fh fwk.Handle) bool {
	return slices.ContainsFunc(fh.Extenders(), fwk.Extender.SupportsPreemption)
}

// OrderedScoreFuncs orders candidate nodes: fewest PDB violations, lowest
// highest victim priority, least work lost, fewest victims, node name.
func (e evaluatorInterface) OrderedScoreFuncs(_ context.Context, nodesToVictims map[string]*extenderv1.Victims) []func(string) int64 {
	now := e.pl.clock.Now()
	if p := e.pl.now.Load(); p != nil {
		now = *p
	}
	rec := e.pl.rec.Load()
	names := make([]string, 0, len(nodesToVictims))
	keys := make(map[string]nodeKey, len(nodesToVictims))
	for n, v := range nodesToVictims {
		names = append(names, n)
		keys[n] = rec.keyOf(n, v, now)
	}
	slices.Sort(names)
	return []func(string) int64{
		func(n string) int64 { return -keys[n].violations },
		func(n string) int64 { return -int64(keys[n].highest) },
		func(n string) int64 { return -keys[n].workLost },
		func(n string) int64 { return -int64(keys[n].victims) },
		func(n string) int64 { i, _ := slices.BinarySearch(names, n); return -int64(i) },
	}
}

// millis converts seconds to whole milliseconds, saturating.
func millis(s float64) int64 {
	if !(s < math.MaxInt64/1000) {
		return math.MaxInt64
	}
	return int64(math.Round(s * 1000))
}

// record collects, per candidate node, the victims SelectVictimsOnNode chose
// during one PostFilter, and the candidate that comes first so far. It is
// shared by the clones of the cycle state the dry runs use, and written
// from their goroutines.
type record struct {
	mu    sync.Mutex
	nodes map[string]nodeVictims
	now   time.Time
	uid   types.UID // the preemptor's

	// bound is whether nodes may be skipped by their lowerKey; window
	// is whether the potential nodes were narrowed to the preemptor's
	// window (narrowWindow), all of them to dry-run; best is the first
	// candidate in the node order so far (when have), and skipped counts
	// the nodes skipped.
	bound  bool
	window bool
	// bounds are the lowerKeys computed before the dry runs (keep and
	// narrow), by node name: written before the dry runs start, then
	// only read.
	bounds  map[string]nodeKey
	have    bool
	best    nodeKey
	skipped int
}

type nodeVictims struct {
	pods     []*v1.Pod
	key      nodeKey // keyOf the victims
	workLost float64 // their work lost in seconds (sumWorkLost)
}

const recordKey fwk.StateKey = Name + "/victims"

func (r *record) Clone() fwk.StateData { return r }

func (r *record) add(node string, pods []*v1.Pod, violations int) {
	v := victimsOf(node, pods, int64(violations), r.now)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nodes[node] = v
	r.offer(v.key)
}

// keyOf is the key of the victims v on node: the one add computed when v
// holds the victims recorded there (the Evaluator hands back the slice
// SelectVictimsOnNode returned), else computed at r's time. r may be nil.
func (r *record) keyOf(node string, v *extenderv1.Victims, now time.Time) nodeKey {
	if r != nil {
		r.mu.Lock()
		got, ok := r.nodes[node]
		r.mu.Unlock()
		if ok && got.key.violations == v.NumPDBViolations && sameSlice(got.pods, v.Pods) && now.Equal(r.now) {
			return got.key
		}
	}
	return keyOf(node, v.Pods, v.NumPDBViolations, now)
}

// sameSlice reports whether a and b are the same slice: the same length
// and, when not empty, the same first element in memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// offer makes k the best so far when it comes first; r.mu is held.
func (r *record) offer(k nodeKey) {
	if !r.have || k.compare(r.best) < 0 {
		r.have, r.best = true, k
	}
}

// narrowed records nodes skipped before the dry runs (narrow) and best,
// the key of a candidate among the nodes kept.
func (r *record) narrowed(skipped int, best nodeKey) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped += skipped
	r.offer(best)
}

// beatsNode is beats for the bound of nodeInfo (lowerKey), when it has
// one: the one computed before the dry runs (r.bounds), else computed
// now; nominated (nominatedOn, a look-up in the scheduler's queue) is
// called only once a candidate is known and the node can be bounded.
func (r *record) beatsNode(state fwk.CycleState, preemptor *v1.Pod, nodeInfo fwk.NodeInfo, victims []*preemption.DomainVictim, nominated func() nominatedLoad) (string, bool) {
	r.mu.Lock()
	have := r.have
	r.mu.Unlock()
	if !have {
		return "", false
	}
	if k, ok := r.bounds[nodeInfo.Node().Name]; ok {
		return r.beats(k)
	}
	prio := corev1helpers.PodPriority(preemptor)
	pods, ok := lowerPods(nodeInfo, prio, victims)
	if !ok {
		return "", false
	}
	lower, ok := lowerKey(nodeInfo, prio, pods, nominated(), requestOf(state, preemptor), r.now, nil)
	if !ok {
		return "", false
	}
	return r.beats(lower)
}

// beats reports whether a candidate found so far comes before lower, the
// bound of a node yet to dry-run (counting the node as skipped), and
// names that candidate.
func (r *record) beats(lower nodeKey) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.have || lower.compare(r.best) <= 0 {
		return "", false
	}
	r.skipped++
	return r.best.node, true
}

// report writes the event and observes the metrics for a preemption that
// chose node, and returns its victims.
func (pl *LeastWorkLostPreemption) report(ctx context.Context, pod *v1.Pod, node string, rec *record, now time.Time) []*v1.Pod {
	rec.mu.Lock()
	chosen := rec.nodes[node].pods
	others := make([]Candidate, 0, len(rec.nodes))
	for n, v := range rec.nodes {
		if n != node {
			others = append(others, candidate(n, v))
		}
	}
	c := candidate(node, rec.nodes[node])
	c.Victims = make([]string, len(chosen))
	for i, p := range chosen {
		c.Victims[i] = fmt.Sprintf("%s/%s (%s)", p.Namespace, p.Name, words.Seconds(workLost(p, now)))
	}

	skipped := rec.skipped
	rec.mu.Unlock()

	pl.fh.EventRecorder().Eventf(pod, nil, v1.EventTypeNormal, Name, "Preempting", EventMessage(c, others, skipped))
	klog.FromContext(ctx).V(2).Info("Least-work-lost preemption", "pod", klog.KObj(pod), "node", node, "victims", len(chosen), "workLostSeconds", c.WorkLost)

	profile := pl.fh.ProfileName()
	WorkLostSeconds.WithLabelValues(profile).Observe(c.WorkLost)
	WorkLostSecondsTotal.WithLabelValues(profile).Add(c.WorkLost)
	VictimsTotal.WithLabelValues(profile).Add(float64(len(chosen)))
	return chosen
}

// candidate summarises the victims chosen on one node for the event,
// without their names (the event names the chosen node's only).
func candidate(node string, v nodeVictims) Candidate {
	return Candidate{Node: node, NumVictims: v.key.victims, Violations: v.key.violations, HighestPriority: v.key.highest, WorkLost: v.workLost}
}
