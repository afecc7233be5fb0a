package progressshare

import (
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// TestSchedulerMemory holds NewScheduler and NewPendingIndex to the sizes the
// Scheduler and PendingIndex docs state, at the identifiers' limits: memory
// follows the slots, nodes, racks and types that exist, never the product of
// racks and types or the range of rack identifiers. (131,072 slots on
// distinct racks with one slot of type MaxType take about 18 MiB; an index
// of racks × types counts would take 527 MiB.)
func TestSchedulerMemory(t *testing.T) {
	for _, tt := range []struct {
		name  string
		slots func() []Slot
	}{
		{"131,072 slots on distinct racks, one of type MaxType", func() []Slot {
			s := make([]Slot, 1<<17)
			for i := range s {
				s[i] = Slot{Node: i, Rack: i}
			}
			s[0].Type = MaxType
			return s
		}},
		{"2^20 slots on distinct nodes and racks, MaxNode and MaxType", func() []Slot {
			s := make([]Slot, 1<<20)
			for i := range s {
				s[i] = Slot{Node: i, Type: i % (MaxType + 1), Rack: i << 20}
			}
			return s
		}},
		{"one slot at MaxNode of type MaxType on a huge rack id", func() []Slot {
			return []Slot{{Node: MaxNode, Type: MaxType, Rack: 1 << 62}}
		}},
		{"every node type in every one of 1,024 racks", func() []Slot {
			s := make([]Slot, 0, 1<<20)
			for r := range 1024 {
				for typ := range MaxType + 1 {
					s = append(s, Slot{Node: len(s), Type: typ, Rack: r})
				}
			}
			return s
		}},
		{"5,000 slots, 4 types, 50 racks", func() []Slot {
			s := make([]Slot, 5000)
			for i := range s {
				s[i] = Slot{Node: i / 4, Type: i / 4 % 4, Rack: i / 100}
			}
			return s
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			slots := tt.slots()
			maxNode, maxType := 0, 0
			for _, sl := range slots {
				maxNode, maxType = max(maxNode, sl.Node), max(maxType, sl.Type)
			}
			var s *Scheduler
			var err error
			got := testkit.Allocated(func() { s, err = NewScheduler(slots, Options{}) })
			if err != nil {
				t.Fatal(err)
			}
			// The Scheduler doc: 8 B per node identifier up to the largest,
			// 160 B per slot (the slots' copy, compact racks and nodes,
			// (rack, type) rows, marks, and the transient rack map and
			// sort keys), 24 B per node type, and a constant.
			limit := uint64(8*(maxNode+1) + 160*len(slots) + 24*(maxType+1) + 64<<10)
			if got > limit {
				t.Errorf("NewScheduler allocated %d B, over the documented %d B", got, limit)
			}
			// The PendingIndex doc: 4 B per node with slots and per rack.
			ilimit := uint64(4*(s.numNodes+s.numRacks) + 1<<10)
			if got := testkit.Allocated(func() { _, err = s.NewPendingIndex(nil) }); err != nil || got > ilimit {
				t.Errorf("NewPendingIndex allocated %d B (%v), over the documented %d B", got, err, ilimit)
			}
			t.Logf("%d slots: NewScheduler %.1f MiB (limit %.1f)", len(slots), float64(got)/(1<<20), float64(limit)/(1<<20))
		})
	}
}
