package deadlinecheck

import (
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkSetQueue is one reconcile's update of a ClusterQueue's ETA
// series, 15,000 pending workloads with a finish and a deadline each:
// "unchanged" the same ETAs as the last reconcile, "moved" every ETA a
// second later than the last.
func BenchmarkSetQueue(b *testing.B) {
	const n = 15000
	etas := func(shift time.Duration) []seriesEntry {
		s := make([]seriesEntry, n)
		for i := range s {
			at := t0.Add(shift + time.Duration(i)*time.Second)
			s[i] = seriesEntry{key: fmt.Sprintf("ns/w%d", i), namespace: "ns", workload: fmt.Sprintf("w%d", i),
				eta: ETA{StartP50: at, StartP90: at, FinishP50: at, FinishP90: at, Deadline: at}}
		}
		return s
	}
	for _, moved := range []bool{false, true} {
		b.Run(map[bool]string{false: "unchanged", true: "moved"}[moved], func(b *testing.B) {
			m, err := NewMetrics(prometheus.NewRegistry())
			if err != nil {
				b.Fatal(err)
			}
			both := [2][]seriesEntry{etas(0), etas(time.Second)}
			m.setQueue("cq", both[0], n)
			b.ReportAllocs()
			cpu := cpuTime()
			round := 0
			for b.Loop() {
				if moved {
					round++
				}
				m.setQueue("cq", both[round%2], n)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
