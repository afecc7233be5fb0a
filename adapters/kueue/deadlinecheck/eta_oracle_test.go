package deadlinecheck

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// scanSimulation is the ETA simulation by a walk over every waiting job at
// each instant: the oracle simulation's search must match bit for bit.

// A scanSimulation replays Kueue's admission for one sample at a time over the
// same jobs; its slices are reused from sample to sample.
type scanSimulation struct {
	ends    endHeap
	waiting []int // jobs not started yet, in queue order
	// entries are the times jobs enter the queue after now, ascending;
	// minShare is the smallest share of a job: with less quota free no
	// job can start.
	entries  []float64
	minShare float64
}

// newScanSimulation prepares a simulation of jobs.
func newScanSimulation(jobs []etaJob) *scanSimulation {
	sim := &scanSimulation{minShare: math.Inf(1)}
	for _, j := range jobs {
		sim.minShare = min(sim.minShare, j.share)
		if j.notBefore > 0 {
			sim.entries = append(sim.entries, j.notBefore)
		}
	}
	slices.Sort(sim.entries)
	sim.entries = slices.Compact(sim.entries)
	return sim
}

// run fills starts[k][s] with job k's start in sample s (+Inf if it never
// starts).
func (sim *scanSimulation) run(running, jobs []etaJob, strict bool, s int, starts [][]float64) {
	free := sim.ends.reset(running, s)
	sim.waiting = sim.waiting[:0]
	for k := range jobs {
		sim.waiting = append(sim.waiting, k)
	}
	entry := 0 // sim.entries[entry] is the next time a job enters the queue
	for t := 0.0; ; {
		if free+fitSlack >= sim.minShare {
			left := sim.waiting[:0]
			blocked := false
			for _, k := range sim.waiting {
				j := &jobs[k]
				if blocked || j.notBefore > t || j.share > free+fitSlack {
					left = append(left, k)
					blocked = blocked || (strict && !j.ghost && j.notBefore <= t)
					continue
				}
				starts[k][s] = t
				// A job that takes no time holds nothing: every end is
				// later than its start, so each instant gets one pass in
				// queue order.
				if !j.ghost && j.run != nil && j.run[s] > 0 {
					free -= j.share
					sim.ends.push(end{at: t + j.run[s], share: j.share})
				}
			}
			sim.waiting = left
		}
		if len(sim.waiting) == 0 {
			return
		}
		var more bool
		if t, entry, free, more = advance(&sim.ends, sim.entries, entry, t, free); !more {
			for _, k := range sim.waiting {
				starts[k][s] = math.Inf(1)
			}
			return
		}
	}
}

// propSimulationMatchesScan checks the simulation's search against the
// walk over every waiting job, bit for bit, over several samples of
// random jobs: shares of a few sizes and odd fractions, ghosts, jobs
// without a run time or of zero run time, later entries, both strategies.
func propSimulationMatchesScan(t *rapid.T) {
	samples := rapid.IntRange(1, 4).Draw(t, "samples")
	share := func(label string) float64 {
		if rapid.Bool().Draw(t, label+" odd?") {
			return float64(rapid.IntRange(1, 7).Draw(t, label+" sevenths")) / 7
		}
		return float64(rapid.IntRange(1, 4).Draw(t, label)) / 4
	}
	runs := func(label string) []float64 {
		r := make([]float64, samples)
		for s := range r {
			r[s] = float64(rapid.IntRange(0, 100).Draw(t, label))
		}
		return r
	}
	running := make([]etaJob, rapid.IntRange(0, 5).Draw(t, "running"))
	for i := range running {
		running[i] = etaJob{share: share("r share"), run: runs("r run")}
	}
	jobs := make([]etaJob, rapid.IntRange(0, 40).Draw(t, "pending"))
	for k := range jobs {
		jobs[k] = etaJob{share: share("share"), ghost: rapid.IntRange(0, 4).Draw(t, "ghost") == 0}
		if rapid.IntRange(0, 4).Draw(t, "run?") > 0 {
			jobs[k].run = runs("run")
		}
		if rapid.IntRange(0, 3).Draw(t, "later?") == 0 {
			jobs[k].notBefore = float64(rapid.IntRange(1, 200).Draw(t, "not before"))
		}
	}
	strict := rapid.Bool().Draw(t, "strict")
	got, want := make([][]float64, len(jobs)), make([][]float64, len(jobs))
	for k := range jobs {
		got[k], want[k] = make([]float64, samples), make([]float64, samples)
	}
	sim, scan := newSimulation(jobs), newScanSimulation(jobs)
	for s := range samples {
		sim.run(running, jobs, strict, s, got)
		scan.run(running, jobs, strict, s, want)
	}
	for k := range jobs {
		for s := range samples {
			if math.Float64bits(got[k][s]) != math.Float64bits(want[k][s]) {
				t.Fatalf("strict %v, sample %d: job %d starts at %v, the walk over every job says %v", strict, s, k, got[k][s], want[k][s])
			}
		}
	}
}

func TestPropSimulationMatchesScan(t *testing.T) { rapid.Check(t, propSimulationMatchesScan) }
