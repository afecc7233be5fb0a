package deadlinecheck

import (
	"fmt"
	"runtime"
	"testing"
	"weak"

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

// TestWorkCacheDropFreesSamples: the entries a plan drops are gone from
// the look-up by list position too, so their samples can be collected;
// those it used stay there. 200 workloads at positions 0–199, then a plan
// of the first 10: 190 unused > 2 + 64, dropped.
func TestWorkCacheDropFreesSamples(t *testing.T) {
	wl := func(i int) Workload {
		return Workload{UID: types.UID(fmt.Sprintf("u%d", i)), Pods: 1, Slots: 4, RunTime: &RunTime{Exact: 10}}
	}
	c := NewWorkCache()
	var dropped []weak.Pointer[float64]
	for _, n := range []int{200, 10} {
		g := c.begin("cq")
		for i := range n {
			wk, err := g.workAt(i, wl(i), 4, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if n == 200 && i >= 10 {
				dropped = append(dropped, weak.Make(&wk.own[0]))
			}
		}
		c.end("cq", g, true)
	}
	at := c.queues["cq"].s.at
	for i, e := range at {
		if (e != nil) != (i < 10) {
			t.Fatalf("look-up by position %d holds %v after a plan of 10", i, e)
		}
	}
	runtime.GC()
	runtime.GC()
	for i, p := range dropped {
		if p.Value() != nil {
			t.Fatalf("the samples of dropped workload %d are still reachable", 10+i)
		}
	}
}
