package edf

import (
	"math"
	"runtime"
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// TestLimits fills a Queue to MaxJobs (six job types, every job with
// MaxInt pending tasks and a running task), picks by FIFO, EDF and MP
// without allocating, refuses one more job naming Queue.Len, and runs
// Algorithm2 at MaxJobs and one beyond. Memory: at most 400 bytes a job
// held and 1,400 allocated while the queue grows (the test logs both; 75
// MiB held and 310 MiB allocated, about 300 and 1,240 bytes a job, on
// 2026-11-27).
func TestLimits(t *testing.T) {
	testAlgorithm2Limit(t)
	// Filling the queue takes a few seconds under the race detector: there
	// only Algorithm2's limit runs (CI runs this test without it too).
	if raceEnabled {
		return
	}
	var q *Queue
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := testkit.Allocated(func() { q = benchQueue(t, MaxJobs, MaxJobs, 6) })
	runtime.GC()
	runtime.ReadMemStats(&after)
	if q.Len() != MaxJobs {
		t.Fatalf("queue of %d jobs", q.Len())
	}
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("Queue at MaxJobs: %.1f MiB allocated in all, %.1f MiB held", float64(got)/(1<<20), float64(held)/(1<<20))
	if got > 1400*MaxJobs || held > 400*MaxJobs {
		t.Errorf("filling a Queue to MaxJobs allocated %d B and holds %d B, over 1,400 and 400 B a job", got, held)
	}
	if err := q.Add(Job{ID: -1, Tasks: math.MaxInt, Model: flat(1)}); err == nil {
		t.Fatal("a job beyond MaxJobs was added")
	} else {
		wantField(t, err, "Queue.Len")
	}
	if d := q.FIFO(); d.Reason == ReasonIdle {
		t.Fatal("FIFO idle on a full queue")
	}
	if d := q.EDF(); d.Reason == ReasonIdle {
		t.Fatal("EDF idle on a full queue")
	}
	for _, now := range []float64{0, 9900, math.MaxFloat64} {
		if _, err := q.MP(0.4, now, MPOptions{}); err != nil {
			t.Fatalf("MP at MaxJobs, now %v: %v", now, err)
		}
		if n := testing.AllocsPerRun(2, func() { q.MP(0.4, now, MPOptions{}) }); n != 0 {
			t.Errorf("MP at MaxJobs, now %v: %v allocations", now, n)
		}
	}
}

// testAlgorithm2Limit runs Algorithm2 at MaxJobs and one beyond.
func testAlgorithm2Limit(t *testing.T) {
	jobs := make([]Alg2Job, MaxJobs+1)
	for i := range jobs {
		jobs[i] = Alg2Job{ID: int64(i), Arrival: float64(i), Deadline: float64(MaxJobs - i), PendingMaps: math.MaxInt, CompletedTasks: 1,
			Slots: MinSlots{Status: SlotsFeasible, Map: MaxPhaseSlots, Reduce: MaxPhaseSlots}}
	}
	if i, err := Algorithm2(jobs[:MaxJobs], MapSlot); err != nil || i != MaxJobs-1 {
		t.Fatalf("Algorithm2 at MaxJobs: %d, %v", i, err)
	}
	if n := testing.AllocsPerRun(2, func() { Algorithm2(jobs[:MaxJobs], MapSlot) }); n != 0 && !raceEnabled {
		t.Errorf("Algorithm2 at MaxJobs: %v allocations", n)
	}
	_, err := Algorithm2(jobs, MapSlot)
	wantField(t, err, "len(jobs)")
}
