package tally

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	tt "github.com/schedkit/schedkit/adapters/kubesched/internal/tally/tallytest"
)

func pendingPod(uid string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: uid, UID: types.UID(uid)},
		Spec: v1.PodSpec{SchedulerName: ours}}
}

// TestChangesReset: while a plugin does not read its tally, 3,000
// single-pod jobs come and go; the tally keeps at most 2·(jobs + 1) + 1,024
// changed keys, then reports a reset with every job it holds, and nothing
// once read.
func TestChangesReset(t *testing.T) {
	w := tt.New()
	tl := New(ours, typeLabel, w.MapJob)
	tl.Set(pendingPod("keep"))
	tl.Read(func(v *View) { v.Changes(func(types.UID, *Job) {}) })
	for i := range 3000 {
		uid := fmt.Sprintf("p%d", i)
		tl.Set(pendingPod(uid))
		tl.Delete(types.UID(uid))
		if n := len(tl.changed); n > 2*(len(tl.jobs)+1)+1024 {
			t.Fatalf("%d changed keys kept for %d jobs", n, len(tl.jobs))
		}
	}
	tl.Set(pendingPod("new"))
	read := func() (map[types.UID]int, bool) {
		got := map[types.UID]int{}
		var reset bool
		tl.Read(func(v *View) {
			_, reset = v.Changes(func(key types.UID, j *Job) {
				got[key] = -1
				if j != nil {
					got[key] = j.Pending
				}
			})
		})
		return got, reset
	}
	got, reset := read()
	if !reset || !maps.Equal(got, map[types.UID]int{"keep": 1, "new": 1}) {
		t.Fatalf("after 3,000 unread changes: reset %v, jobs %v; want a reset with keep and new", reset, got)
	}
	if got, reset := read(); reset || len(got) != 0 {
		t.Fatalf("nothing changed, yet reset %v, jobs %v", reset, slices.Collect(maps.Keys(got)))
	}
	tl.Delete("new")
	if got, reset := read(); reset || !maps.Equal(got, map[types.UID]int{"new": -1}) {
		t.Fatalf("after a delete: reset %v, jobs %v", reset, got)
	}
}
