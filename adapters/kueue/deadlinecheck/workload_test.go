package deadlinecheck

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

const testCheck kueue.AdmissionCheckReference = "deadline"

func testModels() Models {
	return CompileModels(params(v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{
		{Name: "etl", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600, StdDevSeconds: 60}},
		{Name: "broken", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: -1}},
	}}))
}

func cond(typ string, status metav1.ConditionStatus, at time.Time) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: "Test", LastTransitionTime: metav1.NewTime(at)}
}

func workload(name string, state kueue.CheckState, conds ...metav1.Condition) *kueue.Workload {
	return &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: "uid-" + "name", CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))},
		Spec:       kueue.WorkloadSpec{QueueName: "lq", PodSets: []kueue.PodSet{podSet("main", 2, "1", "1Gi")}},
		Status: kueue.WorkloadStatus{
			Conditions:      conds,
			AdmissionChecks: []kueue.AdmissionCheckState{{Name: testCheck, State: state}},
		},
	}
}

func TestMap(t *testing.T) {
	quota := rl("cpu", "8", "memory", "64Gi")
	m := testModels()

	// Running: admitted 10 minutes ago after 5 minutes in an earlier run,
	// one of its two pods done.
	wl := workload("run", kueue.CheckStateReady,
		cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0.Add(-11*time.Minute)),
		cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0.Add(-10*time.Minute)))
	wl.Status.AccumulatedPastExecutionTimeSeconds = ptr(int32(300))
	wl.Status.ReclaimablePods = []kueue.ReclaimablePod{{Name: "main", Count: 1}}
	wl.Annotations = map[string]string{DeadlineAnnotation: "3h", JobTypeAnnotation: "etl"}
	w, ok := Map(wl, nil, testCheck, quota, m, t0)
	if !ok {
		t.Fatal("not mapped")
	}
	if w.Phase != Promised || w.Pods != 2 || w.Done != 1 || w.Executed != 15*time.Minute || w.Slots != 8 ||
		!w.Deadline.Equal(t0.Add(2*time.Hour)) || w.RunTime == nil || w.Problem != nil || w.Key != "ns/run" {
		t.Errorf("running workload mapped to %+v", w)
	}

	// Quota reserved, check pending: deciding. The deadline and the job
	// type come from the owning Job, relative to the Job's creation.
	wl = workload("dec", kueue.CheckStatePending, cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0))
	owner := &metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(t0.Add(-30 * time.Minute)),
		Annotations: map[string]string{DeadlineAnnotation: "1h", JobTypeAnnotation: "etl"}}
	w, _ = Map(wl, owner, testCheck, quota, m, t0)
	if w.Phase != Deciding || !w.Deadline.Equal(t0.Add(30*time.Minute)) || w.RunTime == nil || w.Executed != 0 {
		t.Errorf("deciding workload mapped to %+v", w)
	}
	// The Workload's own annotation wins over the owner's.
	wl.Annotations = map[string]string{DeadlineAnnotation: "2026-11-24T15:00:00Z"}
	w, _ = Map(wl, owner, testCheck, quota, m, t0)
	if !w.Deadline.Equal(time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)) || w.RunTime == nil ||
		w.DeadlineFrom != `annotation schedkit.io/deadline = "2026-11-24T15:00:00Z" on Workload ns/dec` {
		t.Errorf("workload annotation did not win: %+v", w)
	}
	// The pod template's wins over both; relative, it counts from the
	// owner's creation.
	wl.Spec.PodSets[0].Template.Annotations = map[string]string{DeadlineAnnotation: "45m", RuntimeAnnotation: "20m"}
	w, _ = Map(wl, owner, testCheck, quota, m, t0)
	if !w.Deadline.Equal(t0.Add(15*time.Minute)) || w.RunTime == nil || w.RunTime.Source != "schedkit.io/runtime 20m0s" ||
		w.Runtime != 20*time.Minute || w.JobType != "etl" || w.DeadlineFrom != `annotation schedkit.io/deadline = "45m" on pod template of pod set main` {
		t.Errorf("pod template annotation did not win: %+v", w)
	}
	wl.Spec.PodSets[0].Template.Annotations = nil

	// Malformed deadline: a problem naming the annotation.
	wl = workload("bad", kueue.CheckStatePending)
	wl.Annotations = map[string]string{DeadlineAnnotation: "friday", JobTypeAnnotation: "etl"}
	w, _ = Map(wl, nil, testCheck, quota, m, t0)
	var ie *InputError
	if w.Phase != Waiting || !errors.As(w.Problem, &ie) || ie.Value != "friday" {
		t.Errorf("malformed deadline mapped to %+v", w)
	}
	// A broken model: a problem naming the parameter field.
	wl.Annotations = map[string]string{DeadlineAnnotation: "1h", JobTypeAnnotation: "broken"}
	w, _ = Map(wl, nil, testCheck, quota, m, t0)
	if !errors.As(w.Problem, &ie) || ie.Field != "DeadlineParameters models spec.jobTypes[1].lognormal.meanSeconds" {
		t.Errorf("broken model mapped to %+v", w)
	}
	// Without a deadline a broken model is no reason to reject: the
	// workload only has no run time.
	wl.Annotations = map[string]string{JobTypeAnnotation: "broken"}
	w, _ = Map(wl, nil, testCheck, quota, m, t0)
	if w.Problem != nil || w.RunTime != nil || !errors.As(w.NoRunTime, &ie) {
		t.Errorf("broken model without a deadline mapped to %+v", w)
	}
	// A deadline without any model: ErrNoEstimate; without a deadline, fine.
	wl.Annotations = map[string]string{DeadlineAnnotation: "1h"}
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); !errors.Is(w.Problem, ErrNoEstimate) {
		t.Errorf("deadline without model mapped to %+v", w)
	}
	wl.Annotations = nil
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.Problem != nil || w.RunTime != nil {
		t.Errorf("no deadline, no model mapped to %+v", w)
	}
	wl.Spec.MaximumExecutionTimeSeconds = ptr(int32(120))
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.RunTime == nil || w.RunTime.Source != "spec.maximumExecutionTimeSeconds 120" {
		t.Errorf("fallback mapped to %+v", w)
	}

	// Deactivated with the check Pending: only its rejection matters.
	wl = workload("off", kueue.CheckStatePending)
	wl.Spec.Active = ptr(false)
	wl.Annotations = map[string]string{RejectionAnnotation: "Rejected: late", DeadlineAnnotation: "soon"}
	wl.Status.AdmissionChecks[0].Message = "Reset to Pending after eviction. Previously: Rejected"
	if w, ok := Map(wl, nil, testCheck, quota, m, t0); !ok || w.Phase != Deactivated || w.Rejection != "Rejected: late" ||
		w.CheckMessage != "Reset to Pending after eviction. Previously: Rejected" || w.Problem != nil {
		t.Errorf("deactivated workload mapped to %+v, %v", w, ok)
	}

	// Not the check's concern.
	for name, wl := range map[string]*kueue.Workload{
		"finished": workload("f", kueue.CheckStateReady, cond(kueue.WorkloadFinished, metav1.ConditionTrue, t0)),
		"rejected": workload("r", kueue.CheckStateRejected),
		"inactive and Ready": func() *kueue.Workload {
			w := workload("i", kueue.CheckStateReady)
			w.Spec.Active = ptr(false)
			return w
		}(),
		"other check": func() *kueue.Workload {
			w := workload("o", kueue.CheckStatePending)
			w.Status.AdmissionChecks[0].Name = "other"
			return w
		}(),
	} {
		if _, ok := Map(wl, nil, testCheck, quota, m, t0); ok {
			t.Errorf("%s workload mapped", name)
		}
	}

	// Evicted (Kueue is taking its quota back): waiting, not decided on.
	wl = workload("evicted", kueue.CheckStatePending, cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0),
		cond(kueue.WorkloadEvicted, metav1.ConditionTrue, t0))
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.Phase != Waiting {
		t.Errorf("evicted workload is %v, want waiting", w.Phase)
	}
	CheckState(wl, testCheck).State = kueue.CheckStateReady
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.Phase != Waiting {
		t.Errorf("evicted Ready workload is %v, want waiting", w.Phase)
	}

	// Reserved quota counts even when it is borrowed beyond the nominal.
	wl = workload("big", kueue.CheckStatePending, cond(kueue.WorkloadQuotaReserved, metav1.ConditionTrue, t0))
	wl.Spec.PodSets[0].Count = 20
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.Slots != 20 {
		t.Errorf("borrowing workload has %d slots, want its 20 pods", w.Slots)
	}
	wl.Status.Conditions = nil
	if w, _ = Map(wl, nil, testCheck, quota, m, t0); w.Slots != 8 || w.Phase != Waiting {
		t.Errorf("waiting workload has %d slots (%v), want the quota's 8", w.Slots, w.Phase)
	}
}

// workloadGen draws Workloads with the fields Map reads.
func workloadGen() *rapid.Generator[*kueue.Workload] {
	deadlines := []string{"", "90m", "2026-11-24T18:00:00Z", "-1h", "soon", "0s"}
	types := []string{"", "etl", "broken", "nope", "Bad_Type"}
	return rapid.Custom(func(t *rapid.T) *kueue.Workload {
		state := rapid.SampledFrom([]kueue.CheckState{kueue.CheckStatePending, kueue.CheckStateReady, kueue.CheckStateRetry, kueue.CheckStateRejected}).Draw(t, "state")
		wl := workload(fmt.Sprintf("w%d", rapid.IntRange(0, 99).Draw(t, "name")), state)
		if rapid.IntRange(0, 9).Draw(t, "other check?") == 0 {
			wl.Status.AdmissionChecks[0].Name = "other"
		}
		wl.Spec.PodSets = nil
		for i := range rapid.IntRange(0, 3).Draw(t, "pod sets") {
			cpu := fmt.Sprintf("%dm", rapid.IntRange(0, 4000).Draw(t, "cpu"))
			wl.Spec.PodSets = append(wl.Spec.PodSets, podSet(fmt.Sprintf("ps%d", i), int32(rapid.IntRange(0, 5).Draw(t, "count")), cpu, "1Gi"))
		}
		for _, c := range []string{kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted, kueue.WorkloadFinished, kueue.WorkloadEvicted} {
			if rapid.Bool().Draw(t, c) {
				ago := time.Duration(rapid.IntRange(0, 3600).Draw(t, c+" ago")) * time.Second
				cd := cond(c, metav1.ConditionTrue, t0.Add(-ago))
				if c == kueue.WorkloadEvicted {
					cd.Reason = rapid.SampledFrom([]string{"Test", kueue.WorkloadEvictedByAdmissionCheck, kueue.WorkloadEvictedByPodsReadyTimeout, kueue.WorkloadEvictedByPreemption}).Draw(t, "evicted by")
				}
				wl.Status.Conditions = append(wl.Status.Conditions, cd)
			}
		}
		if rapid.Bool().Draw(t, "accumulated?") {
			wl.Status.AccumulatedPastExecutionTimeSeconds = ptr(int32(rapid.IntRange(-10, 3600).Draw(t, "accumulated")))
		}
		if len(wl.Spec.PodSets) > 0 && rapid.Bool().Draw(t, "reclaimable?") {
			wl.Status.ReclaimablePods = []kueue.ReclaimablePod{{Name: wl.Spec.PodSets[0].Name, Count: int32(rapid.IntRange(0, 9).Draw(t, "reclaimable"))}}
		}
		if rapid.Bool().Draw(t, "priority?") {
			wl.Spec.Priority = ptr(int32(rapid.IntRange(-10, 10).Draw(t, "priority")))
		}
		if rapid.Bool().Draw(t, "max exec?") {
			wl.Spec.MaximumExecutionTimeSeconds = ptr(int32(rapid.IntRange(-5, 7200).Draw(t, "max exec")))
		}
		wl.Annotations = map[string]string{}
		if d := rapid.SampledFrom(deadlines).Draw(t, "deadline"); d != "" {
			wl.Annotations[DeadlineAnnotation] = d
		}
		if jt := rapid.SampledFrom(types).Draw(t, "job type"); jt != "" {
			wl.Annotations[JobTypeAnnotation] = jt
		}
		return wl
	})
}

// Properties of the mapping: it keeps exactly the workloads the check
// decides on; counts stay in range; the capacity is the quota in pod
// units; work done only grows with time; problems come only from the
// user's input.
func propMap(t *rapid.T) {
	wl := workloadGen().Draw(t, "workload")
	quota := rl("cpu", fmt.Sprintf("%dm", rapid.IntRange(0, 16000).Draw(t, "quota")), "memory", "64Gi")
	m := testModels()
	w, ok := Map(wl, nil, testCheck, quota, m, t0)
	st := CheckState(wl, testCheck)
	finished := len(wl.Status.Conditions) > 0 && hasCond(wl, kueue.WorkloadFinished)
	wantOK := st != nil && st.State != kueue.CheckStateRejected && !finished
	if ok != wantOK {
		t.Fatalf("Map ok = %v, want %v", ok, wantOK)
	}
	if !ok {
		return
	}
	reserved := hasCond(wl, kueue.WorkloadQuotaReserved) && !hasCond(wl, kueue.WorkloadEvicted)
	switch {
	case reserved && st.State == kueue.CheckStateReady && w.Phase != Promised,
		reserved && st.State == kueue.CheckStatePending && w.Phase != Deciding,
		!reserved && w.Phase != Waiting:
		t.Fatalf("phase %v for reserved %v, state %s", w.Phase, reserved, st.State)
	}
	if w.Done < 0 || w.Done > w.Pods {
		t.Fatalf("done %d of %d pods", w.Done, w.Pods)
	}
	pod, pods := PodRequest(wl)
	if pods != w.Pods {
		t.Fatalf("pods %d, want %d", w.Pods, pods)
	}
	if pods > 0 {
		want := PodUnits(quota, pod)
		if reserved {
			want = max(want, pods)
		}
		if w.Slots != want {
			t.Fatalf("slots %d, want %d", w.Slots, want)
		}
	}
	if w.Executed < 0 {
		t.Fatalf("executed %v", w.Executed)
	}
	later, _ := Map(wl, nil, testCheck, quota, m, t0.Add(time.Minute))
	if later.Executed < w.Executed || (hasCond(wl, kueue.WorkloadAdmitted) && later.Executed != w.Executed+time.Minute) {
		t.Fatalf("a minute later executed %v, was %v", later.Executed, w.Executed)
	}
	d, hasD := wl.Annotations[DeadlineAnnotation]
	jt := wl.Annotations[JobTypeAnnotation]
	badD := hasD && (d == "-1h" || d == "soon" || d == "0s")
	badModel := jt == "broken" || jt == "nope" || jt == "Bad_Type" || (jt == "" && wl.Spec.MaximumExecutionTimeSeconds != nil && *wl.Spec.MaximumExecutionTimeSeconds <= 0)
	noModel := jt == "" && wl.Spec.MaximumExecutionTimeSeconds == nil
	wantProblem := badD || (hasD && (badModel || noModel))
	if (w.Problem != nil) != wantProblem {
		t.Fatalf("problem %v, want one: %v (deadline %q, job type %q)", w.Problem, wantProblem, d, jt)
	}
	var ie *InputError
	if badD && !errors.As(w.Problem, &ie) {
		t.Fatalf("problem %v is not an input error", w.Problem)
	}
	if badModel && !errors.As(w.NoRunTime, &ie) {
		t.Fatalf("no run time %v is not an input error", w.NoRunTime)
	}
	if p, qt := QueuePlace(wl); w.Priority != int64(p) || !w.QueueTime.Equal(qt) {
		t.Fatalf("queue place %d %v, want %d %v", w.Priority, w.QueueTime, p, qt)
	}
	if w.HasDeadline() != (hasD && !badD) || (w.RunTime != nil) != !(badModel || noModel) {
		t.Fatalf("deadline %v, run time %v for %q, %q", w.Deadline, w.RunTime, d, jt)
	}
	again, _ := Map(wl, nil, testCheck, quota, m, t0)
	if !reflect.DeepEqual(again, w) {
		t.Fatalf("Map is not deterministic")
	}
}

func hasCond(wl *kueue.Workload, typ string) bool {
	for _, c := range wl.Status.Conditions {
		if c.Type == typ && c.Status == metav1.ConditionTrue {
			return true
		}
	}
	return false
}

func TestMapProperties(t *testing.T) { rapid.Check(t, propMap) }
func FuzzMap(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propMap)) }
