//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
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
	victims  []string      // the Jobs whose pods were deleted, sorted
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
	// One scenario (namespace and nodes) per scheduler, so that neither
	// preemptor sees the other's nodes.
	pools := map[string]*scenario{
		schedkitSched:       cl.scenario(t, "preempt-lwl"),
		"default-scheduler": cl.scenario(t, "preempt-def"),
	}
	for _, s := range pools {
		s.nodes(node{name: s.name + "-a", typ: "cpu", cpu: "4"}, node{name: s.name + "-b", typ: "cpu", cpu: "4"}, node{name: s.name + "-c", typ: "cpu", cpu: "4"})
	}
	for sched, s := range pools {
		s.job(jobSpec{name: "a-old", pods: 1, cpu: "4", node: s.name + "-a", scheduler: sched, priority: "low"})
		s.job(jobSpec{name: "b-old", pods: 1, cpu: "2", node: s.name + "-b", scheduler: sched, priority: "low"})
		s.job(jobSpec{name: "c-high", pods: 1, cpu: "4", node: s.name + "-c", scheduler: sched, priority: "high"})
	}
	for _, s := range pools {
		s.waitRunning(3)
	}
	time.Sleep(15 * time.Second)
	for sched, s := range pools {
		s.job(jobSpec{name: "b-young", pods: 2, cpu: "1", node: s.name + "-b", scheduler: sched, priority: "low"})
	}
	for _, s := range pools {
		s.waitRunning(5)
	}
	time.Sleep(3 * time.Second)

	type running struct {
		job     string
		started time.Time
	}
	before := map[string]map[string]running{} // scheduler → pod → its Job and start
	for sched, s := range pools {
		before[sched] = map[string]running{}
		for _, p := range s.podList() {
			before[sched][p.Name] = running{p.Labels["job-name"], p.Status.StartTime.Time}
		}
	}
	for sched, s := range pools {
		s.job(jobSpec{name: "preemptor", pods: 1, cpu: "2", scheduler: sched, priority: "high"})
	}
	res := map[string]*preemptionResult{}
	for sched, s := range pools {
		r := &preemptionResult{}
		res[sched] = r
		eventually(t, 60*time.Second, sched+"'s preemptor running", func() (bool, string) {
			for _, pod := range s.podList() {
				if pod.Labels["job-name"] == "preemptor" && pod.Status.Phase == corev1.PodRunning {
					r.node = pod.Spec.NodeName
					return true, ""
				}
			}
			return false, "not yet"
		})
		now := time.Now()
		left := map[string]bool{}
		for _, p := range s.podList() {
			if p.DeletionTimestamp == nil {
				left[p.Name] = true
				if p.Labels["job-name"] == "preemptor" {
					if evs := s.events(p.Name, "LeastWorkLostPreemption"); len(evs) > 0 {
						r.note = evs[0].Note
					}
				}
			}
		}
		for _, pod := range slices.Sorted(maps.Keys(before[sched])) {
			if left[pod] {
				continue
			}
			if job := before[sched][pod].job; !slices.Contains(r.victims, job) {
				r.victims = append(r.victims, job)
			}
			r.workLost += now.Sub(before[sched][pod].started)
		}
		slices.Sort(r.victims)
	}
	d, l := res["default-scheduler"], res[schedkitSched]
	t.Logf("DefaultPreemption (kube-scheduler): node %s, victims %v, work lost %v", d.node, d.victims, d.workLost.Round(time.Second))
	t.Logf("LeastWorkLostPreemption (schedkit-scheduler): node %s, victims %v, work lost %v", l.node, l.victims, l.workLost.Round(time.Second))
	t.Logf("LeastWorkLostPreemption event: %s", l.note)
	if !slices.Equal(d.victims, []string{"a-old"}) || d.node != "preempt-def-a" {
		t.Errorf("DefaultPreemption evicted %v for node %s; kube's order (lowest sum of victims' priorities) evicts [a-old] on preempt-def-a", d.victims, d.node)
	}
	if !slices.Equal(l.victims, []string{"b-young"}) || l.node != "preempt-lwl-b" {
		t.Errorf("LeastWorkLostPreemption evicted %v for node %s, want the youngest pods [b-young] on preempt-lwl-b", l.victims, l.node)
	}
	if !(l.workLost < d.workLost) {
		t.Errorf("work lost: LeastWorkLostPreemption %v, DefaultPreemption %v; want less", l.workLost, d.workLost)
	}
	if !strings.HasPrefix(l.note, "preempting 2 lower-priority pods on node preempt-lwl-b, work lost ") {
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
	s.checkQueue("2")
	job := s.job(jobSpec{name: "typed", pods: 2, queue: "lq", runFor: 10 * time.Second, ann: deadlineAnn("5m", "fixed-10", "")})
	s.waitWorkload(job, 60*time.Second, "admitted", func(wl *kueue.Workload) bool { return condTrue(wl, kueue.WorkloadAdmitted) })
	eventually(t, 30*time.Second, "the check-admitted Job's pods bound", func() (bool, string) {
		pods := s.pods(job)
		var unbound []string
		for _, p := range pods {
			if p.Spec.NodeName == "" {
				why := "not tried yet"
				if c := podCondition(p, corev1.PodScheduled); c != nil {
					why = c.Message
				}
				unbound = append(unbound, p.Name+": "+why)
			}
		}
		return len(pods) == 2 && len(unbound) == 0, fmt.Sprintf("%d pods; unbound: %v", len(pods), unbound)
	})
	s.waitJobComplete(job, 60*time.Second)
}

// 9. Neither schedkit component was refused a request by authorization:
// the RBAC of their manifests grants all they do. Their logs carry the API
// server's denial, "… is forbidden: User "system:serviceaccount:…" cannot
// …". (A 403 for an event in a namespace being deleted, "forbidden: unable
// to create new content in namespace …", is the namespace's lifecycle, not
// RBAC: the scenarios delete their namespaces while pods may still be
// bound.)
//
// A request made while kube-apiserver restarts (TestFaults) may be refused
// before its authorizer has loaded the roles ("… role … not found"): those
// lines of the components' logs (cluster.restarting) are left out. The
// standby replicas TestFaults starts are read too.
func (cl *cluster) noForbidden(t *testing.T) {
	for _, c := range []string{"schedkit-deadline", "schedkit-scheduler", "schedkit-deadline-2", "schedkit-scheduler-2"} {
		if _, err := os.Stat(filepath.Join(cl.dir, "logs", c+".log")); err != nil && strings.HasSuffix(c, "-2") {
			continue
		}
		if lines := cl.logOutside(t, c, cl.restarting[c], "is forbidden: User "); len(lines) > 0 {
			t.Errorf("%s was refused requests (%d log lines), e.g.:\n%s", c, len(lines), strings.Join(lines[:min(len(lines), 5)], "\n"))
		}
	}
}
