package leastworklost

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
)

// maxProbes is how many nodes narrow dry-runs, lowest bound first, to
// find a candidate before the Evaluator's dry runs; narrow bounds the
// nodes in parallel, boundChunk nodes to a piece.
const (
	maxProbes  = 4
	boundChunk = 256
)

// bounded is a node with its bound (lowerKey), if it has one.
type bounded struct {
	node fwk.NodeInfo
	key  nodeKey
	ok   bool
}

// potentialNodes is the node statuses the preemption Evaluator reads, with
// the nodes where preemption may help narrowed (narrow) when every one of
// them would be dry-run.
type potentialNodes struct {
	fwk.NodeToStatusReader
	ctx   context.Context
	pl    *LeastWorkLostPreemption
	state fwk.CycleState
	pod   *v1.Pod
	rec   *record
}

// NodesForStatusCode is the statuses' own, narrowed for code Unschedulable
// (the nodes where preemption may help) when the record allows the bound,
// the args dry-run all those nodes and no victim is a pod group.
func (p potentialNodes) NodesForStatusCode(lister fwk.NodeInfoLister, code fwk.Code) ([]fwk.NodeInfo, error) {
	nodes, err := p.NodeToStatusReader.NodesForStatusCode(lister, code)
	if err != nil || code != fwk.Unschedulable || !p.rec.bound || p.pl.podGroups {
		return nodes, err
	}
	if n := int32(len(nodes)); p.pl.args.NumCandidates(n) != n {
		return nodes, nil
	}
	return p.pl.narrow(p.ctx, p.state, p.pod, nodes, p.rec), nil
}

// narrow returns the nodes of nodes that may be chosen, lowest bound
// first: it bounds every node (lowerKey), dry-runs the nodes of lowest
// bound, at most maxProbes, until one is a candidate, and keeps the nodes
// whose bound does not come after that candidate's key. A node it drops
// either has no pod of lower priority than the preemptor (no dry run finds
// victims there) or cannot rank before that candidate, which is kept, so
// the node chosen is the one every dry run would choose. Without a
// candidate among the probes it returns nodes as they are. It records the
// nodes dropped as skipped and the candidate's key as the best so far.
func (pl *LeastWorkLostPreemption) narrow(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, rec *record) []fwk.NodeInfo {
	if cur, err := pl.pods.Pods(pod.Namespace).Get(pod.Name); err == nil {
		pod = cur // as the Evaluator reads it
	}
	prio := corev1helpers.PodPriority(pod)
	request := requestOf(state, pod)
	bs := make([]bounded, len(nodes))
	chunks := (len(nodes) + boundChunk - 1) / boundChunk
	pl.fh.Parallelizer().Until(ctx, chunks, func(c int) {
		var s boundScratch
		for i := c * boundChunk; i < min(len(nodes), (c+1)*boundChunk); i++ {
			n := nodes[i]
			s.pods = s.pods[:0]
			for _, pi := range n.GetPods() {
				if corev1helpers.PodPriority(pi.GetPod()) < prio {
					s.pods = append(s.pods, pi)
				}
			}
			k, ok := lowerKey(n, prio, s.pods, pl.nominatedOn(n.Node().Name, pod), request, rec.now, &s)
			bs[i] = bounded{n, k, ok}
		}
	}, Name)
	if ctx.Err() != nil {
		return nodes
	}
	bs = slices.DeleteFunc(bs, func(b bounded) bool { return !b.ok })
	pdbs, err := pl.evaluator.PdbLister.List(labels.Everything())
	if err != nil {
		return nodes
	}
	var best nodeKey
	found := false
	for _, b := range lowest(bs, maxProbes, func(a, b bounded) int { return a.key.compare(b.key) }) {
		if b.key == unreachable {
			break
		}
		victims, err := pl.evaluator.GetVictimsOnNode(ctx, b.node)
		if err != nil {
			return nodes
		}
		pods, violations, status := pl.dp.SelectVictimsOnNode(ctx, state.Clone(), pod, b.node.Snapshot(), victims, pdbs)
		if status.IsSuccess() && len(pods) > 0 {
			best, found = keyOf(b.node.Node().Name, pods, int64(violations), rec.now), true
			if b.key.compare(best) > 0 {
				return nodes // a bound above its own node's key: not a bound
			}
			break
		}
	}
	if !found {
		return nodes
	}
	kept := bs[:0]
	for _, b := range bs {
		if b.key.compare(best) <= 0 {
			kept = append(kept, b)
		}
	}
	slices.SortFunc(kept, func(a, b bounded) int { return a.key.compare(b.key) })
	out := make([]fwk.NodeInfo, len(kept))
	for i, b := range kept {
		out[i] = b.node
	}
	rec.narrowed(len(nodes)-len(out), best)
	return out
}

// lowest returns the n first of xs in the order cmp, first first, leaving
// xs as it is: O(len(xs)·n).
func lowest[T any](xs []T, n int, cmp func(a, b T) int) []T {
	out := make([]T, 0, n+1)
	for _, x := range xs {
		i, _ := slices.BinarySearchFunc(out, x, cmp)
		if i < n {
			out = slices.Insert(out, i, x)
			out = out[:min(len(out), n)]
		}
	}
	return out
}
