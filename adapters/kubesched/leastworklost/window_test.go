package leastworklost

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"
)

// TestPropWindowKeepsChoice: below every node a candidate, on random
// clusters (genPreemptionCluster) and preemptor UIDs, with 1–8 nodes to
// dry-run, the bound chooses the node and victims that dry runs of every
// node of the preemptor's window choose: the window worked out here (the
// potential nodes in name order from offsetOf, the first c counting only
// the nodes whose bound leaves a dry run possible), then every one of its
// nodes dry-run without the bound. When the window's probes find no
// candidate the bound is not used (kube's scan runs); the preemption
// then still succeeds whenever a window node is a candidate.
func TestPropWindowKeepsChoice(t *testing.T) {
	schedmetrics.Register()
	windowed, fallbacks := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		c := genPreemptionCluster(rt)
		c.preemptor.UID = types.UID(fmt.Sprintf("preemptor-%d", rapid.IntRange(0, 1000).Draw(rt, "uid")))
		args := &Args{MinCandidateNodesPercentage: ptr.To[int32](1), MinCandidateNodesAbsolute: ptr.To(int32(rapid.IntRange(1, 8).Draw(rt, "candidates")))}
		statuses := byName{c.statuses} // every node Unschedulable, in name order

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f, state := c.handle(t, ctx)
		pl := buildArgs(t, ctx, f, args)
		nodes, err := statuses.NodesForStatusCode(f.SnapshotSharedLister().NodeInfos(), fwk.Unschedulable)
		if err != nil {
			rt.Fatal(err)
		}
		n := int32(len(nodes))
		if n == 0 || args.NumCandidates(n) == n {
			return // every node dry-run: TestPropBoundKeepsChoice
		}
		// The window, from the bounds of every node in scan order.
		bs, _ := pl.bounds(ctx, state, c.preemptor, nodes, t0)
		off := int(offsetOf(c.preemptor.UID, n))
		all := fwk.NewStatus(fwk.Unschedulable, "Insufficient cpu")
		window := map[string]*fwk.Status{}
		for i, reachable := 0, 0; i < len(nodes) && reachable < int(args.NumCandidates(n)); i++ {
			b := bs[(off+i)%len(nodes)]
			window[b.node.Node().Name] = all
			if b.ok && b.key != unreachable {
				reachable++
			}
		}

		r, s := pl.PostFilter(ctx, state, c.preemptor, statuses)
		got := outcomeOf(pl, state, c.preemptor, r, s)
		d, _ := state.Read(recordKey)
		rec := d.(*record)

		oracle := c
		oracle.statuses = framework.NewNodeToStatus(window, fwk.NewStatus(fwk.UnschedulableAndUnresolvable))
		want := preemptOnce(t, oracle, false)
		if !rec.window {
			fallbacks++
			if want.code == fwk.Success && got.code != fwk.Success {
				rt.Fatalf("window %v has a candidate (%+v), the scan found none: %+v", keysOf(window), want, got)
			}
			return
		}
		windowed++
		if got.code != want.code || got.node != want.node || fmt.Sprint(got.victims) != fmt.Sprint(want.victims) {
			rt.Fatalf("window %v: bounded %+v, every window node dry-run %+v", keysOf(window), got, want)
		}
		if got.dryRuns > want.dryRuns {
			rt.Fatalf("dry runs: bounded %+v, every window node %+v", got, want)
		}
	})
	if windowed == 0 {
		t.Error("no preemption was narrowed to its window: the property tested nothing")
	}
	t.Logf("%d preemptions narrowed to their window, %d fell back to the scan", windowed, fallbacks)
}

// outcomeOf is the preemptionOutcome of a PostFilter that returned r, s.
func outcomeOf(pl *LeastWorkLostPreemption, state fwk.CycleState, preemptor *v1.Pod, r *fwk.PostFilterResult, s *fwk.Status) preemptionOutcome {
	out := preemptionOutcome{code: s.Code()}
	if r != nil {
		out.node = r.NominatedNodeName
	}
	if v, ok := pl.victims.Load(preemptor.UID); ok {
		for _, p := range v.([]*v1.Pod) {
			out.victims = append(out.victims, p.Name)
		}
	}
	if d, err := state.Read(recordKey); err == nil {
		rec := d.(*record)
		out.dryRuns, out.skipped = len(rec.nodes), rec.skipped
	}
	return out
}

func keysOf(m map[string]*fwk.Status) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestWindowSkipsNodesWithoutVictims: 600 nodes in name order, the pods of
// three nodes in four at the preemptor's priority (no victims there), no
// pod started. At 10 % (100 candidates) each window holds the first 100
// nodes with victims from the preemptor's offset, 400 nodes bounded in two
// rounds, and the lowest name among those 100 is chosen after one dry run
// beside the probe.
func TestWindowSkipsNodesWithoutVictims(t *testing.T) {
	schedmetrics.Register()
	const n = 600
	c := newPreemptionCluster(n)
	c.unstarted()
	for i, p := range c.pods {
		if node := i / 4; node%4 != 0 {
			p.Spec.Priority = ptr.To[int32](10)
		}
	}
	for i := range 5 {
		uid := types.UID(fmt.Sprintf("preemptor-%d", i))
		want := ""
		for j, counted := int(offsetOf(uid, n)), 0; counted < 100; j = (j + 1) % n {
			if j%4 == 0 {
				counted++
				if name := fmt.Sprintf("node-%04d", j); want == "" || name < want {
					want = name
				}
			}
		}
		if node, rec := preemptAt10(t, &c, uid); node != want || !rec.window || len(rec.nodes) != 1 {
			t.Errorf("%s (offset %d): chose %s after %d dry runs, window %v; want %s after 1", uid, offsetOf(uid, n), node, len(rec.nodes), rec.window, want)
		}
	}
}
