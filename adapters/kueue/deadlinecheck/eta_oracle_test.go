package deadlinecheck

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// scanSimulation is the ETA simulation by a walk over every waiting job at
// each instant: the oracle simulation's search must match bit for bit.

// A scanSimulation replays Kueue's admission for one sample at a time over the
// same jobs, with the arrivals of each sample drawn whole beforehand and
// sorted into the queue with the jobs.
type scanSimulation struct {
	ends endHeap
	jobs []etaJob
	arr  *etaArrivals
	pace walkPace
}

// newScanSimulation prepares a simulation of jobs with arrivals arr (nil:
// none) and Kueue's walk at pace (zero: none).
func newScanSimulation(jobs []etaJob, arr *etaArrivals, pace walkPace) *scanSimulation {
	return &scanSimulation{jobs: jobs, arr: arr, pace: pace}
}

// A scanJob is a job or an arrival in one sample's queue: k is the job's
// index, -1 for an arrival.
type scanJob struct {
	k                 int
	share, run, enter float64
	ghost             bool
	priority          int64
	// expires: past latest it holds nothing (etaJob).
	expires bool
	latest  float64
}

// queue returns sample s's queue: the jobs in their order and every
// arrival of the sample (arr.slots of them, the gaps and records drawn in
// turn from the stream seeded with arr.seed and s) after the jobs of at
// least its priority, in order of arrival.
func (sim *scanSimulation) queue(s int) []scanJob {
	var q []scanJob
	for k, j := range sim.jobs {
		r := 0.0
		if j.run != nil {
			r = j.run[s]
		}
		q = append(q, scanJob{k: k, share: j.share, run: r, enter: j.notBefore, ghost: j.ghost, priority: j.priority, expires: j.expires, latest: j.latest})
	}
	if !sim.arr.on() {
		return q
	}
	a := sim.arr
	rng := rand.New(rand.NewPCG(a.seed, uint64(s)))
	t := 0.0
	for range a.slots {
		t += rng.ExpFloat64() / a.rate
		r := rng.IntN(len(a.shares))
		q = append(q, scanJob{k: -1, share: a.shares[r], run: a.run(r, s), enter: t, priority: scanPlace(a, r, t)})
	}
	slices.SortStableFunc(q, func(x, y scanJob) int {
		return cmp.Or(cmp.Compare(y.priority, x.priority), cmp.Compare(arrival(x), arrival(y)))
	})
	return q
}

// scanPlace is the priority an arrival of record r at t is placed with:
// its own, or, when it drifts, the lowest of the records' priorities at
// least exact[r] − ⌊t⌋ (TestArrivalBlock works examples by hand).
func scanPlace(a *etaArrivals, r int, t float64) int64 {
	if a.drifts == nil || !a.drifts[r] {
		return a.priorities[r]
	}
	p := a.exact[r] - int64(math.Floor(t))
	best := a.priorities[r]
	for _, x := range a.priorities {
		if x >= p && x < best {
			best = x
		}
	}
	return best
}

// arrival is 1 for an arrival, 0 for a job.
func arrival(j scanJob) int {
	if j.k < 0 {
		return 1
	}
	return 0
}

// run fills starts[k][s] with job k's start in sample s (+Inf if it never
// starts).
func (sim *scanSimulation) run(running []etaJob, strict bool, s int, starts [][]float64) {
	free := sim.ends.reset(running, s)
	waiting := sim.queue(s)
	minShare := math.Inf(1)
	var entries []float64 // the times jobs enter the queue after now
	left := 0             // jobs (not arrivals) not started
	for _, j := range waiting {
		minShare = min(minShare, j.share)
		if j.enter > 0 {
			entries = append(entries, j.enter)
		}
		if j.k >= 0 {
			left++
		}
	}
	slices.Sort(entries)
	entries = slices.Compact(entries)
	entry := 0 // entries[entry] is the next time a job enters the queue
	// walk is when Kueue's walk began: the requeue batch after the last
	// instant quota freed.
	walk := 0.0
	for t := 0.0; ; {
		if free+fitSlack >= minShare {
			still := waiting[:0]
			blocked := false
			skipped := 0 // jobs ahead in the queue, entered and not started
			for _, j := range waiting {
				if blocked || j.enter > t || j.share > free+fitSlack {
					still = append(still, j)
					blocked = blocked || (strict && !j.ghost && j.enter <= t)
					if j.enter <= t {
						skipped++
					}
					continue
				}
				q := max(t, walk+sim.pace.skip*float64(skipped))
				if j.k >= 0 {
					starts[j.k][s] = q
					left--
				}
				// A job that takes no time holds nothing: every end is
				// later than its start, so each instant gets one pass in
				// queue order.
				late := j.expires && q > j.latest
				if !j.ghost && !late && j.run > 0 {
					free -= j.share
					sim.ends.push(end{at: q + j.run, share: j.share})
				}
			}
			waiting = still
		}
		if left == 0 {
			return
		}
		var more, freed bool
		if t, entry, free, freed, more = advance(&sim.ends, entries, entry, t, free, math.Inf(1)); !more {
			for _, j := range waiting {
				if j.k >= 0 {
					starts[j.k][s] = math.Inf(1)
				}
			}
			return
		}
		if freed {
			walk = t + sim.pace.requeue
		}
	}
}

// propSimulationMatchesScan checks the simulation's search against the
// walk over every waiting job, bit for bit, over several samples of
// random jobs: shares of a few sizes and odd fractions, priorities,
// ghosts, jobs past their latest start, jobs without a run time or of
// zero run time, later entries,
// both strategies, with and without arrivals (of priorities above, equal
// to and below the jobs').
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
		jobs[k] = etaJob{share: share("share"), ghost: rapid.IntRange(0, 4).Draw(t, "ghost") == 0, priority: int64(rapid.IntRange(0, 2).Draw(t, "priority"))}
		if rapid.IntRange(0, 2).Draw(t, "expires?") == 0 {
			jobs[k].expires, jobs[k].latest = true, float64(rapid.IntRange(-5, 150).Draw(t, "latest"))
		}
		if rapid.IntRange(0, 4).Draw(t, "run?") > 0 {
			jobs[k].run = runs("run")
		}
		if rapid.IntRange(0, 3).Draw(t, "later?") == 0 {
			jobs[k].notBefore = float64(rapid.IntRange(1, 200).Draw(t, "not before"))
		}
	}
	// The pass's jobs are in Kueue's order: higher priority first.
	slices.SortStableFunc(jobs, func(a, b etaJob) int { return cmp.Compare(b.priority, a.priority) })
	var arr *etaArrivals
	if rapid.Bool().Draw(t, "arrivals?") {
		arr = &etaArrivals{rate: float64(rapid.IntRange(1, 50).Draw(t, "rate per 100 s")) / 100, samples: samples,
			seed: rapid.Uint64().Draw(t, "seed"), slots: rapid.IntRange(1, 12).Draw(t, "slots")}
		drifting := rapid.Bool().Draw(t, "drifting?")
		for range rapid.IntRange(1, 4).Draw(t, "records") {
			arr.shares = append(arr.shares, share("a share"))
			p := int64(rapid.IntRange(-1, 3).Draw(t, "a priority"))
			arr.priorities = append(arr.priorities, p)
			arr.runs = append(arr.runs, runs("a run")...)
			if drifting {
				// Grouped: its exact priority now at most its run's.
				arr.exact = append(arr.exact, p-int64(rapid.IntRange(0, 2).Draw(t, "below its group")))
				arr.drifts = append(arr.drifts, rapid.Bool().Draw(t, "drifts"))
			}
		}
	}
	strict := rapid.Bool().Draw(t, "strict")
	var pace walkPace
	if rapid.Bool().Draw(t, "skips?") {
		// Whole and odd: each quota time a sum the two must do alike.
		pace.skip = float64(rapid.IntRange(0, 30).Draw(t, "skip tenths")) / 10
		pace.requeue = float64(rapid.IntRange(0, 20).Draw(t, "requeue tenths")) / 10
	}
	got, want := make([][]float64, len(jobs)), make([][]float64, len(jobs))
	for k := range jobs {
		got[k], want[k] = make([]float64, samples), make([]float64, samples)
	}
	sim, scan := newSimulation(jobs, arr, pace), newScanSimulation(jobs, arr, pace)
	for s := range samples {
		sim.run(running, jobs, arr, strict, s, got)
		scan.run(running, strict, s, want)
	}
	for k := range jobs {
		for s := range samples {
			if math.Float64bits(got[k][s]) != math.Float64bits(want[k][s]) {
				t.Fatalf("strict %v, pace %+v, sample %d: job %d starts at %v, the walk over every job says %v", strict, pace, s, k, got[k][s], want[k][s])
			}
		}
	}
}

func TestPropSimulationMatchesScan(t *testing.T) { rapid.Check(t, propSimulationMatchesScan) }
