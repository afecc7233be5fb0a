package main

import (
	"fmt"
	"math"
	"strings"
)

// A Config is one command line's settings.
type Config struct {
	G           float64 // crypto's per-slot speed-up on the GPU node
	Spread      float64 // task-time spread of the gpu scenario
	Tasks       int     // tasks per job in the gpu scenario
	Seeds       int     // seeds of the gpu scenario
	Affinity    float64 // the affinity rule's factor
	Calibration string  // CalibrateKnown, CalibrateFirstTask or CalibrateMean

	Alibaba  string  // trace directory; "" skips the Alibaba scenarios
	Compress float64 // divide the trace's arrival times by this
}

// DefaultConfig is the command line without flags (the trace directory
// aside).
func DefaultConfig() Config {
	return Config{G: 3, Spread: 0.1, Tasks: 1024, Seeds: 20, Affinity: 1.2, Calibration: CalibrateKnown, Compress: 1}
}

// A Summary is one policy's results on a scenario over its seeds.
type Summary struct {
	Policy string
	// Mean, Min and Max are each job's completion time (finish − arrival,
	// seconds) over the seeds.
	Mean, Min, Max []float64
	// Held is each job's mean slots of each node type while at least two
	// jobs had pending tasks, averaged over the seeds (small scenarios).
	Held [][]float64
	// IdleSlotS is the mean over seeds of the slot-seconds left free while
	// a task waited.
	IdleSlotS float64
	// First is the run with the first seed (with its trace, for plots, and
	// the counts the large scenarios report).
	First Result
}

// A Comparison is a scenario with its results under every policy.
type Comparison struct {
	Scenario Scenario
	Results  []Summary // in the order of Policies
}

// Scenarios builds the scenarios of cfg: two-types, gpu and, with a trace
// directory, the Alibaba trace with calibrating jobs and with rates known.
func Scenarios(cfg Config) ([]Scenario, error) {
	gpu := GPU(cfg.G, cfg.Spread, cfg.Tasks, cfg.Seeds, cfg.Affinity)
	gpu.Calibration = cfg.Calibration
	scs := []Scenario{TwoTypes(cfg.Affinity), gpu}
	if cfg.Alibaba == "" {
		return scs, nil
	}
	for _, known := range []bool{false, true} {
		sc, err := Alibaba(cfg.Alibaba)
		if err != nil {
			return nil, err
		}
		for i := range sc.Jobs {
			sc.Jobs[i].Arrival /= cfg.Compress
		}
		sc.Affinity = cfg.Affinity
		sc.RatesKnown = known
		if known {
			sc.Name += "-known-rates"
		}
		if cfg.Compress != 1 {
			sc.Name += fmt.Sprintf("-compress-%g", cfg.Compress)
		}
		scs = append(scs, sc)
	}
	return scs, nil
}

// RunAll runs every scenario under every policy, calling step after each
// run (for progress).
func RunAll(scs []Scenario, step func()) ([]Comparison, error) {
	var out []Comparison
	for _, sc := range scs {
		c := Comparison{Scenario: sc}
		for _, p := range Policies {
			s, err := runSeeds(sc, p, step)
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", sc.Name, p, err)
			}
			c.Results = append(c.Results, s)
		}
		if isAlibaba(sc) {
			c.Scenario.Note = alibabaNote(c)
		}
		out = append(out, c)
	}
	return out, nil
}

// Runs returns the number of runs RunAll makes (for progress).
func Runs(scs []Scenario) int {
	n := 0
	for _, sc := range scs {
		n += max(sc.Seeds, 1) * len(Policies)
	}
	return n
}

// runSeeds runs sc under policy with seeds Seed, Seed+1, … and summarises.
func runSeeds(sc Scenario, policy string, step func()) (Summary, error) {
	seeds := max(sc.Seeds, 1)
	nj := len(sc.Jobs)
	s := Summary{Policy: policy, Mean: make([]float64, nj), Min: make([]float64, nj), Max: make([]float64, nj)}
	for i := range s.Min {
		s.Min[i], s.Max[i] = math.Inf(1), math.Inf(-1)
	}
	base := sc.Seed
	for k := range seeds {
		sc.Seed = base + uint64(k)
		sc.Trace = sc.Trace && k == 0 // samples for the plots from the first seed only
		r, err := Run(sc, policy)
		if err != nil {
			return Summary{}, err
		}
		if k == 0 {
			s.First = r
			if r.Held != nil {
				s.Held = make([][]float64, nj)
				for i := range s.Held {
					s.Held[i] = make([]float64, len(r.Held[i]))
				}
			}
		}
		for i, c := range r.Completion {
			s.Mean[i] += c / float64(seeds)
			s.Min[i], s.Max[i] = min(s.Min[i], c), max(s.Max[i], c)
		}
		if s.Held != nil {
			for i := range s.Held {
				for t, h := range r.Held[i] {
					s.Held[i][t] += h / float64(seeds)
				}
			}
		}
		s.IdleSlotS += r.IdleSlotS / float64(seeds)
		if step != nil {
			step()
		}
	}
	return s, nil
}

func isAlibaba(sc Scenario) bool { return strings.HasPrefix(sc.Name, "alibaba") }
