package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A jobClass is one cell of GP Table III: count jobs of maps map tasks
// whose tasks take taskTime seconds on average.
type jobClass struct {
	count, maps int
	taskTime    float64
}

// tableIII is GP Table III, the 130-job workload, row by row. The one
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
	countedJobs  = 130 // application instances in the metrics (GP §VI-D)
	tailJobs     = 25  // instances submitted after them at the idle rate, not counted
	prodFraction = 0.3 // production jobs
	jitter       = 0.25
	idleGap      = 80.0 // s, the idle rate, also of the tail
	joinStages   = 3    // a Join instance spawns three consecutive jobs (GP §VI-B)
)

// Workload is one of GP §VI-B's two workloads.
type Workload int

const (
	// IO is the I/O-intensive workload: the 130 jobs of Table III.
	IO Workload = iota
	// Mixed is the mixed workload: Table III's 130 application instances
	// labelled I/O-bound Grep, CPU-bound Grep, Aggregate and Join to §VI-B's
	// counts and map totals (see mixedInstances), a Join instance being
	// three consecutive jobs: 160 jobs.
	Mixed
)

// String returns "io" or "mixed", the flag and -json names.
func (w Workload) String() string { return enumname.Of(w, "Workload", workloadNames[:]) }

var workloadNames = [...]string{IO: "io", Mixed: "mixed"}

// Scenario is one experiment of GP §VI-D.
type Scenario struct {
	Workload Workload
	Period   string  // "busy" or "idle"
	MeanGap  float64 // mean inter-arrival time of the 130 instances: 30 s busy, 80 s idle
	LongPos  int     // 1-based arrival position of the long job: 1, 66 or 92
	Seed     uint64
	// TaskScale multiplies the mean task time of every mixed-workload job
	// but the long job (the paper gives no task times for the mixed
	// workload; 1 keeps Table III's). Zero means 1. Mixed only.
	TaskScale float64
	// JoinStageScale is the mean task time of a Join instance's second and
	// third jobs relative to its first (the paper gives none). Zero means 1.
	// Mixed only.
	JoinStageScale float64
}

// A sizedJob is an application instance before arrival times: its map count
// and tasks' mean.
type sizedJob struct {
	maps     int
	taskTime float64
	long     bool
	app      string // mixed workload: the application; "" otherwise
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

// Build turns a scenario into the submitted jobs: the 129 ordinary instances
// in a seeded random order with the long job inserted at LongPos, 25 more
// instances drawn from the ordinary ones at the idle rate (80 s) and left
// out of the metrics, exponential inter-arrival times, 30% production
// instances drawn at random among the ordinary ones (the long job is
// non-production, so that a large production job's arrival preempts it, the
// case GP §IV describes), and each task's service time uniform within ±25%
// of its mean. ordinary is nil for Table III (and must be for Mixed), or the
// jobs read from a trace.
func (sc Scenario) Build(ordinary []sizedJob) ([]JobSpec, error) {
	var long sizedJob
	switch sc.Workload {
	case IO:
		var table []sizedJob
		table, long = tableIIIJobs()
		if ordinary == nil {
			ordinary = table
		}
	case Mixed:
		if ordinary != nil {
			return nil, fmt.Errorf("the mixed workload is built from Table III, not from a trace")
		}
		var err error
		if ordinary, long, err = mixedInstances(sc.Seed); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("workload %d unknown", sc.Workload)
	}
	taskScale, joinScale := sc.TaskScale, sc.JoinStageScale
	if taskScale == 0 {
		taskScale = 1
	}
	if joinScale == 0 {
		joinScale = 1
	}
	switch {
	case sc.LongPos < 1 || sc.LongPos > countedJobs:
		return nil, fmt.Errorf("long job position %d outside 1…%d", sc.LongPos, countedJobs)
	case len(ordinary) < countedJobs-1:
		return nil, fmt.Errorf("need %d ordinary jobs, have %d", countedJobs-1, len(ordinary))
	case !(sc.MeanGap > 0) || math.IsInf(sc.MeanGap, 1):
		return nil, fmt.Errorf("mean inter-arrival %v must be finite and > 0", sc.MeanGap)
	case !(taskScale > 0 && taskScale <= 100) || !(joinScale > 0 && joinScale <= 100):
		return nil, fmt.Errorf("task scale %v and Join stage scale %v must be in (0, 100]", sc.TaskScale, sc.JoinStageScale)
	case sc.Workload == IO && (taskScale != 1 || joinScale != 1):
		return nil, fmt.Errorf("task scales apply to the mixed workload only")
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
	draw := func(sj sizedJob, mean float64) []float64 {
		if sj.durations != nil {
			return sj.durations
		}
		d := make([]float64, sj.maps)
		for k := range d {
			d[k] = mean * (1 - jitter + 2*jitter*rng.Float64())
		}
		return d
	}
	jobs := make([]JobSpec, 0, len(order)+(joinStages-1)*len(order))
	t := 0.0
	for i, sj := range order {
		gap := sc.MeanGap
		if i >= countedJobs {
			gap = idleGap
		}
		if fromTrace {
			t += sj.gap * gap
		} else {
			t += rng.ExpFloat64() * gap
		}
		mean := sj.taskTime
		if sc.Workload == Mixed && !sj.long {
			mean *= taskScale
		}
		jobs = append(jobs, JobSpec{Arrival: t, Durations: draw(sj, mean), Prod: prod[i], Long: sj.long, Counted: i < countedJobs, After: -1, App: sj.app})
		if sj.app != appJoin {
			continue
		}
		for range joinStages - 1 {
			prev := len(jobs) - 1
			jobs = append(jobs, JobSpec{Durations: draw(sj, mean*joinScale), Prod: prod[i], Counted: i < countedJobs, After: prev, App: sj.app})
		}
	}
	return jobs, nil
}
