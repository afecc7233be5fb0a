//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pod creates a bare pod of the scenario (no owner: a job of its own to
// the plugins), scheduled by schedkit-scheduler onto node (any of the
// scenario's nodes when ""), asking for cpu, with a priority class ("" for
// none) and annotations.
func (s *scenario) pod(name, node, cpu, priority string, ann map[string]string) {
	s.t.Helper()
	sel := map[string]string{scenarioLabel: s.name}
	if node != "" {
		sel["kubernetes.io/hostname"] = node
	}
	s.create(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: name, Annotations: ann},
		Spec: corev1.PodSpec{
			SchedulerName:     schedkitSched,
			PriorityClassName: priority,
			NodeSelector:      sel,
			Tolerations:       []corev1.Toleration{{Key: scenarioLabel, Operator: corev1.TolerationOpEqual, Value: s.name, Effect: corev1.TaintEffectNoSchedule}},
			Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36", Command: []string{"sleep", "3600"},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("100Mi")}}}},
		},
	})
}

// gone returns the pods of names that are deleted or being deleted.
func (s *scenario) gone(names []string) []string {
	s.t.Helper()
	var out []string
	for _, n := range names {
		p, err := s.cl.cs.CoreV1().Pods(s.ns).Get(s.ctx, n, metav1.GetOptions{})
		if err != nil || p.DeletionTimestamp != nil {
			out = append(out, n)
		}
	}
	return out
}

// boundOnce fails the test for every pod of the scenario with more than
// one Scheduled event, or bound without one.
func (s *scenario) boundOnce() {
	s.t.Helper()
	for _, p := range s.podList() {
		evs := s.events(p.Name, "Scheduled")
		if len(evs) > 1 || p.Spec.NodeName != "" && len(evs) == 0 {
			s.t.Errorf("pod %s on %q: %d Scheduled events", p.Name, p.Spec.NodeName, len(evs))
		}
	}
}

// 7. schedkit-scheduler killed with SIGKILL in the middle of a
// LeastWorkLostPreemption, as soon as the first victim is being deleted,
// and started again (it takes its lease when the killed one's expires).
//
// One node of 4 cpu runs four 1-cpu low-priority pods started a second
// apart; a 2-cpu high-priority preemptor needs two of them gone: the two
// youngest (v-2, v-3). a) The preemptor stays: the restarted scheduler
// evicts only what is still missing of those two (kube-scheduler's
// preemption skips a pod whose nominated node has victims terminating),
// binds the preemptor once, and no other pod goes. b) The preemptor is
// deleted while the scheduler is down: the victims already being deleted
// stay deleted (their deletion was one API call that completed; kube's
// DefaultPreemption is no different: neither undoes an eviction), and the
// restarted scheduler evicts no one else.
func (cl *cluster) schedulerKilled(t *testing.T) {
	s := cl.scenario(t, "sched-kill")
	s.nodes(node{name: "sched-kill-a", typ: "cpu", cpu: "4"}, node{name: "sched-kill-b", typ: "cpu", cpu: "4"},
		node{name: "sched-kill-c", typ: "cpu", cpu: "4"})
	for _, part := range []struct {
		node string
		keep bool // the preemptor stays
	}{{"sched-kill-a", true}, {"sched-kill-b", false}} {
		var victims []string
		for i := range 4 {
			name := fmt.Sprintf("%s-v-%d", part.node[len(part.node)-1:], i)
			s.pod(name, part.node, "1", "low", nil)
			victims = append(victims, name)
			s.waitBound(name)
			time.Sleep(time.Second)
		}
		preemptor := part.node[len(part.node)-1:] + "-preemptor"
		s.pod(preemptor, part.node, "2", "high", nil)
		var atKill []string
		eventually(t, 60*time.Second, "a victim being deleted", func() (bool, string) {
			atKill = s.gone(victims)
			return len(atKill) > 0, "none yet"
		})
		p := cl.processOf(t, schedkitSched)
		cl.kill9(t, schedkitSched)
		killed := time.Now()
		atKill = s.gone(victims) // what the killed scheduler had deleted
		t.Logf("%s: killed schedkit-scheduler with %v being deleted", part.node, atKill)
		if !part.keep {
			if err := cl.cs.CoreV1().Pods(s.ns).Delete(s.ctx, preemptor, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		cl.launch(t, p)
		// The restarted scheduler leads when it binds a probe pod on the
		// free node c.
		probe := part.node[len(part.node)-1:] + "-probe"
		s.pod(probe, "sched-kill-c", "100m", "", nil)
		s.waitBound(probe)
		t.Logf("%s: the restarted scheduler bound a pod %v after the kill", part.node, time.Since(killed).Round(100*time.Millisecond))
		if part.keep {
			s.waitBound(preemptor)
			t.Logf("%s: the preemptor bound %v after the kill", part.node, time.Since(killed).Round(100*time.Millisecond))
		}
		time.Sleep(3 * time.Second)
		all := s.gone(victims)
		want := atKill
		if part.keep {
			want = victims[2:]
		}
		if !slices.Equal(all, want) {
			t.Errorf("%s: victims %v, want %v (deleted at the kill: %v)", part.node, all, want, atKill)
		}
	}
	s.boundOnce()
}

// waitBound waits until pod name is bound to a node.
func (s *scenario) waitBound(name string) {
	s.t.Helper()
	eventually(s.t, 90*time.Second, "pod "+name+" bound", func() (bool, string) {
		p, err := s.cl.cs.CoreV1().Pods(s.ns).Get(s.ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if c := podCondition(*p, corev1.PodScheduled); c != nil && p.Spec.NodeName == "" {
			return false, c.Message
		}
		return p.Spec.NodeName != "", "not tried yet"
	})
}

// 8. Two schedkit-scheduler replicas with the leader election of their
// KubeSchedulerConfiguration: a standby started beside the leader (its
// own secure port), the leader killed with SIGKILL. The standby takes
// the lease within leaseDuration + retryPeriod (plus takeoverSlack) and
// binds the pods created after the kill, each once.
func (cl *cluster) schedulerLeader(t *testing.T) {
	s := cl.scenario(t, "sched-leader")
	s.nodes(node{name: "sched-leader-a", typ: "cpu", cpu: "8"})
	p := cl.processOf(t, schedkitSched)
	standby := p
	standby.name = schedkitSched + "-2"
	_, port, err := net.SplitHostPort(freeAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	at := cl.logSize(standby.name)
	cl.launch(t, standby, "--secure-port="+port)
	eventually(t, 60*time.Second, "the standby waiting for the lease", func() (bool, string) {
		return len(cl.logSince(t, standby.name, at, "Attempting to acquire leader lease")) > 0, "not yet"
	})
	const ns, lease = "schedkit-scheduler", "schedkit-scheduler"
	holder, transitions := cl.leaseHolder(t, ns, lease)
	s.pod("before", "", "1", "", nil)
	s.waitBound("before")
	// The leader records its Scheduled event after the binding, through
	// its event broadcaster: a SIGKILL before that loses the event, not
	// the binding. Killed once the event is there, the leader has
	// finished with "before", and boundOnce's count of it means something.
	eventually(t, 30*time.Second, "the Scheduled event of pod before", func() (bool, string) {
		return len(s.events("before", "Scheduled")) > 0, "none yet"
	})

	cl.kill9(t, schedkitSched)
	killed := time.Now()
	var pods []string
	for i := range 5 {
		name := fmt.Sprintf("after-%d", i)
		s.pod(name, "", "1", "", nil)
		pods = append(pods, name)
	}
	var first time.Time
	for _, name := range pods {
		s.waitBound(name)
		if first.IsZero() {
			first = time.Now()
		}
	}
	cl.checkTakeover(t, "bound its first pod", ns, lease, holder, transitions, killed, first)
	cl.launch(t, p) // back as the standby
	s.boundOnce()
}

// badPodCount is how many malformed pods the pod burst creates:
// SCHEDKIT_FAULTS_BADPODS, else 200 (CI's slice).
func badPodCount(t *testing.T) int { return envCount(t, "SCHEDKIT_FAULTS_BADPODS", 200, 4, 10000) }

// badPodClasses are the malformed pods of the burst: a name prefix, the
// annotations, the reason of the event that names the field and what the
// event says; bound: the pod is scheduled all the same (ProgressShare
// ignores rates it cannot read).
var badPodClasses = []struct {
	prefix, reason, note string
	ann                  map[string]string
	bound                bool
}{
	{"dl", "FailedScheduling", `annotation schedkit.io/deadline="soon": `, map[string]string{annDeadline: "soon"}, false},
	{"rt", "FailedScheduling", `annotation schedkit.io/runtime="fast": `, map[string]string{annDeadline: "30m", annRuntime: "fast"}, false},
	{"type", "FailedScheduling", `has schedkit.io/job-type="nope", which the DeadlineAdmission args do not list`, map[string]string{annDeadline: "30m", annJobType: "nope"}, false},
	{"rates", "ProgressShare", `annotation schedkit.io/rates="cpu=fast": `, map[string]string{"schedkit.io/rates": "cpu=fast"}, true},
}

// 6. Pods with malformed schedkit.io/* annotations (badPodCount, a
// quarter of each class) created together with 50 good ones (a deadline
// and run time the cluster meets, or no annotation): every malformed pod
// gets an event naming the annotation and its value, and every good pod
// is bound.
func (cl *cluster) malformedPods(t *testing.T) {
	s := cl.scenario(t, "bad-pods")
	n := badPodCount(t)
	// Each node holds every pod that can be bound (the rates class and
	// the good ones), so that both stay feasible to the end: kube-scheduler
	// scores a pod, and ProgressShare's PreScore names its bad rates, only
	// when more than one node is feasible.
	fit := n/len(badPodClasses) + 60
	room := corev1.ResourceList{corev1.ResourcePods: resource.MustParse(strconv.Itoa(fit))}
	cpu := strconv.Itoa(max(100, fit/10+1))
	s.nodes(node{name: "bad-pods-a", typ: "cpu", cpu: cpu, extra: room}, node{name: "bad-pods-b", typ: "cpu", cpu: cpu, extra: room})
	var good []string
	t0 := time.Now()
	for i := range n {
		c := badPodClasses[i%len(badPodClasses)]
		s.pod(fmt.Sprintf("%s-%04d", c.prefix, i), "", "100m", "", c.ann)
		if i%(n/50+1) == 0 && len(good) < 50 {
			name := fmt.Sprintf("good-%02d", len(good))
			ann := map[string]string{annDeadline: "30m", annRuntime: "1m"}
			if len(good)%2 == 1 {
				ann = nil
			}
			s.pod(name, "", "100m", "", ann)
			good = append(good, name)
		}
	}
	for len(good) < 50 {
		name := fmt.Sprintf("good-%02d", len(good))
		s.pod(name, "", "100m", "", nil)
		good = append(good, name)
	}
	eventually(t, 3*time.Minute, "every good pod bound and every malformed pod's event", func() (bool, string) {
		evs, err := cl.cs.EventsV1().Events(s.ns).List(s.ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		notes := map[string][]string{} // pod → "reason: note"
		for _, ev := range evs.Items {
			notes[ev.Regarding.Name] = append(notes[ev.Regarding.Name], ev.Reason+": "+ev.Note)
		}
		pods := map[string]corev1.Pod{}
		for _, p := range s.podList() {
			pods[p.Name] = p
		}
		var missing []string
		for i := range n {
			c := badPodClasses[i%len(badPodClasses)]
			name := fmt.Sprintf("%s-%04d", c.prefix, i)
			ok := slices.ContainsFunc(notes[name], func(x string) bool {
				return strings.HasPrefix(x, c.reason+": ") && strings.Contains(x, c.note)
			})
			if bound := pods[name].Spec.NodeName != ""; !ok || bound != c.bound {
				missing = append(missing, fmt.Sprintf("%s (bound %v, events %q)", name, bound, notes[name]))
			}
		}
		for _, g := range good {
			if pods[g].Spec.NodeName == "" {
				missing = append(missing, g+" unbound: "+strings.Join(notes[g], "; "))
			}
		}
		return len(missing) == 0, fmt.Sprintf("%d open, e.g. %v", len(missing), missing[:min(len(missing), 3)])
	})
	t.Logf("%d malformed and %d good pods: every event and binding within %v", n, len(good), time.Since(t0).Round(time.Second))
	s.boundOnce()
}
