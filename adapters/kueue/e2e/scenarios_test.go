//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/constants"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

const checkName = "e2e-deadline"

// TestKueueDeadlineCheck runs every scenario of the real tier against one
// control plane: Kueue's controllers, scheduler and webhooks, and the
// check, as an operator would deploy them. Each scenario has its own
// namespace and ClusterQueue.
func TestKueueDeadlineCheck(t *testing.T) {
	e := startEnv(t)
	e.checkOpts = deadlinecheck.Options{
		Config:       deadlinecheck.Config{Confidence: 0.9, Samples: 500, MinRetry: time.Second, MaxRetry: 3 * time.Second},
		ETARefresh:   2 * time.Second,
		ETATolerance: time.Second,
	}
	e.startCheck(t)
	e.setupCluster(t)

	t.Run("FeasibleAdmittedAndRuns", e.feasible)
	t.Run("HopelessRejectedAndDeactivated", e.hopeless)
	t.Run("HopelessDeactivatedWhileWaiting", e.hopelessWaiting)
	t.Run("HeldWithRetryUntilCapacityFrees", e.retry)
	t.Run("ETAOnPendingMovesAsQueueDrains", e.eta)
	t.Run("ETAFollowsKueuesOrder", e.etaOrder)
	t.Run("MalformedAnnotationRejected", e.malformed)
	t.Run("RestartLosesNoDecision", e.restart)
	t.Run("ExampleYAMLApplies", e.example)
}

// setupCluster creates what every scenario shares: a ResourceFlavor, the
// check's DeadlineParameters and the AdmissionCheck, and waits for the
// check to be Active.
func (e *env) setupCluster(t *testing.T) {
	ctx := context.Background()
	create(t, e.c, &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "default"}})
	create(t, e.c, &v1alpha1.DeadlineParameters{ObjectMeta: metav1.ObjectMeta{Name: "models"}, Spec: v1alpha1.DeadlineParametersSpec{
		JobTypes: []v1alpha1.JobType{
			{Name: "fixed-60", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 60}},
			{Name: "fixed-200", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 200}},
			{Name: "fixed-600", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600}},
			{Name: "random", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 300, StdDevSeconds: 100}},
		},
	}})
	create(t, e.c, &kueue.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: checkName}, Spec: kueue.AdmissionCheckSpec{
		ControllerName: deadlinecheck.ControllerName,
		Parameters:     &kueue.AdmissionCheckParametersReference{APIGroup: "schedkit.io", Kind: "DeadlineParameters", Name: "models"},
	}})
	waitFor(t, 30*time.Second, "the AdmissionCheck to be Active", func() (bool, string) {
		ac := &kueue.AdmissionCheck{}
		if err := e.c.Get(ctx, client.ObjectKey{Name: checkName}, ac); err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(ac.Status.Conditions, kueue.AdmissionCheckActive)
		return c != nil && c.Status == metav1.ConditionTrue, fmt.Sprintf("%+v", c)
	})
}

// queue creates namespace ns with LocalQueue "lq" pointing at a new
// ClusterQueue "cq-<ns>" of the given cpu quota behind the check, and
// waits until Kueue reports the ClusterQueue active.
func (e *env) queue(t *testing.T, ns, cpu, cohort string) string {
	t.Helper()
	cq := "cq-" + ns
	create(t, e.c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	create(t, e.c, clusterQueue(cq, cpu, cohort, true))
	create(t, e.c, &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lq"}, Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}})
	e.waitActive(t, cq)
	return cq
}

func clusterQueue(name, cpu, cohort string, withCheck bool) *kueue.ClusterQueue {
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: kueue.ClusterQueueSpec{
		NamespaceSelector: &metav1.LabelSelector{},
		CohortName:        kueue.CohortReference(cohort),
		ResourceGroups: []kueue.ResourceGroup{{
			CoveredResources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory},
			Flavors: []kueue.FlavorQuotas{{Name: "default", Resources: []kueue.ResourceQuota{
				{Name: corev1.ResourceCPU, NominalQuota: resource.MustParse(cpu)},
				{Name: corev1.ResourceMemory, NominalQuota: resource.MustParse("64Gi")},
			}}},
		}},
	}}
	if withCheck {
		cq.Spec.AdmissionChecksStrategy = &kueue.AdmissionChecksStrategy{AdmissionChecks: []kueue.AdmissionCheckStrategyRule{{Name: checkName}}}
	}
	return cq
}

func (e *env) waitActive(t *testing.T, cq string) {
	t.Helper()
	waitFor(t, 30*time.Second, "ClusterQueue "+cq+" to be active", func() (bool, string) {
		q := &kueue.ClusterQueue{}
		if err := e.c.Get(context.Background(), client.ObjectKey{Name: cq}, q); err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(q.Status.Conditions, kueue.ClusterQueueActive)
		return c != nil && c.Status == metav1.ConditionTrue, fmt.Sprintf("%+v", c)
	})
}

// submit creates a suspended batch/v1 Job carrying the user's annotations
// and the Workload Kueue's job integration would create for it: pods of
// one cpu, owned by the Job, in LocalQueue "lq". (Kueue's batch/v1 Job
// integration does not run in-process here: the Workload is created as
// Kueue's own scheduler tests create theirs.)
func (e *env) submit(t *testing.T, ns, name string, pods int32, ann map[string]string) *kueue.Workload {
	t.Helper()
	return e.submitWith(t, ns, name, pods, ann, nil)
}

// submitWith is submit with the workload's spec edited by edit (a priority
// class, say) before it is created.
func (e *env) submitWith(t *testing.T, ns, name string, pods int32, ann map[string]string, edit func(*kueue.WorkloadSpec)) *kueue.Workload {
	t.Helper()
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: ann,
			Labels: map[string]string{"kueue.x-k8s.io/queue-name": "lq"}},
		Spec: batchv1.JobSpec{
			Suspend:     ptr(true),
			Parallelism: ptr(pods),
			Completions: ptr(pods),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{container()},
			}},
		},
	}
	create(t, e.c, job)
	wl := &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID, Controller: ptr(true)}}},
		Spec: kueue.WorkloadSpec{
			QueueName: "lq",
			PodSets: []kueue.PodSet{{Name: "main", Count: pods, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{container()},
			}}}},
		},
	}
	if edit != nil {
		edit(&wl.Spec)
	}
	create(t, e.c, wl)
	return wl
}

func container() corev1.Container {
	return corev1.Container{Name: "main", Image: "busybox", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")},
	}}
}

func annotations(deadline, jobType string) map[string]string {
	m := map[string]string{}
	if deadline != "" {
		m[deadlinecheck.DeadlineAnnotation] = deadline
	}
	if jobType != "" {
		m[deadlinecheck.JobTypeAnnotation] = jobType
	}
	return m
}

func create(t *testing.T, c client.Client, o client.Object) {
	t.Helper()
	if err := c.Create(context.Background(), o); err != nil {
		t.Fatalf("creating %T %s: %v", o, o.GetName(), err)
	}
}

func (e *env) get(t *testing.T, ns, name string) *kueue.Workload {
	t.Helper()
	wl := &kueue.Workload{}
	if err := e.c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, wl); err != nil {
		t.Fatalf("getting workload %s/%s: %v", ns, name, err)
	}
	return wl
}

func check(wl *kueue.Workload) kueue.AdmissionCheckState {
	if st := deadlinecheck.CheckState(wl, checkName); st != nil {
		return *st
	}
	return kueue.AdmissionCheckState{}
}

func isTrue(wl *kueue.Workload, cond string) bool {
	return apimeta.IsStatusConditionTrue(wl.Status.Conditions, cond)
}

// waitState waits until the workload's check is in state and returns it.
func (e *env) waitState(t *testing.T, ns, name string, state kueue.CheckState) *kueue.Workload {
	t.Helper()
	var wl *kueue.Workload
	waitFor(t, 30*time.Second, fmt.Sprintf("%s/%s check %s", ns, name, state), func() (bool, string) {
		wl = e.get(t, ns, name)
		st := check(wl)
		return st.State == state, fmt.Sprintf("%s %q", st.State, st.Message)
	})
	return wl
}

// waitCond waits until a condition of the workload is True.
func (e *env) waitCond(t *testing.T, ns, name, cond string) *kueue.Workload {
	t.Helper()
	var wl *kueue.Workload
	waitFor(t, 30*time.Second, fmt.Sprintf("%s/%s %s", ns, name, cond), func() (bool, string) {
		wl = e.get(t, ns, name)
		return isTrue(wl, cond), fmt.Sprintf("conditions %v, check %+v", condSummary(wl), check(wl))
	})
	return wl
}

func condSummary(wl *kueue.Workload) []string {
	var out []string
	for _, c := range wl.Status.Conditions {
		out = append(out, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
	}
	return out
}

// finish marks a workload Finished, as Kueue's job integration does when
// its Job completes; Kueue then releases its quota.
func (e *env) finish(t *testing.T, ns, name string) {
	t.Helper()
	wl := e.get(t, ns, name)
	apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
		Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: "Succeeded", Message: "Job finished successfully",
	})
	if err := e.c.Status().Update(context.Background(), wl); err != nil {
		t.Fatalf("finishing %s/%s: %v", ns, name, err)
	}
}

// events returns the notes of the events.k8s.io Events the check recorded
// about a workload.
func (e *env) events(t *testing.T, ns, name string) []string {
	t.Helper()
	l := &eventsv1.EventList{}
	if err := e.c.List(context.Background(), l, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range l.Items {
		if ev.Regarding.Name == name && ev.Regarding.Kind == "Workload" && strings.HasPrefix(ev.Reason, "Deadline") {
			out = append(out, ev.Reason+": "+ev.Note)
		}
	}
	return out
}

// waitEvent waits for the check's event with the given reason about a
// workload and returns its note. Decisions Kueue acts on at once (Retry,
// Rejected) are read from the events: the check state itself is reset to
// Pending by Kueue's eviction a moment later.
func (e *env) waitEvent(t *testing.T, ns, name, reason string) string {
	t.Helper()
	var note string
	waitFor(t, 30*time.Second, fmt.Sprintf("a %s event on %s/%s", reason, ns, name), func() (bool, string) {
		for _, ev := range e.events(t, ns, name) {
			if n, ok := strings.CutPrefix(ev, reason+": "); ok {
				note = n
				return true, ""
			}
		}
		wl := e.get(t, ns, name)
		return false, fmt.Sprintf("check %+v, conditions %v", check(wl), condSummary(wl))
	})
	return note
}

// waitDeactivated waits until Kueue has deactivated a workload for the
// check's rejection (msg, "Rejected: …"), checks that Kueue's record of why
// (its Evicted condition) carries the check's message, and that the check
// put its reason back on its state once Kueue's eviction had reset it.
func (e *env) waitDeactivated(t *testing.T, ns, name, msg string) *kueue.Workload {
	t.Helper()
	var wl *kueue.Workload
	restored := "Rejected and deactivated by Kueue: " + strings.TrimPrefix(msg, "Rejected: ")
	waitFor(t, 30*time.Second, fmt.Sprintf("Kueue to deactivate %s/%s and the check to restore its reason", ns, name), func() (bool, string) {
		wl = e.get(t, ns, name)
		ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted)
		st := check(wl)
		ok := wl.Spec.Active != nil && !*wl.Spec.Active && ev != nil && strings.Contains(ev.Message, msg) && !isTrue(wl, kueue.WorkloadQuotaReserved) &&
			st.State == kueue.CheckStatePending && st.Message == restored && wl.Annotations[deadlinecheck.RejectionAnnotation] == msg
		return ok, fmt.Sprintf("active %v, evicted %+v, check %+v, annotations %v", wl.Spec.Active, ev, st, wl.Annotations)
	})
	if isTrue(wl, kueue.WorkloadAdmitted) {
		t.Errorf("%s/%s was admitted", ns, name)
	}
	return wl
}

// waitRejected waits for the check to reject a workload, whichever way it
// meets it: waiting for quota (the check deactivates it) or holding quota
// (Rejected, then Kueue deactivates it). It returns the reason, checks
// that the workload ends deactivated, never admitted, with the reason on
// its check and in its annotation, and returns the workload. A workload
// the check deactivates while waiting may get quota from Kueue between
// the check's message and its deactivation; Kueue then evicts it and the
// check's message becomes the one of a workload deactivated by Kueue,
// with the same reason.
func (e *env) waitRejected(t *testing.T, ns, name string) (string, *kueue.Workload) {
	t.Helper()
	note := e.waitEvent(t, ns, name, "DeadlineRejected")
	if reason, ok := strings.CutPrefix(note, "Rejected and deactivated while waiting for quota: "); ok {
		var wl *kueue.Workload
		waitFor(t, 30*time.Second, fmt.Sprintf("the check to deactivate %s/%s", ns, name), func() (bool, string) {
			wl = e.get(t, ns, name)
			st := check(wl)
			ok := wl.Spec.Active != nil && !*wl.Spec.Active && st.State == kueue.CheckStatePending &&
				(st.Message == note || st.Message == "Rejected and deactivated by Kueue: "+reason) &&
				wl.Annotations[deadlinecheck.RejectionAnnotation] == "Rejected: "+reason
			return ok, fmt.Sprintf("active %v, check %+v, annotations %v", wl.Spec.Active, st, wl.Annotations)
		})
		if isTrue(wl, kueue.WorkloadAdmitted) {
			t.Errorf("%s/%s was admitted", ns, name)
		}
		return reason, wl
	}
	wl := e.waitDeactivated(t, ns, name, note)
	return strings.TrimPrefix(note, "Rejected: "), wl
}

// writersBetween names the field managers, other than this test process,
// whose managedFields entries differ between two reads of a workload: the
// processes that wrote it in between. Kueue's controllers run in this
// process and keep writing workloads (conditions of a deactivated one) on
// their own schedule, as this process and through server-side apply under
// Kueue's field owners (kueue-admission, kueue-workload-controller, …), so
// they are left out; the restarted check is its own process
// (schedkit-deadline) and its status writes go through server-side apply
// as schedkit.io/deadline.
func writersBetween(before, after *kueue.Workload) []string {
	self := filepath.Base(os.Args[0])
	key := func(m metav1.ManagedFieldsEntry) string {
		return m.Manager + " " + string(m.Operation) + " " + m.Subresource
	}
	old := map[string]metav1.ManagedFieldsEntry{}
	for _, m := range before.ManagedFields {
		old[key(m)] = m
	}
	var out []string
	for _, m := range after.ManagedFields {
		if m.Manager == self || m.Manager == constants.KueueName || strings.HasPrefix(m.Manager, constants.KueueName+"-") {
			continue
		}
		o, ok := old[key(m)]
		if !ok || !o.Time.Equal(m.Time) || !bytes.Equal(o.FieldsV1.Raw, m.FieldsV1.Raw) {
			out = append(out, key(m))
		}
	}
	return out
}

func annotationTime(t *testing.T, wl *kueue.Workload, key string) time.Time {
	t.Helper()
	v, ok := wl.Annotations[key]
	if !ok {
		t.Fatalf("%s/%s has no annotation %s (annotations %v)", wl.Namespace, wl.Name, key, wl.Annotations)
	}
	tm, err := time.Parse(time.RFC3339, v)
	if err != nil {
		t.Fatalf("%s = %q: %v", key, v, err)
	}
	return tm
}

func near(a, b time.Time, tol time.Duration) bool {
	d := a.Sub(b)
	return d <= tol && d >= -tol
}

func admittedAt(t *testing.T, wl *kueue.Workload) time.Time {
	t.Helper()
	c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadAdmitted)
	if c == nil || c.Status != metav1.ConditionTrue {
		t.Fatalf("%s/%s is not admitted: %v", wl.Namespace, wl.Name, condSummary(wl))
	}
	return c.LastTransitionTime.Time
}

// 1. A workload that meets its deadline is Ready, Kueue admits it (the
// Admitted condition Kueue's job integration unsuspends the Job on), and
// when it finishes Kueue releases its quota.
func (e *env) feasible(t *testing.T) {
	cq := e.queue(t, "s1", "4", "")
	e.submit(t, "s1", "w1", 2, annotations("30m", "fixed-60"))
	wl := e.waitState(t, "s1", "w1", kueue.CheckStateReady)
	st := check(wl)
	want := regexp.MustCompile(`^Ready: predicted finish \S+Z \(p50\) / \S+Z \(p90\), deadline \S+Z; P\(its deadline holds\) = 1\.00 >= 0\.90$`)
	if !want.MatchString(st.Message) {
		t.Errorf("Ready message %q does not match %v", st.Message, want)
	}
	wl = e.waitCond(t, "s1", "w1", kueue.WorkloadAdmitted)
	// The prediction: started now, 60 s per pod, all pods in parallel.
	finish := regexp.MustCompile(`finish (\S+) \(p50\)`).FindStringSubmatch(st.Message)
	ft, err := time.Parse(time.RFC3339, finish[1])
	if err != nil || !near(ft, admittedAt(t, wl).Add(60*time.Second), 5*time.Second) {
		t.Errorf("predicted finish %v, want about admission + 60 s = %v", finish[1], admittedAt(t, wl).Add(60*time.Second))
	}
	if ev := e.events(t, "s1", "w1"); len(ev) == 0 || !strings.HasPrefix(ev[0], "DeadlineReady: Ready: predicted finish") {
		t.Errorf("events %q, want a DeadlineReady event", ev)
	}
	e.finish(t, "s1", "w1")
	waitFor(t, 30*time.Second, "Kueue to release the quota", func() (bool, string) {
		q := &kueue.ClusterQueue{}
		if err := e.c.Get(context.Background(), client.ObjectKey{Name: cq}, q); err != nil {
			return false, err.Error()
		}
		return q.Status.AdmittedWorkloads == 0 && q.Status.ReservingWorkloads == 0,
			fmt.Sprintf("admitted %d, reserving %d", q.Status.AdmittedWorkloads, q.Status.ReservingWorkloads)
	})
}

// 2. A workload holding quota that cannot meet its deadline even alone is
// Rejected with the numbers; Kueue deactivates it, and the check puts its
// reason back on its state after Kueue's eviction reset it. (The check is
// stopped until Kueue has reserved the quota, so that it meets the
// workload holding quota.) The check's state is its own server-side apply.
func (e *env) hopeless(t *testing.T) {
	e.queue(t, "s2", "4", "")
	e.stopCheck()
	e.submit(t, "s2", "late", 1, annotations("2m", "fixed-600"))
	e.waitCond(t, "s2", "late", kueue.WorkloadQuotaReserved)
	e.startCheck(t)
	msg := e.waitEvent(t, "s2", "late", "DeadlineRejected")
	want := regexp.MustCompile(`^Rejected: even started now with the quota to itself it would finish \S+Z \(p50\) / \S+Z \(p90\), after its deadline \S+Z: P\(on time\) = 0\.00 < 0\.90 \(job type "fixed-600", 1 pod\)$`)
	if !want.MatchString(msg) {
		t.Errorf("Rejected message %q does not match %v", msg, want)
	}
	wl := e.waitDeactivated(t, "s2", "late", msg)
	var applied bool
	for _, m := range wl.ManagedFields {
		if m.Manager == deadlinecheck.ControllerName && m.Operation == metav1.ManagedFieldsOperationApply && m.Subresource == "status" &&
			m.FieldsV1 != nil && strings.Contains(string(m.FieldsV1.Raw), fmt.Sprintf(`"k:{\"name\":\"%s\"}"`, checkName)) {
			applied = true
		}
	}
	if !applied {
		t.Errorf("no server-side apply of the check's entry by %s in %+v", deadlinecheck.ControllerName, wl.ManagedFields)
	}
}

// 2b. A workload waiting for quota that the check already knows it will
// reject is deactivated at once, with its ETA, rather than left waiting
// behind the long job: late even alone, or with a deadline already past
// (named with the annotation it was read from).
func (e *env) hopelessWaiting(t *testing.T) {
	e.queue(t, "s7", "1", "")
	e.submit(t, "s7", "blocker", 1, annotations("1h", "fixed-600"))
	blocker := e.waitCond(t, "s7", "blocker", kueue.WorkloadAdmitted)
	e.submit(t, "s7", "late", 1, annotations("5m", "fixed-600"))
	e.submit(t, "s7", "past", 1, annotations("2020-01-01T00:00:00Z", "fixed-60"))
	for name, want := range map[string]*regexp.Regexp{
		"late": regexp.MustCompile(`^even started now with the quota to itself it would finish \S+Z \(p50\) / \S+Z \(p90\), after its deadline \S+Z: P\(on time\) = 0\.00 < 0\.90 \(job type "fixed-600", 1 pod\)$`),
		"past": regexp.MustCompile(`^its deadline 2020-01-01T00:00:00Z has already passed \(annotation schedkit\.io/deadline = "2020-01-01T00:00:00Z" on Job s7/past\)$`),
	} {
		note := e.waitEvent(t, "s7", name, "DeadlineRejected")
		reason, ok := strings.CutPrefix(note, "Rejected and deactivated while waiting for quota: ")
		if !ok || !want.MatchString(reason) {
			t.Errorf("%s: event %q, want the deactivation with a reason matching %v", name, note, want)
		}
		_, wl := e.waitRejected(t, "s7", name)
		for _, c := range wl.Status.Conditions {
			if c.Type == kueue.WorkloadQuotaReserved && c.Status == metav1.ConditionTrue {
				t.Errorf("%s held quota", name)
			}
		}
		// Its ETA, written with the deactivation: behind the blocker.
		if got := annotationTime(t, wl, deadlinecheck.StartP50Annotation); !near(got, admittedAt(t, blocker).Add(600*time.Second), 10*time.Second) {
			t.Errorf("%s: predicted start %v, want about the blocker's end %v", name, got, admittedAt(t, blocker).Add(600*time.Second))
		}
	}
}

// 3. A workload that would push an admitted one past its deadline is held
// (Retry, with requeueAfterSeconds) and admitted once capacity frees.
//
// ClusterQueue cq-s3 has 2 cpu nominal and borrows from cq-s3-lender (4
// cpu) in cohort co-s3. a (2 pods of 200 s, deadline 250 s) is admitted on
// the nominal quota: 50 s of slack. c (3 pods of 60 s, deadline 200 s:
// before a's) borrows the cpu it needs, but the check plans on the nominal
// quota, where c's 3·60/3 = 60 s of work ahead of a leaves a 10 s late.
func (e *env) retry(t *testing.T) {
	create(t, e.c, clusterQueue("cq-s3-lender", "4", "co-s3", false))
	e.waitActive(t, "cq-s3-lender")
	e.queue(t, "s3", "2", "co-s3")
	e.submit(t, "s3", "a", 2, annotations("250s", "fixed-200"))
	e.waitCond(t, "s3", "a", kueue.WorkloadAdmitted)
	e.submit(t, "s3", "c", 3, annotations("200s", "fixed-60"))

	msg := e.waitEvent(t, "s3", "c", "DeadlineRetry")
	want := regexp.MustCompile(`^Retry in 3s: admitting it now would push admitted s3/a past its deadline \S+Z: P\(s3/a on time\) = 0\.00 < 0\.90; alone it would finish \S+Z \(p50\) / \S+Z \(p90\), deadline \S+Z$`)
	if !want.MatchString(msg) {
		t.Errorf("Retry message %q does not match %v", msg, want)
	}
	// Kueue acts on the Retry: it evicts c (releasing the borrowed quota),
	// counts the retry and requeues c after requeueAfterSeconds.
	waitFor(t, 30*time.Second, "Kueue to count the retry of s3/c", func() (bool, string) {
		st := check(e.get(t, "s3", "c"))
		return st.RetryCount != nil && *st.RetryCount >= 1 && st.RequeueAfterSeconds != nil && *st.RequeueAfterSeconds == 3,
			fmt.Sprintf("%+v", st)
	})
	// Held while a runs: over a few retry cycles c is never admitted.
	for range 8 {
		if wl := e.get(t, "s3", "c"); isTrue(wl, kueue.WorkloadAdmitted) {
			t.Fatalf("s3/c admitted while s3/a runs: %+v", check(wl))
		}
		time.Sleep(time.Second)
	}
	e.finish(t, "s3", "a")
	wl := e.waitCond(t, "s3", "c", kueue.WorkloadAdmitted)
	if st := check(wl); st.State != kueue.CheckStateReady || !strings.HasPrefix(st.Message, "Ready: predicted finish") {
		t.Errorf("s3/c admitted with check %+v", st)
	}
}

// 4. Pending workloads carry their predicted start and finish (p50, p90)
// in annotations, in the check message and as metrics; the ETA moves as
// the queue drains.
//
// cq-s4 has 2 cpu. a (2 pods of 600 s) runs; b (2 pods of 600 s, deadline
// 2 h) waits for a's 2·600/2 = 600 s of work, then runs 600 s; d (1 pod of
// 60 s, no deadline) comes after b in EDF order (and in the ClusterQueue's
// strict FIFO): start = a's admission + 1200 s.
func (e *env) eta(t *testing.T) {
	cq := e.queue(t, "s4", "2", "")
	// Strict FIFO: once a finishes, b (first in line) gets the quota; with
	// Kueue's default BestEffortFIFO the smaller d may slip in first.
	q := &kueue.ClusterQueue{}
	if err := e.c.Get(context.Background(), client.ObjectKey{Name: cq}, q); err != nil {
		t.Fatal(err)
	}
	q.Spec.QueueingStrategy = kueue.StrictFIFO
	if err := e.c.Update(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	t0 := e.behindA(t, "s4", queued{"b", 2, annotations("2h", "fixed-600")}, queued{"d", 1, annotations("", "fixed-60")})

	var b, d *kueue.Workload
	waitFor(t, 30*time.Second, "ETA annotations on s4/b and s4/d", func() (bool, string) {
		b, d = e.get(t, "s4", "b"), e.get(t, "s4", "d")
		_, hb := b.Annotations[deadlinecheck.FinishP90Annotation]
		_, hd := d.Annotations[deadlinecheck.FinishP90Annotation]
		return hb && hd, fmt.Sprintf("b %v, d %v", b.Annotations, d.Annotations)
	})
	const tol = 10 * time.Second
	for _, c := range []struct {
		wl            *kueue.Workload
		start, finish time.Time
	}{
		{b, t0.Add(600 * time.Second), t0.Add(1200 * time.Second)},
		{d, t0.Add(1200 * time.Second), t0.Add(1260 * time.Second)},
	} {
		for _, k := range []string{deadlinecheck.StartP50Annotation, deadlinecheck.StartP90Annotation} {
			if got := annotationTime(t, c.wl, k); !near(got, c.start, tol) {
				t.Errorf("%s %s = %v, want about %v", c.wl.Name, k, got, c.start)
			}
		}
		for _, k := range []string{deadlinecheck.FinishP50Annotation, deadlinecheck.FinishP90Annotation} {
			if got := annotationTime(t, c.wl, k); !near(got, c.finish, tol) {
				t.Errorf("%s %s = %v, want about %v", c.wl.Name, k, got, c.finish)
			}
		}
	}
	// The check writes the ETA annotations first, then the Pending note
	// that repeats them.
	note := regexp.MustCompile(`^Pending: predicted start \S+Z \(p50\) / \S+Z \(p90\), finish \S+Z \(p50\) / \S+Z \(p90\), deadline \S+Z$`)
	waitFor(t, 10*time.Second, "b's Pending note", func() (bool, string) {
		msg := check(e.get(t, "s4", "b")).Message
		return note.MatchString(msg), fmt.Sprintf("message %q", msg)
	})
	// The same figures on the metrics endpoint.
	dStart := annotationTime(t, d, deadlinecheck.StartP50Annotation)
	series := fmt.Sprintf(`schedkit_deadline_workload_predicted_start_timestamp_seconds{cluster_queue=%q,namespace="s4",quantile="0.5",workload="d"}`, cq)
	waitFor(t, 10*time.Second, "the metric "+series, func() (bool, string) {
		v, ok := metricValue(e.metrics(t), series)
		return ok && math.Abs(v-float64(dStart.Unix())) <= 1, fmt.Sprintf("value %v (present %v), annotation %v", v, ok, dStart.Unix())
	})
	if _, ok := metricValue(e.metrics(t), fmt.Sprintf(`schedkit_deadline_pending_workloads{cluster_queue=%q}`, cq)); !ok {
		t.Error("no pending_workloads metric")
	}

	// a finishes: b gets its quota and is admitted; d now waits only for b.
	e.finish(t, "s4", "a")
	waitFor(t, 30*time.Second, "s4/b to be admitted", func() (bool, string) {
		b = e.get(t, "s4", "b")
		d := e.get(t, "s4", "d")
		return isTrue(b, kueue.WorkloadAdmitted), fmt.Sprintf("b %v %+v; d %v %+v", condSummary(b), check(b), condSummary(d), check(d))
	})
	tb := admittedAt(t, b)
	waitFor(t, 30*time.Second, "s4/d's ETA to move up behind b", func() (bool, string) {
		d = e.get(t, "s4", "d")
		s, err := time.Parse(time.RFC3339, d.Annotations[deadlinecheck.StartP50Annotation])
		return err == nil && near(s, tb.Add(600*time.Second), tol), fmt.Sprintf("start %s, want about %v", d.Annotations[deadlinecheck.StartP50Annotation], tb.Add(600*time.Second))
	})
	if moved := dStart.Sub(annotationTime(t, d, deadlinecheck.StartP50Annotation)); moved < 500*time.Second {
		t.Errorf("d's start moved up by %v only", moved)
	}
	// Admitted, b keeps the ETA it waited with: the check writes nothing
	// to it while Kueue admits it and its Job starts.
	b = e.get(t, "s4", "b")
	for _, k := range deadlinecheck.ETAAnnotations {
		if _, ok := b.Annotations[k]; !ok {
			t.Errorf("admitted b lost its ETA annotation %s: %v", k, b.Annotations)
		}
	}
	waitFor(t, 10*time.Second, "b's metrics to go", func() (bool, string) {
		_, ok := metricValue(e.metrics(t), fmt.Sprintf(`schedkit_deadline_workload_predicted_start_timestamp_seconds{cluster_queue=%q,namespace="s4",quantile="0.5",workload="b"}`, cq))
		return !ok, "still there"
	})
}

// 4b. The ETA follows the order Kueue admits in, not deadlines: cq-s8 has
// 2 cpu, held by a (2 pods of 600 s). b (2 pods of 200 s, deadline 2 h)
// arrives first; d (2 pods of 60 s, no deadline) later but with a
// WorkloadPriorityClass of value 100. EDF would serve b first; Kueue serves
// priority first, and the ETAs say so: d starts when a ends and b after d.
// When a finishes, Kueue admits d, not b.
func (e *env) etaOrder(t *testing.T) {
	e.queue(t, "s8", "2", "")
	create(t, e.c, &kueue.WorkloadPriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "s8-high"}, Value: 100})
	e.submit(t, "s8", "a", 2, annotations("1h", "fixed-600"))
	a := e.waitCond(t, "s8", "a", kueue.WorkloadAdmitted)
	ta := admittedAt(t, a)
	e.submit(t, "s8", "b", 2, annotations("2h", "fixed-200"))
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
	e.submitWith(t, "s8", "d", 2, annotations("", "fixed-60"), func(s *kueue.WorkloadSpec) {
		s.PriorityClassRef = kueue.NewWorkloadPriorityClassRef("s8-high")
		s.Priority = ptr(int32(100))
	})
	const tol = 10 * time.Second
	waitFor(t, 30*time.Second, "ETAs in Kueue's order on s8/b and s8/d", func() (bool, string) {
		b, d := e.get(t, "s8", "b"), e.get(t, "s8", "d")
		ds, err1 := time.Parse(time.RFC3339, d.Annotations[deadlinecheck.StartP50Annotation])
		bs, err2 := time.Parse(time.RFC3339, b.Annotations[deadlinecheck.StartP50Annotation])
		ok := err1 == nil && err2 == nil && near(ds, ta.Add(600*time.Second), tol) && near(bs, ta.Add(660*time.Second), tol)
		return ok, fmt.Sprintf("d %v, b %v; want d at %v, b at %v", d.Annotations, b.Annotations, ta.Add(600*time.Second), ta.Add(660*time.Second))
	})
	e.finish(t, "s8", "a")
	e.waitAdmittedFirst(t, "s8", "d", "b")
}

// A queued workload: its name, pods and annotations.
type queued struct {
	name string
	pods int32
	ann  map[string]string
}

// behindA submits ns/a (2 pods of 600 s, deadline 1 h), waits for Kueue to
// admit it, then submits first and, in a later second, second, and
// returns a's admission. Kueue orders a queue by creation time at
// one-second resolution: second is created a second later so that first
// is ahead of it in Kueue's FIFO.
func (e *env) behindA(t *testing.T, ns string, first, second queued) time.Time {
	t.Helper()
	e.submit(t, ns, "a", 2, annotations("1h", "fixed-600"))
	ta := admittedAt(t, e.waitCond(t, ns, "a", kueue.WorkloadAdmitted))
	e.submit(t, ns, first.name, first.pods, first.ann)
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
	e.submit(t, ns, second.name, second.pods, second.ann)
	return ta
}

// waitAdmittedFirst waits for Kueue to admit ns/first, failing if it
// reserves quota for ns/second before it or beside it.
func (e *env) waitAdmittedFirst(t *testing.T, ns, first, second string) {
	t.Helper()
	waitFor(t, 30*time.Second, fmt.Sprintf("Kueue to admit %s/%s before %s/%s", ns, first, ns, second), func() (bool, string) {
		f, s := e.get(t, ns, first), e.get(t, ns, second)
		if isTrue(s, kueue.WorkloadQuotaReserved) && !isTrue(f, kueue.WorkloadQuotaReserved) {
			t.Fatalf("Kueue reserved quota for %s before %s: %s %v, %s %v", second, first, second, condSummary(s), first, condSummary(f))
		}
		return isTrue(f, kueue.WorkloadAdmitted), fmt.Sprintf("%s %v, %s %v", second, condSummary(s), first, condSummary(f))
	})
	if s := e.get(t, ns, second); isTrue(s, kueue.WorkloadQuotaReserved) {
		t.Errorf("%s holds quota beside %s: %v", second, first, condSummary(s))
	}
}

// metricValue finds one series in a text exposition.
func metricValue(text, series string) (float64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v, err == nil
		}
	}
	return 0, false
}

// 5. A malformed annotation is Rejected with the field and value named,
// the workload is deactivated (by the check while it waits for quota, or
// by Kueue once it holds some), and the check keeps serving the others.
func (e *env) malformed(t *testing.T) {
	e.queue(t, "s5", "4", "")
	e.submit(t, "s5", "bad-deadline", 1, annotations("next tuesday", "fixed-60"))
	e.submit(t, "s5", "bad-type", 1, annotations("1h", "etl"))
	e.submit(t, "s5", "good", 1, annotations("1h", "fixed-60"))
	for name, want := range map[string]string{
		"bad-deadline": `annotation schedkit.io/deadline = "next tuesday": neither an RFC 3339 time (2026-11-24T18:00:00Z) nor a duration such as 90m`,
		"bad-type":     `annotation schedkit.io/job-type = "etl": names no job type of DeadlineParameters models (fixed-200, fixed-60, fixed-600, random)`,
	} {
		if got, _ := e.waitRejected(t, "s5", name); got != want {
			t.Errorf("%s: reason\n%s\nwant\n%s", name, got, want)
		}
	}
	e.waitCond(t, "s5", "good", kueue.WorkloadAdmitted)
}

// 6. Restarting the check loses no decision: its state lives in the
// Workloads, and a new process (here the real cmd/schedkit-deadline binary,
// started with its flags) rebuilds it from the API server.
//
// cq-s6 has 3 cpu: a (2 pods of 600 s) is admitted, r (hopeless) is
// rejected and deactivated. With the check down, b (2 pods of 600 s)
// arrives; it does not fit beside a. The restarted check gives b the ETA
// that needs a's admission time and model, read back from the API server
// (b starts when a frees its 2 cpu), and leaves a's and r's decisions as
// they were.
func (e *env) restart(t *testing.T) {
	e.queue(t, "s6", "3", "")
	e.submit(t, "s6", "a", 2, annotations("1h", "fixed-600"))
	a := e.waitCond(t, "s6", "a", kueue.WorkloadAdmitted)
	e.submit(t, "s6", "r", 1, annotations("1m", "fixed-600"))
	e.waitRejected(t, "s6", "r")

	// Read once the check has stopped, so that a write of its own still in
	// flight is not taken for one of the restarted check's.
	e.stopCheck()
	a, r := e.get(t, "s6", "a"), e.get(t, "s6", "r")
	e.submit(t, "s6", "b", 2, annotations("2h", "fixed-600"))
	time.Sleep(3 * time.Second)
	b := e.get(t, "s6", "b")
	if st := check(b); st.State != kueue.CheckStatePending || st.Message != "" || len(b.Annotations) != 0 {
		t.Fatalf("b was handled while the check was down: %+v, %v", st, b.Annotations)
	}

	// The check comes back as its own process: cmd/schedkit-deadline.
	metricsAddr, stop := e.runManager(t)
	defer func() { stop(); e.startCheck(t) }()
	// start = a's admission + its 600 s.
	wantStart := admittedAt(t, a).Add(600 * time.Second)
	waitFor(t, 30*time.Second, "s6/b's ETA after the restart", func() (bool, string) {
		b = e.get(t, "s6", "b")
		s, err := time.Parse(time.RFC3339, b.Annotations[deadlinecheck.StartP50Annotation])
		return err == nil && near(s, wantStart, 10*time.Second),
			fmt.Sprintf("annotations %v, want start about %v", b.Annotations, wantStart)
	})
	time.Sleep(3 * time.Second) // a few reconciles of the restarted check
	for _, before := range []*kueue.Workload{a, r} {
		after := e.get(t, "s6", before.Name)
		if b, a := check(before), check(after); a.State != b.State || a.Message != b.Message || !a.LastTransitionTime.Equal(&b.LastTransitionTime) {
			t.Errorf("%s's check changed across the restart: %+v → %+v", before.Name, b, a)
		}
		if w := writersBetween(before, after); len(w) > 0 {
			t.Errorf("%s was rewritten across the restart by %v", before.Name, w)
		}
	}
	if wl := e.get(t, "s6", "a"); !isTrue(wl, kueue.WorkloadAdmitted) {
		t.Errorf("a lost its admission: %v", condSummary(wl))
	}
	if wl := e.get(t, "s6", "r"); wl.Spec.Active == nil || *wl.Spec.Active {
		t.Errorf("r was reactivated")
	}
	series := `schedkit_deadline_workload_predicted_start_timestamp_seconds{cluster_queue="cq-s6",namespace="s6",quantile="0.5",workload="b"}`
	if v, ok := metricValue(scrape(t, metricsAddr), series); !ok || math.Abs(v-float64(wantStart.Unix())) > 10 {
		t.Errorf("the manager process serves %s = %v (present %v), want about %d", series, v, ok, wantStart.Unix())
	}
}

// 7. The README's example (config/samples) and the RBAC (config/rbac)
// apply to a real API server with Kueue's webhooks; the check takes the
// example's parameters, and the example Job's annotations decide its
// Workload.
func (e *env) example(t *testing.T) {
	create(t, e.c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kueue-system"}})
	for _, f := range []string{"../config/rbac/service_account.yaml", "../config/rbac/role.yaml", "../config/rbac/role_binding.yaml", "../config/samples/deadline-check.yaml"} {
		for _, o := range readObjects(t, f) {
			if err := e.c.Create(context.Background(), o); err != nil {
				t.Fatalf("%s: creating %s %s: %v", f, o.GetKind(), o.GetName(), err)
			}
		}
	}
	waitFor(t, 30*time.Second, "the example AdmissionCheck to be Active", func() (bool, string) {
		ac := &kueue.AdmissionCheck{}
		if err := e.c.Get(context.Background(), client.ObjectKey{Name: "deadline"}, ac); err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(ac.Status.Conditions, kueue.AdmissionCheckActive)
		return c != nil && c.Status == metav1.ConditionTrue && c.Message == "Active: DeadlineParameters batch-models, 2 job types", fmt.Sprintf("%+v", c)
	})
	e.waitActive(t, "batch")
	job := &batchv1.Job{}
	if err := e.c.Get(context.Background(), client.ObjectKey{Namespace: "team-a", Name: "nightly-etl"}, job); err != nil {
		t.Fatal(err)
	}
	// The Workload Kueue's job integration creates for the Job: 4 pods of
	// 1 cpu in LocalQueue batch.
	wl := &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "job-nightly-etl",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID, Controller: ptr(true)}}},
		Spec: kueue.WorkloadSpec{QueueName: "batch", PodSets: []kueue.PodSet{{Name: "main", Count: 4, Template: job.Spec.Template}}},
	}
	create(t, e.c, wl)
	wl = e.waitCond(t, "team-a", "job-nightly-etl", kueue.WorkloadAdmitted)
	st := deadlinecheck.CheckState(wl, "deadline")
	if st == nil || st.State != kueue.CheckStateReady || !strings.HasPrefix(st.Message, "Ready: predicted finish") {
		t.Errorf("example workload: %+v", st)
	}
}

// readObjects decodes a multi-document YAML file.
func readObjects(t *testing.T, path string) []*unstructured.Unstructured {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(raw), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatalf("%s: %v", path, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
