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

// benchSizes are the benchmarks' clusters: apps and nodes.
var benchSizes = [][2]int{{100, 100}, {1000, 100}, {10000, 3125}}

// BenchmarkCompute is one controller pass's planning without
// reservations (those add Monte-Carlo predictions per ACCEPTED app), cold:
// Compute, a new Planner each pass.
func BenchmarkCompute(b *testing.B) {
	benchPasses(b, func(c Cluster, cfg Config) (Plan, error) { return Compute(c, cfg) })
}

// BenchmarkPlanner is the same pass as the controller makes it, pass after
// pass with one Planner.
func BenchmarkPlanner(b *testing.B) {
	var pl Planner
	benchPasses(b, pl.Compute)
}

func benchPasses(b *testing.B, compute func(Cluster, Config) (Plan, error)) {
	for _, size := range benchSizes {
		n, nodes := size[0], size[1]
		b.Run(fmt.Sprintf("apps=%d/containers=%d", n, 16*nodes), func(b *testing.B) {
			c, cfg := benchCluster(n, nodes), testConfig()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := compute(c, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
