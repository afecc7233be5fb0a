package leastworklost

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	clientsetfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	tf "k8s.io/kubernetes/pkg/scheduler/testing/framework"
	"k8s.io/utils/ptr"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	clocktesting "k8s.io/utils/clock/testing"
)

// preemptionCluster is the scheduler_perf Preemption workload's state when
// a preemptor is tried: nodes of 4 CPUs, each holding four low-priority
// pods of 0.9 CPU started at different times, and a preemptor of priority
// 10 asking for 3 CPUs, so that every node is a candidate and each needs
// three victims.
type preemptionCluster struct {
	nodes     []*v1.Node
	pods      []*v1.Pod
	preemptor *v1.Pod
	statuses  *framework.NodeToStatus
	// nominated are pending pods nominated to the node their
	// status.nominatedNodeName names.
	nominated []*v1.Pod
}

func newPreemptionCluster(n int) preemptionCluster {
	cpu := func(m int64) v1.ResourceList {
		return v1.ResourceList{v1.ResourceCPU: *resource.NewMilliQuantity(m, resource.DecimalSI), v1.ResourceMemory: resource.MustParse("500Mi")}
	}
	var c preemptionCluster
	byNode := map[string]*fwk.Status{}
	for i := range n {
		name := fmt.Sprintf("node-%04d", i)
		c.nodes = append(c.nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{
			Capacity:    v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("32Gi"), v1.ResourcePods: resource.MustParse("110")},
			Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("32Gi"), v1.ResourcePods: resource.MustParse("110")},
		}})
		byNode[name] = fwk.NewStatus(fwk.Unschedulable, "Insufficient cpu")
		for j := range 4 {
			p := fmt.Sprintf("low-%04d-%d", i, j)
			c.pods = append(c.pods, &v1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: p, Namespace: "ns", UID: types.UID(p)},
				Spec:       v1.PodSpec{NodeName: name, Priority: ptr.To[int32](0), Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: cpu(900)}}}},
				Status:     v1.PodStatus{Phase: v1.PodRunning, StartTime: ptr.To(metav1.NewTime(t0.Add(-time.Duration((i*4+j)*7%3600) * time.Second)))},
			})
		}
	}
	c.preemptor = &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "high", Namespace: "ns", UID: "high"},
		Spec:       v1.PodSpec{Priority: ptr.To[int32](10), Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: cpu(3000)}}}},
	}
	c.statuses = framework.NewNodeToStatus(byNode, fwk.NewStatus(fwk.UnschedulableAndUnresolvable))
	return c
}

// unstarted clears every pod's start time, as scheduler_perf's pods have
// none (run time 0: every node loses 0 s).
func (c preemptionCluster) unstarted() {
	for _, p := range c.pods {
		p.Status.StartTime = nil
	}
}

// nominateEarlier puts c in the state of the Preemption workload after n
// preemptions of its first n nodes: their victims gone (one low pod left
// of four) and a preemptor like c's nominated to each, waiting in the
// queue.
func (c *preemptionCluster) nominateEarlier(n int) {
	c.pods = slices.DeleteFunc(c.pods, func(p *v1.Pod) bool {
		var node, pod int
		_, err := fmt.Sscanf(p.Name, "low-%04d-%d", &node, &pod)
		return err == nil && node < n && pod > 0
	})
	for i := range n {
		p := c.preemptor.DeepCopy()
		p.Name, p.UID = fmt.Sprintf("earlier-%d", i), types.UID(fmt.Sprintf("earlier-%d", i))
		p.Status.NominatedNodeName = fmt.Sprintf("node-%04d", i)
		c.nominated = append(c.nominated, p)
	}
}

// handle builds a scheduling framework on the cluster's snapshot, with
// NodeResourcesFit as the only Filter, and the cycle state of the
// preemptor after PreFilter.
func (c preemptionCluster) handle(tb testing.TB, ctx context.Context) (framework.Framework, fwk.CycleState) {
	cs := clientsetfake.NewClientset()
	inf := informers.NewSharedInformerFactory(cs, 0)
	store := inf.Core().V1().Pods().Informer().GetStore()
	for _, p := range append(append([]*v1.Pod{c.preemptor}, c.pods...), c.nominated...) {
		if err := store.Add(p); err != nil {
			tb.Fatal(err)
		}
	}
	queue := internalqueue.NewSchedulingQueue((&queuesort.PrioritySort{}).Less, inf)
	for _, p := range c.nominated {
		pi, err := framework.NewPodInfo(p)
		if err != nil {
			tb.Fatal(err)
		}
		// In the queue, as a preemptor waiting for its victims to leave is:
		// the nominator gives its pod in full only then.
		queue.Add(ctx, p)
		queue.AddNominatedPod(klog.FromContext(ctx), pi, &fwk.NominatingInfo{NominatingMode: fwk.ModeOverride, NominatedNodeName: p.Status.NominatedNodeName})
	}
	snapshot := internalcache.NewSnapshot(c.pods, c.nodes)
	f, err := tf.NewFramework(ctx, []tf.RegisterPluginFunc{
		tf.RegisterQueueSortPlugin(queuesort.Name, queuesort.New),
		tf.RegisterPluginAsExtensions(noderesources.Name, frameworkruntime.FactoryAdapter(feature.Features{}, noderesources.NewFit), "Filter", "PreFilter"),
		tf.RegisterBindPlugin(defaultbinder.Name, defaultbinder.New),
	}, "",
		frameworkruntime.WithClientSet(cs),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
		frameworkruntime.WithInformerFactory(inf),
		frameworkruntime.WithPodNominator(queue),
		frameworkruntime.WithPodActivator(queue),
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithMutableSnapshotLister(snapshot),
		frameworkruntime.WithWaitingPods(frameworkruntime.NewWaitingPodsMap()),
		frameworkruntime.WithPodsInPreBind(frameworkruntime.NewPodsInPreBindMap()),
	)
	if err != nil {
		tb.Fatal(err)
	}
	state := framework.NewCycleState()
	if _, s, _ := f.RunPreFilterPlugins(ctx, state, c.preemptor); !s.IsSuccess() {
		tb.Fatal(s.AsError())
	}
	return f, state
}

// noEviction stands in for the executor's eviction (an API call made after
// PostFilter returns, in its own goroutine), so that the benchmark times
// the choice of node and victims.
func noEviction(context.Context, preemption.Candidate, preemption.ExecutorPreemptor, *v1.Pod, string) (bool, error) {
	return false, nil
}

// BenchmarkPostFilter times one PostFilter of LeastWorkLostPreemption and
// of DefaultPreemption on the same cluster (newPreemptionCluster), at the
// same candidate-node args (10% of the nodes, at least 100: kube's
// defaults), the eviction left out (noEviction); and of
// LeastWorkLostPreemption at its default of every node
// (LeastWorkLostPreemption-all), with the bound that skips nodes which
// cannot be chosen and without it.
func BenchmarkPostFilter(b *testing.B) {
	schedmetrics.Register()
	for _, n := range []int{100, 500, 5000} {
		c := newPreemptionCluster(n)
		b.Run(fmt.Sprintf("nodes=%d/DefaultPreemption", n), func(b *testing.B) {
			benchDefaultPreemption(b, c)
		})
		b.Run(fmt.Sprintf("nodes=%d/LeastWorkLostPreemption", n), func(b *testing.B) {
			benchLeastWorkLost(b, c, 10, true)
		})
		for _, bound := range []bool{true, false} {
			b.Run(fmt.Sprintf("nodes=%d/LeastWorkLostPreemption-all/bound=%v", n, bound), func(b *testing.B) {
				benchLeastWorkLost(b, c, 100, bound)
			})
		}
	}
}

// BenchmarkPostFilterNominated is BenchmarkPostFilter at 5,000 nodes
// without start times (scheduler_perf's pods) after 1,500 preemptions
// whose preemptors still wait, nominated (nominateEarlier): the bound
// looks up the nominated pods of every node (of the window's at
// DefaultPreemption's args, 10 %).
func BenchmarkPostFilterNominated(b *testing.B) {
	schedmetrics.Register()
	c := newPreemptionCluster(5000)
	c.unstarted()
	c.nominateEarlier(1500)
	b.Run("DefaultPreemption", func(b *testing.B) { benchDefaultPreemption(b, c) })
	b.Run("LeastWorkLostPreemption", func(b *testing.B) { benchLeastWorkLost(b, c, 10, true) })
	b.Run("LeastWorkLostPreemption-all", func(b *testing.B) { benchLeastWorkLost(b, c, 100, true) })
}

// benchDefaultPreemption runs benchPostFilter for DefaultPreemption at
// kube's default args (10 % of the nodes, at least 100).
func benchDefaultPreemption(b *testing.B, c preemptionCluster) {
	ctx := b.Context()
	f, state := c.handle(b, ctx)
	pl, err := defaultpreemption.New(ctx, &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100},
		f, feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
	if err != nil {
		b.Fatal(err)
	}
	pl.Executor.PreemptPod = noEviction
	benchPostFilter(b, ctx, pl, state, c)
}

// benchLeastWorkLost runs benchPostFilter for LeastWorkLostPreemption with
// minCandidateNodesPercentage percent (minCandidateNodesAbsolute 100), the
// bound on or off.
func benchLeastWorkLost(b *testing.B, c preemptionCluster, percent int32, bound bool) {
	ctx := b.Context()
	f, state := c.handle(b, ctx)
	pl := buildOn(b, ctx, f, percent)
	pl.unbounded = !bound
	benchPostFilter(b, ctx, pl, state, c)
}

// buildOn builds the plugin on f at t0 with minCandidateNodesPercentage
// percent (minCandidateNodesAbsolute 100), its evictions left out
// (noEviction).
func buildOn(tb testing.TB, ctx context.Context, f fwk.Handle, percent int32) *LeastWorkLostPreemption {
	return buildArgs(tb, ctx, f, &Args{MinCandidateNodesPercentage: &percent, MinCandidateNodesAbsolute: ptr.To[int32](100)})
}

// buildArgs is buildOn with args.
func buildArgs(tb testing.TB, ctx context.Context, f fwk.Handle, args *Args) *LeastWorkLostPreemption {
	p, err := Build(ctx, args, f, factory.NewEnv(clocktesting.NewFakePassiveClock(t0)))
	if err != nil {
		tb.Fatal(err)
	}
	pl := p.(*LeastWorkLostPreemption)
	pl.dp.Executor.PreemptPod = noEviction
	return pl
}

// benchPostFilter runs pl's PostFilter for the preemptor in a loop. Beside
// the wall time it reports the process's CPU time per PostFilter
// (cpu-ns/op, user and system, the dry runs' goroutines included), which a
// loaded machine inflates less than the wall time.
func benchPostFilter(b *testing.B, ctx context.Context, pl fwk.PostFilterPlugin, state fwk.CycleState, c preemptionCluster) {
	b.ReportAllocs()
	// Preemptors of 64 UIDs in turn, as a scheduler tries many: the scan
	// of LeastWorkLostPreemption below every node starts at the UID's
	// offset (offsetOf), DefaultPreemption's at a random one.
	preemptors := make([]*v1.Pod, 64)
	for i := range preemptors {
		preemptors[i] = c.preemptor.DeepCopy()
		preemptors[i].UID = types.UID(fmt.Sprintf("%s-%d", c.preemptor.UID, i))
	}
	start, n := cpuTime(b), 0
	for b.Loop() {
		r, s := pl.PostFilter(ctx, state.Clone(), preemptors[n%len(preemptors)], c.statuses)
		if !s.IsSuccess() || r == nil || r.NominatedNodeName == "" {
			b.Fatalf("PostFilter: %v, %v", r, s)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(n), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
