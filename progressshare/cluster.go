package progressshare

import (
	"fmt"
	"slices"
)

// A Slot is one unit of computing resource (Table 4.2): it runs one task at a
// time. A slot belongs to a Node, the node has a node Type (the instance or
// hardware type that decides the computing rate) and sits in a Rack.
//
// Node is in [0, MaxNode] (replicas name nodes by it), Type in
// [0, MaxType] (Job.Rates and Job.Running are indexed by it) and Rack
// any non-negative identifier. Every slot of one node must give the same Type
// and Rack.
type Slot struct {
	Node int // node hosting the slot
	Type int // node type, index into Job.Rates and Job.Running
	Rack int // rack of the node
}

// Limits on caller values, chosen so that every score, sum and ratio stays
// finite: a computing rate must lie in [MinRate, MaxRate] blocks per second
// and a read time or delay threshold in [0, MaxDuration] seconds.
const (
	MinRate     = 1e-9
	MaxRate     = 1e9
	MaxDuration = 1e9

	// MaxNode is the largest node identifier; the index keeps arrays sized
	// by the largest identifier used.
	MaxNode = 1<<20 - 1

	// MaxType is the largest node type identifier.
	MaxType = 1<<10 - 1

	// MaxSlots bounds len(slots) of NewScheduler (a Scheduler keeps about
	// 160 bytes per slot: 144 MiB at the bound).
	MaxSlots = 1 << 20

	// MaxJobs bounds len(jobs) of the pickers and Validate: the Scheduler
	// keeps 20 bytes of scratch per job (5 MiB at the bound).
	MaxJobs = 1 << 18

	// MaxPending bounds len(Job.Pending) and the blocks a PendingIndex
	// holds, whose counts are 32-bit.
	MaxPending = 1 << 20
)

// A Scheduler holds the cluster index that Algorithms 1 and 2 need (slots per
// node type, per node and per rack) and scratch space, so that a decision
// allocates nothing. Build it once per cluster with NewScheduler and keep it;
// a Scheduler is not safe for concurrent use (its scratch space is reused by
// every call).
//
// Its size follows what exists: NewScheduler allocates at most 8 bytes per
// node identifier up to the largest used (8 MiB at MaxNode), 160 bytes per
// slot and 24 bytes per node type up to the largest used, plus 64 KiB —
// never racks × node types, and nothing that grows with rack identifiers.
// Measured: 18 MiB for 131,072 slots on distinct racks with one slot of
// type MaxType, 144 MiB for 2^20 slots on distinct nodes and racks, 0.2 MiB
// for 5,000 slots (TestSchedulerMemory checks these bounds). There is no
// limit on the number of slots beyond that memory.
type Scheduler struct {
	opt   Options
	slots []Slot

	numTypes, numNodes, numRacks int // numNodes counts nodes with slots

	typeSlots []int   // slots of each node type
	nodeRack  []int32 // by node identifier: compact rack, -1 when the node has no slot
	nodeIdx   []int32 // by node identifier: compact node (0, 1, … in order of appearance), -1 when none
	slotRack  []int32 // compact rack of each slot
	nodeType  []int32 // by compact node: its node type
	nodeSlots []int32 // by compact node: its slots

	// Slots per node type in each rack, sparse: the types present in
	// compact rack r are rackTypes[rackStart[r]:rackStart[r+1]], with
	// rackCounts alongside. Only (rack, type) pairs that have slots are kept.
	rackStart  []int32
	rackTypes  []int32
	rackCounts []int32

	// scratch
	keys     []float64
	rel      []float64 // relative rates on the free slot, for the affinity rule
	heap     []int32
	nodeMark []uint32 // by compact node
	rackMark []uint32
	gen      uint32
	local    []int // per type: slots on nodes holding a replica
	inRack   []int // per type: slots in racks holding a replica (local included)
}

// NewScheduler validates the cluster and options and builds the index.
// It returns an error matching ErrBadInput when the cluster has no slot or
// more than MaxSlots, an identifier is negative or too large (see Slot), two slots of one node
// disagree on type or rack, or an option is out of range (see Options).
// It takes O(slots · log slots) time and the memory the Scheduler doc states.
func NewScheduler(slots []Slot, opt Options) (*Scheduler, error) {
	n := len(slots)
	if n == 0 {
		return nil, &ValueError{Field: "len(slots)", Value: 0, Reason: "the cluster needs at least one slot"}
	}
	if n > MaxSlots {
		return nil, &ValueError{Field: "len(slots)", Value: n, Reason: "more than MaxSlots = 2^20 slots"}
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	s := &Scheduler{opt: opt, slots: append([]Slot(nil), slots...), slotRack: make([]int32, n)}
	rackID := make(map[int]int32) // racks are compacted to 0, 1, … in order of appearance
	maxNode := 0
	for i, sl := range slots {
		switch {
		case sl.Node < 0 || sl.Node > MaxNode:
			return nil, &ValueError{Field: fmt.Sprintf("slots[%d].Node", i), Value: sl.Node, Reason: "must be in [0, MaxNode]"}
		case sl.Type < 0 || sl.Type > MaxType:
			return nil, &ValueError{Field: fmt.Sprintf("slots[%d].Type", i), Value: sl.Type, Reason: "must be in [0, MaxType]"}
		case sl.Rack < 0:
			return nil, &ValueError{Field: fmt.Sprintf("slots[%d].Rack", i), Value: sl.Rack, Reason: "must not be negative"}
		}
		r, ok := rackID[sl.Rack]
		if !ok {
			r = int32(len(rackID))
			rackID[sl.Rack] = r
		}
		s.slotRack[i] = r
		s.numTypes = max(s.numTypes, sl.Type+1)
		maxNode = max(maxNode, sl.Node)
	}
	s.numRacks = len(rackID)
	s.typeSlots = make([]int, s.numTypes)
	s.nodeRack = make([]int32, maxNode+1)
	s.nodeIdx = make([]int32, maxNode+1)
	for i := range s.nodeRack {
		s.nodeRack[i], s.nodeIdx[i] = -1, -1
	}
	for _, sl := range slots { // compact the nodes in order of appearance
		if s.nodeIdx[sl.Node] < 0 {
			s.nodeIdx[sl.Node] = int32(s.numNodes)
			s.numNodes++
		}
	}
	s.nodeType = make([]int32, s.numNodes)
	s.nodeSlots = make([]int32, s.numNodes)
	for i, sl := range slots {
		rack, c := s.slotRack[i], s.nodeIdx[sl.Node]
		switch {
		case s.nodeSlots[c] == 0:
			s.nodeType[c], s.nodeRack[sl.Node] = int32(sl.Type), rack
		case s.nodeType[c] != int32(sl.Type):
			return nil, &ValueError{Field: fmt.Sprintf("slots[%d].Type", i), Value: sl.Type,
				Reason: fmt.Sprintf("node %d already has type %d", sl.Node, s.nodeType[c])}
		case s.nodeRack[sl.Node] != rack:
			return nil, &ValueError{Field: fmt.Sprintf("slots[%d].Rack", i), Value: sl.Rack,
				Reason: fmt.Sprintf("node %d is in another rack", sl.Node)}
		}
		s.typeSlots[sl.Type]++
		s.nodeSlots[c]++
	}
	s.buildRackTypes()
	s.nodeMark = make([]uint32, s.numNodes)
	s.rackMark = make([]uint32, s.numRacks)
	s.local = make([]int, s.numTypes)
	s.inRack = make([]int, s.numTypes)
	return s, nil
}

// buildRackTypes counts the slots of each (rack, node type) pair that has
// any, in the sparse rows rackStart/rackTypes/rackCounts.
func (s *Scheduler) buildRackTypes() {
	keys := make([]uint64, len(s.slots)) // compact rack in the high 32 bits, type in the low
	for i, sl := range s.slots {
		keys[i] = uint64(s.slotRack[i])<<32 | uint64(sl.Type)
	}
	slices.Sort(keys)
	pairs := 0
	for i, k := range keys {
		if i == 0 || k != keys[i-1] {
			pairs++
		}
	}
	s.rackStart = make([]int32, s.numRacks+1)
	s.rackTypes = make([]int32, 0, pairs)
	s.rackCounts = make([]int32, 0, pairs)
	for i, k := range keys {
		if i > 0 && k == keys[i-1] {
			s.rackCounts[len(s.rackCounts)-1]++
			continue
		}
		s.rackTypes = append(s.rackTypes, int32(k&(1<<32-1)))
		s.rackCounts = append(s.rackCounts, 1)
		s.rackStart[k>>32+1] = int32(len(s.rackTypes)) // every compact rack has a slot, so each row is set
	}
}

// NumTypes returns the number of node types (the largest Slot.Type plus one).
// Job.Rates and Job.Running are indexed by node type.
func (s *Scheduler) NumTypes() int { return s.numTypes }

// NumSlots returns the number of slots in the cluster.
func (s *Scheduler) NumSlots() int { return len(s.slots) }

// Slot returns slot i and whether i is a slot of the cluster.
func (s *Scheduler) Slot(i int) (Slot, bool) {
	if i < 0 || i >= len(s.slots) {
		return Slot{}, false
	}
	return s.slots[i], true
}

// SlotsOfType returns the number of slots of node type t (0 for an unknown t).
func (s *Scheduler) SlotsOfType(t int) int {
	if t < 0 || t >= s.numTypes {
		return 0
	}
	return s.typeSlots[t]
}

// Options returns the options the Scheduler was built with.
func (s *Scheduler) Options() Options { return s.opt }

func (s *Scheduler) slot(i int) (Slot, error) {
	if i < 0 || i >= len(s.slots) {
		return Slot{}, &ValueError{Field: "slot", Value: i, Reason: "must be in [0, NumSlots())"}
	}
	return s.slots[i], nil
}
