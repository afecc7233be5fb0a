package deadline

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// benchCluster has n deadline apps, a third ACCEPTED, on nodes nodes of 16
// containers, no reservations.
func benchCluster(n, nodes int) Cluster {
	c := Cluster{Now: now, Scheduler: rm.SchedulerCapacity}
	for i := range nodes {
		c.Nodes = append(c.Nodes, node(fmt.Sprintf("n%d", i), "RUNNING", 16384, 16))
	}
	for i := range n {
		state, containers := "RUNNING", int64(1+i%8)
		if i%3 == 0 {
			state, containers = "ACCEPTED", 0
		}
		c.Apps = append(c.Apps, mkApp(i+1, state, int64(60+(i*37)%3600), 20+i%200, float64(i%90), containers, int64(i%600), 0))
	}
	return c
}

// BenchmarkCompute is one controller pass's planning without
// reservations (those add Monte-Carlo predictions per ACCEPTED app).
func BenchmarkCompute(b *testing.B) {
	for _, size := range [][2]int{{100, 100}, {1000, 100}, {10000, 3125}} {
		n, nodes := size[0], size[1]
		b.Run(fmt.Sprintf("apps=%d/containers=%d", n, 16*nodes), func(b *testing.B) {
			c, cfg := benchCluster(n, nodes), testConfig()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compute(c, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
