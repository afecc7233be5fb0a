package deadlinecheck

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkETASlice is one reconcile's slice of the ETA pass of
// BenchmarkETAPass (DefaultETASliceStarts predicted starts, 1,000
// samples): "start" takes the pass's snapshot (startPass); "delays" is
// a slice adding the control plane's delays, drawn from
// DefaultDelayWindow observations, to the run times (the first slices
// of a pass with learnt delays), the pass started again when they are
// all added; "replay" is a
// slice of the replay of Kueue's admission (whole samples), the pass
// started again when its replay is done; "quantiles" a slice of the
// p50s and p90s (whole workloads) after the replay, taken again from the
// first workload when they are done. slices/pass is how many slices the
// whole pass takes.
func BenchmarkETASlice(b *testing.B) {
	const samples = 1000
	for _, n := range []int{100, 1000, 15000} {
		views, works, outs := etaBenchInputs(b, n, samples)
		q := Queue{Name: "cq"}
		var sc etaScratch
		start := func() { sc.startPass(q, views, works, outs, t0, samples, 0.9, etaDelay{}, arrivalInput{}) }
		sc.startPass(q, views, works, outs, t0, samples, 0.9, etaDelay{}, arrivalInput{})
		perPass := 1
		for {
			done, err := sc.step(DefaultETASliceStarts)
			if err != nil {
				b.Fatal(err)
			}
			if done {
				break
			}
			perPass++
		}
		b.Run(fmt.Sprintf("workloads=%d/start", n), func(b *testing.B) {
			start()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				start()
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
		b.Run(fmt.Sprintf("workloads=%d/delays", n), func(b *testing.B) {
			obs := make([]DelayObservation, DefaultDelayWindow)
			for i := range obs {
				d := time.Duration(i) * time.Second
				obs[i] = DelayObservation{Finished: t0.Add(d), Delay: d, Decide: d / 2, Admit: d / 4}
			}
			delay, err := delayDraws(obs, nil, samples, 0)
			if err != nil || delay.ready == nil {
				b.Fatalf("delay draws %v, %v", delay, err)
			}
			var sd etaScratch
			sd.startPass(q, views, works, outs, t0, samples, 0.9, delay, arrivalInput{})
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if sd.f >= len(sd.fills) {
					sd.startPass(q, views, works, outs, t0, samples, 0.9, delay, arrivalInput{})
				}
				if _, err := sd.step(DefaultETASliceStarts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
		b.Run(fmt.Sprintf("workloads=%d/replay", n), func(b *testing.B) {
			start()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if sc.next >= samples {
					start()
				}
				if _, err := sc.step(DefaultETASliceStarts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(perPass), "slices/pass")
		})
		b.Run(fmt.Sprintf("workloads=%d/quantiles", n), func(b *testing.B) {
			start()
			for sc.next < samples {
				if _, err := sc.step(DefaultETASliceStarts); err != nil {
					b.Fatal(err)
				}
			}
			// Without the control plane's delays the quantiles leave the
			// starts as they are: they can be taken again.
			again := func() {
				sc.k, sc.live, sc.etas, sc.notes, sc.spans = 0, true, nil, sc.notes[:0], sc.spans[:0]
			}
			again()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if !sc.inProgress() {
					again()
				}
				if _, err := sc.step(DefaultETASliceStarts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
