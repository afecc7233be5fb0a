package progressscore

import (
	"context"
	"fmt"
	"testing"

	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
)

// BenchmarkScoreNode is one Score call, the per-node part of a cycle: the
// plugin on 5,000 nodes (every fourth gpu-a100, the others cpu-standard),
// after PreScore for pod s beside a pending job rated gpu-a100=3 (the
// first case of TestPreScoreSkipsUniform: the types score 50 and 100).
// Each op scores the next node in turn.
func BenchmarkScoreNode(b *testing.B) {
	da, pl := sharedProfile(b, factory.NewEnv(clocktesting.NewFakePassiveClock(t0)))
	infos := make([]fwk.NodeInfo, 5000)
	for i := range infos {
		typ := "cpu-standard"
		if i%4 == 0 {
			typ = "gpu-a100"
		}
		n := typedNode(fmt.Sprintf("n%04d", i), typ, "110")
		ni := framework.NewNodeInfo()
		ni.SetNode(n)
		infos[i] = ni
		pl.tally.SetNode(n)
	}
	r, s := ratedPod("r", "gpu-a100=3"), ratedPod("s", "")
	da.PodHandler().OnAdd(r, true)
	da.PodHandler().OnAdd(s, true)
	ctx := context.Background()
	state := framework.NewCycleState()
	if st := pl.PreScore(ctx, state, s, nil); !st.IsSuccess() {
		b.Fatalf("PreScore: %v", st)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, st := pl.Score(ctx, state, s, infos[i]); !st.IsSuccess() {
			b.Fatal(st)
		}
		if i++; i == len(infos) {
			i = 0
		}
	}
}
