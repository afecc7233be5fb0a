package main

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkReplay replays each whole trace at the command's default sizes
// (one replay per iteration; run with -benchtime 1x) and reports, besides
// the time of the whole replay, each decision's p50 and p99 latency and the
// peak queue.
func BenchmarkReplay(b *testing.B) {
	for _, c := range []struct {
		name  string
		slots int
		load  func() (*workload, error)
	}{
		{"swim", defSwimSlots, func() (*workload, error) {
			return swimWorkload(filepath.Join(traceDir, swimFile), defMaxMaps, 0, 1)
		}},
		{"google", defGoogleSlots, func() (*workload, error) { return googleWorkload(filepath.Join(traceDir, googleFile), 0) }},
	} {
		w, err := c.load()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("trace=%s/jobs=%d/slots=%d", c.name, len(w.Units), c.slots), func(b *testing.B) {
			var res Result
			b.ReportAllocs()
			for b.Loop() {
				res, err = run(w, Config{Slots: c.slots, Admission: "advise", Mode: "strict", GPInterval: defGPInterval}, nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			for k, l := range res.Latency {
				b.ReportMetric(float64(l.P50Ns), kindNames[k]+"-p50-ns")
				b.ReportMetric(float64(l.P99Ns), kindNames[k]+"-p99-ns")
			}
			b.ReportMetric(float64(res.PeakQueue), "peak-queued-jobs")
		})
	}
}
