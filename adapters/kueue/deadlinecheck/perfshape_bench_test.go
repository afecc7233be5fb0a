package deadlinecheck

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// BenchmarkReconcilePerfShape is BenchmarkReconcilePass over the shape of
// Kueue's scheduler-performance test (the classes of ../e2e/perf_test.go):
// 5 cohorts × 6 ClusterQueues of 20 cpu (their borrowing is not the
// check's capacity), each with 500 one-pod workloads: 350 small (1 cpu,
// 200 ms, priority 50, created 100 ms apart), 100 medium (5 cpu, 500 ms,
// priority 100, 500 ms apart) and 50 large (20 cpu, 1 s, priority 200,
// 1.2 s apart), each with a deadline an hour away and its run time
// (schedkit.io/runtime); 20 small ones admitted and running, the rest
// waiting. Each round reconciles every ClusterQueue whose pass is in
// progress, until all 30 passes have landed.
func BenchmarkReconcilePerfShape(b *testing.B) {
	b.ReportAllocs()
	var first, next passFigures
	var cqs []string
	for b.Loop() {
		b.StopTimer()
		var objs []client.Object
		objs, cqs = perfShapeObjects()
		g := benchRigOver(b, objs)
		b.StartTimer()
		first = g.pass(b, cqs...)
		g.clock.add(DefaultETAInterval)
		next = g.pass(b, cqs...)
	}
	first.report(b, "first")
	next.report(b, "next")
}

// perfShapeObjects are the objects of BenchmarkReconcilePerfShape and its
// ClusterQueues' names.
func perfShapeObjects() ([]client.Object, []string) {
	classes := []struct {
		name    string
		count   int
		cpu     string
		run     time.Duration
		prio    int32
		every   time.Duration
		running int
	}{
		{"small", 350, "1", 200 * time.Millisecond, 50, 100 * time.Millisecond, 20},
		{"medium", 100, "5", 500 * time.Millisecond, 100, 500 * time.Millisecond, 0},
		{"large", 50, "20", time.Second, 200, 1200 * time.Millisecond, 0},
	}
	objs := benchCheck(params(v1alpha1.DeadlineParametersSpec{}))
	var cqs []string
	for co := range 5 {
		for q := range 6 {
			cq := fmt.Sprintf("cohort%d-cq%d", co, q)
			cqs = append(cqs, cq)
			objs = append(objs, benchCQ(cq, "lq-"+cq, rl("cpu", "20", "memory", "1Ti"))...)
			for _, c := range classes {
				for k := range c.count {
					running := k < c.running
					state := kueue.CheckStatePending
					if running {
						state = kueue.CheckStateReady
					}
					w := wl(fmt.Sprintf("%s-%s-%d", cq, c.name, k), 1, state, running, map[string]string{
						DeadlineAnnotation: formatTime(t0.Add(time.Hour)), RuntimeAnnotation: c.run.String(),
					})
					w.UID = types.UID(w.Name)
					w.Spec.QueueName = kueue.LocalQueueName("lq-" + cq)
					w.Spec.Priority = new(c.prio)
					w.Spec.PodSets = []kueue.PodSet{podSet("main", 1, c.cpu, "1Gi")}
					w.CreationTimestamp = metav1.NewTime(t0.Add(-time.Duration(c.count-k) * c.every))
					if running {
						w.Status.Admission.ClusterQueue = kueue.ClusterQueueReference(cq)
						w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0.Add(-100*time.Millisecond)))
					}
					objs = append(objs, w)
				}
			}
		}
	}
	return objs, cqs
}
