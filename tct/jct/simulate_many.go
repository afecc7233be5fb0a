package jct

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// DefaultRuns is the number of Monte-Carlo runs when Options.Runs is 0.
const DefaultRuns = 1000

// MaxRuns bounds Options.Runs.
const MaxRuns = 1 << 24

// MaxGoroutines bounds Options.Goroutines.
const MaxGoroutines = 1024

// MaxDraws bounds the work of one Monte-Carlo call: its runs times the
// draws of one run, Workers + Maps + 2·Reduces (an arrival per worker, a
// duration per map task, a shuffle and a reduce duration per reduce task).
// 2³² draws take about three minutes of one core (about 45 ns per draw with
// its timer-heap step); without the bound, 1,000 runs at MaxMaps would take
// about five hours. A call beyond it gives a *ValueError on Options.Runs
// (SearchOptions.RunLimit for a worker search) before any work.
const MaxDraws = 1 << 32

// mcDrawsPerRun is the draws of one run of m with workers workers: an
// arrival per worker, a duration per map task, a shuffle and a reduce
// duration per reduce task.
func mcDrawsPerRun(m *JobModel, workers int) uint64 {
	return uint64(workers) + uint64(m.Maps) + 2*uint64(m.Reduces)
}

// mcWork checks that runs runs of model m with workers workers stay within
// MaxDraws; field names the run count the caller set.
func mcWork(field string, runs int, m *JobModel, workers int) error {
	per := mcDrawsPerRun(m, workers)
	if uint64(runs)*per > MaxDraws {
		return &ValueError{Field: field, Value: runs, Reason: fmt.Sprintf("%d runs × %d draws per run exceed MaxDraws = 2³² (fewer runs, or a smaller model)", runs, per)}
	}
	return nil
}

// Options sets a Monte-Carlo prediction's size and randomness. The zero
// value is ready to use: 1000 runs, seed 0, computed in the caller's
// goroutine.
type Options struct {
	// Runs is the number of simulated runs N, in [0, MaxRuns]; 0 means
	// DefaultRuns.
	Runs int
	// Seed selects the random streams (see Simulator). Equal seeds give
	// equal results, bit for bit.
	Seed uint64
	// Goroutines is how many goroutines share the runs, in [0,
	// MaxGoroutines]; 0 or 1 runs everything in the caller's goroutine.
	// With more, the caller's goroutine and Goroutines − 1 others,
	// started and joined inside the call, take chunks of runs as they
	// free up. Run k's outcome depends only on (Seed, k), so the result
	// is identical for every value of Goroutines.
	Goroutines int
}

// runs returns the effective number of runs.
func (o Options) runs() int {
	if o.Runs == 0 {
		return DefaultRuns
	}
	return o.Runs
}

// validate checks Options.
func (o Options) validate() error {
	if err := mcCount("Options.Runs", o.Runs, 0, MaxRuns); err != nil {
		return err
	}
	return mcCount("Options.Goroutines", o.Goroutines, 0, MaxGoroutines)
}

// Predict returns the completion-time distribution of job model m from
// opt.Runs simulated runs (Simulator.Run with runs 0..N−1 and opt.Seed),
// Lee thesis §5.2.2. A bad model or options give a *ValueError.
func Predict(m JobModel, opt Options) (Distribution, error) {
	if err := m.Validate(); err != nil {
		return Distribution{}, err
	}
	if err := opt.validate(); err != nil {
		return Distribution{}, err
	}
	if err := mcWork("Options.Runs", opt.runs(), &m, m.Workers); err != nil {
		return Distribution{}, err
	}
	out := make([]float64, opt.runs())
	mcRunAll(out, opt.Goroutines, func(s *Simulator, k int) float64 {
		return s.run(&m, opt.Seed, k)
	})
	return mcDistribution(out), nil
}

// PredictRemaining returns the remaining-time distribution (seconds after
// st.Elapsed) of a job of model m in state st with added workers joining
// now, from opt.Runs runs of Simulator.RunFrom (Lee thesis §5.4.2). With
// Start() and added = 0 it equals Predict(m, opt) exactly. Calls that
// differ only in added use common random numbers. Bad input gives a
// *ValueError.
func PredictRemaining(m JobModel, st JobState, added int, opt Options) (Distribution, error) {
	if err := mcCheckRemaining(&m, &st, added); err != nil {
		return Distribution{}, err
	}
	if err := opt.validate(); err != nil {
		return Distribution{}, err
	}
	if err := mcWork("Options.Runs", opt.runs(), &m, m.Workers+added); err != nil {
		return Distribution{}, err
	}
	out := make([]float64, opt.runs())
	mcRunAll(out, opt.Goroutines, func(s *Simulator, k int) float64 {
		return s.runFrom(&m, &st, added, opt.Seed, k)
	})
	return mcDistribution(out), nil
}

// mcRunAll sets out[k] = run(s, k) for every k. With g > 1 the runs are
// shared by g goroutines — the caller's and g − 1 that it starts and joins
// — each with its own Simulator. They take chunks of mcChunksPer·g-th of
// the runs from a shared counter, each as it finishes the previous one,
// so a goroutine whose core is taken by other work holds the others up by
// at most one chunk (a fixed split into g blocks made the call wait for
// the slowest block). out[k] depends only on k, not on which goroutine
// computes it.
func mcRunAll(out []float64, g int, run func(s *Simulator, k int) float64) {
	n := len(out)
	g = max(1, min(g, n))
	if g == 1 {
		var s Simulator
		for k := range out {
			out[k] = run(&s, k)
		}
		return
	}
	chunk := max(1, n/(g*mcChunksPer))
	var next atomic.Int64
	work := func() {
		var s Simulator
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			for k := lo; k < min(lo+chunk, n); k++ {
				out[k] = run(&s, k)
			}
		}
	}
	var wg sync.WaitGroup
	for range g - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// mcChunksPer is how many chunks of runs mcRunAll makes per goroutine.
const mcChunksPer = 32
