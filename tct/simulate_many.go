package tct

import "sync"

// DefaultRuns is the number of Monte-Carlo runs when Options.Runs is 0.
const DefaultRuns = 1000

// MaxRuns bounds Options.Runs.
const MaxRuns = 1 << 24

// MaxGoroutines bounds Options.Goroutines.
const MaxGoroutines = 1024

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
	// The goroutines are started and joined inside the call. Run k's
	// outcome depends only on (Seed, k), so the result is identical for
	// every value of Goroutines.
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
// thesis 004 §5.2.2. A bad model or options give a *ValueError.
func Predict(m JobModel, opt Options) (Distribution, error) {
	if err := m.Validate(); err != nil {
		return Distribution{}, err
	}
	if err := opt.validate(); err != nil {
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
// now, from opt.Runs runs of Simulator.RunFrom (thesis 004 §5.4.2). With
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
	out := make([]float64, opt.runs())
	mcRunAll(out, opt.Goroutines, func(s *Simulator, k int) float64 {
		return s.runFrom(&m, &st, added, opt.Seed, k)
	})
	return mcDistribution(out), nil
}

// mcRunAll sets out[k] = run(s, k) for every k, sharing the runs among g
// goroutines (each with its own Simulator) that it starts and joins.
// Goroutine i takes the contiguous block of runs [i·N/g, (i+1)·N/g).
func mcRunAll(out []float64, g int, run func(s *Simulator, k int) float64) {
	g = max(1, min(g, len(out)))
	if g == 1 {
		var s Simulator
		for k := range out {
			out[k] = run(&s, k)
		}
		return
	}
	var wg sync.WaitGroup
	n := len(out)
	for i := range g {
		lo, hi := i*n/g, (i+1)*n/g
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s Simulator
			for k := lo; k < hi; k++ {
				out[k] = run(&s, k)
			}
		}()
	}
	wg.Wait()
}
