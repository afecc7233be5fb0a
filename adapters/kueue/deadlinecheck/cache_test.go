package deadlinecheck

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

// TestWorkCacheBound: a plan that used k entries keeps the unused ones
// until they outnumber k/4 + 64, then keeps only its k. Worked by hand:
// 200 entries, the next plan uses 100: 100 unused > 25 + 64, dropped;
// 180 entries, 100 used: 80 unused ≤ 89, kept; 100 used of 300, but the
// plan failed: kept.
func TestWorkCacheBound(t *testing.T) {
	wl := func(i int) Workload {
		return Workload{UID: types.UID(fmt.Sprintf("u%d", i)), Pods: 1, Slots: 4, RunTime: &RunTime{Exact: 10}}
	}
	plan := func(c *WorkCache, n int, ok bool) {
		g := c.begin("cq")
		for i := range n {
			if _, err := g.work(wl(i), 4, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
		c.end("cq", g, ok)
	}
	for _, tt := range []struct {
		first, next int
		ok          bool
		want        int
	}{
		{first: 200, next: 100, ok: true, want: 100},
		{first: 180, next: 100, ok: true, want: 180},
		{first: 100, next: 100, ok: true, want: 100},
		{first: 300, next: 100, ok: false, want: 300},
		{first: 64, next: 0, ok: true, want: 64},
		{first: 65, next: 0, ok: true, want: 0},
	} {
		c := NewWorkCache()
		plan(c, tt.first, true)
		plan(c, tt.next, tt.ok)
		if got := len(c.queues["cq"].works); got != tt.want {
			t.Errorf("%d entries, then a plan using %d (ok %v): %d kept, want %d", tt.first, tt.next, tt.ok, got, tt.want)
		}
	}
}
