//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// The user-facing contract: annotation keys and names the tests check
// literally, as a user writes them.
const (
	annDeadline   = "schedkit.io/deadline"
	annJobType    = "schedkit.io/job-type"
	annRuntime    = "schedkit.io/runtime"
	annStartP50   = "schedkit.io/predicted-start-p50"
	annFinishP90  = "schedkit.io/predicted-finish-p90"
	annRejection  = "schedkit.io/rejection"
	annKwokDelay  = "pod-complete.stage.kwok.x-k8s.io/delay"
	scenarioLabel = "schedkit.io/scenario"
	instanceType  = "node.kubernetes.io/instance-type"
	checkName     = "e2e-deadline"
	schedkitSched = "schedkit-scheduler"
)

// A scenario is one test's slice of the shared cluster: its namespace
// s-NAME, and kwok nodes labelled and tainted schedkit.io/scenario=NAME
// that only its pods (which carry the matching selector and toleration)
// run on. Both go when the test ends.
type scenario struct {
	t    *testing.T
	cl   *cluster
	name string
	ns   string
	ctx  context.Context
	// cleanup bounds the deletion of the namespace when the test ends
	// (60 s when zero).
	cleanup time.Duration
}

func (cl *cluster) scenario(t *testing.T, name string) *scenario {
	t.Helper()
	s := &scenario{t: t, cl: cl, name: name, ns: "s-" + name, ctx: context.Background()}
	s.create(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.ns}})
	t.Cleanup(func() {
		// The namespace first: kwok finishes the deletion of a running pod
		// only while it manages the pod's node. Deadline jobs still running
		// would weigh on the next scenario's admission decisions
		// (DeadlineAdmission plans cluster-wide).
		ctx := context.Background()
		_ = cl.cs.CoreV1().Namespaces().Delete(ctx, s.ns, metav1.DeleteOptions{})
		limit := s.cleanup
		if limit == 0 {
			limit = 60 * time.Second
		}
		eventually(t, limit, "namespace "+s.ns+" gone", func() (bool, string) {
			ns, err := cl.cs.CoreV1().Namespaces().Get(ctx, s.ns, metav1.GetOptions{})
			if err == nil {
				return false, fmt.Sprintf("%+v", ns.Status.Conditions)
			}
			return apierrors.IsNotFound(err), err.Error()
		})
		_ = cl.cs.CoreV1().Nodes().DeleteCollection(ctx, metav1.DeleteOptions{},
			metav1.ListOptions{LabelSelector: scenarioLabel + "=" + name})
	})
	// The ServiceAccount admission plugin refuses pods until the
	// namespace's default ServiceAccount exists.
	eventually(t, 30*time.Second, "the default ServiceAccount of "+s.ns, func() (bool, string) {
		_, err := cl.cs.CoreV1().ServiceAccounts(s.ns).Get(s.ctx, "default", metav1.GetOptions{})
		return err == nil, fmt.Sprint(err)
	})
	return s
}

func (s *scenario) create(o client.Object) {
	s.t.Helper()
	if err := s.cl.c.Create(s.ctx, o); err != nil {
		s.t.Fatalf("creating %T %s: %v", o, o.GetName(), err)
	}
}

// A node is one kwok node of a scenario.
type node struct {
	name, typ string // typ: the node.kubernetes.io/instance-type label
	cpu       string
	extra     corev1.ResourceList
}

// nodes creates the scenario's kwok nodes and waits until kwok reports
// them Ready.
func (s *scenario) nodes(ns ...node) {
	s.t.Helper()
	for _, n := range ns {
		res := corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(n.cpu),
			corev1.ResourceMemory: resource.MustParse("64Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		}
		maps.Copy(res, n.extra)
		s.create(&corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: n.name,
				Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
				Labels: map[string]string{scenarioLabel: s.name, instanceType: n.typ,
					"kubernetes.io/hostname": n.name, "type": "kwok"}},
			Spec:   corev1.NodeSpec{Taints: []corev1.Taint{{Key: scenarioLabel, Value: s.name, Effect: corev1.TaintEffectNoSchedule}}},
			Status: corev1.NodeStatus{Capacity: res, Allocatable: res},
		})
	}
	eventually(s.t, 60*time.Second, fmt.Sprintf("%d nodes of %s Ready", len(ns), s.name), func() (bool, string) {
		var notReady []string
		for _, n := range ns {
			got, err := s.cl.cs.CoreV1().Nodes().Get(s.ctx, n.name, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			ready := false
			for _, c := range got.Status.Conditions {
				ready = ready || c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue
			}
			if !ready {
				notReady = append(notReady, n.name)
			}
		}
		return len(notReady) == 0, fmt.Sprintf("not Ready: %v", notReady)
	})
}

// A jobSpec describes one batch/v1 Job of a scenario. Its pods ask for
// cpu each and 1Gi, run on the scenario's nodes (on node when set) and
// are scheduled by scheduler (schedkit-scheduler when empty).
type jobSpec struct {
	name      string
	pods      int32
	cpu       string
	ann       map[string]string // the Job's annotations
	runFor    time.Duration     // kwok runs each pod this long; 0: until deleted
	queue     string            // Kueue LocalQueue; "": not managed by Kueue
	scheduler string
	priority  string // PriorityClass
	node      string // kubernetes.io/hostname the pods must run on
}

func (s *scenario) job(js jobSpec) *batchv1.Job {
	s.t.Helper()
	job := s.newJob(js)
	s.create(job)
	return job
}

// newJob builds the Job of js without creating it.
func (s *scenario) newJob(js jobSpec) *batchv1.Job {
	if js.scheduler == "" {
		js.scheduler = schedkitSched
	}
	if js.cpu == "" {
		js.cpu = "1"
	}
	podAnn := map[string]string{}
	if js.runFor > 0 {
		podAnn[annKwokDelay] = js.runFor.String()
	}
	sel := map[string]string{scenarioLabel: s.name}
	if js.node != "" {
		sel["kubernetes.io/hostname"] = js.node
	}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: js.name, Annotations: js.ann},
		Spec: batchv1.JobSpec{
			Parallelism:  ptr.To(js.pods),
			Completions:  ptr.To(js.pods),
			BackoffLimit: ptr.To[int32](0),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: podAnn},
				Spec: corev1.PodSpec{
					SchedulerName:     js.scheduler,
					PriorityClassName: js.priority,
					RestartPolicy:     corev1.RestartPolicyNever,
					NodeSelector:      sel,
					Tolerations:       []corev1.Toleration{{Key: scenarioLabel, Operator: corev1.TolerationOpEqual, Value: s.name, Effect: corev1.TaintEffectNoSchedule}},
					Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36", Command: []string{"sleep", "3600"},
						Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
							corev1.ResourceCPU: resource.MustParse(js.cpu), corev1.ResourceMemory: resource.MustParse("1Gi")}}}},
				},
			},
		},
	}
	if js.queue != "" {
		job.Labels = map[string]string{"kueue.x-k8s.io/queue-name": js.queue}
		job.Spec.Suspend = ptr.To(true)
	}
	return job
}

// queue creates ClusterQueue cq with the given cpu quota, in cohort when
// not empty, behind the check when check is set, in StrictFIFO order when
// strict is set (else Kueue's default, BestEffortFIFO), and waits until
// Kueue reports it active.
func (s *scenario) queue(cq, cpu, cohort string, check, strict bool) {
	s.t.Helper()
	q := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: cq}, Spec: kueue.ClusterQueueSpec{
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
	if check {
		q.Spec.AdmissionChecksStrategy = &kueue.AdmissionChecksStrategy{AdmissionChecks: []kueue.AdmissionCheckStrategyRule{{Name: checkName}}}
	}
	if strict {
		q.Spec.QueueingStrategy = kueue.StrictFIFO
	}
	s.create(q)
	s.t.Cleanup(func() { _ = s.cl.c.Delete(context.Background(), q) })
	eventually(s.t, 30*time.Second, "ClusterQueue "+cq+" active", func() (bool, string) {
		got := &kueue.ClusterQueue{}
		if err := s.cl.c.Get(s.ctx, client.ObjectKey{Name: cq}, got); err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(got.Status.Conditions, kueue.ClusterQueueActive)
		return c != nil && c.Status == metav1.ConditionTrue, fmt.Sprintf("%+v", c)
	})
}

// localQueue creates LocalQueue lq in the scenario's namespace for cq.
func (s *scenario) localQueue(cq string) {
	s.t.Helper()
	s.create(&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: "lq"},
		Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}})
}

// checkQueue gives the scenario a ClusterQueue of cpu cpus behind the
// check and its LocalQueue lq.
func (s *scenario) checkQueue(cpu string) {
	s.t.Helper()
	s.queue("cq-"+s.name, cpu, "", true, false)
	s.localQueue("cq-" + s.name)
}

// workload returns the Workload Kueue's Job integration made for job, or
// nil while there is none.
func (s *scenario) workload(job *batchv1.Job) *kueue.Workload {
	s.t.Helper()
	l := &kueue.WorkloadList{}
	if err := s.cl.c.List(s.ctx, l, client.InNamespace(s.ns)); err != nil {
		s.t.Fatal(err)
	}
	for i := range l.Items {
		for _, o := range l.Items[i].OwnerReferences {
			if o.UID == job.UID {
				return &l.Items[i]
			}
		}
	}
	return nil
}

// waitWorkload waits until job's Workload satisfies cond.
func (s *scenario) waitWorkload(job *batchv1.Job, limit time.Duration, what string, cond func(*kueue.Workload) bool) *kueue.Workload {
	s.t.Helper()
	var wl *kueue.Workload
	eventually(s.t, limit, fmt.Sprintf("%s/%s: %s", s.ns, job.Name, what), func() (bool, string) {
		wl = s.workload(job)
		if wl == nil {
			return false, "no Workload yet"
		}
		return cond(wl), describe(wl)
	})
	return wl
}

func describe(wl *kueue.Workload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "workload %s active=%v", wl.Name, wl.Spec.Active)
	for _, c := range wl.Status.Conditions {
		fmt.Fprintf(&b, " %s=%s(%s: %s)", c.Type, c.Status, c.Reason, c.Message)
	}
	for _, ac := range wl.Status.AdmissionChecks {
		fmt.Fprintf(&b, " check %s=%s %q", ac.Name, ac.State, ac.Message)
	}
	return b.String()
}

func condTrue(wl *kueue.Workload, cond string) bool {
	return apimeta.IsStatusConditionTrue(wl.Status.Conditions, cond)
}

func condTime(wl *kueue.Workload, cond string) time.Time {
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, cond); c != nil && c.Status == metav1.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func checkState(wl *kueue.Workload) kueue.AdmissionCheckState {
	for _, ac := range wl.Status.AdmissionChecks {
		if string(ac.Name) == checkName {
			return ac
		}
	}
	return kueue.AdmissionCheckState{}
}

// pods returns the pods of job (by controller owner), sorted by name.
func (s *scenario) pods(job *batchv1.Job) []corev1.Pod {
	s.t.Helper()
	l, err := s.cl.cs.CoreV1().Pods(s.ns).List(s.ctx, metav1.ListOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range l.Items {
		if o := metav1.GetControllerOf(&p); o != nil && o.UID == job.UID {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// podCondition returns the pod's condition of type c, or nil.
func podCondition(p corev1.Pod, c corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == c {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// getJob reads job back.
func (s *scenario) getJob(job *batchv1.Job) *batchv1.Job {
	s.t.Helper()
	j, err := s.cl.cs.BatchV1().Jobs(s.ns).Get(s.ctx, job.Name, metav1.GetOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	return j
}

// waitJobComplete waits until the Job has its Complete condition and
// returns it.
func (s *scenario) waitJobComplete(job *batchv1.Job, limit time.Duration) *batchv1.Job {
	s.t.Helper()
	var j *batchv1.Job
	eventually(s.t, limit, fmt.Sprintf("Job %s/%s complete", s.ns, job.Name), func() (bool, string) {
		j = s.getJob(job)
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
				return true, ""
			}
		}
		return false, fmt.Sprintf("active %d, succeeded %d, failed %d, conditions %+v", j.Status.Active, j.Status.Succeeded, j.Status.Failed, j.Status.Conditions)
	})
	return j
}

// events returns the events.k8s.io events of the namespace about the
// object named name with the given reason.
func (s *scenario) events(name, reason string) []eventsv1.Event {
	s.t.Helper()
	l, err := s.cl.cs.EventsV1().Events(s.ns).List(s.ctx, metav1.ListOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	var out []eventsv1.Event
	for _, ev := range l.Items {
		if ev.Regarding.Name == name && ev.Reason == reason {
			out = append(out, ev)
		}
	}
	return out
}

// waitEvent waits for an event about name with reason and returns it.
func (s *scenario) waitEvent(name, reason string, limit time.Duration) eventsv1.Event {
	s.t.Helper()
	var ev eventsv1.Event
	eventually(s.t, limit, fmt.Sprintf("a %s event on %s/%s", reason, s.ns, name), func() (bool, string) {
		evs := s.events(name, reason)
		if len(evs) == 0 {
			return false, "none"
		}
		ev = evs[0]
		return true, ""
	})
	return ev
}

// eventTime is when an event happened (eventTime, else the deprecated
// first timestamp that core/v1 recorders fill).
func eventTime(ev eventsv1.Event) time.Time {
	if !ev.EventTime.IsZero() {
		return ev.EventTime.Time
	}
	return ev.DeprecatedFirstTimestamp.Time
}
