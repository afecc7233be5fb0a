package crosscheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/deadlineadmission"
	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

const check kueue.AdmissionCheckReference = "deadline"

// fataler is what the helpers need of *testing.T and *rapid.T.
type fataler interface {
	Fatalf(format string, args ...any)
}

// table is the run time per job type both adapters are given: the gate's
// args rows, and the check's DeadlineParameters as exact (σ = 0) models.
var table = map[string]time.Duration{"quick": 30 * time.Second, "etl": 20 * time.Minute, "long": 2 * time.Hour}

// A job as both adapters meet it: a batch/v1 Job with annotations and its
// pods of one cpu each.
type job struct {
	name    string
	ann     map[string]string
	created time.Time
	pods    int32
	// started is set for a job already admitted and running since then.
	started time.Time
}

func (j job) uid() types.UID { return types.UID("job-" + j.name) }

func (j job) object() *batchv1.Job {
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: j.name, UID: j.uid(),
		CreationTimestamp: metav1.NewTime(j.created), Annotations: j.ann}}
}

func (j job) ownerRef() []metav1.OwnerReference {
	yes := true
	return []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: j.name, UID: j.uid(), Controller: &yes}}
}

// workload is the Kueue Workload of the job: holding quota (Promised when
// running, else Deciding: the check decides on it now).
func (j job) workload() *kueue.Workload {
	cpu := resource.MustParse("1")
	state := kueue.CheckStatePending
	conds := []metav1.Condition{{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved", LastTransitionTime: metav1.NewTime(t0)}}
	if !j.started.IsZero() {
		state = kueue.CheckStateReady
		conds = append(conds, metav1.Condition{Type: kueue.WorkloadAdmitted, Status: metav1.ConditionTrue, Reason: "Admitted", LastTransitionTime: metav1.NewTime(j.started)})
	}
	pods := j.pods
	usage := corev1.ResourceList{corev1.ResourceCPU: *resource.NewQuantity(int64(pods), resource.DecimalSI)}
	return &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "job-" + j.name, UID: types.UID("wl-" + j.name),
			CreationTimestamp: metav1.NewTime(j.created.Add(time.Second)), OwnerReferences: j.ownerRef()},
		Spec: kueue.WorkloadSpec{QueueName: "lq", PodSets: []kueue.PodSet{{Name: "main", Count: pods, Template: corev1.PodTemplateSpec{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu}}}}}}}}},
		Status: kueue.WorkloadStatus{
			Conditions:      conds,
			Admission:       &kueue.Admission{ClusterQueue: "cq", PodSetAssignments: []kueue.PodSetAssignment{{Name: "main", Count: &pods, ResourceUsage: usage}}},
			AdmissionChecks: []kueue.AdmissionCheckState{{Name: check, State: state}},
		},
	}
}

// pod is one of the job's pods as the scheduler sees it: bound and started
// when the job runs; labelled by Kueue (kueue.x-k8s.io/podset) when Kueue
// admitted its workload.
func (j job) pod(i int, byKueue bool) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("%s-%d", j.name, i), UID: types.UID(fmt.Sprintf("pod-%s-%d", j.name, i)),
		CreationTimestamp: metav1.NewTime(j.created.Add(2 * time.Second)), OwnerReferences: j.ownerRef()}}
	if byKueue {
		p.Labels = map[string]string{"kueue.x-k8s.io/podset": "main"}
	}
	if !j.started.IsZero() {
		p.Spec.NodeName = "node"
		p.Status.StartTime = &metav1.Time{Time: j.started}
		p.Status.Phase = corev1.PodRunning
	}
	return p
}

// checkVerdict is the Kueue check's decision on the newest job, the others
// running: Map and Plan as the controller calls them, quota 4 cpu.
func checkVerdict(t fataler, newJob job, running []job, now time.Time) *deadlinecheck.Verdict {
	var types []v1alpha1.JobType
	for name, d := range table {
		types = append(types, v1alpha1.JobType{Name: name, Lognormal: &v1alpha1.LognormalModel{MeanSeconds: d.Seconds()}})
	}
	models := deadlinecheck.CompileModels(&v1alpha1.DeadlineParameters{ObjectMeta: metav1.ObjectMeta{Name: "models"},
		Spec: v1alpha1.DeadlineParametersSpec{JobTypes: types}})
	quota := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}
	var ws []deadlinecheck.Workload
	for _, j := range append(running, newJob) {
		owner := j.object().ObjectMeta
		w, ok := deadlinecheck.Map(j.workload(), &owner, check, quota, models, now)
		if !ok {
			t.Fatalf("workload of %s not mapped", j.name)
		}
		ws = append(ws, w)
	}
	cfg := deadlinecheck.DefaultConfig()
	cfg.Samples = 16
	outs, err := deadlinecheck.Plan(deadlinecheck.Queue{Name: "cq"}, ws, now, cfg, nil)
	if err != nil {
		t.Fatalf("%v", err)
	}
	v := outs[len(outs)-1].Verdict
	if v == nil {
		t.Fatalf("no verdict on %s: %+v", newJob.name, outs[len(outs)-1])
	}
	return v
}

// gateAdmits runs the scheduler's DeadlineAdmission PreFilter on a pod of
// the newest job, the others' pods running on a node, with the same table
// as its args.
func gateAdmits(t fataler, newJob job, running []job, byKueue bool, now time.Time) (bool, string) {
	args := &deadlineadmission.Args{Mode: deadlineadmission.ModeStrict}
	for name, d := range table {
		args.JobTypes = append(args.JobTypes, deadlineadmission.JobType{Name: name, Runtime: metav1.Duration{Duration: d}})
	}
	jobs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	var pods []*corev1.Pod
	for _, j := range append(running, newJob) {
		if err := jobs.Add(j.object()); err != nil {
			t.Fatalf("%v", err)
		}
	}
	for _, j := range running {
		for i := range int(j.pods) {
			pods = append(pods, j.pod(i, true))
		}
	}
	pl := deadlineadmission.New(args, batchlisters.NewJobLister(jobs), clocktesting.NewFakePassiveClock(now))
	h := pl.PodHandler()
	for _, p := range pods {
		h.OnAdd(p, true)
	}
	_, st := pl.PreFilter(context.Background(), nil, newJob.pod(0, byKueue), []fwk.NodeInfo{framework.NewNodeInfo(pods...)})
	return st.IsSuccess(), st.Message()
}

// annotations draws a Job's schedkit annotations: a deadline (relative to
// its creation or absolute, possibly past), a run time and/or a job type,
// a malformed value now and then. Times are 30 s off the minute so that no
// deadline ties a run time exactly.
func annotations(t *rapid.T, label string) map[string]string {
	ann := map[string]string{}
	switch rapid.IntRange(0, 9).Draw(t, label+" deadline") {
	case 0:
	case 1:
		ann[annotation.Deadline] = "soon"
	case 2, 3:
		ann[annotation.Deadline] = t0.Add(time.Duration(rapid.IntRange(-60, 300).Draw(t, label+" at"))*time.Minute + 30*time.Second).Format(time.RFC3339)
	default:
		ann[annotation.Deadline] = fmt.Sprintf("%dm", rapid.IntRange(1, 300).Draw(t, label+" in"))
	}
	if rapid.Bool().Draw(t, label+" runtime?") {
		ann[annotation.Runtime] = fmt.Sprintf("%dm", rapid.IntRange(1, 180).Draw(t, label+" runtime"))
	}
	if rapid.Bool().Draw(t, label+" job type?") {
		ann[annotation.JobType] = rapid.SampledFrom([]string{"quick", "etl", "long", "unknown", "Bad_Type"}).Draw(t, label+" job type")
	}
	return ann
}

func drawJob(t *rapid.T, name string, running bool) job {
	j := job{name: name, ann: annotations(t, name), pods: int32(rapid.IntRange(1, 2).Draw(t, name+" pods")),
		created: t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, name+" age"))*time.Minute - 30*time.Second)}
	if running {
		j.started = t0.Add(-time.Duration(rapid.IntRange(0, 60).Draw(t, name+" ran")) * time.Minute)
		if j.started.Before(j.created) {
			j.started = j.created
		}
	}
	return j
}

// propAdmittedNeverHeld: whatever the inputs, a Job the check makes Ready
// (Kueue then admits its workload and creates its pods with the podset
// label) passes the gate, whatever else runs; and alone on the cluster,
// with the same annotations and the same run-time table, the check and the
// gate decide alike — Ready exactly when the gate admits a pod of the Job
// that Kueue does not manage.
func propAdmittedNeverHeld(t *rapid.T) {
	var running []job
	for i := range rapid.IntRange(0, 2).Draw(t, "running") {
		running = append(running, drawJob(t, fmt.Sprintf("r%d", i), true))
	}
	newJob := drawJob(t, "new", false)
	now := t0
	v := checkVerdict(t, newJob, running, now)
	if v.State == kueue.CheckStateReady {
		if ok, msg := gateAdmits(t, newJob, running, true, now); !ok {
			t.Fatalf("the check made %v Ready (%s) but the gate holds its pod: %s", newJob.ann, v.Message, msg)
		}
	}
	alone := checkVerdict(t, newJob, nil, now)
	ok, msg := gateAdmits(t, newJob, nil, false, now)
	if (alone.State == kueue.CheckStateReady) != ok {
		t.Fatalf("alone, annotations %v: the check says %s (%s), the gate admits %v (%s)", newJob.ann, alone.State, alone.Message, ok, msg)
	}
}

func TestPropAdmittedNeverHeld(t *testing.T) { rapid.Check(t, propAdmittedNeverHeld) }

// TestIssueJob is the Job both adapters disagreed on: a job type whose
// pods take 30 s and schedkit.io/runtime 2h. Both read the run time, 2 h:
// with a 90-minute deadline both refuse it; with 3 h both take it alone,
// and beside a running 2-hour deadline job the gate alone would hold it
// (its model runs jobs one after another) while the check admits it into
// the free quota, so its pods, labelled by Kueue, pass.
func TestIssueJob(t *testing.T) {
	ann := func(deadline string) map[string]string {
		return map[string]string{annotation.Deadline: deadline, annotation.JobType: "quick", annotation.Runtime: "2h"}
	}
	tight := job{name: "tight", ann: ann("90m"), created: t0, pods: 1}
	if v := checkVerdict(t, tight, nil, t0); v.State != kueue.CheckStateRejected {
		t.Errorf("check on a 90-minute deadline: %s %q, want Rejected", v.State, v.Message)
	}
	if ok, msg := gateAdmits(t, tight, nil, false, t0); ok {
		t.Errorf("gate on a 90-minute deadline admits (%s), want held", msg)
	}
	roomy := job{name: "roomy", ann: ann("3h"), created: t0, pods: 1}
	other := job{name: "other", ann: map[string]string{annotation.Deadline: "2h30m", annotation.Runtime: "2h"}, created: t0, started: t0, pods: 1}
	if v := checkVerdict(t, roomy, []job{other}, t0); v.State != kueue.CheckStateReady {
		t.Fatalf("check beside a running job: %s %q, want Ready", v.State, v.Message)
	}
	if ok, _ := gateAdmits(t, roomy, []job{other}, false, t0); ok {
		t.Errorf("the gate's own model admits it beside the running job; the case no longer shows why Kueue's admission must be final")
	}
	if ok, msg := gateAdmits(t, roomy, []job{other}, true, t0); !ok {
		t.Errorf("the gate holds a pod Kueue admitted: %s", msg)
	}
}
