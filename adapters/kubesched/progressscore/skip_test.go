package progressscore

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
)

// TestPreScoreSkipsUniform: PreScore skips when every node type scores the
// same, and scores otherwise. Two nodes, gpu-a100 and cpu-standard; job r
// (rates gpu-a100=3) and job u (no rates) pending beside the scored pod's
// job s (no rates), all created at the plugin's start (delay 0, max delay
// 60 s), every job with no pod running (progress share 0).
//
//   - r and s: on gpu-a100 Algorithm 2 launches r (Pref 1, 1 − 1 ≤ 0), so s
//     scores 50·Pref = 50; on cpu-standard r passes (Pref < 1, and
//     1 − Pref > 0 = delay/maxDelay) and s, last, launches: 50 + 50 = 100.
//   - r, u and s: u (Pref 1 everywhere) launches on whichever type r leaves
//     it, so s launches on neither: 50 on both, and PreScore skips.
//   - r, u and a rated s (gpu-a100=3): s launches on neither type, but its
//     own Pref differs by type (Eq. 4.4: 1 on gpu-a100; on cpu-standard
//     the 10 slots of rate 1 over all 10·1 + 10·3, 0.25), so it scores 50
//     and round(12.5) = 13, and PreScore does not skip.
func TestPreScoreSkipsUniform(t *testing.T) {
	pod := ratedPod
	infos := map[string]fwk.NodeInfo{}
	for _, n := range []*v1.Node{typedNode("g1", "gpu-a100", "10"), typedNode("c1", "cpu-standard", "10")} {
		ni := framework.NewNodeInfo()
		ni.SetNode(n)
		infos[n.Name] = ni
	}
	for _, tc := range []struct {
		name   string
		others []*v1.Pod
		self   *v1.Pod
		want   map[string]int64 // nil: PreScore skips
	}{
		{"r and s", []*v1.Pod{pod("r", "gpu-a100=3")}, pod("s", ""), map[string]int64{"g1": 50, "c1": 100}},
		{"r, u and s", []*v1.Pod{pod("r", "gpu-a100=3"), pod("u", "")}, pod("s", ""), nil},
		{"r, u and a rated s", []*v1.Pod{pod("r", "gpu-a100=3"), pod("u", "")}, pod("s", "gpu-a100=3"), map[string]int64{"g1": 50, "c1": 13}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			da, pl := sharedProfile(t, factory.NewEnv(clocktesting.NewFakePassiveClock(t0)))
			for _, ni := range infos {
				pl.tally.SetNode(ni.Node())
			}
			for _, p := range append(tc.others, tc.self) {
				da.PodHandler().OnAdd(p, true)
			}
			ctx := context.Background()
			state := framework.NewCycleState()
			st := pl.PreScore(ctx, state, tc.self, nil)
			if tc.want == nil {
				if st.Code() != fwk.Skip {
					t.Fatalf("PreScore: %v, want Skip", st)
				}
				return
			}
			if !st.IsSuccess() {
				t.Fatalf("PreScore: %v", st)
			}
			for name, want := range tc.want {
				got, st := pl.Score(ctx, state, tc.self, infos[name])
				if !st.IsSuccess() || got != want {
					t.Errorf("Score(%s) = %d (%v), want %d", name, got, st, want)
				}
			}
		})
	}
}

// ratedPod is a pending pod of the schedkit profile, created at t0, with
// schedkit.io/rates rates ("": none).
func ratedPod(name, rates string) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name),
		CreationTimestamp: metav1.NewTime(t0), Annotations: map[string]string{}},
		Spec: v1.PodSpec{SchedulerName: "schedkit-scheduler"}}
	if rates != "" {
		p.Annotations[annotation.Rates] = rates
	}
	return p
}

// typedNode is a node of type typ (DefaultNodeTypeLabel) holding pods pods.
func typedNode(name, typ, pods string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{DefaultNodeTypeLabel: typ}},
		Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourcePods: resource.MustParse(pods)}}}
}
