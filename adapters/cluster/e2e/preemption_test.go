//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A preemptionResult is what one scheduler's preemption did.
type preemptionResult struct {
	node     string        // where the preemptor runs
	victims  []string      // the Jobs whose pods were deleted
	workLost time.Duration // Σ victims' run time when the preemptor came
	note     string        // LeastWorkLostPreemption's event on the preemptor
}

// 7. LeastWorkLostPreemption evicts the pods that have run least where
// kube's DefaultPreemption evicts more run time: the same cluster twice,
// side by side, one served by schedkit-scheduler, one by the stock
// kube-scheduler, each with three 4-cpu nodes of low-priority Jobs:
//
//	a: a-old     4 cpu, started first
//	b: b-old     2 cpu, started first; b-young, 2 pods of 1 cpu started ~15 s later
//	c: c-high    4 cpu, priority high (the preemptor's)
//
// A high-priority 2-cpu preemptor comes ~3 s after b-young. Evicting a-old
// frees node a with one victim; evicting b-young frees 2 cpu on node b with
// two victims that have run a fifth as long. DefaultPreemption prefers the
// lower sum of priorities (one victim: a-old); LeastWorkLostPreemption the
// least run time lost (b-young).
func (cl *cluster) preemption(t *testing.T) {
	s := cl.scenario(t, "preempt")
	for _, p := range []string{"lwl", "def"} {
		s.nodes(node{name: p + "-a", typ: "cpu", cpu: "4"}, node{name: p + "-b", typ: "cpu", cpu: "4"}, node{name: p + "-c", typ: "cpu", cpu: "4"})
	}
	schedulers := map[string]string{"lwl": schedkitSched, "def": "default-scheduler"}
	for p, sched := range schedulers {
		s.job(jobSpec{name: p + "-a-old", pods: 1, cpu: "4", node: p + "-a", scheduler: sched, priority: "low"})
		s.job(jobSpec{name: p + "-b-old", pods: 1, cpu: "2", node: p + "-b", scheduler: sched, priority: "low"})
		s.job(jobSpec{name: p + "-c-high", pods: 1, cpu: "4", node: p + "-c", scheduler: sched, priority: "high"})
	}
	s.waitRunning(6)
	time.Sleep(15 * time.Second)
	for p, sched := range schedulers {
		s.job(jobSpec{name: p + "-b-young", pods: 2, cpu: "1", node: p + "-b", scheduler: sched, priority: "low"})
	}
	s.waitRunning(10)
	time.Sleep(3 * time.Second)

	started := map[string]time.Time{} // pod → start
	jobOf := map[string]string{}      // pod → Job
	for _, p := range s.podList() {
		started[p.Name] = p.Status.StartTime.Time
		jobOf[p.Name] = p.Labels["job-name"]
	}
	for p, sched := range schedulers {
		s.job(jobSpec{name: p + "-preemptor", pods: 1, cpu: "2", scheduler: sched, priority: "high"})
	}
	res := map[string]*preemptionResult{}
	for p := range schedulers {
		r := &preemptionResult{}
		res[p] = r
		eventually(t, 60*time.Second, p+"-preemptor running", func() (bool, string) {
			for _, pod := range s.podList() {
				if pod.Labels["job-name"] == p+"-preemptor" && pod.Status.Phase == corev1.PodRunning {
					r.node = pod.Spec.NodeName
					return true, ""
				}
			}
			return false, "not yet"
		})
	}
	now := time.Now()
	left := map[string]bool{}
	for _, p := range s.podList() {
		if p.DeletionTimestamp == nil {
			left[p.Name] = true
		}
	}
	for _, pod := range slices.Sorted(maps.Keys(started)) {
		if left[pod] {
			continue
		}
		p := strings.SplitN(jobOf[pod], "-", 2)[0]
		r := res[p]
		if !slices.Contains(r.victims, jobOf[pod]) {
			r.victims = append(r.victims, jobOf[pod])
		}
		r.workLost += now.Sub(started[pod])
	}
	for _, pod := range s.podList() {
		if pod.Labels["job-name"] == "lwl-preemptor" {
			if evs := s.events(pod.Name, "LeastWorkLostPreemption"); len(evs) > 0 {
				res["lwl"].note = evs[0].Note
			}
		}
	}
	d, l := res["def"], res["lwl"]
	t.Logf("DefaultPreemption (kube-scheduler): node %s, victims %v, work lost %v", d.node, d.victims, d.workLost.Round(time.Second))
	t.Logf("LeastWorkLostPreemption (schedkit-scheduler): node %s, victims %v, work lost %v", l.node, l.victims, l.workLost.Round(time.Second))
	t.Logf("LeastWorkLostPreemption event: %s", l.note)
	if !slices.Equal(d.victims, []string{"def-a-old"}) || d.node != "def-a" {
		t.Errorf("DefaultPreemption evicted %v for node %s; kube's order (lowest sum of victims' priorities) evicts [def-a-old] on def-a", d.victims, d.node)
	}
	if !slices.Equal(l.victims, []string{"lwl-b-young"}) || l.node != "lwl-b" {
		t.Errorf("LeastWorkLostPreemption evicted %v for node %s, want the youngest pods [lwl-b-young] on lwl-b", l.victims, l.node)
	}
	if !(l.workLost < d.workLost) {
		t.Errorf("work lost: LeastWorkLostPreemption %v, DefaultPreemption %v; want less", l.workLost, d.workLost)
	}
	if !strings.HasPrefix(l.note, "preempting 2 lower-priority pods on node lwl-b, work lost ") {
		t.Errorf("LeastWorkLostPreemption event %q", l.note)
	}
}

// podList returns the scenario's pods.
func (s *scenario) podList() []corev1.Pod {
	s.t.Helper()
	l, err := s.cl.cs.CoreV1().Pods(s.ns).List(s.ctx, metav1.ListOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	return l.Items
}

// waitRunning waits until n of the scenario's pods are Running.
func (s *scenario) waitRunning(n int) {
	s.t.Helper()
	eventually(s.t, 60*time.Second, fmt.Sprintf("%d pods running", n), func() (bool, string) {
		running := 0
		var others []string
		for _, p := range s.podList() {
			if p.Status.Phase == corev1.PodRunning {
				running++
			} else {
				others = append(others, p.Name+" "+string(p.Status.Phase))
			}
		}
		return running == n, fmt.Sprintf("%d running; %v", running, others)
	})
}

// 8. One Job means one thing to the check and to DeadlineAdmission: a Job
// written as a Kueue user writes it (a deadline and a job type, no
// schedkit.io/runtime), which the check admits, is not held by
// schedkit-scheduler's DeadlineAdmission on the same annotations; its pods
// are bound and it completes.
func (cl *cluster) contract(t *testing.T) {
	s := cl.scenario(t, "contract")
	s.nodes(node{name: "contract-1", typ: "cpu", cpu: "2"})
	s.queue("cq-contract", "2", "", true, false)
	s.localQueue("cq-contract")
	job := s.job(jobSpec{name: "typed", pods: 2, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn("5m", "fixed-10", "")})
	s.waitWorkload(job, 60*time.Second, "admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	eventually(t, 30*time.Second, "the check-admitted Job's pods bound", func() (bool, string) {
		pods := s.pods(job)
		var why []string
		for _, p := range pods {
			if p.Spec.NodeName == "" {
				for _, c := range p.Status.Conditions {
					if c.Type == corev1.PodScheduled {
						why = append(why, p.Name+": "+c.Message)
					}
				}
			}
		}
		return len(pods) == 2 && len(why) == 0, fmt.Sprintf("%d pods; unbound: %v", len(pods), why)
	})
	s.waitJobComplete(job, 60*time.Second)
}

// 9. Neither schedkit component was refused a request: the RBAC of their
// manifests grants all they do (their logs name any 403 "forbidden").
func (cl *cluster) noForbidden(t *testing.T) {
	for _, c := range []string{"schedkit-deadline", "schedkit-scheduler"} {
		if lines := cl.logLines(t, c, "forbidden"); len(lines) > 0 {
			t.Errorf("%s was refused requests (%d log lines), e.g.:\n%s", c, len(lines), strings.Join(lines[:min(len(lines), 5)], "\n"))
		}
	}
}
