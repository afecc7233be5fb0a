//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestFaults breaks the cluster under the schedkit components and checks
// that no decision is lost or made twice and that bad objects do not hold
// up good ones: the check's manager and schedkit-scheduler killed with
// SIGKILL mid-work and restarted, their leaders killed beside a standby
// replica, kube-apiserver and etcd restarted under them, and bursts of
// malformed workloads and pods beside good ones. One cluster of its own
// (up.sh), the faults one after another; adapters/README.md tabulates them.
// SCHEDKIT_FAULTS_DEADLINE_FLAGS adds flags to schedkit-deadline's (the
// full-size burst's command gives it longer lease timings; the leader
// faults' bounds assume the defaults).
func TestFaults(t *testing.T) {
	cl := startScenarioCluster(t, os.Getenv("SCHEDKIT_FAULTS_DEADLINE_FLAGS"))

	t.Run("CheckKilledMidPlan", cl.checkKilled)
	t.Run("MalformedWorkloadBurst", cl.malformedBurst)
	t.Run("CheckLeaderKilled", cl.checkLeader)
	t.Run("APIServerRestarted", func(t *testing.T) { cl.controlPlaneRestart(t, "kube-apiserver") })
	t.Run("EtcdRestarted", func(t *testing.T) { cl.controlPlaneRestart(t, "etcd") })
	t.Run("MalformedPodBurst", cl.malformedPods)
	t.Run("SchedulerKilledMidPreemption", cl.schedulerKilled)
	t.Run("SchedulerLeaderKilled", cl.schedulerLeader)
	t.Run("NoRequestForbidden", cl.noForbidden)
	t.Logf("resident memory (MiB) after the faults: %s", cl.memory(t))
}

// Leader election of both schedkit components: client-go's defaults
// (controller-runtime's and kube-scheduler's), lease 15 s, renew deadline
// 10 s, retry every 2 s. A standby takes a dead leader's lease at most
// leaseDuration + retryPeriod after the leader's last renewal.
const (
	leaseDuration = 15 * time.Second
	retryPeriod   = 2 * time.Second
	// takeoverSlack is what a loaded two-core machine adds to a takeover:
	// the standby's informers sync and its first reconcile.
	takeoverSlack = 15 * time.Second
)

// The classes of workloads the fault scenarios submit, by the prefix of
// their Job's name, and the decision each gets (a prefix of its masked
// message, decisionOf).
var mixWant = map[string]string{
	"ok":   "Ready: predicted finish",
	"late": "Rejected: ",
	"type": `Rejected: annotation schedkit.io/job-type = "nope"`,
	"dl":   `Rejected: annotation schedkit.io/deadline = "soon"`,
}

func wantOf(job string) string {
	for p, w := range mixWant {
		if strings.HasPrefix(job, p+"-") || strings.Contains(job, "-"+p+"-") {
			return w
		}
	}
	return "?"
}

// mix submits ok Jobs that the check makes Ready (one pod of 1 cpu, 60 s,
// deadline 30 min) and bad of each other class: late (600 s for a 2 min
// deadline), type (an unknown job type), dl (a malformed deadline); their
// names are prefix-CLASS-i. It returns the names.
func (s *scenario) mix(prefix string, ok, bad int) []string {
	s.t.Helper()
	var names []string
	var specs []jobSpec
	add := func(class string, n int, ann map[string]string) {
		for i := range n {
			name := fmt.Sprintf("%s-%s-%02d", prefix, class, i)
			specs = append(specs, jobSpec{name: name, pods: 1, queue: "lq", ann: ann})
			names = append(names, name)
		}
	}
	add("ok", ok, deadlineAnn("30m", "fixed-60", ""))
	add("late", bad, deadlineAnn("2m", "fixed-600", ""))
	add("type", bad, deadlineAnn("30m", "nope", ""))
	add("dl", bad, deadlineAnn("soon", "fixed-60", ""))
	s.jobs(specs...)
	return names
}

// jobs creates the Jobs of specs, several at a time (each create passes
// Kueue's webhooks, which take a while on a loaded machine), and returns
// when all exist.
func (s *scenario) jobs(specs ...jobSpec) {
	s.t.Helper()
	work := make(chan jobSpec)
	errs := make(chan error, len(specs))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for js := range work {
				if err := s.cl.c.Create(s.ctx, s.newJob(js)); err != nil {
					errs <- fmt.Errorf("creating Job %s: %w", js.name, err)
				}
			}
		})
	}
	for _, js := range specs {
		work <- js
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		s.t.Fatal(err)
	}
}

// 1. The check's manager is killed with SIGKILL in the middle of a plan,
// with workloads admitted and others pending, and started again. Every
// workload ends with exactly one decision, the one the check makes on the
// same submissions without the fault: a twin ClusterQueue, given the same
// Jobs before, decided by the uninterrupted check. (The models are fixed
// run times and the deadlines relative, so the two sets are the same
// state but for their submission times.) The restarted manager takes the
// lease of the killed one when it expires.
func (cl *cluster) checkKilled(t *testing.T) {
	twin, s := cl.scenario(t, "kill-twin"), cl.scenario(t, "kill")
	rec := cl.recordDecisions(t, twin.ns, s.ns)
	var pre, batch []string
	for _, x := range []*scenario{twin, s} {
		x.checkQueue("16")
		pre = x.mix("pre", 3, 0)
		rec.waitDecided(t, x.ns, pre, 60*time.Second)
	}
	batch = twin.mix("b", 12, 6)
	rec.waitDecided(t, twin.ns, batch, 90*time.Second)

	batch = s.mix("b", 12, 6)
	eventually(t, 60*time.Second, "the check's first decision on the batch", func() (bool, string) {
		n := rec.undecided(s.ns, batch)
		return n < len(batch), fmt.Sprintf("%d undecided", n)
	})
	p := cl.processOf(t, "schedkit-deadline")
	cl.kill9(t, "schedkit-deadline")
	killed := time.Now()
	open := rec.undecided(s.ns, batch)
	t.Logf("killed the check with %d of %d workloads decided", len(batch)-open, len(batch))
	if open == 0 {
		t.Fatalf("the check decided all %d workloads before it was killed: not a kill mid-plan", len(batch))
	}
	cl.launch(t, p)
	rec.waitDecided(t, s.ns, batch, leaseDuration+retryPeriod+takeoverSlack+30*time.Second)
	var last time.Time
	for _, j := range batch {
		if _, at := rec.of(s.ns, j); at.After(last) {
			last = at
		}
	}
	t.Logf("every workload decided %v after the kill", last.Sub(killed).Round(100*time.Millisecond))
	time.Sleep(3 * time.Second) // a second decision would come within the check's reconciles
	rec.checkOnce(t, twin.ns, append(pre, batch...), wantOf)
	rec.checkOnce(t, s.ns, append(pre, batch...), func(job string) string {
		d, _ := rec.of(twin.ns, job)
		switch {
		case len(d) == 0:
			return "?"
		case strings.HasPrefix(d[0], "Ready: "):
			// The rest counts the deadlines it protects, which the order
			// of Kueue's quota reservations decides.
			return mixWant["ok"]
		}
		return strings.ReplaceAll(d[0], twin.name, s.name)
	})
}

// freeAddr returns a local address nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", freePortBase(t, 1))
}

// checkTakeover logs and checks a standby's takeover: the lease ns/lease
// held by holder after transitions hand-overs changed hands once, and the
// standby did its first work (did) at first, at most leaseDuration +
// retryPeriod + takeoverSlack after the leader was killed.
func (cl *cluster) checkTakeover(t *testing.T, did, ns, lease, holder string, transitions int32, killed, first time.Time) {
	t.Helper()
	h, tr := cl.leaseHolder(t, ns, lease)
	bound := leaseDuration + retryPeriod + takeoverSlack
	t.Logf("the standby %s %v after the leader was killed; lease %s → %s, transitions %d → %d",
		did, first.Sub(killed).Round(100*time.Millisecond), holder, h, transitions, tr)
	if d := first.Sub(killed); d > bound {
		t.Errorf("takeover took %v, bound %v", d, bound)
	}
	if h == holder || tr != transitions+1 {
		t.Errorf("lease holder %s → %s, transitions %d → %d: want one hand-over", holder, h, transitions, tr)
	}
}

// leaseHolder returns the holder of a Lease and how often it changed hands.
func (cl *cluster) leaseHolder(t *testing.T, ns, name string) (string, int32) {
	t.Helper()
	l, err := cl.cs.CoordinationV1().Leases(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var h string
	var n int32
	if l.Spec.HolderIdentity != nil {
		h = *l.Spec.HolderIdentity
	}
	if l.Spec.LeaseTransitions != nil {
		n = *l.Spec.LeaseTransitions
	}
	return h, n
}
