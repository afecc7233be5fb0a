package scenario

import (
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Namespace is where every scenario's pods live.
const Namespace = "default"

// Priority classes every scenario creates.
const (
	Low  = "low"  // 100
	High = "high" // 1000
)

var priorities = map[string]int32{Low: 100, High: 1000}

// meta fills what a real API server would on a fake clientset: a UID and
// the creation time T0.
func (e *Env) meta(m *metav1.ObjectMeta) {
	if !e.B.Real {
		m.UID = types.UID(fmt.Sprintf("uid-%s-%s", m.Namespace, m.Name))
		m.CreationTimestamp = metav1.NewTime(e.T0)
	}
}

// CreatePriorityClasses creates Low and High.
func (e *Env) CreatePriorityClasses() {
	e.T.Helper()
	for name, v := range priorities {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: v}
		e.meta(&pc.ObjectMeta)
		if _, err := e.B.Client.SchedulingV1().PriorityClasses().Create(e.Ctx, pc, metav1.CreateOptions{}); err != nil {
			e.T.Fatalf("creating priority class %s: %v", name, err)
		}
	}
}

// CreateNode creates a node with cpu CPUs, room for 110 pods and labels.
func (e *Env) CreateNode(name, cpu string, labels map[string]string) {
	e.T.Helper()
	res := v1.ResourceList{
		v1.ResourceCPU:    resource.MustParse(cpu),
		v1.ResourceMemory: resource.MustParse("64Gi"),
		v1.ResourcePods:   resource.MustParse("110"),
	}
	n := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Status: v1.NodeStatus{
			Capacity: res, Allocatable: res,
			Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
		},
	}
	e.meta(&n.ObjectMeta)
	created, err := e.B.Client.CoreV1().Nodes().Create(e.Ctx, n, metav1.CreateOptions{})
	if err != nil {
		e.T.Fatalf("creating node %s: %v", name, err)
	}
	// The API server's TaintNodesByCondition admission taints a new node
	// not-ready until its kubelet reports; no kubelet runs here, so lift it
	// as the node lifecycle controller would for a Ready node.
	if len(created.Spec.Taints) > 0 {
		created.Spec.Taints = nil
		if _, err := e.B.Client.CoreV1().Nodes().Update(e.Ctx, created, metav1.UpdateOptions{}); err != nil {
			e.T.Fatalf("untainting node %s: %v", name, err)
		}
	}
}

// A PodSpec describes one pod of a scenario.
type PodSpec struct {
	Name      string
	CPU       string // request
	Priority  string // Low or High
	Scheduler string // Schedkit (default) or DefaultPreemption
	Labels    map[string]string
	// Annotations are schedkit.io/... annotations.
	Annotations map[string]string
	// Owner makes the pod one of that Job's pods.
	Owner *batchv1.Job
	// Node binds the pod at creation (a pod already running), and
	// StartedAgo sets its status.startTime to T0 − StartedAgo, as a
	// kubelet would.
	Node       string
	StartedAgo time.Duration
	Affinity   *v1.Affinity
}

// CreatePod creates the pod.
func (e *Env) CreatePod(s PodSpec) *v1.Pod {
	e.T.Helper()
	if s.Scheduler == "" {
		s.Scheduler = Schedkit
	}
	if s.Priority == "" {
		s.Priority = Low
	}
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: Namespace, Labels: s.Labels, Annotations: s.Annotations},
		Spec: v1.PodSpec{
			SchedulerName:                 s.Scheduler,
			PriorityClassName:             s.Priority,
			Priority:                      ptr.To(priorities[s.Priority]),
			NodeName:                      s.Node,
			TerminationGracePeriodSeconds: ptr.To[int64](0),
			Affinity:                      s.Affinity,
			Containers: []v1.Container{{
				Name:      "main",
				Image:     "registry.k8s.io/pause:3.10",
				Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(s.CPU)}},
			}},
		},
	}
	if s.Owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{{
			APIVersion: "batch/v1", Kind: "Job", Name: s.Owner.Name, UID: s.Owner.UID, Controller: ptr.To(true),
		}}
	}
	e.meta(&p.ObjectMeta)
	start := metav1.NewTime(e.T0.Add(-s.StartedAgo))
	if s.Node != "" && !e.B.Real {
		p.Status = v1.PodStatus{Phase: v1.PodRunning, StartTime: &start}
	}
	pods := e.B.Client.CoreV1().Pods(Namespace)
	created, err := pods.Create(e.Ctx, p, metav1.CreateOptions{})
	if err != nil {
		e.T.Fatalf("creating pod %s: %v", s.Name, err)
	}
	if s.Node != "" && e.B.Real {
		created.Status.Phase = v1.PodRunning
		created.Status.StartTime = &start
		if created, err = pods.UpdateStatus(e.Ctx, created, metav1.UpdateOptions{}); err != nil {
			e.T.Fatalf("setting pod %s running: %v", s.Name, err)
		}
	}
	return created
}

// CreateJob creates a batch/v1 Job (no Job controller runs: its pods are
// created by the scenario with CreatePod and Owner).
func (e *Env) CreateJob(name string, annotations map[string]string) *batchv1.Job {
	e.T.Helper()
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, Annotations: annotations},
		Spec: batchv1.JobSpec{
			Template: v1.PodTemplateSpec{
				Spec: v1.PodSpec{
					RestartPolicy: v1.RestartPolicyNever,
					Containers:    []v1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10"}},
				},
			},
		},
	}
	e.meta(&j.ObjectMeta)
	created, err := e.B.Client.BatchV1().Jobs(Namespace).Create(e.Ctx, j, metav1.CreateOptions{})
	if err != nil {
		e.T.Fatalf("creating job %s: %v", name, err)
	}
	return created
}

// CreatePDB creates a PodDisruptionBudget with minAvailable over the pods
// matching selector. No disruption controller runs, so its status keeps
// disruptionsAllowed 0: no matching pod may be evicted without violating it.
func (e *Env) CreatePDB(name string, minAvailable int, selector map[string]string) {
	e.T.Helper()
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(int32(minAvailable))),
			Selector:     &metav1.LabelSelector{MatchLabels: selector},
		},
	}
	e.meta(&pdb.ObjectMeta)
	if _, err := e.B.Client.PolicyV1().PodDisruptionBudgets(Namespace).Create(e.Ctx, pdb, metav1.CreateOptions{}); err != nil {
		e.T.Fatalf("creating PDB %s: %v", name, err)
	}
}
