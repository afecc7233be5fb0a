package deadlinecheck

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

func testScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, kueue.AddToScheme, v1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// fakeBuilder is controller-runtime's fake client over objs, with the
// reconciler's indexes, funcs intercepting its calls and, unless funcs
// does, the check's server-side applies done as strategic merge patches
// (applyAsMerge). The real tier runs the same writes as server-side
// applies against a real API server.
func fakeBuilder(t testing.TB, funcs interceptor.Funcs, objs ...client.Object) *fake.ClientBuilder {
	if funcs.SubResourceApply == nil {
		funcs.SubResourceApply = applyAsMerge(nil)
	}
	return fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(objs...).
		WithStatusSubresource(&kueue.Workload{}, &kueue.AdmissionCheck{}, &kueue.ClusterQueue{}).
		WithIndex(&kueue.Workload{}, IndexWorkloadQueue, WorkloadQueueIndex).
		WithIndex(&kueue.Workload{}, IndexWorkloadClusterQueue, WorkloadClusterQueueIndex).
		WithIndex(&kueue.LocalQueue{}, IndexLocalQueueClusterQueue, LocalQueueClusterQueueIndex).
		WithInterceptorFuncs(funcs)
}

func newFakeClient(t *testing.T, objs ...client.Object) client.WithWatch {
	return fakeBuilder(t, interceptor.Funcs{}, objs...).Build()
}

// applyAsMerge stands in for the API server's server-side apply of a
// status subresource in the fast tier, as Kueue's own unit tests do: the
// applied configuration becomes a strategic merge patch (admissionChecks
// and conditions merge by name and type, as their list-map keys make them
// merge under apply; a resourceVersion in it still makes a stale write
// conflict), and the result is read back into the configuration. Each
// call's options are appended to applied, when not nil.
func applyAsMerge(applied *[]client.SubResourceApplyOptions) func(context.Context, client.Client, string, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error {
	return func(ctx context.Context, c client.Client, sub string, ac runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
		if applied != nil {
			o := client.SubResourceApplyOptions{}
			o.ApplyOpts(opts)
			*applied = append(*applied, o)
		}
		data, err := json.Marshal(ac)
		if err != nil {
			return err
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(data, u); err != nil {
			return err
		}
		o, err := c.Scheme().New(u.GroupVersionKind())
		if err != nil {
			return err
		}
		obj := o.(client.Object)
		obj.SetName(u.GetName())
		obj.SetNamespace(u.GetNamespace())
		if err := c.SubResource(sub).Patch(ctx, obj, client.RawPatch(types.StrategicMergePatchType, data)); err != nil {
			return err
		}
		out, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		return json.Unmarshal(out, ac)
	}
}

type rig struct {
	c     client.WithWatch
	r     *queueReconciler
	clock *clocktesting.FakePassiveClock
	rec   *events.FakeRecorder
	reg   *prometheus.Registry
}

func newRig(t *testing.T, c client.WithWatch) *rig {
	t.Helper()
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktesting.NewFakePassiveClock(t0)
	rec := events.NewFakeRecorder(100)
	return &rig{c: c, clock: clk, rec: rec, reg: reg, r: &queueReconciler{
		client: c, recorder: rec, clock: clk, cfg: testConfig(), metrics: m, cache: NewWorkCache(),
		refresh: 30 * time.Second, tol: 30 * time.Second, written: map[types.UID][]string{},
		badKinds: map[schema.GroupVersionKind]badKind{},
	}}
}

func (g *rig) reconcile(t *testing.T) reconcile.Result {
	t.Helper()
	res, err := g.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Name: "cq"}})
	if err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	return res
}

func (g *rig) workload(t *testing.T, name string) *kueue.Workload {
	t.Helper()
	wl := &kueue.Workload{}
	if err := g.c.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: name}, wl); err != nil {
		t.Fatal(err)
	}
	return wl
}

// cluster: a ClusterQueue of 4 cpu behind the check, its LocalQueue, the
// check and its parameters (job type "fixed": every pod takes 600 s).
func cluster() []client.Object {
	return []client.Object{
		&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "cq"}, Spec: kueue.ClusterQueueSpec{
			ResourceGroups: []kueue.ResourceGroup{{CoveredResources: []corev1.ResourceName{"cpu", "memory"}, Flavors: []kueue.FlavorQuotas{
				{Name: "default", Resources: []kueue.ResourceQuota{{Name: "cpu", NominalQuota: resource.MustParse("4")}, {Name: "memory", NominalQuota: resource.MustParse("64Gi")}}}}}},
			AdmissionChecksStrategy: &kueue.AdmissionChecksStrategy{AdmissionChecks: []kueue.AdmissionCheckStrategyRule{{Name: testCheck}}},
		}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "lq"}, Spec: kueue.LocalQueueSpec{ClusterQueue: "cq"}},
		&kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: string(testCheck)}, Spec: kueue.AdmissionCheckSpec{
			ControllerName: ControllerName,
			Parameters:     &kueue.AdmissionCheckParametersReference{APIGroup: "schedkit.io", Kind: "DeadlineParameters", Name: "models"},
		}},
		params(v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{
			{Name: "fixed", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600}},
		}}),
	}
}

// wl is a Workload of pods 1-cpu pods in ns/lq with the given annotations.
func wl(name string, pods int32, state kueue.CheckState, reserved bool, ann map[string]string) *kueue.Workload {
	w := workload(name, state)
	w.UID = types.UID("uid-" + name)
	w.Spec.PodSets = []kueue.PodSet{podSet("main", pods, "1", "1Gi")}
	w.Annotations = ann
	w.CreationTimestamp = metav1.NewTime(t0.Add(-time.Minute))
	if reserved {
		w.Status.Conditions = []metav1.Condition{cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0)}
		w.Status.Admission = &kueue.Admission{ClusterQueue: "cq", PodSetAssignments: []kueue.PodSetAssignment{
			{Name: "main", Count: &pods, ResourceUsage: corev1.ResourceList{"cpu": *resource.NewQuantity(int64(pods), resource.DecimalSI)}}}}
	}
	return w
}

func fixedType(deadline string) map[string]string {
	return map[string]string{DeadlineAnnotation: deadline, JobTypeAnnotation: "fixed"}
}

func TestReconcileDecides(t *testing.T) {
	objs := append(cluster(),
		// Admitted at t0 − 100 s: 2 pods of 600 s, deadline t0 + 1000 s:
		// 500 s left, fluid 2·500/4 = 250.
		func() client.Object {
			w := wl("a", 2, kueue.CheckStateReady, true, fixedType("2026-11-24T12:16:40Z"))
			w.Status.Conditions = append(w.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0.Add(-100*time.Second)))
			return w
		}(),
		// Fits: 1 pod, deadline t0 + 700 s (fluid 150: b 150, then a 400 ≤ 1000).
		wl("b", 1, kueue.CheckStatePending, true, fixedType("2026-11-24T12:11:40Z")),
		// 600 s of work, 5 minutes to its deadline: hopeless.
		wl("hopeless", 1, kueue.CheckStatePending, true, fixedType("5m")),
		wl("malformed", 1, kueue.CheckStatePending, false, map[string]string{DeadlineAnnotation: "tomorrow"}),
		wl("free", 1, kueue.CheckStatePending, true, nil),
		wl("waiting", 2, kueue.CheckStatePending, false, fixedType("3h")),
	)
	g := newRig(t, newFakeClient(t, objs...))
	if res := g.reconcile(t); res.RequeueAfter != 30*time.Second {
		t.Errorf("requeue after %v, want the ETA refresh", res.RequeueAfter)
	}
	want := map[string]struct {
		state  kueue.CheckState
		prefix string
	}{
		"a":         {kueue.CheckStateReady, ""},
		"b":         {kueue.CheckStateReady, "Ready: predicted finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:11:40Z; P(it and the 1 later admitted deadline in ClusterQueue cq hold) = 1.00 >= 0.90"},
		"hopeless":  {kueue.CheckStateRejected, "Rejected: even started now with the quota to itself it would finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), after its deadline 2026-11-24T12:04:00Z"},
		"malformed": {kueue.CheckStatePending, `Rejected and deactivated while waiting for quota: annotation schedkit.io/deadline = "tomorrow": neither an RFC 3339 time`},
		"free":      {kueue.CheckStateReady, "Ready: no schedkit.io/deadline annotation"},
		"waiting":   {kueue.CheckStatePending, "Pending: predicted start 2026-11-24T12:08:20Z (p50)"},
	}
	for name, w := range want {
		st := CheckState(g.workload(t, name), testCheck)
		if st.State != w.state || !strings.HasPrefix(st.Message, w.prefix) {
			t.Errorf("%s: %s %q, want %s %q…", name, st.State, st.Message, w.state, w.prefix)
		}
		if st.State != kueue.CheckStatePending && name != "a" && !st.LastTransitionTime.Time.Equal(t0) {
			t.Errorf("%s: last transition %v, want now", name, st.LastTransitionTime)
		}
	}
	// waiting: half the quota (2 of 4 cpu) for 600 s. a holds half for
	// 500 s more, b a quarter for 600 s: waiting starts when a ends.
	ann := g.workload(t, "waiting").Annotations
	for k, v := range map[string]string{
		StartP50Annotation: "2026-11-24T12:08:20Z", StartP90Annotation: "2026-11-24T12:08:20Z",
		FinishP50Annotation: "2026-11-24T12:18:20Z", FinishP90Annotation: "2026-11-24T12:18:20Z",
	} {
		if ann[k] != v {
			t.Errorf("waiting: %s = %q, want %q", k, ann[k], v)
		}
	}
	if _, ok := g.workload(t, "b").Annotations[StartP50Annotation]; ok {
		t.Error("a Ready workload got ETA annotations")
	}
	// The hopeless one keeps its reason in an annotation (Kueue's eviction
	// will reset the check); the malformed one, still waiting for quota,
	// is deactivated with it.
	if got := g.workload(t, "hopeless").Annotations[RejectionAnnotation]; !strings.HasPrefix(got, "Rejected: even started now") {
		t.Errorf("hopeless: %s = %q", RejectionAnnotation, got)
	}
	if m := g.workload(t, "malformed"); m.Spec.Active == nil || *m.Spec.Active || !strings.HasPrefix(m.Annotations[RejectionAnnotation], `Rejected: annotation schedkit.io/deadline = "tomorrow"`) {
		t.Errorf("malformed: active %v, %s = %q", m.Spec.Active, RejectionAnnotation, m.Annotations[RejectionAnnotation])
	}
	if n := testutil.ToFloat64(g.r.metrics.start.WithLabelValues("cq", "ns", "waiting", "0.5")); n != float64(t0.Add(500*time.Second).Unix()) {
		t.Errorf("start metric %v", n)
	}
	if n := testutil.ToFloat64(g.r.metrics.decisions.WithLabelValues("cq", "Rejected", string(ReasonLateAlone))); n != 1 {
		t.Errorf("late-alone decisions %v, want 1", n)
	}
	if n := testutil.ToFloat64(g.r.metrics.pending.WithLabelValues("cq")); n != 1 {
		t.Errorf("pending %v, want 1", n)
	}
	if len(g.rec.Events) != 4 {
		t.Errorf("%d events, want 4 (one per decision and deactivation)", len(g.rec.Events))
	}

	// Reconciling the same state again changes nothing: no writes, no events.
	before := map[string]string{}
	for n := range want {
		before[n] = g.workload(t, n).ResourceVersion
	}
	drain(g.rec)
	g.reconcile(t)
	for n, rv := range before {
		if got := g.workload(t, n).ResourceVersion; got != rv {
			t.Errorf("%s rewritten on an unchanged state (%s → %s)", n, rv, got)
		}
	}
	if len(g.rec.Events) != 0 {
		t.Errorf("%d events on an unchanged state", len(g.rec.Events))
	}

	// A restarted controller (fresh reconciler, no memory) rebuilds the
	// same state from the API server: nothing changes.
	g2 := newRig(t, g.c)
	g2.reconcile(t)
	for n, rv := range before {
		if got := g2.workload(t, n).ResourceVersion; got != rv {
			t.Errorf("restart rewrote %s", n)
		}
	}
	if n := testutil.ToFloat64(g2.r.metrics.finish.WithLabelValues("cq", "ns", "waiting", "0.9")); n != float64(t0.Add(1100*time.Second).Unix()) {
		t.Errorf("restarted finish metric %v", n)
	}
}

func drain(r *events.FakeRecorder) {
	for {
		select {
		case <-r.Events:
		default:
			return
		}
	}
}

// A workload that would push an admitted one past its deadline is held
// with Retry and requeueAfterSeconds, then Ready once the admitted one
// finished.
func TestReconcileRetry(t *testing.T) {
	// a: admitted at t0, 4 pods of 600 s, deadline t0 + 700: fluid 600.
	a := wl("a", 4, kueue.CheckStateReady, true, fixedType("2026-11-24T12:11:40Z"))
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	// c: 1 pod, deadline t0 + 650 (before a's): c 150, a 750 > 700.
	c := wl("c", 1, kueue.CheckStatePending, true, fixedType("2026-11-24T12:10:50Z"))
	g := newRig(t, newFakeClient(t, append(cluster(), a, c)...))
	g.reconcile(t)
	st := CheckState(g.workload(t, "c"), testCheck)
	if st.State != kueue.CheckStateRetry || st.RequeueAfterSeconds == nil {
		t.Fatalf("c: %s, requeue %v: want Retry", st.State, st.RequeueAfterSeconds)
	}
	// Retry after min(a finishes in 600 s, latest start 650 − 600 = 50 s).
	if *st.RequeueAfterSeconds != 50 {
		t.Errorf("requeue after %d s, want 50", *st.RequeueAfterSeconds)
	}
	wantMsg := "Retry in 50s: admitting it now would push admitted ns/a past its deadline 2026-11-24T12:11:40Z: P(ns/a on time) = 0.00 < 0.90; alone it would finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:10:50Z"
	if st.Message != wantMsg {
		t.Errorf("message\n%s\nwant\n%s", st.Message, wantMsg)
	}

	// a finishes; Kueue reset c to Pending (after evicting it) and
	// reserved quota again: now Ready.
	ctx := context.Background()
	aw := g.workload(t, "a")
	apimeta.SetStatusCondition(&aw.Status.Conditions, cond(kueue.WorkloadFinished, metav1.ConditionTrue, t0))
	if err := g.c.Status().Update(ctx, aw); err != nil {
		t.Fatal(err)
	}
	cw := g.workload(t, "c")
	CheckState(cw, testCheck).State = kueue.CheckStatePending
	if err := g.c.Status().Update(ctx, cw); err != nil {
		t.Fatal(err)
	}
	g.clock.SetTime(t0.Add(50 * time.Second))
	g.reconcile(t)
	if st := CheckState(g.workload(t, "c"), testCheck); st.State != kueue.CheckStateReady || !strings.HasPrefix(st.Message, "Ready: ") {
		t.Errorf("after a finished, c is %s %q: want Ready", st.State, st.Message)
	}
}

// The deadline and job type may sit on the object that owns the Workload
// (a batch/v1 Job), relative deadlines counting from its creation.
func TestReconcileOwnerAnnotations(t *testing.T) {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "job", UID: "job-uid",
		CreationTimestamp: metav1.NewTime(t0.Add(-5 * time.Minute)),
		Annotations:       fixedType("8m")}}
	w := wl("owned", 1, kueue.CheckStatePending, true, nil)
	w.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "job", UID: "job-uid", Controller: ptr(true)}}
	g := newRig(t, newFakeClient(t, append(cluster(), job, w)...))
	g.reconcile(t)
	// Deadline t0 − 5 m + 8 m = t0 + 3 m < 600 s: hopeless, and the message
	// says so with the Job's deadline.
	st := CheckState(g.workload(t, "owned"), testCheck)
	if st.State != kueue.CheckStateRejected || !strings.Contains(st.Message, "after its deadline 2026-11-24T12:03:00Z") {
		t.Errorf("owned: %s %q", st.State, st.Message)
	}
}

// Bad parameters reject only the workloads that use them; the controller
// keeps serving the others.
func TestReconcileBadModel(t *testing.T) {
	objs := cluster()
	objs[3] = params(v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{
		{Name: "fixed", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600}},
		{Name: "broken", Exp2: &v1alpha1.Exp2Model{A: -10}},
	}})
	objs = append(objs,
		wl("bad", 1, kueue.CheckStatePending, true, map[string]string{DeadlineAnnotation: "1h", JobTypeAnnotation: "broken"}),
		wl("unknown", 1, kueue.CheckStatePending, true, map[string]string{DeadlineAnnotation: "1h", JobTypeAnnotation: "etl"}),
		wl("good", 1, kueue.CheckStatePending, true, fixedType("1h")),
	)
	g := newRig(t, newFakeClient(t, objs...))
	g.reconcile(t)
	for name, want := range map[string]string{
		"bad":     `Rejected: DeadlineParameters models spec.jobTypes[1].exp2 = "a=-10 b=0 c=0 d=0": TCT(1) = -10 s: must be a finite time > 0`,
		"unknown": `Rejected: annotation schedkit.io/job-type = "etl": names no job type of DeadlineParameters models (broken, fixed)`,
	} {
		st := CheckState(g.workload(t, name), testCheck)
		if st.State != kueue.CheckStateRejected || st.Message != want {
			t.Errorf("%s: %s %q, want Rejected %q", name, st.State, st.Message, want)
		}
	}
	if st := CheckState(g.workload(t, "good"), testCheck); st.State != kueue.CheckStateReady {
		t.Errorf("good: %s %q", st.State, st.Message)
	}
}

// ETAs are rewritten only when they move by the tolerance or more.
func TestReconcileETATolerance(t *testing.T) {
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
	p.CreationTimestamp = metav1.NewTime(t0.Add(-2 * time.Minute)) // ahead of a in Kueue's queue
	g := newRig(t, newFakeClient(t, append(cluster(), a, p)...))
	g.reconcile(t)
	w := g.workload(t, "p")
	if w.Annotations[StartP50Annotation] != "2026-11-24T12:10:00Z" {
		t.Fatalf("start %q, want a's finish 12:10:00", w.Annotations[StartP50Annotation])
	}
	// 20 s later nothing moved (a's remaining time shrinks as time passes).
	rv := w.ResourceVersion
	g.clock.SetTime(t0.Add(20 * time.Second))
	g.reconcile(t)
	if g.workload(t, "p").ResourceVersion != rv {
		t.Error("rewritten although nothing moved")
	}
	// a is evicted by Kueue (no longer holds quota): p's start moves to now.
	aw := g.workload(t, "a")
	aw.Status.Conditions = nil
	CheckState(aw, testCheck).State = kueue.CheckStatePending
	if err := g.c.Status().Update(context.Background(), aw); err != nil {
		t.Fatal(err)
	}
	g.reconcile(t)
	w = g.workload(t, "p")
	if w.Annotations[StartP50Annotation] == "2026-11-24T12:10:00Z" || !strings.HasPrefix(CheckState(w, testCheck).Message, "Pending: predicted start") {
		t.Errorf("ETA did not move: %v / %q", w.Annotations, CheckState(w, testCheck).Message)
	}
}

func TestStaleGuard(t *testing.T) {
	r := &queueReconciler{written: map[types.UID][]string{}}
	w := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{UID: "u", ResourceVersion: "5"}}
	// Two writes of a decision in one reconcile: from 5 to 6, then from 6
	// to 7; an ETA written to v from 3 to 4.
	r.wrote("u", "5", true, true)
	r.wrote("u", "6", false, true)
	r.wrote("v", "3", true, false)
	v := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{UID: "v", ResourceVersion: "3"}}
	for _, rv := range []string{"5", "6"} {
		w.ResourceVersion = rv
		if stale, _ := r.stale([]*kueue.Workload{w}); !stale {
			t.Errorf("cache at version %s, before our last write, is not stale", rv)
		}
	}
	w.ResourceVersion = "7"
	if stale, _ := r.stale([]*kueue.Workload{w}); stale || len(r.written) != 0 {
		t.Error("cache past our writes still stale")
	}
	// An ETA write holds back no decision, only the next ETA of v.
	if stale, etaStale := r.stale([]*kueue.Workload{w, v}); stale || !etaStale["v"] || etaStale["u"] {
		t.Errorf("ETA written to v: stale %v, ETA stale %v; want false, v only", stale, etaStale)
	}
	v.ResourceVersion = "4"
	if _, etaStale := r.stale([]*kueue.Workload{v}); etaStale["v"] || len(r.etaWritten) != 0 {
		t.Error("cache past our ETA write still stale")
	}
}

func TestAdmissionCheckActive(t *testing.T) {
	objs := cluster()
	missing := &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "missing"}, Spec: kueue.AdmissionCheckSpec{
		ControllerName: ControllerName,
		Parameters:     &kueue.AdmissionCheckParametersReference{APIGroup: "schedkit.io", Kind: "DeadlineParameters", Name: "nope"}}}
	wrongKind := &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "wrong"}, Spec: kueue.AdmissionCheckSpec{
		ControllerName: ControllerName,
		Parameters:     &kueue.AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "x"}}}
	bare := &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "bare"}, Spec: kueue.AdmissionCheckSpec{ControllerName: ControllerName}}
	other := &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Spec: kueue.AdmissionCheckSpec{ControllerName: "kueue.x-k8s.io/provisioning-request"}}
	c := newFakeClient(t, append(objs, missing, wrongKind, bare, other)...)
	r := &checkReconciler{client: c, clock: clocktesting.NewFakePassiveClock(t0)}
	for _, name := range []string{string(testCheck), "missing", "wrong", "bare", "other"} {
		if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]struct {
		status metav1.ConditionStatus
		msg    string
	}{
		string(testCheck): {metav1.ConditionTrue, "Active: DeadlineParameters models, 1 job types"},
		"missing":         {metav1.ConditionFalse, "spec.parameters: DeadlineParameters nope not found"},
		"wrong":           {metav1.ConditionFalse, "spec.parameters names kueue.x-k8s.io ProvisioningRequestConfig/x; this controller reads schedkit.io DeadlineParameters"},
		"bare":            {metav1.ConditionTrue, "Active: no parameters; run times fall back to spec.maximumExecutionTimeSeconds"},
		"other":           {"", ""},
	} {
		ac := &kueue.AdmissionCheck{}
		if err := c.Get(context.Background(), client.ObjectKey{Name: name}, ac); err != nil {
			t.Fatal(err)
		}
		cnd := apimeta.FindStatusCondition(ac.Status.Conditions, kueue.AdmissionCheckActive)
		if want.status == "" {
			if cnd != nil {
				t.Errorf("%s: another controller's check got %+v", name, cnd)
			}
			continue
		}
		if cnd == nil || cnd.Status != want.status || cnd.Message != want.msg {
			t.Errorf("%s: %+v, want %s %q", name, cnd, want.status, want.msg)
		}
	}
}

// Setting the metrics up twice in one registry reuses them, clearing the
// gauges, instead of failing.
func TestMetricsRegisteredTwice(t *testing.T) {
	reg := prometheus.NewRegistry()
	m1, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m1.setQueue("cq", []seriesEntry{{key: "ns/a", namespace: "ns", workload: "a", eta: ETA{StartP50: t0, StartP90: t0}}}, 1)
	m1.decided("cq", &Verdict{State: kueue.CheckStateReady, Reason: ReasonFits})
	m2, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(m2.start); n != 0 {
		t.Errorf("%d stale start series after a second setup", n)
	}
	if n := testutil.ToFloat64(m2.decisions.WithLabelValues("cq", "Ready", "Fits")); n != 1 {
		t.Errorf("decision counter %v, want it kept at 1", n)
	}
}

// A workload whose owner cannot be read (no permission on its kind) stays
// Pending with the reason, and the others are decided.
func TestReconcileOwnerUnreadable(t *testing.T) {
	w := wl("owned", 1, kueue.CheckStatePending, true, nil)
	w.OwnerReferences = []metav1.OwnerReference{{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: "js", UID: "js-uid", Controller: ptr(true)}}
	c := fakeBuilder(t, interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, o client.Object, opts ...client.GetOption) error {
		if m, ok := o.(*metav1.PartialObjectMetadata); ok && m.Kind == "JobSet" {
			return apierrors.NewForbidden(schema.GroupResource{Group: "jobset.x-k8s.io", Resource: "jobsets"}, key.Name, errors.New("no RBAC"))
		}
		return c.Get(ctx, key, o, opts...)
	}}, append(cluster(), w, wl("other", 1, kueue.CheckStatePending, true, fixedType("1h")))...).Build()
	g := newRig(t, c)
	g.reconcile(t)
	st := CheckState(g.workload(t, "owned"), testCheck)
	if st.State != kueue.CheckStatePending || !strings.HasPrefix(st.Message, "Pending: cannot read the annotations of its owner JobSet js (grant get, list and watch on its kind): ") {
		t.Errorf("owned: %s %q", st.State, st.Message)
	}
	if st := CheckState(g.workload(t, "other"), testCheck); st.State != kueue.CheckStateReady {
		t.Errorf("other: %s %q", st.State, st.Message)
	}
	// The kind fails fast for a while rather than waiting again.
	if len(g.r.badKinds) != 1 {
		t.Errorf("bad kinds %v", g.r.badKinds)
	}
}

// A write that conflicts with a concurrent change (Kueue's) is not an
// error: the queue is looked at again shortly, and the other workloads'
// outcomes are written.
func TestReconcileConflict(t *testing.T) {
	c := fakeBuilder(t, interceptor.Funcs{SubResourceApply: func(ctx context.Context, c client.Client, sub string, o runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
		if ac, ok := o.(*kueueac.WorkloadApplyConfiguration); ok && *ac.Name == "x" {
			return apierrors.NewConflict(schema.GroupResource{Group: "kueue.x-k8s.io", Resource: "workloads"}, "x", errors.New("changed"))
		}
		return applyAsMerge(nil)(ctx, c, sub, o, opts...)
	}}, append(cluster(), wl("x", 1, kueue.CheckStatePending, true, fixedType("1h")), wl("y", 1, kueue.CheckStatePending, true, fixedType("1h")))...).Build()
	g := newRig(t, c)
	if res := g.reconcile(t); res.RequeueAfter != staleRetry {
		t.Errorf("requeue after %v, want %v", res.RequeueAfter, staleRetry)
	}
	if st := CheckState(g.workload(t, "x"), testCheck); st.State != kueue.CheckStatePending {
		t.Errorf("x written despite the conflict: %s", st.State)
	}
	if st := CheckState(g.workload(t, "y"), testCheck); st.State != kueue.CheckStateReady {
		t.Errorf("y: %s %q", st.State, st.Message)
	}
}

// A waiting workload the check would reject is deactivated at once, with
// its ETA, its reason on the (Pending) check, in RejectionAnnotation and in
// a Warning event; a deadline already past is named with its annotation.
func TestReconcileDeactivatesHopeless(t *testing.T) {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "job", UID: "job-uid",
		CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour)), Annotations: fixedType("30m")}}
	w := wl("late", 1, kueue.CheckStatePending, false, nil)
	w.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "job", UID: "job-uid", Controller: ptr(true)}}
	g := newRig(t, newFakeClient(t, append(cluster(), job, w)...))
	g.reconcile(t)
	got := g.workload(t, "late")
	reason := `its deadline 2026-11-24T11:30:00Z has already passed (annotation schedkit.io/deadline = "30m" on Job ns/job)`
	if st := CheckState(got, testCheck); st.State != kueue.CheckStatePending || st.Message != "Rejected and deactivated while waiting for quota: "+reason {
		t.Errorf("check %s %q", st.State, st.Message)
	}
	if got.Spec.Active == nil || *got.Spec.Active || got.Annotations[RejectionAnnotation] != "Rejected: "+reason {
		t.Errorf("active %v, %s = %q", got.Spec.Active, RejectionAnnotation, got.Annotations[RejectionAnnotation])
	}
	if got.Annotations[StartP50Annotation] != "2026-11-24T12:00:00Z" || got.Annotations[FinishP50Annotation] != "2026-11-24T12:10:00Z" {
		t.Errorf("ETA annotations %v", got.Annotations)
	}
	select {
	case e := <-g.rec.Events:
		if !strings.HasPrefix(e, "Warning DeadlineRejected Rejected and deactivated while waiting for quota: its deadline") {
			t.Errorf("event %q", e)
		}
	default:
		t.Error("no event")
	}
	// Deactivated, it is left alone: the next reconcile writes nothing.
	rv := got.ResourceVersion
	g.reconcile(t)
	if g.workload(t, "late").ResourceVersion != rv {
		t.Error("a deactivated workload was written again")
	}
}

// After Kueue deactivates a workload the check rejected, its eviction
// resets the check to Pending with its own message; the check puts its
// rejection back there, once.
func TestReconcileRestoresRejection(t *testing.T) {
	g := newRig(t, newFakeClient(t, append(cluster(), wl("hopeless", 1, kueue.CheckStatePending, true, fixedType("5m")))...))
	g.reconcile(t)
	w := g.workload(t, "hopeless")
	rejection := CheckState(w, testCheck).Message
	if CheckState(w, testCheck).State != kueue.CheckStateRejected || w.Annotations[RejectionAnnotation] != rejection {
		t.Fatalf("not rejected: %+v, %q", CheckState(w, testCheck), w.Annotations[RejectionAnnotation])
	}
	// What Kueue does: deactivate, evict, reset the check.
	ctx := context.Background()
	w.Spec.Active = ptr(false)
	if err := g.c.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	w = g.workload(t, "hopeless")
	*CheckState(w, testCheck) = kueue.AdmissionCheckState{Name: testCheck, State: kueue.CheckStatePending,
		Message: "Reset to Pending after eviction. Previously: Rejected", LastTransitionTime: metav1.NewTime(t0)}
	// While Kueue's eviction still holds the quota, the check waits.
	w.Status.Conditions = []metav1.Condition{cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0), cond(kueue.WorkloadEvicted, metav1.ConditionTrue, t0)}
	if err := g.c.Status().Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	w = g.workload(t, "hopeless")
	g.reconcile(t)
	if got := g.workload(t, "hopeless"); got.ResourceVersion != w.ResourceVersion {
		t.Errorf("written while Kueue's eviction holds the quota: %q", CheckState(got, testCheck).Message)
	}
	// Kueue takes the quota back: the check puts its rejection back.
	w.Status.Conditions = []metav1.Condition{cond(kueue.WorkloadQuotaReserved, metav1.ConditionFalse, t0), cond(kueue.WorkloadEvicted, metav1.ConditionTrue, t0)}
	if err := g.c.Status().Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	g.reconcile(t)
	w = g.workload(t, "hopeless")
	want := "Rejected and deactivated by Kueue: " + strings.TrimPrefix(rejection, "Rejected: ")
	if st := CheckState(w, testCheck); st.State != kueue.CheckStatePending || st.Message != want {
		t.Errorf("check %s %q, want Pending %q", st.State, st.Message, want)
	}
	rv := w.ResourceVersion
	g.reconcile(t)
	if g.workload(t, "hopeless").ResourceVersion != rv {
		t.Error("the restored message was written again")
	}
}

// The check writes its state by server-side apply as its own field
// manager, forcing ownership as Kueue's controllers do, with only its own
// entry of status.admissionChecks: the other check's entry is kept. (The
// real tier checks the API server's managedFields.)
func TestReconcileServerSideApply(t *testing.T) {
	other := kueue.AdmissionCheckState{Name: "other-check", State: kueue.CheckStatePending, Message: "someone else's", LastTransitionTime: metav1.NewTime(t0)}
	w := wl("x", 1, kueue.CheckStatePending, true, fixedType("1h"))
	w.Status.AdmissionChecks = append(w.Status.AdmissionChecks, other)
	var applied []client.SubResourceApplyOptions
	c := fakeBuilder(t, interceptor.Funcs{SubResourceApply: applyAsMerge(&applied)}, append(cluster(), w)...).Build()
	g := newRig(t, c)
	g.reconcile(t)
	got := g.workload(t, "x")
	if st := CheckState(got, testCheck); st.State != kueue.CheckStateReady {
		t.Fatalf("x: %s %q", st.State, st.Message)
	}
	if st := CheckState(got, "other-check"); st == nil || st.Message != "someone else's" {
		t.Errorf("the other check's state was changed: %+v", st)
	}
	if len(applied) != 1 || applied[0].FieldManager != ControllerName || applied[0].Force == nil || !*applied[0].Force {
		t.Errorf("applies %+v, want one by field manager %s with force", applied, ControllerName)
	}
}

// The verdicts Kueue waits on are written before the deactivations and
// the ETA notes, Ready and Retry before Rejected, each group in plan
// order.
func TestWriteOrderVerdictsFirst(t *testing.T) {
	v := &Verdict{State: kueue.CheckStateReady}
	outs := []Outcome{
		{Key: "eta", Note: "Pending: …"},
		{Key: "deactivate", Verdict: &Verdict{State: kueue.CheckStateRejected}, Deactivate: true},
		{Key: "ready-1", Verdict: v},
		{Key: "eta-2"},
		{Key: "rejected", Verdict: &Verdict{State: kueue.CheckStateRejected}},
		{Key: "ready-2", Verdict: v},
	}
	var got []string
	for _, i := range writeOrder(outs) {
		got = append(got, outs[i].Key)
	}
	want := []string{"ready-1", "ready-2", "rejected", "eta", "deactivate", "eta-2"}
	if !slices.Equal(got, want) {
		t.Errorf("writeOrder: %v, want %v", got, want)
	}
}
