package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// A jobClass is one cell of 003 Table III: count jobs of maps map tasks
// whose tasks take taskTime seconds on average.
type jobClass struct {
	count, maps int
	taskTime    float64
}

// tableIII is 003 Table III, the 130-job workload, row by row. The one
// 250-map job of 2,500 s tasks is the heavy-tailed long job.
var tableIII = []jobClass{
	{16, 1, 100}, {16, 1, 160}, {11, 1, 300}, {6, 1, 600},
	{7, 2, 100}, {7, 2, 160}, {4, 2, 300}, {3, 2, 600},
	{7, 10, 100}, {6, 10, 160}, {3, 10, 300}, {2, 10, 600},
	{4, 50, 100}, {4, 50, 160}, {2, 50, 300}, {1, 50, 600},
	{4, 100, 100}, {3, 100, 160}, {1, 100, 300},
	{3, 250, 30}, {2, 250, 60}, {2, 250, 100}, {1, 250, 2500},
	{2, 400, 30}, {2, 400, 60}, {1, 400, 100},
	{1, 800, 12}, {2, 800, 30}, {2, 800, 60},
	{1, 1500, 8}, {1, 1500, 12},
	{1, 3000, 20},
	{1, 5000, 6},
	{1, 8000, 5},
}

const (
	longMaps     = 250
	longTaskTime = 2500.0
	countedJobs  = 130 // jobs in the metrics
	tailJobs     = 25  // jobs submitted after them at the idle rate, not counted
	prodFraction = 0.3 // production jobs
	jitter       = 0.25
)

// Scenario is one experiment of 003 §VI-D.
type Scenario struct {
	Period  string  // "busy" or "idle"
	MeanGap float64 // mean inter-arrival time of the 130 jobs: 30 s busy, 80 s idle
	LongPos int     // 1-based arrival position of the long job: 1, 66 or 92
	Seed    uint64
}

// A sizedJob is a job before arrival times: its map count and tasks' mean.
type sizedJob struct {
	maps     int
	taskTime float64
	long     bool
	// durations, when a trace gives them; nil draws them around taskTime.
	durations []float64
	// gap, when a trace gives it, is the gap since the previous trace job
	// divided by the trace's mean gap; it is scaled by the scenario's mean.
	gap float64
}

// tableIIIJobs lists the 129 ordinary jobs of Table III and the long job.
func tableIIIJobs() (ordinary []sizedJob, long sizedJob) {
	for _, c := range tableIII {
		for range c.count {
			if c.maps == longMaps && c.taskTime == longTaskTime {
				long = sizedJob{maps: c.maps, taskTime: c.taskTime, long: true}
				continue
			}
			ordinary = append(ordinary, sizedJob{maps: c.maps, taskTime: c.taskTime})
		}
	}
	return ordinary, long
}

// Build turns a scenario into the submitted jobs: the ordinary jobs in a
// seeded random order with the long job inserted at LongPos, 25 more jobs
// drawn from the ordinary ones at the idle rate (80 s) and left out of the
// metrics, exponential inter-arrival times, 30% production jobs drawn at
// random among the ordinary ones (the long job is non-production, so that a
// large production job's arrival preempts it, the case §IV describes), and
// each task's service time uniform within ±25% of its class mean. ordinary
// is nil for Table III, or the jobs read from a trace.
func (sc Scenario) Build(ordinary []sizedJob) ([]JobSpec, error) {
	if ordinary == nil {
		ordinary, _ = tableIIIJobs()
	}
	_, long := tableIIIJobs()
	if sc.LongPos < 1 || sc.LongPos > countedJobs {
		return nil, fmt.Errorf("long job position %d outside 1…%d", sc.LongPos, countedJobs)
	}
	if len(ordinary) < countedJobs-1 {
		return nil, fmt.Errorf("need %d ordinary jobs, have %d", countedJobs-1, len(ordinary))
	}
	if !(sc.MeanGap > 0) {
		return nil, fmt.Errorf("mean inter-arrival %v must be > 0", sc.MeanGap)
	}
	rng := rand.New(rand.NewPCG(sc.Seed, uint64(sc.LongPos)))
	pool := ordinary[:countedJobs-1]
	fromTrace := pool[0].gap > 0
	var order []sizedJob
	if fromTrace { // a trace keeps its own order and gaps
		order = append(order, pool...)
	} else {
		for _, p := range rng.Perm(len(pool)) {
			order = append(order, pool[p])
		}
	}
	long.gap = 1
	order = append(order[:sc.LongPos-1], append([]sizedJob{long}, order[sc.LongPos-1:]...)...)
	if tail := ordinary[countedJobs-1:]; len(tail) >= tailJobs {
		order = append(order, tail[:tailJobs]...)
	} else {
		for range tailJobs {
			order = append(order, pool[rng.IntN(len(pool))])
		}
	}
	prod := make([]bool, len(order))
	nProd := int(math.Round(prodFraction * countedJobs)) // 39 of 130
	for _, p := range rng.Perm(countedJobs - 1)[:nProd] {
		if p >= sc.LongPos-1 { // skip the long job's position
			p++
		}
		prod[p] = true
	}
	for i := countedJobs; i < len(order); i++ {
		prod[i] = rng.Float64() < prodFraction
	}
	jobs := make([]JobSpec, len(order))
	t := 0.0
	for i, sj := range order {
		gap := sc.MeanGap
		if i >= countedJobs {
			gap = 80
		}
		if fromTrace {
			t += sj.gap * gap
		} else {
			t += rng.ExpFloat64() * gap
		}
		d := sj.durations
		if d == nil {
			d = make([]float64, sj.maps)
			for k := range d {
				d[k] = sj.taskTime * (1 - jitter + 2*jitter*rng.Float64())
			}
		}
		jobs[i] = JobSpec{Arrival: t, Durations: d, Prod: prod[i], Long: sj.long, Counted: i < countedJobs}
	}
	return jobs, nil
}
