package leastworklost

import (
	"cmp"
	"math"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
)

// A nodeKey is a candidate node's place in the node order
// (OrderedScoreFuncs), compared field by field: fewer PodDisruptionBudget
// violations, lower highest victim priority, less work lost, fewer
// victims, node name. The node that comes first is chosen.
type nodeKey struct {
	violations int64
	highest    int32
	workLost   int64 // milliseconds of run time (millis)
	victims    int
	node       string
}

func (a nodeKey) compare(b nodeKey) int {
	return cmp.Or(cmp.Compare(a.violations, b.violations), cmp.Compare(a.highest, b.highest),
		cmp.Compare(a.workLost, b.workLost), cmp.Compare(a.victims, b.victims), cmp.Compare(a.node, b.node))
}

// keyOf is the key of victims pods chosen on node, violations of them
// violating a PodDisruptionBudget, at now.
func keyOf(node string, pods []*v1.Pod, violations int64, now time.Time) nodeKey {
	return victimsOf(node, pods, violations, now).key
}

// victimsOf is what record keeps of victims pods chosen on node: the pods,
// their keyOf and their work lost.
func victimsOf(node string, pods []*v1.Pod, violations int64, now time.Time) nodeVictims {
	w := sumWorkLost(pods, now)
	k := nodeKey{violations: violations, highest: math.MinInt32, workLost: millis(w), victims: len(pods), node: node}
	for _, p := range pods {
		k.highest = max(k.highest, corev1helpers.PodPriority(p))
	}
	return nodeVictims{pods: pods, key: k, workLost: w}
}

// unreachable is the lowerKey of a node where no victim set makes the
// preemptor fit: it comes after every candidate.
var unreachable = nodeKey{violations: math.MaxInt64}

// podRequest is what NodeResourcesFit's PreFilter computed the preemptor
// asks for, as it keeps it in the cycle state (its preFilterState).
type podRequest interface {
	GetMilliCPU() int64
	GetMemory() int64
	GetEphemeralStorage() int64
}

// fitStateKey is NodeResourcesFit's PreFilter state key.
const fitStateKey fwk.StateKey = "PreFilter" + noderesources.Name

// requestOf reads the preemptor's request from NodeResourcesFit's PreFilter
// state; nil when the profile does not run NodeResourcesFit or the
// preemptor is already bound (a resize, where Fit counts only the growth).
func requestOf(state fwk.CycleState, preemptor *v1.Pod) podRequest {
	if preemptor.Spec.NodeName != "" {
		return nil
	}
	d, err := state.Read(fitStateKey)
	if err != nil {
		return nil
	}
	r, _ := d.(podRequest)
	return r
}

// lowerPods returns the pods a dry run may evict of victims on nodeInfo
// for a preemptor of priority prio (victims of lower priority), or false
// when one is a pod group (lowerKey does not bound those).
func lowerPods(nodeInfo fwk.NodeInfo, prio int32, victims []*preemption.DomainVictim) ([]fwk.PodInfo, bool) {
	var pods []fwk.PodInfo
	for _, v := range victims {
		if v.Priority() >= prio {
			continue
		}
		if len(v.Pods()) != 1 || v.Pods()[0].GetPod().Spec.NodeName != nodeInfo.Node().Name {
			return nil, false
		}
		pods = append(pods, v.Pods()[0])
	}
	return pods, true
}

// lowerKey returns a key that comes no later than the key of any victim
// set a dry run on nodeInfo can choose at now for a preemptor of priority
// prio asking request (NodeResourcesFit's, nil if unknown), where pods are
// the pods of lower priority on the node and nominated what the pods
// nominated to it that the Filter plugins count there take (nominatedOn),
// or false when
// pods is empty (no dry run finds victims there). A dry run evicts some
// of pods, at least one, so:
//
//   - PodDisruptionBudget violations ≥ 0;
//   - the highest victim priority ≥ p, the lowest priority in pods;
//   - the number of victims ≥ k, the most of: 1; the pods beyond the
//     node's pod capacity with the nominated pods and the preemptor; and,
//     for CPU, memory and ephemeral storage, the fewest of pods, largest
//     first, whose requests cover what the preemptor asks beyond the
//     node's allocatable less its pods' and the nominated pods' requests.
//     NodeResourcesFit passes only then; a node where all of pods do not
//     cover it is unreachable;
//   - when every victim has priority p, the work lost ≥ the k smallest run
//     times among the pods of priority p, less 1 ms for rounding.
//
// Compared field by field, the key of any victim set is then at least
// (0, p, that work, k, node). s is scratch memory (nil allocates).
func lowerKey(nodeInfo fwk.NodeInfo, prio int32, pods []fwk.PodInfo, nominated nominatedLoad, request podRequest, now time.Time, s *boundScratch) (nodeKey, bool) {
	if len(pods) == 0 {
		return nodeKey{}, false
	}
	if s == nil {
		s = &boundScratch{}
	}
	k := max(1, len(nodeInfo.GetPods())+nominated.pods+1-nodeInfo.GetAllocatable().GetAllowedPodNumber())
	if request != nil {
		alloc, used := nodeInfo.GetAllocatable(), nodeInfo.GetRequested()
		for _, dim := range [...]struct {
			ask, free int64
			of        func(fwk.Resource) int64
		}{
			{request.GetMilliCPU(), alloc.GetMilliCPU() - used.GetMilliCPU() - nominated.milliCPU, fwk.Resource.GetMilliCPU},
			{request.GetMemory(), alloc.GetMemory() - used.GetMemory() - nominated.memory, fwk.Resource.GetMemory},
			{request.GetEphemeralStorage(), alloc.GetEphemeralStorage() - used.GetEphemeralStorage() - nominated.storage, fwk.Resource.GetEphemeralStorage},
		} {
			if dim.ask <= 0 || dim.ask <= dim.free {
				continue
			}
			s.sizes = s.sizes[:0]
			for _, pi := range pods {
				s.sizes = append(s.sizes, dim.of(pi.CalculateResource().Resource))
			}
			n, ok := fewestCovering(dim.ask-dim.free, s.sizes)
			if !ok {
				return unreachable, true
			}
			k = max(k, n)
		}
	}

	p := int32(math.MaxInt32)
	for _, pi := range pods {
		p = min(p, corev1helpers.PodPriority(pi.GetPod()))
	}
	s.works = s.works[:0]
	for _, pi := range pods {
		if corev1helpers.PodPriority(pi.GetPod()) == p {
			s.works = append(s.works, workLost(pi.GetPod(), now))
		}
	}
	slices.Sort(s.works)
	w := 0.0
	for _, x := range s.works[:min(k, len(s.works))] {
		w += x
	}
	return nodeKey{highest: p, workLost: max(0, millis(w)-1), victims: k, node: nodeInfo.Node().Name}, true
}

// boundScratch is lowerKey's memory, reused across the nodes of one
// preemption.
type boundScratch struct {
	pods  []fwk.PodInfo
	sizes []int64
	works []float64
}

// fewestCovering is the fewest of sizes, largest first, that sum to at
// least need > 0; false when all of them do not.
func fewestCovering(need int64, sizes []int64) (int, bool) {
	slices.SortFunc(sizes, func(a, b int64) int { return cmp.Compare(b, a) })
	for i, s := range sizes {
		need -= s
		if need <= 0 {
			return i + 1, true
		}
	}
	return 0, false
}

// nominatedLoad is what pods nominated to a node take there: their number
// and their summed requests (NodeInfo's, as CalculateResource counts them).
type nominatedLoad struct {
	pods                      int
	milliCPU, memory, storage int64
}

// requestEntry is a pod's requests at one resourceVersion.
type requestEntry struct {
	resourceVersion           string
	milliCPU, memory, storage int64
}

// nominatedOn returns what the pods nominated to node that the Filter
// plugins count there when preemptor is tried take
// (RunFilterPluginsWithNominatedPods: those of priority not below the
// preemptor's, other than itself). A pod's requests are kept by UID and
// resourceVersion (nominatedRequests), since the nominator hands out
// fresh copies that would compute them again.
func (pl *LeastWorkLostPreemption) nominatedOn(node string, preemptor *v1.Pod) nominatedLoad {
	var load nominatedLoad
	prio := corev1helpers.PodPriority(preemptor)
	for _, pi := range pl.fh.NominatedPodsForNode(node) {
		p := pi.GetPod()
		if corev1helpers.PodPriority(p) < prio || p.UID == preemptor.UID {
			continue
		}
		e, ok := pl.nominatedRequests.Load(p.UID)
		r, _ := e.(requestEntry)
		if !ok || r.resourceVersion != p.ResourceVersion {
			res := pi.CalculateResource().Resource
			r = requestEntry{p.ResourceVersion, res.GetMilliCPU(), res.GetMemory(), res.GetEphemeralStorage()}
			pl.nominatedRequests.Store(p.UID, r)
		}
		load.pods++
		load.milliCPU += r.milliCPU
		load.memory += r.memory
		load.storage += r.storage
	}
	return load
}
