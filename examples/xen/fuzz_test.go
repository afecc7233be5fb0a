package main

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// propSimulate: Simulate on any scenario and rate, valid or not, either
// returns an error or a run whose runstates add up to the interactive VM's
// VCPU-seconds and whose numbers are finite and non-negative. Valid runs
// whose expected work (Scenario.EventRate × Duration) exceeds 200 000
// events are skipped so that each input is fast; extreme means (1 ns batch
// stretches, 1 ns think times) are drawn on purpose, so the work bound's
// error is reached; bad values of every field are drawn as well.
func propSimulate(t *rapid.T) {
	// About one field in 30 gets a bad value, so that most inputs are
	// valid runs and every field's bad values are still reached.
	bad := func(name string) bool { return rapid.IntRange(0, 29).Draw(t, name+"Bad") == 0 }
	dur := func(name string, lo, hi time.Duration) time.Duration {
		if bad(name) {
			return rapid.SampledFrom([]time.Duration{0, -1, math.MinInt64, math.MaxInt64}).Draw(t, name)
		}
		if rapid.IntRange(0, 9).Draw(t, name+"Extreme") == 0 {
			return rapid.SampledFrom([]time.Duration{lo, max(lo, 1), hi}).Draw(t, name)
		}
		return time.Duration(rapid.Int64Range(int64(lo), int64(hi)).Draw(t, name))
	}
	small := func(name string, lo, hi int) int {
		if bad(name) {
			return rapid.SampledFrom([]int{-1, 0, 65, 1 << 40}).Draw(t, name)
		}
		return rapid.IntRange(lo, hi).Draw(t, name)
	}
	sc := DefaultScenario()
	if rapid.Bool().Draw(t, "edit") {
		sc.PCPUs = small("pcpus", 1, 3)
		sc.HostPCPUs = small("hostPCPUs", 1, 6)
		sc.VCPUs = small("vcpus", 1, 3)
		sc.Interactive = small("interactive", 1, 2)
		sc.Batch = small("batch", 0, 2)
		sc.Bursts = small("bursts", 1, 5)
		sc.BurstMean = dur("burst", 1, 20*time.Millisecond)
		sc.IOMean = dur("io", 0, 20*time.Millisecond)
		sc.Weight = small("weight", 1, 512)
		sc.BatchWeight = small("batchWeight", 1, 512)
		if rapid.Bool().Draw(t, "batchIO") {
			sc.BatchBurst = dur("batchBurst", 1, 50*time.Millisecond)
			sc.BatchIO = dur("batchIOMean", 0, 10*time.Millisecond)
		}
		sc.Clients = 0
		if rapid.Bool().Draw(t, "closed") {
			sc.Clients = small("clients", 1, 500)
			sc.Think = dur("think", 1, 10*time.Second)
		}
		sc.Pinning = rapid.SampledFrom([]string{PinVM, PinVCPU, PinVM, PinVCPU, "", "VM"}).Draw(t, "pinning")
		sc.RatelimitDelaysBackground = rapid.Bool().Draw(t, "rlDelaysBG")
		sc.ActivateAtHead = rapid.Bool().Draw(t, "atHead")
		sc.GuardPeriod = dur("p", time.Millisecond, time.Second)
		sc.GuardExec = dur("e", 0, time.Second)
		sc.Ratelimit = dur("ratelimit", 0, 2*time.Millisecond)
		sc.Dom0 = small("dom0", 0, 2)
	}
	// Magnitudes drawn from lists: rapid's ranges lean to their low end,
	// which would make nearly every run too short to serve a request.
	sc.Duration = rapid.SampledFrom([]time.Duration{time.Second, 2 * time.Second, 300 * time.Millisecond, 30 * time.Millisecond, time.Millisecond}).Draw(t, "duration")
	if bad("duration") {
		sc.Duration = rapid.SampledFrom([]time.Duration{0, -1, math.MinInt64, math.MaxInt64}).Draw(t, "badDuration")
	}
	rate := rapid.SampledFrom([]float64{85, 500, 2000, 10, 0.5}).Draw(t, "rate") * rapid.Float64Range(0.5, 1).Draw(t, "rateScale")
	if bad("rate") {
		rate = rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e6}).Draw(t, "badRate")
	}
	sched := rapid.SampledFrom([]string{Alone, Credit, MI}).Draw(t, "scheduler")
	if bad("scheduler") {
		sched = rapid.SampledFrom([]string{"", "cfs", "MI"}).Draw(t, "badScheduler")
	}
	if sc.Validate() == nil && sc.checkWork(rate) == nil && sc.EventRate(rate)*sc.Duration.Seconds() > 2e5 {
		return // valid but too long for a fuzz input
	}
	r, err := Simulate(sc, sched, rate, 1)
	if err != nil {
		return
	}
	want := float64(sc.VCPUs) * sc.Duration.Seconds()
	sum := r.RunningS + r.RunnableS + r.BlockedS
	for _, x := range []float64{r.Rate, r.RunningS, r.RunnableS, r.BlockedS, r.MeanResponseMS, r.BatchS} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Fatalf("non-finite or negative number in %+v", r)
		}
	}
	if math.Abs(sum-want) > 1e-6*want+1e-9 {
		t.Fatalf("runstates sum to %v VCPU-s, want %v: %+v", sum, want, r)
	}
	if r.Scheduler != sched {
		t.Fatalf("scheduler %q, want %q", r.Scheduler, sched)
	}
}

func TestPropSimulate(t *testing.T) { rapid.Check(t, propSimulate) }
func FuzzSimulate(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propSimulate)) }
