//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// burstSize is how many Jobs the burst scenario submits at once:
// SCHEDKIT_CLUSTER_BURST, else 20 (CI's slice; the README gives the
// full-size command, 100).
func burstSize(t *testing.T) int { return envCount(t, "SCHEDKIT_CLUSTER_BURST", 20, 1, 1000) }

// envCount reads a count from the environment variable name: def when it
// is unset; a value outside [lo, hi] fails the test.
func envCount(t *testing.T, name string, def, lo, hi int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		t.Fatalf("%s = %q: want a count in [%d, %d]", name, v, lo, hi)
	}
	return n
}

// 10. A burst of one-pod Jobs submitted at once, with quota and nodes for
// all of them: every one is made Ready by the check, admitted, bound by
// schedkit-scheduler, run 10 s by kwok and complete before its deadline.
// The time from a Workload's creation to the check's Ready (whole seconds,
// as the API carries them: Kueue's quota reservation and the check's
// decision) and the time until the last Job completes are logged, not
// asserted.
func (cl *cluster) burst(t *testing.T) {
	n := burstSize(t)
	s := cl.scenario(t, "burst")
	var ns []node
	for i := 0; i < (n+9)/10; i++ {
		ns = append(ns, node{name: fmt.Sprintf("burst-%d", i+1), typ: "cpu", cpu: "10"})
	}
	s.nodes(ns...)
	s.checkQueue(strconv.Itoa(n))
	t0 := time.Now()
	jobs := make([]*batchv1.Job, n)
	for i := range jobs {
		jobs[i] = s.job(jobSpec{name: fmt.Sprintf("j%03d", i), pods: 1, queue: "lq", runFor: 10 * time.Second,
			ann: deadlineAnn("30m", "fixed-10", "10s")})
	}
	var last time.Time
	for _, job := range jobs {
		j := s.waitJobComplete(job, 5*time.Minute)
		if done := j.Status.CompletionTime.Time; done.After(last) {
			last = done
		}
	}
	var waits []time.Duration
	for _, job := range jobs {
		wl := s.workload(job)
		if wl == nil {
			t.Fatalf("Job %s has no Workload", job.Name)
		}
		st := checkState(wl)
		if st.State != kueue.CheckStateReady {
			t.Errorf("%s: check %s %q, want Ready", wl.Name, st.State, st.Message)
			continue
		}
		waits = append(waits, st.LastTransitionTime.Sub(wl.CreationTimestamp.Time))
		for _, p := range s.pods(job) {
			if evs := s.events(p.Name, "Scheduled"); len(evs) != 1 || evs[0].ReportingController != schedkitSched {
				t.Errorf("pod %s: Scheduled events %+v, want one from %s", p.Name, evs, schedkitSched)
			}
			if p.Status.Phase != corev1.PodSucceeded {
				t.Errorf("pod %s: phase %s", p.Name, p.Status.Phase)
			}
		}
	}
	if len(waits) > 0 {
		slices.Sort(waits)
		t.Logf("%d Jobs: Workload created → check Ready: median %v, max %v; the last Job complete %v after the first was submitted",
			n, waits[len(waits)/2], waits[len(waits)-1], last.Sub(t0).Round(time.Second))
	}
}
