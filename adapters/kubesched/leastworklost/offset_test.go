package leastworklost

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/utils/ptr"
)

// byName lists the potential nodes in name order, as the scheduler's
// snapshot lists them in a fixed order (its node tree), where the test
// snapshot's order is a map's.
type byName struct{ fwk.NodeToStatusReader }

func (b byName) NodesForStatusCode(l fwk.NodeInfoLister, code fwk.Code) ([]fwk.NodeInfo, error) {
	nodes, err := b.NodeToStatusReader.NodesForStatusCode(l, code)
	slices.SortFunc(nodes, func(a, b fwk.NodeInfo) int { return strings.Compare(a.Node().Name, b.Node().Name) })
	return nodes, err
}

// TestOffsetSpreadsPreemptors: at 10 % of 1,000 nodes (100 candidates),
// no pod started (every node loses 0 s, so the lowest name among the
// candidates found is chosen), twenty preemptors choose at least fifteen
// nodes: each scan starts at the preemptor's offsetOf. From offset 0 all
// would choose node-0000 or, when the parallel dry runs skip the first
// nodes, another of the first few. Which nodes a scan dry-runs depends on
// its parallel runs (kube takes the nodes in runs of 31 on 16 goroutines
// and stops them once 100 candidates are found), so the test does not
// name the node; TestGetOffsetAndNumCandidates checks the offsets.
func TestOffsetSpreadsPreemptors(t *testing.T) {
	schedmetrics.Register()
	const n = 1000
	c := newPreemptionCluster(n)
	for _, p := range c.pods {
		p.Status.StartTime = nil
	}
	chosen := map[string]bool{}
	for i := range 20 {
		uid := types.UID(fmt.Sprintf("preemptor-%d", i))
		c.preemptor = c.preemptor.DeepCopy() // the last one's eviction may still read it
		c.preemptor.UID = uid
		ctx, cancel := context.WithCancel(context.Background())
		f, state := c.handle(t, ctx)
		r, s := buildOn(t, ctx, f, 10).PostFilter(ctx, state, c.preemptor, byName{c.statuses})
		cancel()
		if !s.IsSuccess() || r == nil {
			t.Fatalf("%s: PostFilter %v", uid, s)
		}
		chosen[r.NominatedNodeName] = true
	}
	if len(chosen) < 15 {
		t.Errorf("twenty preemptors chose %d nodes: %v", len(chosen), chosen)
	}
}

// TestGetOffsetAndNumCandidates: every node from the first when all are
// candidates; else Args.NumCandidates from the preemptor's offsetOf.
func TestGetOffsetAndNumCandidates(t *testing.T) {
	pl := &LeastWorkLostPreemption{args: &Args{MinCandidateNodesPercentage: ptr.To[int32](10), MinCandidateNodesAbsolute: ptr.To[int32](100)}}
	e := evaluatorInterface{pl: pl}
	pl.rec.Store(&record{uid: "a"})
	for _, tc := range []struct{ n, offset, c int32 }{
		{1, 0, 1},
		{100, 0, 100},
		{101, 0xe40c292c % 101, 100},
		{5000, 0xe40c292c % 5000, 500},
	} {
		if o, c := e.GetOffsetAndNumCandidates(tc.n); o != tc.offset || c != tc.c || pl.exhaustive.Load() != (tc.c == tc.n) {
			t.Errorf("n=%d: offset %d, %d candidates, exhaustive %v; want %d, %d", tc.n, o, c, pl.exhaustive.Load(), tc.offset, tc.c)
		}
	}
}

// TestOffsetOf: in [0, n), the same for the same UID, and the FNV-1a hash
// of the UID's bytes: "" hashes to the offset basis 2166136261, "a" to
// 0xe40c292c (FNV's published test vectors).
func TestOffsetOf(t *testing.T) {
	for _, tc := range []struct {
		uid  types.UID
		n    int32
		want int32
	}{
		{"", 1, 0},
		{"", 1000, 2166136261 % 1000},
		{"a", 1000, 0xe40c292c % 1000},
		{"a", 7, 0xe40c292c % 7},
		{"a", 1 << 30, 0xe40c292c % (1 << 30)},
	} {
		if got := offsetOf(tc.uid, tc.n); got != tc.want || got != offsetOf(tc.uid, tc.n) {
			t.Errorf("offsetOf(%q, %d) = %d, want %d", tc.uid, tc.n, got, tc.want)
		}
	}
}
