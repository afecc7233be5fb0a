package leastworklost

import (
	"context"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
)

// maxProbes is how many nodes keep dry-runs, lowest bound first, to find
// a candidate before the Evaluator's dry runs; bounds bounds the nodes in
// parallel, boundChunk nodes to a piece.
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
// the nodes where preemption may help narrowed to those that may be
// chosen (narrow, narrowWindow).
type potentialNodes struct {
	fwk.NodeToStatusReader
	ctx   context.Context
	pl    *LeastWorkLostPreemption
	state fwk.CycleState
	pod   *v1.Pod
	rec   *record
}

// NodesForStatusCode is the statuses' own, narrowed for code Unschedulable
// (the nodes where preemption may help) when the record allows the bound
// and no victim is a pod group: when the args dry-run all those nodes, to
// the nodes that may be chosen (narrow); when they dry-run fewer, to the
// nodes of the preemptor's window that may be chosen (narrowWindow), or
// left as they are when the window's probes find no candidate.
func (p potentialNodes) NodesForStatusCode(lister fwk.NodeInfoLister, code fwk.Code) ([]fwk.NodeInfo, error) {
	nodes, err := p.NodeToStatusReader.NodesForStatusCode(lister, code)
	if err != nil || code != fwk.Unschedulable || !p.rec.bound || p.pl.podGroups {
		return nodes, err
	}
	n := int32(len(nodes))
	c := p.pl.args.NumCandidates(n)
	if c == n {
		return p.pl.narrow(p.ctx, p.state, p.pod, nodes, p.rec), nil
	}
	if kept, ok := p.pl.narrowWindow(p.ctx, p.state, p.pod, nodes, offsetOf(p.rec.uid, n), c, p.rec); ok {
		p.rec.window = true
		return kept, nil
	}
	return nodes, nil
}

// narrow returns the nodes of nodes that may be chosen, lowest bound
// first: it bounds every node (lowerKey) and keeps those that may come
// first (keep); without a candidate among keep's probes it returns nodes
// as they are.
func (pl *LeastWorkLostPreemption) narrow(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, rec *record) []fwk.NodeInfo {
	pod = pl.current(pod)
	bs, ok := pl.bounds(ctx, state, pod, nodes, rec.now)
	if !ok {
		return nodes
	}
	kept, ok := pl.keep(ctx, state, pod, bs, rec)
	if !ok {
		// Every node is dry-run; its bound is not computed again. keep
		// moved the bounds of bs to its front (the rest zeroed, not ok).
		if rec.bound {
			rec.keepBounds(bs)
		}
		return nodes
	}
	return kept
}

// narrowWindow returns the nodes of the preemptor's window that may be
// chosen, lowest bound first, and true; false when the window's probes
// (keep) find no candidate. The window is the first c of nodes from
// offset, wrapping around, not counting the nodes whose bound shows no
// dry run finds victims there (no pod of lower priority, or not enough
// of them to make room): kube's scan from the same offset stops once it
// has c candidates, and those nodes are no candidates. Every node of the
// window the bound keeps is then dry-run, so the node chosen is the one
// dry runs of the whole window would choose.
func (pl *LeastWorkLostPreemption) narrowWindow(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, offset, c int32, rec *record) ([]fwk.NodeInfo, bool) {
	pod = pl.current(pod)
	var window []bounded
	reachable, next := 0, 0
	for reachable < int(c) && next < len(nodes) {
		// At least a chunk a round: few rounds where most nodes do not count.
		part := make([]fwk.NodeInfo, min(max(int(c)-reachable, boundChunk), len(nodes)-next))
		for i := range part {
			part[i] = nodes[(int(offset)+next+i)%len(nodes)]
		}
		next += len(part)
		bs, ok := pl.bounds(ctx, state, pod, part, rec.now)
		if !ok {
			return nil, false
		}
		for _, b := range bs {
			if reachable == int(c) {
				break // the window is full; the rest of the part is not in it
			}
			if b.ok && b.key != unreachable {
				reachable++
			}
			window = append(window, b)
		}
	}
	return pl.keep(ctx, state, pod, window, rec)
}

// current is pod as the scheduler's pod lister holds it, as the Evaluator
// reads it.
func (pl *LeastWorkLostPreemption) current(pod *v1.Pod) *v1.Pod {
	if cur, err := pl.pods.Pods(pod.Namespace).Get(pod.Name); err == nil {
		return cur
	}
	return pod
}

// bounds bounds every node of nodes (lowerKey) in parallel, boundChunk
// nodes to a piece; false when ctx ends first.
func (pl *LeastWorkLostPreemption) bounds(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, now time.Time) ([]bounded, bool) {
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
			k, ok := lowerKey(n, prio, s.pods, pl.nominatedOn(n.Node().Name, pod), request, now, &s)
			bs[i] = bounded{n, k, ok}
		}
	}, Name)
	return bs, ctx.Err() == nil
}

// keep returns the nodes of bs that may be chosen, lowest bound first: it
// dry-runs the nodes of lowest bound, at most maxProbes, until one is a
// candidate, and keeps the nodes whose bound does not come after that
// candidate's key. A node it drops either has no pod of lower priority
// than the preemptor (no dry run finds victims there) or cannot rank
// before that candidate, which is kept, so the node chosen among the kept
// is the one dry runs of every node of bs would choose. It records the
// nodes of bs dropped as skipped and the candidate's key as the best so
// far; false, recording nothing, without a candidate among the probes,
// and false, turning the bound off for the dry runs (rec.bound), when a
// probe's key comes before its own bound.
func (pl *LeastWorkLostPreemption) keep(ctx context.Context, state fwk.CycleState, pod *v1.Pod, bs []bounded, rec *record) ([]fwk.NodeInfo, bool) {
	all := len(bs)
	bs = slices.DeleteFunc(bs, func(b bounded) bool { return !b.ok })
	pdbs, err := pl.evaluator.PdbLister.List(labels.Everything())
	if err != nil {
		return nil, false
	}
	var best nodeKey
	found := false
	for _, b := range lowest(bs, maxProbes, func(a, b bounded) int { return a.key.compare(b.key) }) {
		if b.key == unreachable {
			break
		}
		victims, err := pl.evaluator.GetVictimsOnNode(ctx, b.node)
		if err != nil {
			return nil, false
		}
		pods, violations, status := pl.dp.SelectVictimsOnNode(ctx, state.Clone(), pod, b.node.Snapshot(), victims, pdbs)
		if status.IsSuccess() && len(pods) > 0 {
			best, found = keyOf(b.node.Node().Name, pods, int64(violations), rec.now), true
			if b.key.compare(best) > 0 {
				rec.bound = false // a bound above its own node's key: not a bound; the dry runs skip no node
				return nil, false
			}
			break
		}
	}
	if !found {
		return nil, false
	}
	kept := bs[:0]
	for _, b := range bs {
		if b.key.compare(best) <= 0 {
			kept = append(kept, b)
		}
	}
	slices.SortFunc(kept, func(a, b bounded) int { return a.key.compare(b.key) })
	rec.keepBounds(kept)
	out := make([]fwk.NodeInfo, len(kept))
	for i, b := range kept {
		out[i] = b.node
	}
	rec.narrowed(all-len(out), best)
	return out, true
}

// keepBounds keeps the bounds of bs in r for the dry runs (beatsNode);
// it is called before they start.
func (r *record) keepBounds(bs []bounded) {
	r.bounds = make(map[string]nodeKey, len(bs))
	for _, b := range bs {
		if b.ok {
			r.bounds[b.node.Node().Name] = b.key
		}
	}
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
