package freelist

import "testing"

// TestTake: a new index while nothing is free, then the last index freed.
func TestTake(t *testing.T) {
	var items []string
	var free []int32
	for want := range int32(3) {
		if got := Take(&items, &free); got != want || len(items) != int(want)+1 {
			t.Fatalf("Take = %d with %d items, want %d", got, len(items), want)
		}
	}
	free = append(free, 0, 2)
	for _, want := range []int32{2, 0, 3} {
		if got := Take(&items, &free); got != want {
			t.Fatalf("Take = %d, want %d", got, want)
		}
	}
	if len(items) != 4 || len(free) != 0 {
		t.Fatalf("%d items, %d free; want 4 and 0", len(items), len(free))
	}
}

func TestTakeAllocatesNothingFromTheFreeList(t *testing.T) {
	items := make([]int, 8)
	free := make([]int32, 0, 8)
	if n := testing.AllocsPerRun(100, func() {
		free = append(free, 5)
		Take(&items, &free)
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
