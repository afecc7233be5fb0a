package deadlinecheck

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
	"k8s.io/apimachinery/pkg/types"
)

// benchQueue is a ClusterQueue's worth of workloads: a quarter admitted and
// running, a quarter awaiting a decision, half waiting for quota; pods of
// lognormal run time (median 600 s, σ 0.3), 64 slots.
func benchQueue(n, pods int) []Workload {
	ws := make([]Workload, n)
	rt := &RunTime{Pod: jct.Lognormal{Mu: math.Log(600), Sigma: 0.3}, Source: "bench"}
	for i := range ws {
		w := Workload{
			Key: fmt.Sprintf("ns/w%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i)),
			Created: t0.Add(-time.Duration(n-i) * time.Second), Pods: pods, Slots: 64, RunTime: rt,
			Deadline: t0.Add(time.Duration(3600+60*i) * time.Second),
		}
		switch {
		case i < n/4:
			w.Phase, w.Executed = Promised, 120*time.Second
		case i < n/2:
			w.Phase = Deciding
		default:
			w.Phase = Waiting
		}
		ws[i] = w
	}
	return ws
}

func BenchmarkPlan(b *testing.B) {
	for _, c := range []struct{ n, pods, samples int }{{10, 4, 1000}, {100, 4, 1000}, {100, 64, 1000}, {100, 4, 100}} {
		b.Run(fmt.Sprintf("workloads=%d/pods=%d/samples=%d", c.n, c.pods, c.samples), func(b *testing.B) {
			ws := benchQueue(c.n, c.pods)
			cfg := testConfig()
			cfg.Samples = c.samples
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPlanCached is a plan of an unchanged queue in the same second:
// every workload's samples come from the cache.
func BenchmarkPlanCached(b *testing.B) {
	for _, c := range []struct{ n, pods, samples int }{{10, 4, 1000}, {100, 64, 1000}} {
		b.Run(fmt.Sprintf("workloads=%d/pods=%d/samples=%d", c.n, c.pods, c.samples), func(b *testing.B) {
			ws := benchQueue(c.n, c.pods)
			cfg := testConfig()
			cfg.Samples = c.samples
			cache := NewWorkCache()
			if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, cache); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(Queue{Name: "cq"}, ws, t0, cfg, cache); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
