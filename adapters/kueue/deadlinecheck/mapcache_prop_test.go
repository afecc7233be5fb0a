package deadlinecheck

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// viewWorld is what the view cache's property changes between
// reconciles: the listed Workloads, their owners, the ClusterQueue's
// quota, the check's parameters and the clock. Every change to an object
// gives it a new resourceVersion, as the API server does.
type viewWorld struct {
	wls    []*kueue.Workload
	owners map[string]*metav1.ObjectMeta // by name
	quota  corev1.ResourceList
	params *v1alpha1.DeadlineParameters
	now    time.Time
}

// bump gives m its next resourceVersion. They count per object, so that
// two objects share some (the cache must key by UID and resourceVersion).
func (v *viewWorld) bump(m *metav1.ObjectMeta) {
	rv, _ := strconv.Atoi(m.ResourceVersion)
	m.ResourceVersion = strconv.Itoa(rv + 1)
}

var (
	viewDeadlines = []string{"", "90m", "20m", "2026-11-24T13:00:00Z", "tomorrow"}
	viewJobTypes  = []string{"", "fixed", "spread", "unknown", "Bad Type!"}
	viewRuntimes  = []string{"", "10m", "45s", "x"}
	viewQuotas    = []corev1.ResourceList{rl("cpu", "4", "memory", "64Gi"), rl("cpu", "8", "memory", "64Gi"), rl("cpu", "4")}
	viewParams    = []*v1alpha1.DeadlineParameters{
		nil,
		params(v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{
			{Name: "fixed", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600}},
			{Name: "spread", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 300, StdDevSeconds: 90}},
		}}),
		params(v1alpha1.DeadlineParametersSpec{DefaultJobType: "fixed", JobTypes: []v1alpha1.JobType{
			{Name: "fixed", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 120}},
		}}),
	}
)

// setAnnotation sets or (with "") removes one annotation of a map.
func setAnnotation(m *map[string]string, key, value string) {
	if value == "" {
		delete(*m, key)
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[key] = value
}

// setCondition sets or (with status "") removes one condition.
func setCondition(wl *kueue.Workload, typ string, status metav1.ConditionStatus, reason string, at time.Time) {
	conds := wl.Status.Conditions[:0:0]
	for _, c := range wl.Status.Conditions {
		if c.Type != typ {
			conds = append(conds, c)
		}
	}
	if status != "" {
		conds = append(conds, metav1.Condition{Type: typ, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(at)})
	}
	wl.Status.Conditions = conds
}

// change draws one change to a listed workload, on a copy as a watch
// delivers it (the cache's old object stays as it was).
func (v *viewWorld) change(t *rapid.T, at int) {
	wl := v.wls[at].DeepCopy()
	when := v.now.Add(-time.Duration(rapid.IntRange(-30, 900).Draw(t, "when")) * time.Second)
	switch rapid.IntRange(0, 12).Draw(t, "field") {
	case 0:
		setAnnotation(&wl.Annotations, DeadlineAnnotation, rapid.SampledFrom(viewDeadlines).Draw(t, "deadline"))
	case 1:
		setAnnotation(&wl.Annotations, JobTypeAnnotation, rapid.SampledFrom(viewJobTypes).Draw(t, "job type"))
	case 2:
		setAnnotation(&wl.Spec.PodSets[0].Template.Annotations, RuntimeAnnotation, rapid.SampledFrom(viewRuntimes).Draw(t, "runtime"))
	case 3:
		wl.Status.AdmissionChecks[0].State = rapid.SampledFrom([]kueue.CheckState{kueue.CheckStatePending, kueue.CheckStateReady, kueue.CheckStateRetry, kueue.CheckStateRejected}).Draw(t, "check")
		wl.Status.AdmissionChecks[0].Message = rapid.SampledFrom([]string{"", "Pending: x", "Rejected: y"}).Draw(t, "message")
	case 4:
		typ := rapid.SampledFrom([]string{kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted, kueue.WorkloadEvicted, kueue.WorkloadFinished}).Draw(t, "condition")
		status := rapid.SampledFrom([]metav1.ConditionStatus{"", metav1.ConditionTrue, metav1.ConditionFalse}).Draw(t, "status")
		reason := rapid.SampledFrom([]string{"Test", kueue.WorkloadEvictedByAdmissionCheck}).Draw(t, "reason")
		setCondition(wl, typ, status, reason, when)
	case 5:
		wl.Spec.Active = rapid.SampledFrom([]*bool{nil, new(true), new(false)}).Draw(t, "active")
	case 6:
		n := int32(rapid.IntRange(0, 4).Draw(t, "pods"))
		wl.Spec.PodSets[0] = podSet("main", n, rapid.SampledFrom([]string{"1", "500m", "3"}).Draw(t, "cpu"), "1Gi")
	case 7:
		if rapid.Bool().Draw(t, "admission?") {
			n := wl.Spec.PodSets[0].Count
			wl.Status.Admission = &kueue.Admission{ClusterQueue: "cq", PodSetAssignments: []kueue.PodSetAssignment{
				{Name: "main", Count: &n, ResourceUsage: corev1.ResourceList{"cpu": *resource.NewQuantity(int64(n), resource.DecimalSI)}}}}
		} else {
			wl.Status.Admission = nil
		}
	case 8:
		wl.Status.ReclaimablePods = []kueue.ReclaimablePod{{Name: "main", Count: int32(rapid.IntRange(0, 3).Draw(t, "done"))}}
		wl.Status.AccumulatedPastExecutionTimeSeconds = new(int32(rapid.IntRange(0, 600).Draw(t, "accumulated")))
	case 9:
		wl.Spec.Priority = new(int32(rapid.IntRange(-1, 2).Draw(t, "priority")))
		wl.Spec.MaximumExecutionTimeSeconds = rapid.SampledFrom([]*int32{nil, new(int32(900))}).Draw(t, "max exec")
	case 10:
		if rapid.Bool().Draw(t, "requeue?") {
			wl.Status.RequeueState = &kueue.RequeueState{RequeueAt: &metav1.Time{Time: when}}
		} else {
			wl.Status.RequeueState = nil
		}
	case 11:
		wl.OwnerReferences = nil
		if name := rapid.SampledFrom([]string{"", "j0", "j1"}).Draw(t, "owner"); name != "" {
			o := v.owners[name]
			wl.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: name, UID: o.UID, Controller: new(true)}}
		}
	case 12:
		wl.DeletionTimestamp = &metav1.Time{Time: when}
	}
	v.bump(&wl.ObjectMeta)
	v.wls[at] = wl
}

// owner is the owner of wl as the reconciler reads it: the metadata of
// its controller when it is known, else nil.
func (v *viewWorld) owner(wl *kueue.Workload) (*metav1.ObjectMeta, error) {
	ref := metav1.GetControllerOf(wl)
	if ref == nil {
		return nil, nil
	}
	o := v.owners[ref.Name]
	if o == nil || o.UID != ref.UID {
		return nil, nil
	}
	return o.DeepCopy(), nil
}

func (v *viewWorld) add(t *rapid.T, i int) {
	wl := workload(fmt.Sprintf("w%d", i), kueue.CheckStatePending)
	wl.UID = types.UID(fmt.Sprintf("uid-w%d", i))
	wl.CreationTimestamp = metav1.NewTime(v.now.Add(-time.Duration(rapid.IntRange(0, 600).Draw(t, "age")) * time.Second))
	if rapid.Bool().Draw(t, "running?") { // made Ready, admitted: the delay learner reads it
		wl.Status.AdmissionChecks[0].State = kueue.CheckStateReady
		wl.Status.AdmissionChecks[0].LastTransitionTime = metav1.NewTime(v.now.Add(-time.Duration(rapid.IntRange(0, 1200).Draw(t, "ready age")) * time.Second))
		setCondition(wl, kueue.WorkloadQuotaReserved, metav1.ConditionTrue, "Test", wl.Status.AdmissionChecks[0].LastTransitionTime.Time)
		setCondition(wl, kueue.WorkloadAdmitted, metav1.ConditionTrue, "Test", wl.Status.AdmissionChecks[0].LastTransitionTime.Time)
	}
	if name := rapid.SampledFrom([]string{"", "j0", "j1"}).Draw(t, "owned by"); name != "" {
		wl.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: name, UID: v.owners[name].UID, Controller: new(true)}}
	}
	v.bump(&wl.ObjectMeta)
	v.wls = append(v.wls, wl)
	for range rapid.IntRange(0, 3).Draw(t, "changes") {
		v.change(t, len(v.wls)-1)
	}
}

// propViewCache is the oracle of the view cache (mapcache.go): over a
// random sequence of reconciles, each after some workloads arrive,
// change (annotations, check state, conditions, pods, owner, ...), leave
// or are the reconcile's own copies (changed in place, at the same
// resourceVersion), owners' annotations change, the
// quota or the check's parameters change, and the clock moves, the
// cached view of every listed workload is Map's, and its kept running
// delay (viewCache.late, for the delay learner's runningLate) is
// RunningDelay's, bit for bit.
func propViewCache(t *rapid.T) {
	v := &viewWorld{owners: map[string]*metav1.ObjectMeta{}, now: t0}
	for _, name := range []string{"j0", "j1"} {
		o := &metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))}
		v.bump(o)
		v.owners[name] = o
	}
	v.quota = viewQuotas[0]
	v.params = viewParams[1]
	next := 0
	for range rapid.IntRange(0, 6).Draw(t, "initial") {
		v.add(t, next)
		next++
	}
	c := &viewCache{}
	for step := range rapid.IntRange(1, 10).Draw(t, "reconciles") {
		for range rapid.IntRange(0, 4).Draw(t, "events") {
			switch rapid.IntRange(0, 7).Draw(t, "event") {
			case 7: // another list order
				if len(v.wls) > 1 {
					i, j := rapid.IntRange(0, len(v.wls)-1).Draw(t, "swap i"), rapid.IntRange(0, len(v.wls)-1).Draw(t, "swap j")
					v.wls[i], v.wls[j] = v.wls[j], v.wls[i]
				}
			case 0:
				v.add(t, next)
				next++
			case 1, 2:
				if len(v.wls) > 0 {
					v.change(t, rapid.IntRange(0, len(v.wls)-1).Draw(t, "changed"))
				}
			case 3:
				if len(v.wls) > 0 {
					at := rapid.IntRange(0, len(v.wls)-1).Draw(t, "deleted")
					v.wls = append(v.wls[:at], v.wls[at+1:]...)
				}
			case 4:
				o := v.owners[rapid.SampledFrom([]string{"j0", "j1"}).Draw(t, "owner changed")].DeepCopy()
				setAnnotation(&o.Annotations, rapid.SampledFrom([]string{DeadlineAnnotation, JobTypeAnnotation, RuntimeAnnotation}).Draw(t, "owner key"),
					rapid.SampledFrom([]string{"", "45m", "fixed", "spread", "5m", "bad"}).Draw(t, "owner value"))
				if rapid.Bool().Draw(t, "owner recreated?") {
					o.CreationTimestamp = metav1.NewTime(v.now)
				}
				v.bump(o)
				v.owners[o.Name] = o
			case 5:
				v.quota = rapid.SampledFrom(viewQuotas).Draw(t, "quota")
				v.params = rapid.SampledFrom(viewParams).Draw(t, "params").DeepCopy()
			case 6:
				v.now = v.now.Add(time.Duration(rapid.IntRange(0, 90).Draw(t, "seconds")) * time.Second)
			}
		}
		models := c.begin(v.quota, v.params)
		fresh := CompileModels(v.params)
		for i, wl := range v.wls {
			own := rapid.IntRange(0, 9).Draw(t, "own copy?") == 0
			if own { // changed in place by the reconcile's writes: the same resourceVersion
				v.change(t, i)
				wl, v.wls[i] = v.wls[i], wl
				wl.ResourceVersion = v.wls[i].ResourceVersion
			}
			got, gotOK, _ := c.view(i, wl, own, testCheck, v.now, v.owner)
			owner, _ := v.owner(wl)
			if !NeedsOwner(wl) {
				owner = nil
			}
			want, wantOK := Map(wl, owner, testCheck, v.quota, fresh, v.now)
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("reconcile %d: %s at resourceVersion %s: cached view %+v (ok %v), Map %+v (ok %v)", step, wl.Name, wl.ResourceVersion, got, gotOK, want, wantOK)
			}
			for range rapid.IntRange(1, 2).Draw(t, "late asked") { // kept, then taken again
				var gotLate DelayObservation
				l, ok := c.late(i, wl, own, testCheck, v.owner)
				if ok {
					gotLate, ok = l.late(v.now)
				}
				wantLate, wantLateOK := RunningDelay(wl, owner, testCheck, fresh, v.now)
				if ok != wantLateOK || gotLate != wantLate {
					t.Fatalf("reconcile %d: %s at resourceVersion %s: kept running delay %+v (ok %v), RunningDelay %+v (ok %v)", step, wl.Name, wl.ResourceVersion, gotLate, ok, wantLate, wantLateOK)
				}
			}
		}
		c.end()
		if !reflect.DeepEqual(models, fresh) {
			t.Fatalf("reconcile %d: cached models %+v, compiled %+v", step, models, fresh)
		}
		if len(c.entries) > 2*len(v.wls)+64 {
			t.Fatalf("reconcile %d: %d entries for %d workloads", step, len(c.entries), len(v.wls))
		}
	}
}

func TestPropViewCache(t *testing.T) { rapid.Check(t, propViewCache) }
func FuzzViewCache(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propViewCache)) }
