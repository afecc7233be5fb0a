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

// malformedCount is how many malformed workloads the burst submits:
// SCHEDKIT_FAULTS_MALFORMED, else 100 (CI's slice; adapters/README.md
// gives the full-size command, 1000).
func malformedCount(t *testing.T) int {
	return envCount(t, "SCHEDKIT_FAULTS_MALFORMED", 100, 5, 10000)
}

// The bounds the malformed burst states: each good workload decided this
// long after its Job was created, and the check's peak resident memory.
const (
	goodDecidedWithin = 3 * time.Minute
	checkPeakRSS      = 512 // MiB
)

// malformedClasses are the malformed workloads of the burst: a name
// prefix, the Job's annotations and pod cpu, and what the check's
// rejection names (the Workload's schedkit.io/rejection annotation).
var malformedClasses = []struct {
	prefix string
	ann    map[string]string
	cpu    string
	want   string
}{
	{"dl", deadlineAnn("soon", "fixed-60", ""), "1", `Rejected: annotation schedkit.io/deadline = "soon": neither an RFC 3339 time`},
	{"type", deadlineAnn("30m", "nope", ""), "1", `Rejected: annotation schedkit.io/job-type = "nope": names no job type of DeadlineParameters models`},
	{"rt", deadlineAnn("30m", "", "fast"), "1", `Rejected: annotation schedkit.io/runtime = "fast"`},
	{"far", deadlineAnn("30m", "", "1000000h"), "1", `Rejected: annotation schedkit.io/runtime = "1000000h": a run time must be a duration in (0s, `},
	{"huge", deadlineAnn("30m", "fixed-60", ""), "100000", ""},
}

// 2. A burst of malformed workloads (malformedCount: bad annotations,
// unknown job types, absurd run times and absurd pod sizes, one class in
// five) with 20 good ones submitted in its middle. Each malformed one is
// rejected with a message naming its field and value and deactivated
// (the absurd sizes: Kueue never reserves quota for a pod bigger than the
// queue, and the check says so on its Pending message); every good one is
// Ready within goodDecidedWithin of its Job's creation, and the check's
// peak resident memory stays under checkPeakRSS.
func (cl *cluster) malformedBurst(t *testing.T) {
	s := cl.scenario(t, "malformed")
	s.cleanup = 5 * time.Minute // a thousand Jobs and Workloads to delete
	s.checkQueue("20")
	rec := cl.recordDecisions(t, s.ns)
	_, peak0 := cl.rss(t, "schedkit-deadline")
	n := malformedCount(t)
	var bad, goodSpecs []jobSpec
	for i := range n {
		c := malformedClasses[i%len(malformedClasses)]
		bad = append(bad, jobSpec{name: fmt.Sprintf("%s-%04d", c.prefix, i), pods: 1, cpu: c.cpu, queue: "lq", ann: c.ann})
	}
	var good []string
	for g := range 20 {
		name := fmt.Sprintf("good-%02d", g)
		goodSpecs = append(goodSpecs, jobSpec{name: name, pods: 1, queue: "lq", ann: deadlineAnn("30m", "fixed-60", "")})
		good = append(good, name)
	}
	t0 := time.Now()
	s.jobs(bad[:n/2]...)
	goodAt := time.Now() // the good Jobs' creation, at the latest
	s.jobs(goodSpecs...)
	s.jobs(bad[n/2:]...)
	t.Logf("submitted %d malformed and 20 good Jobs in %v", n, time.Since(t0).Round(100*time.Millisecond))
	rec.waitDecided(t, s.ns, good, goodDecidedWithin+time.Minute)
	var slowest time.Duration
	for _, g := range good {
		_, at := rec.of(s.ns, g)
		slowest = max(slowest, at.Sub(goodAt))
	}
	t.Logf("the 20 good workloads decided at most %v after their Jobs' creation", slowest.Round(100*time.Millisecond))
	if slowest > goodDecidedWithin {
		t.Errorf("a good workload took %v to be decided, bound %v", slowest, goodDecidedWithin)
	}
	rec.checkOnce(t, s.ns, good, func(string) string { return mixWant["ok"] })

	// Every malformed workload: rejected by name and deactivated, or (the
	// absurd sizes) never admitted with the check's reason on it.
	eventually(t, 5*time.Minute, fmt.Sprintf("%d malformed workloads rejected", n), func() (bool, string) {
		l := &kueue.WorkloadList{}
		if err := s.cl.c.List(s.ctx, l, client.InNamespace(s.ns)); err != nil {
			return false, err.Error()
		}
		var bad []string
		seen := 0
		for i := range l.Items {
			wl := &l.Items[i]
			job := strings.TrimPrefix(jobOf(wl), s.ns+"/")
			if strings.HasPrefix(job, "good-") {
				continue
			}
			seen++
			if why := malformedOutcome(wl, job); why != "" {
				bad = append(bad, why)
			}
		}
		if seen < n {
			return false, fmt.Sprintf("%d of %d workloads", seen, n)
		}
		return len(bad) == 0, fmt.Sprintf("%d not yet: %v", len(bad), bad[:min(len(bad), 3)])
	})
	t.Logf("all %d malformed workloads handled %v after the first was submitted", n, time.Since(t0).Round(time.Second))
	now, peak := cl.rss(t, "schedkit-deadline")
	t.Logf("schedkit-deadline resident memory: peak %d MiB before the burst, %d MiB now, peak %d MiB", peak0, now, peak)
	if peak > checkPeakRSS {
		t.Errorf("schedkit-deadline peaked at %d MiB resident, bound %d MiB", peak, checkPeakRSS)
	}
}

// malformedOutcome returns "" when a malformed workload ended as its class
// says, else what it shows.
func malformedOutcome(wl *kueue.Workload, job string) string {
	for _, c := range malformedClasses {
		if !strings.HasPrefix(job, c.prefix+"-") {
			continue
		}
		st := checkState(wl)
		if condTrue(wl, kueue.WorkloadAdmitted) || condTrue(wl, kueue.WorkloadQuotaReserved) && c.want == "" {
			return job + " admitted"
		}
		if c.want == "" {
			if !strings.Contains(st.Message, "does not fit ClusterQueue cq-malformed's nominal quota") {
				return fmt.Sprintf("%s: check %q", job, st.Message)
			}
			return ""
		}
		if !strings.HasPrefix(wl.Annotations[annRejection], c.want) || wl.Spec.Active == nil || *wl.Spec.Active {
			return fmt.Sprintf("%s: rejection %q active %v", job, wl.Annotations[annRejection], wl.Spec.Active)
		}
		return ""
	}
	return job + ": no class"
}

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
