package deadlinecheck

import (
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// propListOrder checks listOrder against sortListed: over a sequence of
// listings of one ClusterQueue (workloads coming, going and coming back,
// in a LocalQueue's list, the ClusterQueue's or both, in any order; two
// workloads of one name and different UIDs), each listing's order is
// sortListed's, the same objects.
func propListOrder(t *rapid.T) {
	pool := make([]*kueue.Workload, rapid.IntRange(1, 12).Draw(t, "pool"))
	for i := range pool {
		pool[i] = &kueue.Workload{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns%d", rapid.IntRange(0, 2).Draw(t, "namespace")),
			Name:      fmt.Sprintf("w%d", rapid.IntRange(0, 5).Draw(t, "name")),
			UID:       types.UID(fmt.Sprintf("uid-%d", i)),
		}}
	}
	var o listOrder
	for range rapid.IntRange(1, 8).Draw(t, "listings") {
		var all []listedWorkload
		for _, wl := range pool {
			switch rapid.IntRange(0, 3).Draw(t, "listed") {
			case 1:
				all = append(all, listedWorkload{wl: wl})
			case 2:
				all = append(all, listedWorkload{wl: wl, list: 1})
			case 3: // both lists, each its own copy of the object
				a, b := *wl, *wl
				all = append(all, listedWorkload{wl: &a}, listedWorkload{wl: &b, list: 1})
			}
		}
		all = rapid.Permutation(all).Draw(t, "cache order")
		want := sortListed(slices.Clone(all))
		if got := o.order(all); !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v", keysOf(got), keysOf(want))
		}
	}
}

func keysOf(wls []*kueue.Workload) []string {
	var keys []string
	for _, wl := range wls {
		keys = append(keys, fmt.Sprintf("%s/%s %s %p", wl.Namespace, wl.Name, wl.UID, wl))
	}
	return keys
}

func TestPropListOrder(t *testing.T) { rapid.Check(t, propListOrder) }
