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
// candidates is chosen), twenty preemptors choose at least fifteen nodes:
// each preemptor's window starts at its offsetOf. Each chooses the lowest
// name of its window (the 100 nodes from its offset in the snapshot's
// order, wrapping around: node-0000 when the window wraps) after one dry
// run beside its probe: every other node's bound ranks after that node.
// From offset 0 all twenty would choose node-0000.
func TestOffsetSpreadsPreemptors(t *testing.T) {
	schedmetrics.Register()
	const n = 1000
	c := newPreemptionCluster(n)
	c.unstarted()
	chosen := map[string]bool{}
	for i := range 20 {
		uid := types.UID(fmt.Sprintf("preemptor-%d", i))
		node, rec := preemptAt10(t, &c, uid)
		want := offsetOf(uid, n)
		if want+100 > n {
			want = 0
		}
		if node != fmt.Sprintf("node-%04d", want) || !rec.window || len(rec.nodes) != 1 || rec.skipped != 99 {
			t.Errorf("%s (offset %d): chose %s after %d dry runs, %d skipped, window %v; want node-%04d after 1, 99 skipped",
				uid, offsetOf(uid, n), node, len(rec.nodes), rec.skipped, rec.window, want)
		}
		chosen[node] = true
	}
	if len(chosen) < 15 {
		t.Errorf("twenty preemptors chose %d nodes: %v", len(chosen), chosen)
	}
}

// preemptAt10 runs PostFilter at 10 % (at least 100) for c's preemptor,
// given uid, on a fresh framework over c with the nodes in name order, and
// returns the node chosen and the preemption's record.
func preemptAt10(t *testing.T, c *preemptionCluster, uid types.UID) (string, *record) {
	c.preemptor = c.preemptor.DeepCopy() // the last one's eviction may still read it
	c.preemptor.UID = uid
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, state := c.handle(t, ctx)
	r, s := buildOn(t, ctx, f, 10).PostFilter(ctx, state, c.preemptor, byName{c.statuses})
	if !s.IsSuccess() || r == nil {
		t.Fatalf("%s: PostFilter %v", uid, s)
	}
	d, _ := state.Read(recordKey)
	return r.NominatedNodeName, d.(*record)
}

// TestGetOffsetAndNumCandidates: every node from the first when all are
// candidates or when they are the preemptor's narrowed window; else
// Args.NumCandidates from the preemptor's offsetOf.
func TestGetOffsetAndNumCandidates(t *testing.T) {
	pl := &LeastWorkLostPreemption{args: &Args{MinCandidateNodesPercentage: ptr.To[int32](10), MinCandidateNodesAbsolute: ptr.To[int32](100)}}
	e := evaluatorInterface{pl: pl}
	for _, tc := range []struct {
		n, offset, c int32
		window       bool
	}{
		{1, 0, 1, false},
		{100, 0, 100, false},
		{101, 0xe40c292c % 101, 100, false},
		{5000, 0xe40c292c % 5000, 500, false},
		{5000, 0, 5000, true},
		{3, 0, 3, true},
	} {
		pl.rec.Store(&record{uid: "a", window: tc.window})
		if o, c := e.GetOffsetAndNumCandidates(tc.n); o != tc.offset || c != tc.c || pl.exhaustive.Load() != (tc.c == tc.n) {
			t.Errorf("n=%d, window %v: offset %d, %d candidates, exhaustive %v; want %d, %d", tc.n, tc.window, o, c, pl.exhaustive.Load(), tc.offset, tc.c)
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
