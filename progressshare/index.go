package progressshare

import "fmt"

// A PendingIndex is an optional, caller-kept summary of one job's pending
// blocks: how many of them have a replica on each node and in each rack.
// Set Job.Index to it and the pickers learn a job's best locality on a slot
// in O(1): they then read Pending only up to the first block with that
// locality (at once when no block is stored in the slot's rack) instead of
// reading every block to prove there is no better one.
//
// The caller keeps it in step with Job.Pending: Add each block appended to
// Pending and Remove each block taken out of it (for a launch, the block the
// Decision names). An index that does not match Pending never makes a
// picker panic or return an error, but its choice of block may then not be
// the best one, and a job may be passed over as if its best locality were
// the index's. A PendingIndex belongs to the Scheduler that made it and,
// like it, is not safe for concurrent use.
type PendingIndex struct {
	s      *Scheduler
	blocks int
	node   []int32 // pending blocks with a replica on each node (compact index)
	rack   []int32 // pending blocks with a replica in each (compact) rack
}

// NewPendingIndex returns an index of blocks (typically a new job's
// Pending). It allocates 4 bytes per node with slots and per rack, plus a
// constant. Errors match ErrBadInput, as for Add, and for more than
// MaxPending blocks.
func (s *Scheduler) NewPendingIndex(blocks []Block) (*PendingIndex, error) {
	if len(blocks) > MaxPending {
		return nil, &ValueError{Field: "len(blocks)", Value: len(blocks), Reason: "more than MaxPending = 2^20 blocks"}
	}
	x := &PendingIndex{s: s, node: make([]int32, s.numNodes), rack: make([]int32, s.numRacks)}
	for i, b := range blocks {
		if err := s.checkBlock(b, -1, i); err != nil {
			return nil, err
		}
		x.add(b, 1)
	}
	return x, nil
}

// Len returns the number of blocks in the index (0 for a nil index).
func (x *PendingIndex) Len() int {
	if x == nil {
		return 0
	}
	return x.blocks
}

// errNotMade reports an index not made by NewPendingIndex (nil or zero).
var errNotMade = &ValueError{Field: "PendingIndex", Value: 0, Reason: "not made by Scheduler.NewPendingIndex"}

// Add records one more pending block. It returns an error matching
// ErrBadInput, and changes nothing, when the block has no replica or a
// replica on a node without slots, the index already holds MaxPending
// blocks, or the index was not made by NewPendingIndex (nil or a zero
// PendingIndex).
func (x *PendingIndex) Add(b Block) error {
	if x == nil || x.s == nil {
		return errNotMade
	}
	if x.blocks >= MaxPending {
		return &ValueError{Field: "PendingIndex", Value: x.blocks, Reason: "holds MaxPending = 2^20 blocks"}
	}
	if err := x.s.checkBlock(b, -1, 0); err != nil {
		return err
	}
	x.add(b, 1)
	return nil
}

// Remove forgets one pending block. It returns an error matching
// ErrBadInput, and changes nothing, when the block is bad or the index
// holds no block with a replica on one of its nodes, or was not made by
// NewPendingIndex.
func (x *PendingIndex) Remove(b Block) error {
	if x == nil || x.s == nil {
		return errNotMade
	}
	if err := x.s.checkBlock(b, -1, 0); err != nil {
		return err
	}
	for k, n := range b.Replicas {
		if x.node[x.s.nodeIdx[n]] == 0 || x.rack[x.s.nodeRack[n]] == 0 || x.blocks == 0 {
			return &ValueError{Field: fmt.Sprintf("job.Pending[0].Replicas[%d]", k), Value: n,
				Reason: "no indexed block has a replica on this node"}
		}
	}
	x.add(b, -1)
	return nil
}

// add counts block b (checked) once per distinct node and rack.
func (x *PendingIndex) add(b Block, d int32) {
	s := x.s
	s.nextGen()
	for _, n := range b.Replicas {
		if c := s.nodeIdx[n]; s.nodeMark[c] != s.gen {
			s.nodeMark[c] = s.gen
			x.node[c] += d
		}
		if r := s.nodeRack[n]; s.rackMark[r] != s.gen {
			s.rackMark[r] = s.gen
			x.rack[r] += d
		}
	}
	x.blocks += int(d)
}

// hint returns the best locality any indexed block has on slot si, or −1
// when the index is not usable for this scheduler.
func (x *PendingIndex) hint(s *Scheduler, si int) Locality {
	if x == nil || x.s != s {
		return -1
	}
	switch {
	case x.node[s.nodeIdx[s.slots[si].Node]] > 0:
		return NodeLocal
	case x.rack[s.slotRack[si]] > 0:
		return RackLocal
	}
	return Remote
}

// nextGen starts a new round of node and rack marks.
func (s *Scheduler) nextGen() {
	s.gen++
	if s.gen == 0 { // wrapped: old marks could collide
		clear(s.nodeMark)
		clear(s.rackMark)
		s.gen = 1
	}
}
