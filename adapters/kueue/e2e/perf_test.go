//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"
	workloadpatching "sigs.k8s.io/kueue/pkg/workload/patching"

	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

// perfClass is one workload class of Kueue's scheduler-performance shape
// (test/performance/scheduler, configs/baseline in the Kueue repository):
// per ClusterQueue, count workloads of one pod requesting cpu, created one
// every interval, running runFor once admitted, at a priority.
type perfClass struct {
	name     string
	count    int
	interval time.Duration
	runFor   time.Duration
	priority int32
	cpu      int64
}

// perfClasses is the baseline shape per ClusterQueue: 500 workloads.
var perfClasses = []perfClass{
	{"small", 350, 100 * time.Millisecond, 200 * time.Millisecond, 50, 1},
	{"medium", 100, 500 * time.Millisecond, 500 * time.Millisecond, 100, 5},
	{"large", 50, 1200 * time.Millisecond, time.Second, 200, 20},
}

// The baseline's queues: cohorts × ClusterQueues per cohort, each with
// nominal quota perfQuota cpu and a borrowing limit of perfBorrow cpu.
const (
	perfCohorts  = 5
	perfQueues   = 6
	perfQuota    = 20
	perfBorrow   = 100
	perfScaleEnv = "SCHEDKIT_KUEUE_PERF_SCALE"
	perfScaleCI  = 0.01
)

// perfWorkTimeout bounds the wait for one configuration's workloads to
// finish at a share scale of the full size: 10 minutes, plus 2 minutes per
// 1 % (a loaded two-core machine ran the stock 4 % in 6 minutes).
func perfWorkTimeout(scale float64) time.Duration {
	return 10*time.Minute + time.Duration(scale*200)*time.Minute
}

// perfConfigurations are the configurations to run, in order:
// SCHEDKIT_KUEUE_PERF_CONFIGS (comma-separated, of stock, instant and
// check), else all three. A ratio is logged only when both of its
// configurations ran.
func perfConfigurations(t *testing.T) []string {
	all := []string{"stock", "instant", "check"}
	v := os.Getenv("SCHEDKIT_KUEUE_PERF_CONFIGS")
	if v == "" {
		return all
	}
	var out []string
	for _, name := range strings.Split(v, ",") {
		if !slices.Contains(all, name) || slices.Contains(out, name) {
			t.Fatalf("SCHEDKIT_KUEUE_PERF_CONFIGS = %q: want distinct names among %v", v, all)
		}
		out = append(out, name)
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) })
	return out
}

// perfScale is the share of the baseline's workload counts to run:
// SCHEDKIT_KUEUE_PERF_SCALE in (0, 1], else perfScaleCI (180 workloads per
// configuration, each class at least one per ClusterQueue; 1 is Kueue's
// 15,000).
func perfScale(t *testing.T) float64 {
	v := os.Getenv(perfScaleEnv)
	if v == "" {
		return perfScaleCI
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f <= 1) {
		t.Fatalf("%s = %q: want a share in (0, 1]", perfScaleEnv, v)
	}
	return f
}

// TestKueueSchedulerPerf runs Kueue's scheduler-performance shape (5
// cohorts × 6 ClusterQueues of 20 cpu, borrowing up to 100; per
// ClusterQueue 350 small, 100 medium and 50 large workloads, created at
// their classes' intervals, each run its class's time once admitted, as
// Kueue's runner does) three times against one control plane (Kueue run
// as the harness's minimalkueue runs it: perfKueue), one
// configuration after the other: stock (no admission check), instant (an
// admission check on every ClusterQueue that the runner answers Ready as
// soon as it sees quota reserved: what any admission check costs in
// Kueue, without deciding) and check (the schedkit.io/deadline check on
// every ClusterQueue, run as its own process, cmd/schedkit-deadline, with
// the default 1,000 samples). Every
// workload carries a deadline an hour away and its class's run time, so
// that the check decides each one (Ready). It asserts that every workload
// of both configurations is admitted and finishes, and in the check
// configuration that each was made Ready once and never Retry or Rejected;
// it logs the time to admission per class (p50, average), the check's
// decision latency (quota reserved → check Ready, p50/p99, as seen by the
// runner's watch), the check's own plan-part timings from its metrics, and
// its CPU time and peak resident memory. Time to admission runs from the
// workload's creation to its first admission. SCHEDKIT_KUEUE_PERF_SCALE sets
// the share of the workload counts (default 0.01; the README's full-size
// command runs 1). For each configuration it also logs what changed in the
// check's metrics (its API requests, reconciles, plan parts, work queue)
// and in this process's (Kueue's admission attempts and wait times, its
// controllers' reconciles and work queues, its webhooks' latency).
// Diagnostics: SCHEDKIT_KUEUE_PERF_CONFIGS runs only the configurations
// named (say instant,check); SCHEDKIT_KUEUE_PERF_LOG names a file that
// gets the check's log, SCHEDKIT_KUEUE_PERF_V its -v;
// SCHEDKIT_KUEUE_PERF_PPROF the check's -pprof-bind-address.
func TestKueueSchedulerPerf(t *testing.T) {
	scale := perfScale(t)
	e := startControlPlaneWith(t, perfKueue)
	e.checkOpts = deadlinecheck.Options{Config: deadlinecheck.DefaultConfig(), ETARefresh: 30 * time.Second, ETATolerance: 30 * time.Second}
	e.managerArgs = []string{"-pprof-bind-address", freeAddr(t)}
	if p := os.Getenv("SCHEDKIT_KUEUE_PERF_PPROF"); p != "" {
		e.managerArgs = []string{"-pprof-bind-address", p}
	}
	if v := os.Getenv("SCHEDKIT_KUEUE_PERF_V"); v != "" {
		e.managerArgs = append(e.managerArgs, "-v", v)
	}
	if p := os.Getenv("SCHEDKIT_KUEUE_PERF_LOG"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		e.managerLog = f
	}
	metricsAddr, _ := e.runManager(t)
	e.metricsAddr = metricsAddr
	e.setupCluster(t)
	run := newPerfRunner(t, e)
	createInstantCheck(t, e)
	stockAvg, instantAvg := map[string]time.Duration{}, map[string]time.Duration{}
	for _, name := range perfConfigurations(t) {
		cpu0 := procCPU(t, e.managerPid)
		check0, kueue0 := scraped(t, e.metrics(t)), inProcess(t)
		res := run.configuration(t, name, scale)
		cpu := procCPU(t, e.managerPid) - cpu0
		logSince(t, name, "check", check0, scraped(t, e.metrics(t)),
			"rest_client_requests_total", "schedkit_deadline_plan_seconds", "controller_runtime_reconcile_total", "schedkit_deadline_decisions_total",
			"workqueue_adds_total", "workqueue_queue_duration_seconds")
		logSince(t, name, "kueue", kueue0, inProcess(t),
			"kueue_admission_attempt", "kueue_admission_checks_wait_time_seconds", "kueue_quota_reserved_wait_time_seconds",
			"controller_runtime_reconcile_total", "controller_runtime_webhook_latency_seconds",
			"workqueue_adds_total", "workqueue_queue_duration_seconds", "workqueue_work_duration_seconds")
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("%s: %d workloads in %v; load average %s", name, res.total, res.wall.Round(time.Second), strings.Join(strings.Fields(string(load))[:3], " "))
		for _, c := range perfClasses {
			d := res.admission[c.name]
			t.Logf("%s: %-6s time to admission p50 %v, avg %v, max %v (%d workloads)", name, c.name, quantile(d, 0.5), mean(d), quantile(d, 1), len(d))
			switch {
			case name == "stock":
				stockAvg[c.name] = mean(d)
			case stockAvg[c.name] > 0:
				t.Logf("%s ÷ stock: %-6s average time to admission %.2f", name, c.name, float64(mean(d))/float64(stockAvg[c.name]))
			}
			if name == "instant" {
				instantAvg[c.name] = mean(d)
			} else if name == "check" && instantAvg[c.name] > 0 {
				t.Logf("check ÷ instant: %-6s average time to admission %.2f", c.name, float64(mean(d))/float64(instantAvg[c.name]))
			}
		}
		t.Logf("%s: schedkit-deadline CPU %v over the run", name, cpu.Round(10*time.Millisecond))
		if d := res.decision; len(d) > 0 {
			t.Logf("%s: decision latency (quota reserved → Ready, runner's watch) p50 %v, p99 %v, max %v", name, quantile(d, 0.5), quantile(d, 0.99), quantile(d, 1))
		}
	}
	rss, hwm := procMemory(t, e.managerPid)
	t.Logf("schedkit-deadline resident memory: %d MiB now, peak %d MiB", rss>>20, hwm>>20)
}

// perfResult is what one configuration measured.
type perfResult struct {
	total     int
	wall      time.Duration
	admission map[string][]time.Duration // class → creation to Admitted
	decision  []time.Duration            // quota reserved → check Ready
	stranded  int                        // workloads the runner put back into Kueue's queue
}

// perfRunner plays Kueue's performance runner: a controller on the
// Workloads that completes evictions (releasing the quota as the job
// integration does), marks an admitted workload Finished once it has run
// its class's time, and records when it first saw each workload with
// quota reserved, Ready on the check and Admitted.
type perfRunner struct {
	e  *env
	c  client.Client
	mu sync.Mutex
	wl map[types.NamespacedName]*perfSeen
}

type perfSeen struct {
	class                              string
	runFor                             time.Duration
	created, reserved, ready, admitted time.Time
	runFrom                            time.Time // its last admission: its run started then
	finished                           bool
	states                             map[kueue.CheckState]bool
}

func newPerfRunner(t *testing.T, e *env) *perfRunner {
	mgr, err := ctrl.NewManager(e.cfg, ctrl.Options{
		Scheme:                 e.scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             crconfig.Controller{SkipNameValidation: ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &perfRunner{e: e, c: mgr.GetClient(), wl: map[types.NamespacedName]*perfSeen{}}
	if err := ctrl.NewControllerManagedBy(mgr).Named("perf_runner").For(&kueue.Workload{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).Complete(r); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	startManagerForTest(t, "runner manager", ctx, cancel, mgr)
	return r
}

func (r *perfRunner) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	wl := &kueue.Workload{}
	if err := r.c.Get(ctx, req.NamespacedName, wl); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	now := time.Now()
	r.mu.Lock()
	seen := r.wl[req.NamespacedName]
	if seen == nil {
		r.mu.Unlock()
		return reconcile.Result{}, nil // not the runner's
	}
	if seen.reserved.IsZero() && workload.HasQuotaReservation(wl) {
		seen.reserved = now
	}
	instantPending := false
	for _, name := range []kueue.AdmissionCheckReference{checkName, instantCheck} {
		if st := deadlinecheck.CheckState(wl, name); st != nil {
			seen.states[st.State] = true
			if st.State == kueue.CheckStateReady && seen.ready.IsZero() {
				seen.ready = now
			}
			instantPending = name == instantCheck && st.State == kueue.CheckStatePending && workload.HasQuotaReservation(wl)
		}
	}
	admitted := apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted)
	if admitted && seen.admitted.IsZero() {
		seen.admitted = now
	}
	if admitted && seen.runFrom.IsZero() {
		seen.runFrom = now
	}
	at, runFor := seen.runFrom, seen.runFor
	r.mu.Unlock()

	if instantPending {
		return reconcile.Result{}, answerInstant(ctx, r.c, wl)
	}

	if evicted, err := releaseEvicted(ctx, r.c, wl); evicted {
		r.mu.Lock()
		seen.runFrom = time.Time{} // admitted again later: its run starts then
		r.mu.Unlock()
		return reconcile.Result{}, err
	}
	if !admitted || apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
		return reconcile.Result{}, nil
	}
	if left := runFor - now.Sub(at); left > 0 {
		return reconcile.Result{RequeueAfter: left}, nil
	}
	apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
		Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: "Succeeded", Message: "Finished by the performance runner",
	})
	if err := r.c.Status().Update(ctx, wl); err != nil {
		return reconcile.Result{}, err
	}
	r.mu.Lock()
	seen.finished = true
	r.mu.Unlock()
	return reconcile.Result{}, nil
}

// configuration creates one configuration's ClusterQueues and workloads,
// waits until every workload has finished, and returns what it measured.
func (r *perfRunner) configuration(t *testing.T, name string, scale float64) perfResult {
	check := map[string]string{"instant": instantCheck, "check": checkName}[name]
	ctx := context.Background()
	e := r.e
	create(t, e.c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "perf-" + name}})
	var lqs []string
	for co := range perfCohorts {
		for q := range perfQueues {
			cq := fmt.Sprintf("%s-cohort%d-cq%d", name, co, q)
			spec := clusterQueue(cq, strconv.Itoa(perfQuota), fmt.Sprintf("%s-cohort%d", name, co), false)
			if check != "" {
				spec.Spec.AdmissionChecksStrategy = &kueue.AdmissionChecksStrategy{AdmissionChecks: []kueue.AdmissionCheckStrategyRule{{Name: kueue.AdmissionCheckReference(check)}}}
			}
			rq := &spec.Spec.ResourceGroups[0].Flavors[0].Resources[0]
			rq.BorrowingLimit = ptr(resource.MustParse(strconv.Itoa(perfBorrow)))
			spec.Spec.Preemption = &kueue.ClusterQueuePreemption{
				ReclaimWithinCohort: kueue.PreemptionPolicyAny, WithinClusterQueue: kueue.PreemptionPolicyLowerPriority,
			}
			create(t, e.c, spec)
			create(t, e.c, &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "perf-" + name, Name: "lq-" + cq},
				Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}})
			lqs = append(lqs, "lq-"+cq)
		}
	}
	for _, lq := range lqs {
		e.waitActive(t, strings.TrimPrefix(lq, "lq-"))
	}
	start := time.Now()
	var wg sync.WaitGroup
	var uids []types.NamespacedName
	var umu sync.Mutex
	errs := make(chan error, len(lqs)*len(perfClasses))
	for _, lq := range lqs {
		for _, c := range perfClasses {
			n := max(1, int(math.Round(float64(c.count)*scale)))
			wg.Go(func() {
				tick := time.NewTicker(c.interval)
				defer tick.Stop()
				for i := range n {
					if i > 0 {
						<-tick.C
					}
					wl := perfWorkload("perf-"+name, lq, c, i)
					key := client.ObjectKeyFromObject(wl)
					r.mu.Lock()
					r.wl[key] = &perfSeen{class: c.name, runFor: c.runFor, created: time.Now(), states: map[kueue.CheckState]bool{}}
					r.mu.Unlock()
					if err := createRetrying(ctx, e.c, wl); err != nil {
						errs <- fmt.Errorf("creating %s: %w", wl.Name, err)
						return
					}
					umu.Lock()
					uids = append(uids, key)
					umu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// nudge looks again at workloads whose last event the runner missed
	// (a failed write).
	timeout := perfWorkTimeout(scale)
	deadline := time.Now().Add(timeout)
	strandedSince := map[types.NamespacedName]time.Time{}
	stranded := 0
	for {
		left := 0
		r.mu.Lock()
		for _, u := range uids {
			if !r.wl[u].finished {
				left++
			}
		}
		r.mu.Unlock()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			r.explain(t, ctx, "perf-"+name)
			t.Fatalf("%s: %d of %d workloads not finished after %v", name, left, len(uids), timeout)
		}
		r.nudge(ctx, "perf-"+name)
		for _, key := range r.stranded(ctx, "perf-"+name, strandedSince) {
			t.Log(key)
			stranded++
		}
		time.Sleep(2 * time.Second)
	}
	if stranded > 0 {
		t.Logf("%s: %d workloads left out of Kueue's queue and put back", name, stranded)
	}
	res := perfResult{total: len(uids), wall: time.Since(start), admission: map[string][]time.Duration{}, stranded: stranded}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range uids {
		s := r.wl[u]
		res.admission[s.class] = append(res.admission[s.class], s.admitted.Sub(s.created))
		if check == "" {
			continue
		}
		if !s.states[kueue.CheckStateReady] || s.states[kueue.CheckStateRetry] || s.states[kueue.CheckStateRejected] {
			t.Errorf("%s: check states seen %v, want Ready only", u, s.states)
		}
		if !s.ready.IsZero() && !s.reserved.IsZero() {
			res.decision = append(res.decision, s.ready.Sub(s.reserved))
		}
	}
	return res
}

// createRetrying creates wl, trying again up to 5 times, 2 s apart, when
// the API server answers that it could not finish in time: under load,
// Kueue's validating webhook (6 s timeout) can miss its deadline, and the
// workload was then not created. A workload a timed-out attempt did create
// counts as created. Its time to admission still runs from the first
// attempt.
func createRetrying(ctx context.Context, c client.Client, wl *kueue.Workload) error {
	var err error
	for try := range 6 {
		if try > 0 {
			time.Sleep(2 * time.Second)
		}
		err = c.Create(ctx, wl.DeepCopy())
		switch {
		case err == nil || try > 0 && apierrors.IsAlreadyExists(err):
			return nil
		case !apierrors.IsInternalError(err) && !apierrors.IsTimeout(err) && !apierrors.IsServerTimeout(err) && !apierrors.IsTooManyRequests(err):
			return err
		}
	}
	return err
}

// explain logs, for every workload of ns not finished, its conditions and
// admission, and each ClusterQueue's pending count as Kueue reports it.
func (r *perfRunner) explain(t *testing.T, ctx context.Context, ns string) {
	l := &kueue.WorkloadList{}
	if err := r.e.c.List(ctx, l, client.InNamespace(ns)); err != nil {
		t.Logf("listing workloads: %v", err)
		return
	}
	for i := range l.Items {
		wl := &l.Items[i]
		if apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			continue
		}
		var conds []string
		for _, c := range wl.Status.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s(%s@%s)", c.Type, c.Status, c.Reason, c.LastTransitionTime.Format("15:04:05")))
		}
		t.Logf("not finished: %s rv %s admission %v requeueState %v: %s", wl.Name, wl.ResourceVersion, wl.Status.Admission != nil, wl.Status.RequeueState, strings.Join(conds, " "))
	}
	cqs := &kueue.ClusterQueueList{}
	if err := r.e.c.List(ctx, cqs); err == nil {
		for _, cq := range cqs.Items {
			if cq.Status.PendingWorkloads > 0 || cq.Status.ReservingWorkloads > 0 {
				t.Logf("ClusterQueue %s: pending %d, reserving %d, admitted %d", cq.Name, cq.Status.PendingWorkloads, cq.Status.ReservingWorkloads, cq.Status.AdmittedWorkloads)
			}
		}
	}
}

// strandedAfter is how long a workload may wait without quota, out of
// Kueue's queue, before the runner puts it back.
const strandedAfter = 30 * time.Second

// stranded finds the workloads of ns that Kueue has seen (they carry a
// QuotaReserved condition) and that wait for quota (active, not finished,
// no reservation) while Kueue's queue manager does not hold them: not
// among its ClusterQueue's pending workloads (heap, inadmissible, in a
// scheduling cycle). One that stays so for strandedAfter is put back as any
// update to a pending workload puts it back (Kueue's workload controller
// adds a pending workload to its queue on every update): an annotation.
// It returns one line per workload put back, with its conditions. since
// keeps when each was first seen so.
func (r *perfRunner) stranded(ctx context.Context, ns string, since map[types.NamespacedName]time.Time) []string {
	l := &kueue.WorkloadList{}
	if r.e.c.List(ctx, l, client.InNamespace(ns)) != nil {
		return nil
	}
	queued := map[string]bool{}
	for _, cq := range r.e.queues.GetClusterQueueNames() {
		for _, info := range r.e.queues.PendingWorkloadsInfo(cq) {
			queued[info.Obj.Namespace+"/"+info.Obj.Name] = true
		}
	}
	now := time.Now()
	var out []string
	seen := map[types.NamespacedName]bool{}
	for i := range l.Items {
		wl := &l.Items[i]
		key := client.ObjectKeyFromObject(wl)
		if apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) || workload.HasQuotaReservation(wl) ||
			!workload.IsActive(wl) || apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved) == nil ||
			queued[key.String()] {
			continue
		}
		seen[key] = true
		if _, ok := since[key]; !ok {
			since[key] = now
			continue
		}
		if now.Sub(since[key]) < strandedAfter {
			continue
		}
		var conds []string
		for _, c := range wl.Status.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
		}
		patch := client.MergeFrom(wl.DeepCopy())
		if wl.Annotations == nil {
			wl.Annotations = map[string]string{}
		}
		wl.Annotations["schedkit.io/perf-requeued"] = now.UTC().Format(time.RFC3339Nano)
		if err := r.e.c.Patch(ctx, wl, patch); err != nil {
			continue
		}
		out = append(out, fmt.Sprintf("%s: waited %v without quota and out of Kueue's queue (%s); put back",
			key, now.Sub(since[key]).Round(time.Second), strings.Join(conds, " ")))
		delete(since, key)
	}
	for key := range since {
		if !seen[key] {
			delete(since, key)
		}
	}
	return out
}

// nudge reconciles every workload of ns not yet finished once more.
func (r *perfRunner) nudge(ctx context.Context, ns string) {
	l := &kueue.WorkloadList{}
	if err := r.c.List(ctx, l, client.InNamespace(ns)); err != nil {
		return
	}
	for i := range l.Items {
		wl := &l.Items[i]
		if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			_, _ = r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: wl.Namespace, Name: wl.Name}})
		}
	}
}

// perfWorkload is workload i of class c in LocalQueue lq: one pod of c.cpu
// cpu, c's priority, a deadline an hour after its creation and c's run
// time on the Workload (the check's contract; no owner to read).
func perfWorkload(ns, lq string, c perfClass, i int) *kueue.Workload {
	return &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("%s-%s-%d", strings.TrimPrefix(lq, "lq-"), c.name, i),
			Annotations: map[string]string{deadlinecheck.DeadlineAnnotation: "1h", deadlinecheck.RuntimeAnnotation: c.runFor.String()}},
		Spec: kueue.WorkloadSpec{
			QueueName: kueue.LocalQueueName(lq),
			Priority:  ptr(c.priority),
			PodSets: []kueue.PodSet{{Name: "main", Count: 1, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{Name: "c", Image: "pause", Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: *resource.NewQuantity(c.cpu, resource.DecimalSI)},
				}}},
			}}}},
		},
	}
}

// procCPU is a process's user and system CPU time so far.
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// procMemory is a process's resident memory now and at its peak, bytes.
func procMemory(t *testing.T, pid int) (rss, hwm int64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = v << 10
		case "VmHWM:":
			hwm = v << 10
		}
	}
	return rss, hwm
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := min(max(int(math.Ceil(q*float64(len(s))))-1, 0), len(s)-1)
	return s[i].Round(time.Millisecond)
}

func mean(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return (sum / time.Duration(len(d))).Round(time.Millisecond)
}

// instantCheck is an AdmissionCheck that the runner itself answers Ready as
// soon as it sees quota reserved: the "instant" configuration measures what
// any admission check costs in Kueue (the round trip from quota reserved to
// the check's Ready to admission) apart from what deciding costs.
const instantCheck = "perf-instant"

// createInstantCheck creates instantCheck and marks it Active, as its
// controller (the runner) would.
func createInstantCheck(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	ac := &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: instantCheck}, Spec: kueue.AdmissionCheckSpec{ControllerName: "schedkit.io/perf-instant"}}
	create(t, e.c, ac)
	waitFor(t, 30*time.Second, "the instant AdmissionCheck to be Active", func() (bool, string) {
		if err := e.c.Get(ctx, client.ObjectKeyFromObject(ac), ac); err != nil {
			return false, err.Error()
		}
		if apimeta.IsStatusConditionTrue(ac.Status.Conditions, kueue.AdmissionCheckActive) {
			return true, ""
		}
		apimeta.SetStatusCondition(&ac.Status.Conditions, metav1.Condition{Type: kueue.AdmissionCheckActive, Status: metav1.ConditionTrue, Reason: "Active", Message: "answered by the performance runner"})
		if err := e.c.Status().Update(ctx, ac); err != nil {
			return false, err.Error()
		}
		return false, "written"
	})
}

// answerInstant sets instantCheck Ready on wl, as Kueue's own admission-check
// controllers write their state.
func answerInstant(ctx context.Context, c client.Client, wl *kueue.Workload) error {
	return workloadpatching.PatchAdmissionStatus(ctx, c, wl, clock.RealClock{}, func(wl *kueue.Workload) (bool, error) {
		return workloadpatching.SetAdmissionCheckState(&wl.Status.AdmissionChecks, kueue.AdmissionCheckState{
			Name: instantCheck, State: kueue.CheckStateReady, Message: "instant",
		}, clock.RealClock{}), nil
	})
}
