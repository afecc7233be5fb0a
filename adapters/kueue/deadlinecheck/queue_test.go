package deadlinecheck

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueueconfig "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utilpriority "sigs.k8s.io/kueue/pkg/util/priority"
	kueueworkload "sigs.k8s.io/kueue/pkg/workload"
)

// propQueuePlace: QueuePlace and KueueOrder order workloads as Kueue's own
// code does: its priority and queue-order timestamp functions
// (pkg/util/priority, pkg/workload's Ordering with requeuingTimestamp
// Eviction, the default), then UID, higher priority first, as its
// ClusterQueue queue compares them.
func propQueuePlace(t *rapid.T) {
	wls := rapid.SliceOfN(workloadGen(), 1, 8).Draw(t, "workloads")
	ord := kueueworkload.Ordering{PodsReadyRequeuingTimestamp: kueueconfig.EvictionTimestamp}
	ws := make([]Workload, len(wls))
	for i, wl := range wls {
		wl.UID = types.UID(rapid.StringMatching(`[a-f0-9]{4}`).Draw(t, "uid"))
		p, qt := QueuePlace(wl)
		if want := utilpriority.Priority(wl); p != want {
			t.Fatalf("priority %d, Kueue's %d", p, want)
		}
		if want := ord.GetQueueOrderTimestamp(wl); !qt.Equal(want.Time) {
			t.Fatalf("queue time %v, Kueue's %v (conditions %v)", qt, want.Time, wl.Status.Conditions)
		}
		ws[i] = Workload{UID: wl.UID, Priority: int64(p), QueueTime: qt}
	}
	kueueCmp := func(a, b *kueue.Workload) int {
		pa, pb := utilpriority.Priority(a), utilpriority.Priority(b)
		if pa != pb {
			if pa > pb {
				return -1
			}
			return 1
		}
		ta, tb := ord.GetQueueOrderTimestamp(a), ord.GetQueueOrderTimestamp(b)
		if !ta.Equal(tb) {
			if ta.Before(tb) {
				return -1
			}
			return 1
		}
		switch {
		case a.UID < b.UID:
			return -1
		case a.UID > b.UID:
			return 1
		}
		return 0
	}
	idx := make([]int, len(ws))
	for i := range idx {
		idx[i] = i
	}
	ours, theirs := slices.Clone(idx), slices.Clone(idx)
	slices.SortStableFunc(ours, func(a, b int) int { return KueueOrder(ws[a], ws[b]) })
	slices.SortStableFunc(theirs, func(a, b int) int { return kueueCmp(wls[a], wls[b]) })
	if !slices.Equal(ours, theirs) {
		t.Fatalf("order %v, Kueue's %v", ours, theirs)
	}
}

func TestPropQueuePlace(t *testing.T) { rapid.Check(t, propQueuePlace) }
