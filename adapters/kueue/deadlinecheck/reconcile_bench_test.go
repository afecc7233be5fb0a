package deadlinecheck

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// BenchmarkReconcilePass drives the controller's ClusterQueue reconciler
// (Reconcile, as the manager calls it, with Setup's defaults but no
// arrivals: 1,000 samples, -eta-interval 5 s, -eta-slice 250,000,
// -eta-arrivals=false, the ETA writer) through
// whole ETA passes over the ClusterQueue of benchObjects(n): every
// reconcile a pass needs, asked again etaSlicePause after each as the
// controller's requeue asks, until its ETAs land; then the ETA writer,
// without its budget, until every ETA it was handed is written. The API
// is controller-runtime's fake client with the Workload reads answered as
// the manager's cache answers them (cachedClient); the clock runs with
// the wall clock from t0. "first" is the ClusterQueue's first pass after
// the controller starts (every pending workload's ETA is new: two writes
// each), "next" the pass DefaultETAInterval later (most ETAs moved by
// less than the tolerance: a few writes). Per pass: reconciles, the CPU
// time (the process's, getrusage; nothing else runs while they do) and
// the wall time of each reconcile (p50, max), their CPU time in all
// ("cpu-s"), the pass's wall time from its first reconcile's start to
// its last one's end ("pass-s", the 10 ms pauses included), its
// allocations per reconcile, then the writer's wall time and writes;
// "land-s" is the pass's wall time plus the writer's.
// api-heap is the live heap with the objects in the fake client and the
// cache stand-in, before the first reconcile; check-heap what it holds
// more when the first pass has landed, before any ETA is written (the
// check's kept views, plans, samples, ETA scratch and memories, the
// writer's tasks); maxrss the process's peak resident memory.
func BenchmarkReconcilePass(b *testing.B) {
	for _, n := range []int{1000, 15000} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var first, next passFigures
			var api uint64
			for b.Loop() {
				b.StopTimer()
				g := newBenchRig(b, n)
				api = liveHeap()
				b.StartTimer()
				first = g.pass(b, "cq")
				g.clock.add(DefaultETAInterval)
				next = g.pass(b, "cq")
			}
			first.report(b, "first")
			next.report(b, "next")
			b.ReportMetric(float64(api)/(1<<20), "api-heap-MB")
			b.ReportMetric((float64(first.heap)-float64(api))/(1<<20), "check-heap-MB")
			b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MB")
		})
	}
}

// passFigures are one ETA pass's measurements (BenchmarkReconcilePass).
type passFigures struct {
	cpu, wall     []time.Duration // per reconcile
	pass          time.Duration   // first reconcile's start to the last's end
	allocs, bytes uint64          // over the pass's reconciles
	write         time.Duration   // the writer until every ETA is written
	heap          uint64          // live heap once the pass landed
	writes        int64
}

func (f passFigures) report(b *testing.B, name string) {
	q := func(xs []time.Duration, p float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return float64(s[int(p*float64(len(s)-1))]) / 1e6
	}
	n := float64(len(f.cpu))
	b.ReportMetric(n, name+"-reconciles")
	b.ReportMetric(q(f.cpu, 0.5), name+"-cpu-ms-p50")
	b.ReportMetric(q(f.cpu, 1), name+"-cpu-ms-max")
	b.ReportMetric(q(f.wall, 0.5), name+"-wall-ms-p50")
	b.ReportMetric(q(f.wall, 1), name+"-wall-ms-max")
	var cpu time.Duration
	for _, c := range f.cpu {
		cpu += c
	}
	b.ReportMetric(cpu.Seconds(), name+"-cpu-s")
	b.ReportMetric(f.pass.Seconds(), name+"-pass-s")
	b.ReportMetric(float64(f.allocs)/n, name+"-allocs/reconcile")
	b.ReportMetric(float64(f.bytes)/n/(1<<20), name+"-MB/reconcile")
	b.ReportMetric(float64(f.writes), name+"-writes")
	b.ReportMetric(f.write.Seconds(), name+"-write-s")
	b.ReportMetric((f.pass + f.write).Seconds(), name+"-land-s")
}

// runClock runs with the wall clock from a start time; add moves it on.
type runClock struct {
	mu    sync.Mutex
	base  time.Time
	start time.Time
}

func (c *runClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.Add(time.Since(c.start))
}

func (c *runClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

func (c *runClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base = c.base.Add(d)
}

type noEvents struct{}

func (noEvents) Eventf(kruntime.Object, kruntime.Object, string, string, string, string, ...interface{}) {
}

type benchRig struct {
	r      *queueReconciler
	clock  *runClock
	writes atomic.Int64
}

// newBenchRig is benchRigOver benchObjects(n)'s ClusterQueue, its
// LocalQueue, check and parameters.
func newBenchRig(tb testing.TB, n int) *benchRig {
	wls, quota, p := benchObjects(n)
	objs := append(benchCQ("cq", "lq", quota), benchCheck(p)...)
	for _, wl := range wls {
		objs = append(objs, wl.DeepCopy())
	}
	return benchRigOver(tb, objs)
}

// benchCQ is a ClusterQueue of quota behind the check and its
// LocalQueue ns/lq.
func benchCQ(cq, lq string, quota corev1.ResourceList) []client.Object {
	return []client.Object{
		&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: cq}, Spec: kueue.ClusterQueueSpec{
			ResourceGroups: []kueue.ResourceGroup{{CoveredResources: []corev1.ResourceName{"cpu", "memory"}, Flavors: []kueue.FlavorQuotas{
				{Name: "default", Resources: []kueue.ResourceQuota{{Name: "cpu", NominalQuota: quota["cpu"]}, {Name: "memory", NominalQuota: quota["memory"]}}}}}},
			AdmissionChecksStrategy: &kueue.AdmissionChecksStrategy{AdmissionChecks: []kueue.AdmissionCheckStrategyRule{{Name: testCheck}}},
		}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: lq}, Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}},
	}
}

// benchCheck is the check with parameters p.
func benchCheck(p *v1alpha1.DeadlineParameters) []client.Object {
	return []client.Object{
		&kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: string(testCheck)}, Spec: kueue.AdmissionCheckSpec{
			ControllerName: ControllerName,
			Parameters:     &kueue.AdmissionCheckParametersReference{APIGroup: "schedkit.io", Kind: "DeadlineParameters", Name: p.Name},
		}},
		p,
	}
}

// benchRigOver is the reconciler as Setup makes it, but without
// arrivals, over cachedClient of objs; its ETA writer counts the
// workloads it wrote to and is not running.
func benchRigOver(tb testing.TB, objs []client.Object) *benchRig {
	m, err := NewMetrics(prometheus.NewRegistry())
	if err != nil {
		tb.Fatal(err)
	}
	clk := &runClock{base: t0, start: time.Now()}
	c := cachedClient(tb, objs...)
	g := &benchRig{clock: clk}
	g.r = &queueReconciler{
		client: c, recorder: noEvents{}, clock: clk, cfg: DefaultConfig(), metrics: m, cache: NewWorkCache(),
		refresh: 30 * time.Second, tol: 30 * time.Second, etaEvery: DefaultETAInterval, etaSlice: DefaultETASliceStarts,
		written: map[types.UID][]string{}, badKinds: map[schema.GroupVersionKind]badKind{},
	}
	g.r.etaWriter = newETAWriter(g.r, -1)
	g.r.etaWriter.write = func(ctx context.Context, t etaTask, wait func(context.Context) bool) (bool, error) {
		wrote, err := g.r.actETA(ctx, t, wait)
		if wrote {
			g.writes.Add(1)
		}
		return wrote, err
	}
	g.r.rejectionWriter = newRejectionWriter(g.r)
	return g
}

// pass reconciles the ClusterQueues, one after the other, each again
// etaSlicePause after a round while its ETA pass is in progress, until
// every one's pass has started and landed, then runs the ETA writer
// until it has written every ETA.
func (g *benchRig) pass(b *testing.B, cqs ...string) passFigures {
	var f passFigures
	ctx := logr.NewContext(context.Background(), logr.Discard())
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for len(cqs) > 0 {
		var more []string
		for _, cq := range cqs {
			req := reconcile.Request{NamespacedName: types.NamespacedName{Name: cq}}
			c0, w0 := cpuTime(), time.Now()
			res, err := g.r.Reconcile(ctx, req)
			f.wall = append(f.wall, time.Since(w0))
			f.cpu = append(f.cpu, cpuTime()-c0)
			if err != nil {
				b.Fatal(err)
			}
			if res.RequeueAfter == etaSlicePause {
				more = append(more, cq)
			} else if sc := g.r.etaScratchOf(etaPassKey{queue: cq, check: testCheck}); sc.inProgress() {
				b.Fatalf("ClusterQueue %s: the pass did not land", cq)
			}
		}
		if cqs = more; len(cqs) > 0 {
			time.Sleep(etaSlicePause)
		}
	}
	f.pass = time.Since(start)
	runtime.ReadMemStats(&ms1)
	f.allocs, f.bytes = ms1.Mallocs-ms0.Mallocs, ms1.TotalAlloc-ms0.TotalAlloc
	f.heap = liveHeap()

	w0 := g.writes.Load()
	f.write = drainWriter(g.r.etaWriter)
	f.writes = g.writes.Load() - w0
	return f
}

// drainWriter runs e until it holds no task and writes none, and returns
// how long that took.
func drainWriter(e *etaWriter) time.Duration {
	ctx, cancel := context.WithCancel(logr.NewContext(context.Background(), logr.Discard()))
	done := make(chan struct{})
	start := time.Now()
	go func() { _ = e.Start(ctx); close(done) }()
	for {
		e.mu.Lock()
		left := len(e.tasks) + len(e.writing)
		e.mu.Unlock()
		if left == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	took := time.Since(start)
	cancel()
	<-done
	return took
}

// liveHeap is the heap in use after a garbage collection, bytes.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// maxRSS is the process's peak resident memory, bytes.
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}
