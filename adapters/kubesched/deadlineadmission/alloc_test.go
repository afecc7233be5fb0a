//go:build !race

package deadlineadmission

import (
	"context"
	"fmt"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestPreFilterAllocs: once its buffers have grown, a PreFilter that
// admits a deadline pod held by the tally (the scheduler's case: the
// pending pod came through the informer) allocates nothing, beside 100
// running deadline jobs. Not built under -race, where allocation counts
// are not pinned.
func TestPreFilterAllocs(t *testing.T) {
	pl := New(&Args{Mode: ModeStrict}, nil, clocktesting.NewFakePassiveClock(t0))
	h := pl.PodHandler()
	for i := range 100 {
		p := deadlinePod(fmt.Sprintf("r%03d", i), 1000*time.Hour, time.Hour)
		p.Spec.NodeName = "n1"
		h.OnAdd(p, true)
	}
	pod := deadlinePod("new", 2000*time.Hour, time.Hour)
	h.OnAdd(pod, true)
	ctx := context.Background()
	admit := func() {
		if _, st := pl.PreFilter(ctx, nil, pod, nil); !st.IsSuccess() {
			t.Fatal(st.Message())
		}
	}
	admit()
	if n := testing.AllocsPerRun(100, admit); n != 0 {
		t.Fatalf("PreFilter allocates %v times per call, want 0", n)
	}
}
