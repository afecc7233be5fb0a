package progressscore

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
)

// TestSignPod: SignPod refuses every pod, rated or not, with or without an
// owning Job, so the scheduler never reuses another pod's scores for it.
func TestSignPod(t *testing.T) {
	yes := true
	for name, pod := range map[string]*v1.Pod{
		"plain":    {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}},
		"rated":    {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Annotations: map[string]string{annotation.Rates: "gpu-a100=3"}}},
		"job type": {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Annotations: map[string]string{annotation.JobType: "crypto"}}},
		"owned": {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", OwnerReferences: []metav1.OwnerReference{
			{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: "j-uid", Controller: &yes}}}},
	} {
		frags, st := (&ProgressShare{}).SignPod(context.Background(), pod)
		if st.IsSuccess() || frags != nil {
			t.Errorf("%s pod: signed %v (%v)", name, frags, st)
		}
	}
}

// TestNoSignature works by hand, on the gpu cluster (max delay 60 s), the
// three ways a pod's scores change while nothing in the pod does, within
// the 500 ms a scheduler's batch may reuse them for: no signature made
// from the pod is correct.
func TestNoSignature(t *testing.T) {
	c, s := gpuCluster(t)
	score := func(jobs []JobState, self string) map[string]int64 {
		t.Helper()
		js, i := c.Jobs(jobs, types.UID(self), t0)
		got, err := Score(s, c, js, i)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	fresh := func(key string, rates map[string]float64) JobState {
		return JobState{Key: types.UID(key), Ref: "Job ns/" + key, Created: t0, Rates: rates, Pending: 2, LastLaunch: t0, Running: map[string]int{}}
	}
	gpu := map[string]float64{"gpu-a100": 3}

	// A sort pod (rates 1) while no rated job is pending: every type the
	// same (PreScore skips). A crypto job arriving makes them differ:
	// crypto, ahead on equal shares, takes the GPU slots and leaves the
	// CPU ones to sort.
	if got, want := score([]JobState{fresh("sort", nil)}, "sort"), map[string]int64{"gpu-a100": 100, "cpu-standard": 100}; !equal(got, want) {
		t.Errorf("sort alone: %v, want %v", got, want)
	}
	if got, want := score([]JobState{fresh("sort", nil), fresh("crypto", gpu)}, "sort"), map[string]int64{"gpu-a100": 50, "cpu-standard": 100}; !equal(got, want) {
		t.Errorf("sort beside crypto: %v, want %v", got, want)
	}

	// Two pods of crypto, sort running one CPU pod. The first: crypto
	// (share 0) comes first and takes the GPU slots (50 + 50·1), declines
	// the CPU ones (50·0.25 → 13). Once it runs on a GPU node, sort is
	// behind and takes every slot: the second pod scores 50 on the other
	// GPU nodes, where the batch would keep 100.
	sort := fresh("sort", nil)
	sort.Running = map[string]int{"cpu-standard": 1}
	crypto := fresh("crypto", gpu)
	if got, want := score([]JobState{sort, crypto}, "crypto"), map[string]int64{"gpu-a100": 100, "cpu-standard": 13}; !equal(got, want) {
		t.Errorf("first crypto pod: %v, want %v", got, want)
	}
	crypto.Running, crypto.Pending = map[string]int{"gpu-a100": 1}, 1
	if got, want := score([]JobState{sort, crypto}, "crypto"), map[string]int64{"gpu-a100": 50, "cpu-standard": 13}; !equal(got, want) {
		t.Errorf("second crypto pod: %v, want %v", got, want)
	}

	// The same crypto pod as time passes: at 45 s of delay it accepts CPU
	// slots (1 − 0.25 ≤ 45/60), at 44.9 s it does not.
	crypto = fresh("crypto", gpu)
	for _, c := range []struct {
		delay time.Duration
		cpu   int64
	}{{44900 * time.Millisecond, 13}, {45 * time.Second, 63}} {
		crypto.LastLaunch = t0.Add(-c.delay)
		if got := score([]JobState{sort, crypto}, "crypto")["cpu-standard"]; got != c.cpu {
			t.Errorf("crypto pod after %v: cpu-standard %d, want %d", c.delay, got, c.cpu)
		}
	}
}
