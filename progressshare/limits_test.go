package progressshare

import (
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// TestLimits runs every size limit and one beyond it: MaxSlots (the
// Scheduler's memory at 2²⁰ slots is TestSchedulerMemory's), MaxJobs in both
// pickers and Validate, MaxPending in a job and in a PendingIndex. At each
// limit the call answers and allocates nothing beyond the Scheduler's
// scratch for the jobs (20 bytes each, once); one beyond is refused naming
// the field before any work.
func TestLimits(t *testing.T) {
	slots := make([]Slot, MaxSlots+1)
	for i := range slots {
		slots[i] = Slot{Node: i % (MaxNode + 1), Type: 0, Rack: i % (MaxNode + 1)}
	}
	_, err := NewScheduler(slots, Options{})
	assertField(t, err, "len(slots)")

	s, err := NewScheduler(slots[:4], Options{MaxDelay: 10, RackDelay: 1, RemoteDelay: 2})
	if err != nil {
		t.Fatal(err)
	}
	pending := []Block{{Replicas: []int{0}}}
	jobs := make([]Job, MaxJobs+1)
	for i := range jobs {
		jobs[i] = Job{Weight: 1, Rates: []float64{1}, Pending: pending}
	}
	for _, p := range []struct {
		name string
		pick func(int, []Job, float64) (Decision, error)
	}{
		{"PickProgressShare", s.PickProgressShare},
		{"PickSlotShare", s.PickSlotShare},
	} {
		var d Decision
		got := testkit.Allocated(func() { d, err = p.pick(0, jobs[:MaxJobs], 0) })
		if err != nil || d.Job != 0 {
			t.Fatalf("%s at MaxJobs: %+v, %v", p.name, d, err)
		}
		if got > 20*MaxJobs+1<<16 {
			t.Errorf("%s at MaxJobs allocated %d B, over 20 B a job", p.name, got)
		}
		if n := testing.AllocsPerRun(2, func() { p.pick(0, jobs[:MaxJobs], 0) }); n != 0 {
			t.Errorf("%s at MaxJobs, warmed: %v allocations", p.name, n)
		}
		_, err = p.pick(0, jobs, 0)
		assertField(t, err, "len(jobs)")
	}
	if err := s.Validate(jobs[:MaxJobs], 0); err != nil {
		t.Fatalf("Validate at MaxJobs: %v", err)
	}
	assertField(t, s.Validate(jobs, 0), "len(jobs)")

	blocks := make([]Block, MaxPending+1)
	for i := range blocks {
		blocks[i] = pending[0]
	}
	x, err := s.NewPendingIndex(blocks[:MaxPending])
	if err != nil || x.Len() != MaxPending {
		t.Fatalf("NewPendingIndex at MaxPending: %v", err)
	}
	assertField(t, x.Add(pending[0]), "PendingIndex")
	if x.Len() != MaxPending {
		t.Fatal("a refused Add changed the index")
	}
	if err := x.Remove(pending[0]); err != nil || x.Add(pending[0]) != nil {
		t.Fatalf("Remove then Add at MaxPending: %v", err)
	}
	_, err = s.NewPendingIndex(blocks)
	assertField(t, err, "len(blocks)")

	big := []Job{{Weight: 1, Rates: []float64{1}, Pending: blocks[:MaxPending], Index: x}}
	if d, err := s.PickProgressShare(0, big, 0); err != nil || d.Job != 0 || d.Block != 0 {
		t.Fatalf("a job with MaxPending blocks: %+v, %v", d, err)
	}
	if err := s.Validate(big, 0); err != nil {
		t.Fatalf("Validate of MaxPending blocks: %v", err)
	}
	big[0].Pending, big[0].Index = blocks, nil
	_, err = s.PickProgressShare(0, big, 0)
	assertField(t, err, "len(jobs[0].Pending)")
	_, err = s.PickSlotShare(0, big, 0)
	assertField(t, err, "len(jobs[0].Pending)")
	assertField(t, s.Validate(big, 0), "len(jobs[0].Pending)")
}
