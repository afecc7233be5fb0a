package progressscore

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// A Node is one node as the mapping sees it: its name, its type (the
// value of Args.NodeTypeLabel, "" when unlabelled) and its capacity, how
// many pods it can hold (status.allocatable pods), which becomes its
// number of slots.
type Node = tally.Node

// A JobState is one job with pending pods.
type JobState struct {
	Key     types.UID
	Ref     string    // for ordering ties and messages
	Created time.Time // for ordering
	// Rates are relative speeds by node type; types not listed run at 1.
	Rates map[string]float64
	// Running counts the job's assigned pods by node type.
	Running map[string]int
	// Pending counts its pods not yet assigned (at least 1).
	Pending int
	// LastLaunch is when it last started a pod (or was created), ≤ now.
	LastLaunch time.Time
}

// A Cluster is progressshare's view of the nodes: one slot per pod the
// node can hold, node types indexed in name order, one rack (reading input
// costs nothing in Kubernetes, so locality never matters: Options.ReadTime
// is zero).
type Cluster struct {
	Slots []ps.Slot
	Types []string       // node type names, in index order
	Index map[string]int // node type name → index
	First map[string]int // the index of one slot of each type
	// NodeType maps a node's name to its type's index.
	NodeType map[string]int
}

// NewCluster maps nodes to slots. Nodes are indexed in name order, so the
// result does not depend on the order they are given in. At most
// ps.MaxNode+1 nodes and ps.MaxType+1 types; a capacity below 1 counts as 1.
func NewCluster(nodes []Node) (Cluster, error) {
	sorted := slices.Clone(nodes)
	slices.SortFunc(sorted, func(a, b Node) int { return cmp.Compare(a.Name, b.Name) })
	if len(sorted) == 0 {
		return Cluster{}, fmt.Errorf("no nodes")
	}
	if len(sorted) > ps.MaxNode+1 {
		return Cluster{}, fmt.Errorf("%d nodes, more than %d", len(sorted), ps.MaxNode+1)
	}
	c := Cluster{First: map[string]int{}, NodeType: map[string]int{}, Index: map[string]int{}}
	for _, n := range sorted {
		c.Types = append(c.Types, n.Type)
	}
	slices.Sort(c.Types)
	c.Types = slices.Compact(c.Types)
	if len(c.Types) > ps.MaxType+1 {
		return Cluster{}, fmt.Errorf("%d node types, more than %d", len(c.Types), ps.MaxType+1)
	}
	for t, name := range c.Types {
		c.Index[name] = t
	}
	for i, n := range sorted {
		t := c.Index[n.Type]
		c.NodeType[n.Name] = t
		if _, ok := c.First[n.Type]; !ok {
			c.First[n.Type] = len(c.Slots)
		}
		for range max(n.Capacity, 1) {
			c.Slots = append(c.Slots, ps.Slot{Node: i, Type: t, Rack: 0})
		}
	}
	return c, nil
}

// fill sets dst's weight (1), rates and running counts by node type
// (capped at the type's slots, which slots gives) to job j's, reusing dst's
// Rates and Running. Pending and LastLaunch are left to the caller.
func (c Cluster) fill(j JobState, slots []int, dst *ps.Job) {
	dst.Weight = 1
	dst.Rates = slices.Grow(dst.Rates[:0], len(c.Types))[:len(c.Types)]
	dst.Running = slices.Grow(dst.Running[:0], len(c.Types))[:len(c.Types)]
	for t, name := range c.Types {
		dst.Rates[t] = 1
		if r, ok := j.Rates[name]; ok {
			dst.Rates[t] = r
		}
		dst.Running[t] = min(j.Running[name], slots[t])
	}
}

// Blocks returns n pending blocks (at least 1), each one replica on the
// first node: reading input costs nothing here, so every block is alike.
func (c Cluster) Blocks(n int) []ps.Block {
	out := make([]ps.Block, max(n, 1))
	replicas := []int{c.Slots[0].Node}
	for i := range out {
		out[i].Replicas = replicas
	}
	return out
}

// relative is time t on progressshare's clock, where now is 0: minus the
// seconds from t to now, at least 0 (t after now counts as now) and at
// most ps.MaxDuration.
func relative(t, now time.Time) float64 {
	return -math.Min(math.Max(now.Sub(t).Seconds(), 0), ps.MaxDuration)
}

// SlotsOfType counts the slots of each type.
func (c Cluster) SlotsOfType() []int {
	out := make([]int, len(c.Types))
	for _, s := range c.Slots {
		out[s.Type]++
	}
	return out
}

// Jobs maps the jobs with pending pods to progressshare jobs, times in
// seconds before now (now is 0). The order is the tie-break of Algorithm
// 2's progress-share order (lower index first on equal shares): the other
// jobs by creation, then reference, and the job self last, so that on equal
// shares the pod being scored yields and a node counts as its job's only if
// no tied job would take it. It returns the index of self (−1 when absent).
// Running counts above a type's slots are capped at them (a node over its
// pod capacity). Every pending pod is one block on the first node (read
// time is zero, so the replica does not matter).
func (c Cluster) Jobs(jobs []JobState, self types.UID, now time.Time) ([]ps.Job, int) {
	sorted := slices.Clone(jobs)
	slices.SortFunc(sorted, func(a, b JobState) int {
		if (a.Key == self) != (b.Key == self) {
			if a.Key == self {
				return 1
			}
			return -1
		}
		return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.Ref, b.Ref), cmp.Compare(a.Key, b.Key))
	})
	slots := c.SlotsOfType()
	out := make([]ps.Job, len(sorted))
	selfIndex := -1
	for i, j := range sorted {
		if j.Key == self {
			selfIndex = i
		}
		c.fill(j, slots, &out[i])
		out[i].Pending = c.Blocks(j.Pending)
		out[i].LastLaunch = relative(j.LastLaunch, now)
	}
	return out, selfIndex
}

// Score is the ProgressShare score of the job self on a node of each type,
// in [0, 100]:
//
//	score(type) = 50·[Algorithm 2 offered a slot of that type launches self]
//	            + 50·Pref_self(slot of that type)
//
// The first term is progressshare's PickProgressShare (Lee thesis
// Algorithm 2): jobs in increasing progress share (Eq. 4.1), each taking
// the slot iff 1 − Pref ≤ delay/max_delay. The second is Pref (Eq. 4.4), the
// job's preference for the type relative to its own rates on every slot,
// exactly 1 on its fastest type. A node a job would get under progress
// share always outranks one it would not; among either, faster types rank
// first.
func Score(s *ps.Scheduler, c Cluster, jobs []ps.Job, self int) (map[string]int64, error) {
	byType := make([]int64, len(c.Types))
	if err := scoreInto(byType, s, c, jobs, self); err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(c.Types))
	for t, name := range c.Types {
		out[name] = byType[t]
	}
	return out, nil
}

// scoreInto is Score writing the score of type index t to dst[t].
func scoreInto(dst []int64, s *ps.Scheduler, c Cluster, jobs []ps.Job, self int) error {
	for t, name := range c.Types {
		slot := c.First[name]
		d, err := s.PickProgressShare(slot, jobs, 0)
		if err != nil {
			return err
		}
		pref, err := s.Pref(slot, jobs[self], 0)
		if err != nil {
			return err
		}
		dst[t] = typeScore(pref, d.Launch && d.Job == self)
	}
	return nil
}

// typeScore is a node type's score from the job's Pref there and whether
// Algorithm 2 launches the job on it.
func typeScore(pref float64, launch bool) int64 {
	s := int64(math.Round(50 * pref))
	if launch {
		s += 50
	}
	return s
}
