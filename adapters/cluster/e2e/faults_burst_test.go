//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// malformedCount is how many malformed workloads the burst submits:
// SCHEDKIT_FAULTS_MALFORMED, else 100 (CI's slice; adapters/README.md
// gives the full-size command, 1000).
func malformedCount(t *testing.T) int {
	return envCount(t, "SCHEDKIT_FAULTS_MALFORMED", 100, 5, 10000)
}

// The bounds the malformed burst states, for each good workload: decided
// within goodDecidedAfterQuota of Kueue's quota reservation (the check's
// own share: a burst of malformed workloads must not delay it), within
// goodDecidedAfterWorkload of its Workload's creation (the check's share
// and Kueue's queue, where each malformed workload ahead of it waits until
// the check deactivates or rejects it), and within goodDecidedWithin plus
// kueueWorkloadEvery for each malformed Job submitted before it of its
// Job's creation: Kueue's job controller creates the Workloads in the
// order the Jobs came, 0.7–1.15 a second on this 2-core machine at load
// averages 13–33, whatever the check does. The check's peak resident
// memory stays under checkPeakRSS through the burst and the deletion of
// its namespace, and it keeps its leader lease throughout.
const (
	goodDecidedAfterQuota    = time.Minute
	goodDecidedAfterWorkload = 3 * time.Minute
	goodDecidedWithin        = 3 * time.Minute
	kueueWorkloadEvery       = 2 * time.Second
	checkPeakRSS             = 512 // MiB
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
// Ready within the bounds above, and the check's peak resident memory
// stays under checkPeakRSS, read (from the check's own pid) after the
// namespace's deletion and sampled every 2 s until then; the check never
// restarts nor loses its lease. The test waits longer
// than the bound for the good ones, so that a run over it still reports
// its figures: per workload, the time from its creation to its quota
// reservation (Kueue's) and from that to the check's decision, the CPU
// time of the check and of the control plane, and the check's requests.
func (cl *cluster) malformedBurst(t *testing.T) {
	const check = "schedkit-deadline"
	_, peak0 := cl.rss(t, check)
	logAt := cl.logSize(check)
	stopSampling := cl.sampleMemory(check, 2*time.Second)
	// Registered before the scenario's: runs after its namespace is gone.
	t.Cleanup(func() { cl.checkHeld(t, check, logAt, peak0, stopSampling) })
	s := cl.scenario(t, "malformed")
	n := malformedCount(t)
	// The Jobs and Workloads to delete: 1000 took over 5 min at load 34.
	s.cleanup = 2*time.Minute + time.Duration(n)*600*time.Millisecond
	s.checkQueue("20")
	rec := cl.recordDecisions(t, s.ns)
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
	cpu0, req0 := cl.usage(t), cl.checkRequests(t)
	t0 := time.Now()
	s.jobs(bad[:n/2]...)
	goodAt := time.Now() // the good Jobs' creation, at the latest
	s.jobs(goodSpecs...)
	s.jobs(bad[n/2:]...)
	t.Logf("submitted %d malformed and 20 good Jobs in %v (load average %s)", n, time.Since(t0).Round(100*time.Millisecond), loadAverage())
	fromJob := goodDecidedWithin + time.Duration(n/2)*kueueWorkloadEvery
	rec.waitDecided(t, s.ns, good, fromJob+time.Duration(n)*time.Second)
	var slowest time.Duration
	var toWorkload, queued, deciding, fromWorkload []time.Duration
	for _, g := range good {
		created, reserved, at := rec.times(s.ns, g)
		slowest = max(slowest, at.Sub(goodAt))
		toWorkload = append(toWorkload, created.Sub(goodAt))
		fromWorkload = append(fromWorkload, at.Sub(created))
		if !reserved.IsZero() {
			queued = append(queued, reserved.Sub(created))
			deciding = append(deciding, at.Sub(reserved))
		}
		if d := at.Sub(reserved); reserved.IsZero() || d > goodDecidedAfterQuota {
			t.Errorf("%s decided %v after its quota reservation (seen at %v), bound %v", g, d, reserved, goodDecidedAfterQuota)
		}
		if d := at.Sub(created); d > goodDecidedAfterWorkload {
			t.Errorf("%s decided %v after its Workload's creation, bound %v", g, d, goodDecidedAfterWorkload)
		}
	}
	t.Logf("the 20 good workloads decided at most %v after their Jobs' creation (load average %s); Job created → Workload created (Kueue's job controller, behind %d malformed Jobs) %s; Workload created → quota reserved %s; quota reserved → decided %s; Workload created → decided %s",
		slowest.Round(100*time.Millisecond), loadAverage(), n/2, spread(toWorkload), spread(queued), spread(deciding), spread(fromWorkload))
	if slowest > fromJob {
		t.Errorf("a good workload took %v from its Job's creation to be decided, bound %v (%v and %v for each of the %d malformed Jobs before it)", slowest, fromJob, goodDecidedWithin, kueueWorkloadEvery, n/2)
	}
	rec.checkOnce(t, s.ns, good, func(string) string { return mixWant["ok"] })

	// Every malformed workload: rejected by name and deactivated, or (the
	// absurd sizes) never admitted with the check's reason on it.
	eventually(t, 5*time.Minute+time.Duration(n)*time.Second, fmt.Sprintf("%d malformed workloads rejected", n), func() (bool, string) {
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
	took := time.Since(t0)
	var rejected, held []time.Duration
	for _, b := range bad {
		created, reserved, at := rec.times(s.ns, b.name)
		if at.IsZero() {
			continue // the absurd sizes: a Pending note, no decision
		}
		rejected = append(rejected, at.Sub(created))
		if !reserved.IsZero() {
			held = append(held, at.Sub(created))
		}
	}
	t.Logf("all %d malformed workloads handled %v after the first was submitted (%.1f a second); Workload created → rejected %s, %d of them after Kueue reserved quota for them (load average %s)",
		n, took.Round(time.Second), float64(n)/took.Seconds(), spread(rejected), len(held), loadAverage())
	t.Logf("CPU seconds during the burst: %s", cl.usage(t).since(cpu0))
	req := cl.checkRequests(t)
	t.Logf("schedkit-deadline's requests during the burst: %s", req.since(req0))
	// The check runs as its ServiceAccount with config/rbac's role: a
	// request refused 403 is a code path the role does not grant.
	if refused := req.refused(req0); refused != "" {
		t.Errorf("schedkit-deadline's requests refused by RBAC during the burst: %s", refused)
	}
	now, _ := cl.rss(t, check)
	t.Logf("%s resident memory after the burst: %d MiB", check, now)
}

// checkHeld checks, once the burst's namespace is gone, that the check
// ran as one process throughout (it never lost its lease: a leader that
// cannot renew it exits) and that its resident memory peaked under
// checkPeakRSS, and logs the peaks.
func (cl *cluster) checkHeld(t *testing.T, check string, logAt int64, peak0 int, stopSampling func() (int, int, error)) {
	most, pid, err := stopSampling()
	if err != nil {
		t.Errorf("sampling %s's memory: %v", check, err)
	}
	for _, lost := range []string{"leader election lost", "Leaderelection lost", "failed to renew lease"} {
		if l := cl.logSince(t, check, logAt, lost); len(l) > 0 {
			t.Errorf("%s lost its lease during the burst: %s", check, l[0])
		}
	}
	now, peak, err := cl.memoryOf(check)
	if err != nil {
		t.Errorf("%s after the burst: %v", check, err)
		return
	}
	t.Logf("%s (pid %d, one process throughout) resident memory: peak %d MiB before the burst; sampled every 2 s until its namespace was deleted, at most %d MiB; %d MiB now, peak %d MiB (load average %s)",
		check, pid, peak0, most, now, peak, loadAverage())
	if peak > checkPeakRSS {
		t.Errorf("%s peaked at %d MiB resident, bound %d MiB", check, peak, checkPeakRSS)
	}
}

// spread gives the median and the maximum of ds ("-" when empty).
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	ds = slices.Sorted(slices.Values(ds))
	return fmt.Sprintf("median %v, max %v", ds[len(ds)/2].Round(100*time.Millisecond), ds[len(ds)-1].Round(100*time.Millisecond))
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
