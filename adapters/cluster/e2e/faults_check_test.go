//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// 3. Two replicas of the check with leader election (the Deployment's
// -leader-elect): the second started as a standby beside the leader, the
// leader killed with SIGKILL. The standby takes the lease within
// leaseDuration + retryPeriod of the kill (plus takeoverSlack) and decides
// the workloads submitted after it; no workload gets two decisions. The
// killed replica comes back as the new standby, so that two replicas run
// for the faults after this one.
func (cl *cluster) checkLeader(t *testing.T) {
	s := cl.scenario(t, "leader")
	s.checkQueue("16")
	rec := cl.recordDecisions(t, s.ns)
	p := cl.processOf(t, "schedkit-deadline")
	standby := p
	standby.name = "schedkit-deadline-2"
	probe := freeAddr(t)
	cl.launch(t, standby, "-metrics-bind-address=0", "-health-probe-bind-address="+probe)
	eventually(t, 60*time.Second, "the standby's /readyz", func() (bool, string) {
		resp, err := http.Get("http://" + probe + "/readyz")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
	const ns, lease = "kueue-system", "schedkit-deadline.schedkit.io"
	holder, transitions := cl.leaseHolder(t, ns, lease)

	before := s.mix("a", 4, 2)
	rec.waitDecided(t, s.ns, before, 60*time.Second)
	if h, _ := cl.leaseHolder(t, ns, lease); h != holder {
		t.Fatalf("the lease moved from %s to %s before the leader was killed", holder, h)
	}
	cl.kill9(t, "schedkit-deadline")
	killed := time.Now()
	after := s.mix("b", 4, 2)
	bound := leaseDuration + retryPeriod + takeoverSlack
	rec.waitDecided(t, s.ns, after, bound+30*time.Second)
	first := time.Time{}
	for _, j := range after {
		if _, at := rec.of(s.ns, j); first.IsZero() || at.Before(first) {
			first = at
		}
	}
	cl.checkTakeover(t, "decided its first workload", ns, lease, holder, transitions, killed, first)
	if !cl.alive("schedkit-deadline-2") {
		t.Fatal("the standby is not running")
	}
	cl.launch(t, p) // back as the standby
	time.Sleep(3 * time.Second)
	rec.checkOnce(t, s.ns, append(before, after...), wantOf)
}

// 4, 5. kube-apiserver, or etcd, killed with SIGKILL and started again
// under the check and schedkit-scheduler. The check's decisions must not
// come from a cache that missed what changed around the restart: four
// long workloads hold the queue's whole quota before it, and are deleted
// as soon as the API server serves again; four short ones with tight
// deadlines, submitted next, are Ready only if the check has seen the
// deletions (behind the long ones they would miss their deadlines: Retry).
// Each gets exactly one decision. A component whose lease could not be
// renewed while the API server was away exits ("leader election lost", by
// design: it cannot know that no one else leads); it is started again, as
// its Deployment would, and must then stay up (no crash loop). Leases
// outlive an etcd restart.
func (cl *cluster) controlPlaneRestart(t *testing.T, component string) {
	s := cl.scenario(t, "restart-"+component)
	s.checkQueue("4")
	rec := cl.recordDecisions(t, s.ns)
	var long []string
	for i := range 4 {
		name := fmt.Sprintf("long-%d", i)
		s.job(jobSpec{name: name, pods: 1, queue: "lq", ann: deadlineAnn("2h", "fixed-600", "")})
		long = append(long, name)
	}
	rec.waitDecided(t, s.ns, long, 60*time.Second)

	schedkit := []string{"schedkit-deadline", "schedkit-deadline-2", "schedkit-scheduler", "schedkit-scheduler-2"}
	procs := map[string]process{}
	logAt := map[string]int64{}
	for _, c := range schedkit {
		if cl.alive(c) {
			procs[c] = cl.processOf(t, c)
			logAt[c] = cl.logSize(c)
		}
	}
	t0 := time.Now()
	cl.restart9(t, component)
	eventually(t, 90*time.Second, "kube-apiserver ready after the restart", func() (bool, string) {
		out, err := cl.kubectlErr("", "get", "--raw", "/readyz")
		return err == nil, out
	})
	ready := time.Now()
	t.Logf("%s restarted: the API server ready again %v after the kill", component, ready.Sub(t0).Round(100*time.Millisecond))
	for _, name := range long {
		if err := cl.cs.BatchV1().Jobs(s.ns).Delete(s.ctx, name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 60*time.Second, "the long workloads gone", func() (bool, string) {
		l := &kueue.WorkloadList{}
		if err := s.cl.c.List(s.ctx, l, client.InNamespace(s.ns)); err != nil {
			return false, err.Error()
		}
		return len(l.Items) == 0, fmt.Sprintf("%d left", len(l.Items))
	})
	var short []string
	for i := range 4 {
		name := fmt.Sprintf("short-%d", i)
		s.job(jobSpec{name: name, pods: 1, queue: "lq", ann: deadlineAnn("5m", "fixed-60", "")})
		short = append(short, name)
	}

	// What exited, and why; started again as a Deployment would.
	restarted := map[string]bool{}
	for c, p := range procs {
		if cl.alive(c) {
			continue
		}
		lost := cl.logSince(t, c, logAt[c], "leader election lost")
		lost = append(lost, cl.logSince(t, c, logAt[c], "Leaderelection lost")...)
		t.Logf("%s exited during the %s restart; its log: %q", c, component, lost)
		if len(lost) == 0 {
			t.Errorf("%s exited during the %s restart, not for its lost lease; the end of its log:\n%s", c, component,
				strings.Join(cl.logSince(t, c, logAt[c], ""), "\n"))
		}
		cl.launch(t, p)
		restarted[c] = true
	}
	rec.waitDecided(t, s.ns, short, leaseDuration+retryPeriod+takeoverSlack+30*time.Second)
	var last time.Time
	for _, j := range short {
		if _, at := rec.of(s.ns, j); at.After(last) {
			last = at
		}
	}
	t.Logf("the short workloads decided %v after the %s kill; restarted: %v", last.Sub(t0).Round(100*time.Millisecond), component, slices.Sorted(maps.Keys(restarted)))
	rec.checkOnce(t, s.ns, short, func(string) string { return mixWant["ok"] })
	// No crash loop: every component runs 10 s later, none exited again.
	time.Sleep(10 * time.Second)
	for c := range procs {
		if !cl.alive(c) {
			t.Errorf("%s is not running 10 s after the recovery", c)
			cl.launch(t, procs[c])
		}
	}
	if cl.restarting == nil {
		cl.restarting = map[string][][2]int64{}
	}
	for c, at := range logAt {
		cl.restarting[c] = append(cl.restarting[c], [2]int64{at, cl.logSize(c)})
	}
	for _, c := range []string{"kueue", "kube-controller-manager", "kube-scheduler", "kwok"} {
		if !cl.alive(c) {
			t.Errorf("%s did not survive the %s restart", c, component)
		}
	}
}
