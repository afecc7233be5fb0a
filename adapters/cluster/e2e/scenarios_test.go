//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// startScenarioCluster starts and sets up the cluster that TestCluster and
// TestFaults run on: no nodes and no queue of up.sh's own (each scenario
// makes its nodes and queues), and short retries and ETA refreshes, so
// that a held workload is tried again within seconds of capacity freeing;
// deadlineFlags are more flags for schedkit-deadline.
func startScenarioCluster(t *testing.T, deadlineFlags ...string) *cluster {
	t.Helper()
	cl := startCluster(t, "-nodes", "none", "-no-queue",
		"-deadline-flags", strings.Join(append([]string{"-min-retry=2s -max-retry=5s -eta-refresh=2s -eta-tolerance=1s"}, deadlineFlags...), " "))
	cl.setup(t)
	return cl
}

// TestCluster runs the scenarios on one simulated cluster (up.sh): real
// etcd, kube-apiserver, kube-controller-manager, kube-scheduler, Kueue,
// schedkit-deadline and schedkit-scheduler, installed from their manifests
// and run as their ServiceAccounts; kwok's nodes run each pod for the time
// in its annotation. The scenarios run one after another, each on nodes
// and a namespace of its own.
func TestCluster(t *testing.T) {
	cl := startScenarioCluster(t)

	t.Run("FeasibleJobRunsThroughKueue", cl.feasible)
	t.Run("PodsBoundInEDFOrder", cl.edfOrder)
	t.Run("HopelessJobDeactivated", cl.hopeless)
	t.Run("HeldJobAdmittedWhenCapacityFrees", cl.held)
	t.Run("ETAsMoveAsQueueDrains", cl.eta)
	t.Run("GPUJobOnGPUNodes", cl.gpu)
	t.Run("LeastWorkLostPreemption", cl.preemption)
	t.Run("CheckAndGateAgree", cl.contract)
	t.Run("BurstOfJobs", cl.burst)
	// Run last: every component has done its work by now.
	t.Run("NoRequestForbidden", cl.noForbidden)
	t.Logf("resident memory (MiB) after the scenarios: %s", cl.memory(t))
}

// setup creates what the scenarios share: the check's run-time models, its
// AdmissionCheck, a ResourceFlavor and two PriorityClasses.
func (cl *cluster) setup(t *testing.T) {
	cl.apply(t, `
apiVersion: schedkit.io/v1alpha1
kind: DeadlineParameters
metadata:
  name: models
spec:
  jobTypes:
  - {name: fixed-10, lognormal: {meanSeconds: 10}}
  - {name: fixed-20, lognormal: {meanSeconds: 20}}
  - {name: fixed-60, lognormal: {meanSeconds: 60}}
  - {name: fixed-120, lognormal: {meanSeconds: 120}}
  - {name: fixed-600, lognormal: {meanSeconds: 600}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata:
  name: `+checkName+`
spec:
  controllerName: schedkit.io/deadline
  parameters: {apiGroup: schedkit.io, kind: DeadlineParameters, name: models}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default
`)
	for name, v := range map[string]int32{"low": 100, "high": 1000} {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: v}
		if _, err := cl.cs.SchedulingV1().PriorityClasses().Create(t.Context(), pc, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 30*time.Second, "AdmissionCheck "+checkName+" active", func() (bool, string) {
		out, err := cl.kubectlErr("", "get", "admissioncheck", checkName, "-o", `jsonpath={.status.conditions[?(@.type=="Active")].status}`)
		return err == nil && out == "True", out
	})
}

func deadlineAnn(deadline, jobType, runtime string) map[string]string {
	m := map[string]string{annDeadline: deadline}
	if jobType != "" {
		m[annJobType] = jobType
	}
	if runtime != "" {
		m[annRuntime] = runtime
	}
	return m
}

// 1. A feasible Job goes all the way: the check says Ready, Kueue admits
// the Workload and unsuspends the Job, the job controller creates its
// pods, schedkit-scheduler binds them, kwok runs them for their 20 s, the
// Job completes before its deadline and Kueue marks the Workload Finished.
func (cl *cluster) feasible(t *testing.T) {
	s := cl.scenario(t, "feasible")
	s.nodes(node{name: "feasible-1", typ: "cpu", cpu: "2"}, node{name: "feasible-2", typ: "cpu", cpu: "2"})
	s.checkQueue("4")
	job := s.job(jobSpec{name: "etl", pods: 2, queue: "lq", runFor: 20 * time.Second,
		ann: deadlineAnn("2m", "fixed-20", "20s")})

	wl := s.waitWorkload(job, 60*time.Second, "admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	if st := checkState(wl); st.State != kueue.CheckStateReady || !strings.HasPrefix(st.Message, "Ready: predicted finish") {
		t.Errorf("admitted with check %+v, want Ready with the predicted finish", st)
	}
	eventually(t, 30*time.Second, "the Job unsuspended and 2 pods running", func() (bool, string) {
		j, pods := s.getJob(job), s.pods(job)
		running := 0
		for _, p := range pods {
			if p.Status.Phase == corev1.PodRunning {
				running++
			}
		}
		return !ptr.Deref(j.Spec.Suspend, true) && running == 2, fmt.Sprintf("suspend %v, %d pods, %d running", ptr.Deref(j.Spec.Suspend, true), len(pods), running)
	})
	for _, p := range s.pods(job) {
		if mgr := p.ManagedFields[0].Manager; mgr != "kube-controller-manager" {
			t.Errorf("pod %s created by %q, want the job controller (kube-controller-manager)", p.Name, mgr)
		}
		if !strings.HasPrefix(p.Spec.NodeName, "feasible-") {
			t.Errorf("pod %s on node %q", p.Name, p.Spec.NodeName)
		}
		evs := s.events(p.Name, "Scheduled")
		if len(evs) != 1 || evs[0].ReportingController != schedkitSched {
			t.Errorf("pod %s: Scheduled events %+v, want one from %s", p.Name, evs, schedkitSched)
		}
	}
	j := s.waitJobComplete(job, 60*time.Second)
	deadline := j.CreationTimestamp.Add(2 * time.Minute)
	if !j.Status.CompletionTime.Time.Before(deadline) {
		t.Errorf("Job completed at %v, after its deadline %v", j.Status.CompletionTime, deadline)
	}
	// Each pod ran the 20 s of its annotation (kwok), to the second.
	for _, p := range s.pods(job) {
		term := p.Status.ContainerStatuses[0].State.Terminated
		if term == nil || p.Status.Phase != corev1.PodSucceeded {
			t.Errorf("pod %s: phase %s, state %+v", p.Name, p.Status.Phase, p.Status.ContainerStatuses[0].State)
			continue
		}
		if ran := term.FinishedAt.Sub(p.Status.StartTime.Time); ran < 19*time.Second || ran > 23*time.Second {
			t.Errorf("pod %s ran %v, want about 20 s", p.Name, ran)
		}
	}
	s.waitWorkload(job, 30*time.Second, "finished", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadFinished) })
}

// 2. Pods waiting for one busy node are bound in EDF order, whatever the
// order their Jobs came in: three one-pod Jobs (deadlines 30, 20 and 10
// minutes, created in that order; each runs 5 s) wait behind a blocker
// until every one of them has been tried and found no room and is out of
// kube-scheduler's backoff; then the blocker's Job is deleted.
func (cl *cluster) edfOrder(t *testing.T) {
	s := cl.scenario(t, "edf")
	s.nodes(node{name: "edf-1", typ: "cpu", cpu: "1"})
	blocker := s.job(jobSpec{name: "blocker", pods: 1})
	eventually(t, 30*time.Second, "the blocker running", func() (bool, string) {
		p := s.pods(blocker)
		return len(p) == 1 && p[0].Status.Phase == corev1.PodRunning, fmt.Sprintf("%d pods", len(p))
	})
	jobs := map[string]*batchv1.Job{}
	for _, js := range []struct{ name, deadline string }{{"late", "30m"}, {"mid", "20m"}, {"early", "10m"}} {
		jobs[js.name] = s.job(jobSpec{name: js.name, pods: 1, runFor: 5 * time.Second, ann: deadlineAnn(js.deadline, "", "5s")})
	}
	eventually(t, 60*time.Second, "the three pods tried and unschedulable", func() (bool, string) {
		var waiting []string
		for name, job := range jobs {
			for _, p := range s.pods(job) {
				c := podCondition(p, corev1.PodScheduled)
				if p.Spec.NodeName == "" && c != nil && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
					waiting = append(waiting, name)
				}
			}
		}
		return len(waiting) == 3, fmt.Sprintf("unschedulable: %v", waiting)
	})
	// kube-scheduler keeps a pod that was found unschedulable in backoff
	// (1 s after its first attempt, doubling to at most 10 s) and, when room
	// appears, retries the pods still backing off in the order their backoff
	// ends, not in QueueSort's order. Only pods out of backoff meet in the
	// active queue, where EDF orders them; so the blocker goes once the last
	// pod's attempt is more than the longest backoff (and its one-second
	// ordering window) in the past.
	var lastTry time.Time
	for _, job := range jobs {
		for _, p := range s.pods(job) {
			if c := podCondition(p, corev1.PodScheduled); c != nil && c.LastTransitionTime.After(lastTry) {
				lastTry = c.LastTransitionTime.Time
			}
		}
	}
	time.Sleep(time.Until(lastTry.Add(12 * time.Second)))
	if err := cl.cs.BatchV1().Jobs(s.ns).Delete(s.ctx, blocker.Name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"early", "mid", "late"} {
		s.waitJobComplete(jobs[name], 90*time.Second)
	}
	type bound struct {
		job string
		at  time.Time
	}
	var order []bound
	for name, job := range jobs {
		pods := s.pods(job)
		if len(pods) != 1 {
			t.Fatalf("Job %s has %d pods", name, len(pods))
		}
		evs := s.events(pods[0].Name, "Scheduled")
		if len(evs) != 1 {
			t.Fatalf("pod %s: %d Scheduled events", pods[0].Name, len(evs))
		}
		order = append(order, bound{name, eventTime(evs[0])})
	}
	slices.SortFunc(order, func(a, b bound) int { return a.at.Compare(b.at) })
	var got []string
	for _, b := range order {
		got = append(got, fmt.Sprintf("%s@%s", b.job, b.at.Format("15:04:05.000")))
	}
	if order[0].job != "early" || order[1].job != "mid" || order[2].job != "late" {
		t.Errorf("bound in the order %v, want early, mid, late (earliest deadline first)", got)
	}
}

// 3. A Job that cannot meet its deadline is turned off at once, while it
// still waits for quota behind a long Job, rather than when Kueue would
// reserve quota for it: the check deactivates its Workload, puts its reason
// where kubectl describe shows it first (schedkit.io/rejection, the
// check's message, a DeadlineRejected event) and gives it its ETA; the Job
// stays suspended and no pod is created.
//
// cq-hopeless has 1 cpu, held by blocker (running until deleted). late
// needs 10 min before a 1 min deadline; past's deadline (an RFC 3339 time)
// has already passed.
func (cl *cluster) hopeless(t *testing.T) {
	s := cl.scenario(t, "hopeless")
	s.nodes(node{name: "hopeless-1", typ: "cpu", cpu: "1"})
	s.checkQueue("1")
	blocker := s.job(jobSpec{name: "blocker", pods: 1, queue: "lq", ann: deadlineAnn("1h", "fixed-600", "10m")})
	s.waitWorkload(blocker, 60*time.Second, "blocker admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	pastDeadline := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	late := s.job(jobSpec{name: "late", pods: 1, queue: "lq", runFor: 10 * time.Minute, ann: deadlineAnn("1m", "fixed-600", "10m")})
	past := s.job(jobSpec{name: "past", pods: 1, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn(pastDeadline, "fixed-10", "10s")})
	for job, reason := range map[*batchv1.Job]*regexp.Regexp{
		late: regexp.MustCompile(`^Rejected: even started now with the quota to itself it would finish \S+ \(p50\) / \S+ \(p90\), after its deadline \S+: P\(on time\) = 0\.00 < 0\.90`),
		past: regexp.MustCompile(`^Rejected: its deadline ` + regexp.QuoteMeta(pastDeadline) + ` has already passed \(annotation schedkit\.io/deadline = "` + regexp.QuoteMeta(pastDeadline) + `" on Job s-hopeless/past\)$`),
	} {
		wl := s.waitWorkload(job, 60*time.Second, "deactivated", func(wl *kueue.Workload) bool { return wl.Spec.Active != nil && !*wl.Spec.Active })
		if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil && c.Status == metav1.ConditionTrue {
			t.Errorf("%s: quota was reserved for it: %s", job.Name, describe(wl))
		}
		rejection := wl.Annotations[annRejection]
		if !reason.MatchString(rejection) {
			t.Errorf("%s: %s %q does not match %v", job.Name, annRejection, rejection, reason)
		}
		note := "Rejected and deactivated while waiting for quota: " + strings.TrimPrefix(rejection, "Rejected: ")
		if msg := checkState(wl).Message; msg != note {
			t.Errorf("%s: the check's message %q, want %q", job.Name, msg, note)
		}
		if ev := s.waitEvent(wl.Name, "DeadlineRejected", 30*time.Second); ev.Note != note || ev.Type != corev1.EventTypeWarning {
			t.Errorf("%s: DeadlineRejected event %s %q, want Warning %q", job.Name, ev.Type, ev.Note, note)
		}
		if _, err := time.Parse(time.RFC3339, wl.Annotations[annStartP50]); err != nil {
			t.Errorf("%s: no predicted start on the deactivated Workload: %v", job.Name, wl.Annotations)
		}
	}
	time.Sleep(2 * time.Second)
	for _, job := range []*batchv1.Job{late, past} {
		if j := s.getJob(job); !ptr.Deref(j.Spec.Suspend, false) {
			t.Errorf("the rejected Job %s was unsuspended", job.Name)
		}
		if pods := s.pods(job); len(pods) != 0 {
			t.Errorf("the rejected Job %s has %d pods", job.Name, len(pods))
		}
	}
}

// 4. A Job that would push an admitted one past its deadline is held
// (Retry) and admitted once that one has really finished.
//
// cq-held has 2 cpu and borrows up to 2 more from cq-held-lender (cohort
// co-held). a (2 pods, run time 120 s, deadline 160 s) is admitted on the
// nominal quota if Kueue admits it within 40 s; kwok runs its pods 20 s.
// c (2 pods of 60 s, deadline 110 s: before a's while c comes within 50 s
// of a) gets borrowed quota, but the check plans on the nominal quota,
// where c ahead of a in EDF order ends a 20 s after its deadline however
// late a was admitted, and c behind a misses its own: Retry. When a's Job
// completes and its quota is freed, c alone meets its deadline if that
// happens within about 50 s of c's creation: Ready, admitted, run,
// complete.
func (cl *cluster) held(t *testing.T) {
	s := cl.scenario(t, "held")
	s.nodes(node{name: "held-1", typ: "cpu", cpu: "2"}, node{name: "held-2", typ: "cpu", cpu: "2"})
	s.queue("cq-held-lender", "2", "co-held", false, false)
	s.queue("cq-held", "2", "co-held", true, false)
	s.localQueue("cq-held")
	a := s.job(jobSpec{name: "a", pods: 2, queue: "lq", runFor: 20 * time.Second, ann: deadlineAnn("160s", "fixed-120", "120s")})
	s.waitWorkload(a, 30*time.Second, "a admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	c := s.job(jobSpec{name: "c", pods: 2, queue: "lq", runFor: 20 * time.Second, ann: deadlineAnn("110s", "fixed-60", "60s")})
	wlc := s.waitWorkload(c, 30*time.Second, "c's Workload", func(*kueue.Workload) bool { return true })
	ev := s.waitEvent(wlc.Name, "DeadlineRetry", 30*time.Second)
	if !strings.Contains(ev.Note, "would push admitted s-held/") || !strings.Contains(ev.Note, "past its deadline") {
		t.Errorf("DeadlineRetry event %q does not name the admitted workload it protects", ev.Note)
	}
	aDone := s.waitJobComplete(a, 60*time.Second).Status.CompletionTime.Time
	wlc = s.waitWorkload(c, 60*time.Second, "c admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	// Conditions carry whole seconds.
	if at := condTime(wlc, kueue.WorkloadAdmitted); at.Before(aDone.Truncate(time.Second)) {
		t.Errorf("c admitted at %v, before a completed at %v", at, aDone)
	}
	j := s.waitJobComplete(c, 60*time.Second)
	if deadline := j.CreationTimestamp.Add(110 * time.Second); !j.Status.CompletionTime.Time.Before(deadline) {
		t.Errorf("c completed at %v, after its deadline %v", j.Status.CompletionTime, deadline)
	}
}

// 5. Pending Workloads carry their predicted start and finish, and the
// predictions move as the queue drains.
//
// cq-eta has 1 cpu and admits in strict FIFO order. a (modelled 60 s;
// kwok runs it 10 s) is admitted; b (modelled 60 s) waits for a's
// predicted 60 s, and d (modelled 20 s) for b's 60 s more. When a
// completes 50 s early, b is admitted and d's predicted start moves up by
// about 50 s.
func (cl *cluster) eta(t *testing.T) {
	s := cl.scenario(t, "eta")
	s.nodes(node{name: "eta-1", typ: "cpu", cpu: "1"})
	s.queue("cq-eta", "1", "", true, true)
	s.localQueue("cq-eta")
	a := s.job(jobSpec{name: "a", pods: 1, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn("10m", "fixed-60", "60s")})
	wla := s.waitWorkload(a, 30*time.Second, "a admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	ta := condTime(wla, kueue.WorkloadAdmitted)
	b := s.job(jobSpec{name: "b", pods: 1, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn("20m", "fixed-60", "60s")})
	// Kueue orders a queue by creation time, at one-second resolution.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
	d := s.job(jobSpec{name: "d", pods: 1, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn("30m", "fixed-20", "20s")})

	start := func(wl *kueue.Workload) (time.Time, bool) {
		tm, err := time.Parse(time.RFC3339, wl.Annotations[annStartP50])
		return tm, err == nil
	}
	var dStart time.Time
	// The check writes the ETA annotations first and the Pending message
	// that repeats them in a second write.
	s.waitWorkload(d, 30*time.Second, "d's ETA and its Pending message", func(wl *kueue.Workload) bool {
		var ok bool
		dStart, ok = start(wl)
		_, hasFinish := wl.Annotations[annFinishP90]
		return ok && hasFinish && strings.HasPrefix(checkState(wl).Message, "Pending: predicted start")
	})
	wlb := s.workload(b)
	bStart, ok := start(wlb)
	if !ok {
		t.Fatalf("pending b has no predicted start: %v", wlb.Annotations)
	}
	const tol = 8 * time.Second
	if !near(bStart, ta.Add(60*time.Second), tol) || !near(dStart, ta.Add(120*time.Second), tol) {
		t.Errorf("predicted starts b %v, d %v; want about a's admission %v + 60 s and + 120 s", bStart, dStart, ta)
	}
	wlb = s.waitWorkload(b, 60*time.Second, "b admitted once a completes", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	tb := condTime(wlb, kueue.WorkloadAdmitted)
	if !tb.Before(bStart.Add(-30 * time.Second)) {
		t.Errorf("b admitted at %v, not well before its predicted start %v (a ran 10 s of its modelled 60 s)", tb, bStart)
	}
	var moved time.Time
	s.waitWorkload(d, 30*time.Second, "d's ETA to move up behind b", func(wl *kueue.Workload) bool {
		var ok bool
		moved, ok = start(wl)
		return ok && near(moved, tb.Add(60*time.Second), tol)
	})
	if dStart.Sub(moved) < 30*time.Second {
		t.Errorf("d's predicted start moved from %v to %v only", dStart, moved)
	}
}

func near(a, b time.Time, tol time.Duration) bool {
	d := a.Sub(b)
	return d <= tol && d >= -tol
}

// 6. A job three times faster on gpu-a100 nodes (the example profile's
// job type crypto, ProgressShare) lands on the two GPU nodes (1 cpu each)
// although the two CPU nodes (4 cpu each) are emptier, which is what the
// default scoring prefers; a job with no rates then takes the CPU nodes.
func (cl *cluster) gpu(t *testing.T) {
	s := cl.scenario(t, "gpu")
	gpu := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}
	s.nodes(node{name: "gpu-1", typ: "gpu-a100", cpu: "1", extra: gpu}, node{name: "gpu-2", typ: "gpu-a100", cpu: "1", extra: gpu},
		node{name: "cpu-1", typ: "cpu-standard", cpu: "4"}, node{name: "cpu-2", typ: "cpu-standard", cpu: "4"})
	crypto := s.job(jobSpec{name: "crypto", pods: 2, runFor: 10 * time.Second, ann: map[string]string{annJobType: "crypto"}})
	eventually(t, 30*time.Second, "crypto's pods bound", func() (bool, string) {
		pods := s.pods(crypto)
		return len(pods) == 2 && pods[0].Spec.NodeName != "" && pods[1].Spec.NodeName != "", fmt.Sprint(len(pods))
	})
	sort := s.job(jobSpec{name: "sort", pods: 2, runFor: 10 * time.Second})
	s.waitJobComplete(crypto, 60*time.Second)
	s.waitJobComplete(sort, 60*time.Second)
	for job, want := range map[*batchv1.Job]string{crypto: "gpu-", sort: "cpu-"} {
		for _, p := range s.pods(job) {
			if !strings.HasPrefix(p.Spec.NodeName, want) {
				t.Errorf("%s's pod %s ran on %s, want a %s* node", job.Name, p.Name, p.Spec.NodeName, want)
			}
		}
	}
}
