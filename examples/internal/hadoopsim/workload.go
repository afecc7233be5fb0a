package hadoopsim

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/tct"
)

// A JobType is one of the case study's six Hadoop benchmarks. TCT and
// ReadRate are the simulated world; Model and Read90 are the scheduler's
// estimates of them (WithEstimates), the only numbers the pickers of package
// edf and the admission control of package admission see.
type JobType struct {
	Name string
	// TCT is the world's mean task completion time in seconds on a slot with
	// residual capacity r (MIMP Eq. 1). A task's duration is TCT(r) times
	// its factor from JobSpec.Noise, times the data-node overload factor.
	TCT tct.Exp2
	// ReadRate is the world's HDFS read rate (MB/s) of a task of mean length
	// on a dedicated slot. Every task of the type reads ReadRate·TCT(1) MB,
	// spread evenly over its run, whatever its slot, noise or slowdown: a
	// slower task reads at a lower rate (MIMP Eq. 5's scaling), never more
	// bytes. 0 for a job that reads nothing (Pi).
	ReadRate float64
	// Model is the scheduler's TCT model (MIMP Eq. 1) for the pickers' Eq. 2,
	// Eq. 3 and Eq. 5 and admission's Eq. 6.
	Model tct.Exp2
	// Read90 is the scheduler's 90th-percentile read rate of one task on a
	// dedicated slot, MB/s (MIMP Eq. 5).
	Read90 float64
	Maps   int // map tasks per job
	// Period is the mean inter-arrival time (s) of the type's Poisson
	// arrivals, and also its relative deadline (MIMP §6.6).
	Period      float64
	HasDeadline bool
}

// shaped returns an exp2 model with TCT(1) = base whose normalised TCT
// rises as 1 + s·(e^(−k·r) − e^(−k)) when the residual capacity r falls:
// A = base·s, B = −k, C = base·(1 − s·e^(−k)), D = 0.
func shaped(base, k, s float64) tct.Exp2 {
	return tct.Exp2{A: base * s, B: -k, C: base * (1 - s*math.Exp(-k)), D: 0}
}

// PaperOccupancy is the slot occupancy of MIMP Table 3's EDF run: 72.61 h of
// task time in a 2.5 h trace on 40 slots, 72.61 / (2.5 · 40) ≈ 0.726.
const PaperOccupancy = 72.61 / (2.5 * 40)

// CaseStudyTypes are the six job types, shaped like MIMP Fig. 6: Pi and
// grep-search slow down steeply as web load rises (NormTCT ≈ 4.0 and 3.6 at
// r = 0.2), Sort barely (≈ 1.27), the others in between. The paper prints no
// model coefficients, task times, read rates, periods or per-type share of
// the load; ours are: task times 20–40 s on a dedicated slot, periods
// (= relative deadlines) 200–600 s giving ≈ 175 jobs in 2.5 h (the paper:
// 174), and map counts derived — not tuned — so that each type asks for one
// sixth of the paper's slot occupancy on cluster c: Maps_k =
// round(PaperOccupancy · slots · Period_k / (6 · T̄_k)), T̄_k the type's TCT
// averaged over c's slots at mid-band load. MIMP §6.1 does give the
// benchmarks' input sizes (WordCount 15 GB, Sort 18 GB, Grep 6 GB, TeraSort
// 1 GB, KMeans 6 GB, Pi 10^6 points); they are not used: with equal shares
// of the occupancy they would imply task times from ≈ 10 s (Sort, 144
// splits of 128 MiB) to ≈ 220 s (TeraSort, 8 splits), and the paper gives
// the shares no more than the task times. Read rates (0–15 MB/s on a
// dedicated slot) are ours too. The scheduler's estimates (Model, Read90)
// are set from these by WithEstimates with prediction error e.
func CaseStudyTypes(c Cluster, e PredictionError) []JobType {
	types := []JobType{
		{Name: "Pi", TCT: shaped(25, 4, 6.96), ReadRate: 0, Period: 200, HasDeadline: true},
		{Name: "Sort", TCT: shaped(30, 2, 0.5), ReadRate: 12, Period: 300, HasDeadline: true},
		{Name: "TeraSort", TCT: shaped(30, 2.5, 2), ReadRate: 12, Period: 360, HasDeadline: true},
		{Name: "WordCount", TCT: shaped(35, 3, 3), ReadRate: 6, Period: 300, HasDeadline: true},
		{Name: "GrepSearch", TCT: shaped(20, 4, 6), ReadRate: 15, Period: 300, HasDeadline: true},
		{Name: "KMeans", TCT: shaped(40, 3, 2), ReadRate: 6, Period: 600, HasDeadline: false},
	}
	for i := range types {
		jt := &types[i]
		jt.Maps = max(1, int(math.Round(PaperOccupancy*float64(c.Slots())*jt.Period/(float64(len(types))*meanTCT(c, *jt)))))
	}
	return WithEstimates(types, e)
}

// A JobSpec is one job of a trace.
type JobSpec struct {
	ID       int
	Type     int     // index into the scenario's types
	Arrival  float64 // s
	Deadline float64 // absolute s, or +Inf
	Maps     int
	// Noise[k] is the duration factor ε of the job's k-th started task: it
	// runs ε times its type's mean TCT (drawn once per trace so every policy
	// sees the same tasks; PredictionError.Factor).
	Noise []float64
}

// checkTraceInput validates what every trace generator needs: a seeded rng,
// at least one type, types with a positive finite Period and 0..MaxJobMaps
// maps, and a valid prediction error.
func checkTraceInput(types []JobType, e PredictionError, rng *rand.Rand) error {
	if rng == nil {
		return fmt.Errorf("hadoopsim: rng is nil: pass a seeded *rand.Rand")
	}
	if len(types) == 0 {
		return fmt.Errorf("hadoopsim: types is empty: a trace needs at least one job type")
	}
	for i, jt := range types {
		if !(jt.Period > 0 && jt.Period <= MaxTime) {
			return fmt.Errorf("hadoopsim: types[%d].Period = %v: want in (0, %g] s", i, jt.Period, MaxTime)
		}
		if jt.Maps < 0 || jt.Maps > MaxJobMaps {
			return fmt.Errorf("hadoopsim: types[%d].Maps = %d: want in [0, %d]", i, jt.Maps, MaxJobMaps)
		}
	}
	return e.Validate()
}

// drawNoise returns n task factors drawn from e.
func drawNoise(n int, e PredictionError, rng *rand.Rand) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = e.Factor(rng)
	}
	return out
}

// PoissonTrace draws Poisson arrivals for each type over [0, duration) with
// the type's Period divided by load (load = 1 is the case study), deadlines
// arrival + Period (the type's unscaled period) for types with a deadline,
// and one duration factor per task from e. Jobs are numbered in arrival
// order (ties by type). A type whose scaled period Period/load is not finite
// and > 0 (load ≤ 0 or NaN) draws no job, and drawing stops at MaxJobs jobs.
// Errors: a nil rng, no types, a type's Period outside (0, MaxTime] or Maps
// outside [0, MaxJobMaps], an invalid e; each names the input.
func PoissonTrace(types []JobType, duration, load float64, e PredictionError, rng *rand.Rand) ([]JobSpec, error) {
	if err := checkTraceInput(types, e, rng); err != nil {
		return nil, err
	}
	var jobs []JobSpec
	for ti, jt := range types {
		mean := jt.Period / load
		if !(mean > 0 && finite(mean)) {
			continue
		}
		for t := rng.ExpFloat64() * mean; t < duration && len(jobs) < MaxJobs; t += rng.ExpFloat64() * mean {
			jobs = append(jobs, JobSpec{Type: ti, Arrival: t, Maps: jt.Maps})
		}
	}
	return finishTrace(jobs, types, e, rng), nil
}

// ConditionedTrace draws exactly n jobs over [0, duration): a Poisson
// arrival process per type conditioned on n arrivals in total, i.e. each
// job's type drawn with probability proportional to the type's rate
// 1/Period and its arrival time uniform on [0, duration). Deadlines, task
// factors and errors as PoissonTrace. The case study uses n = 174 (MIMP
// §6.6). n is clamped to [0, MaxJobs].
func ConditionedTrace(types []JobType, duration float64, n int, e PredictionError, rng *rand.Rand) ([]JobSpec, error) {
	if err := checkTraceInput(types, e, rng); err != nil {
		return nil, err
	}
	jobs := make([]JobSpec, min(max(n, 0), MaxJobs))
	for i := range jobs {
		ti := drawType(types, rng)
		jobs[i] = JobSpec{Type: ti, Arrival: rng.Float64() * duration, Maps: types[ti].Maps}
	}
	return finishTrace(jobs, types, e, rng), nil
}

// drawType draws a type index with probability proportional to the type's
// arrival rate 1/Period, consuming one number from rng.
func drawType(types []JobType, rng *rand.Rand) int {
	total := 0.0
	for _, jt := range types {
		total += 1 / jt.Period
	}
	u := rng.Float64() * total
	ti := 0
	for ti < len(types)-1 && u >= 1/types[ti].Period {
		u -= 1 / types[ti].Period
		ti++
	}
	return ti
}

// finishTrace sorts jobs by arrival, numbers them, sets deadlines and task
// factors.
func finishTrace(jobs []JobSpec, types []JobType, e PredictionError, rng *rand.Rand) []JobSpec {
	sortJobs(jobs)
	for i := range jobs {
		j := &jobs[i]
		j.ID = i
		j.Deadline = math.Inf(1)
		if jt := types[j.Type]; jt.HasDeadline {
			j.Deadline = j.Arrival + jt.Period
		}
		j.Noise = drawNoise(j.Maps, e, rng)
	}
	return jobs
}

// SplitBytes is the HDFS split size used to turn SWIM input bytes into map
// tasks: 128 MiB.
const SplitBytes = 128 << 20

// MaxJobMaps bounds one job's map count (2^24); SWIMTrace rejects bigger
// jobs unless they are capped, and Validate rejects them.
const MaxJobMaps = 1 << 24

// SWIMTrace reads a SWIM workload (tab-separated: id, submit s, gap s, map
// input bytes, shuffle bytes, output bytes) and keeps jobs submitted before
// window seconds (0 = all). Each job gets maps = ⌈input / 128 MiB⌉ (at least
// 1; capped at maxMaps when maxMaps > 0) and a job type drawn from rng with
// probability proportional to the type's arrival rate 1/Period — the same mix
// as the Poisson scenario; the rng is the caller's seeded source, consumed
// once per kept job in file order. Deadlines and task factors as
// PoissonTrace. Errors: those of PoissonTrace, window NaN, infinite or
// negative, and a malformed line (its number named).
func SWIMTrace(r io.Reader, types []JobType, window float64, maxMaps int, e PredictionError, rng *rand.Rand) ([]JobSpec, error) {
	if err := checkTraceInput(types, e, rng); err != nil {
		return nil, err
	}
	if !(window >= 0 && window <= math.MaxFloat64) {
		return nil, fmt.Errorf("hadoopsim: SWIM window = %v: want finite and >= 0 (0 keeps every job)", window)
	}
	var jobs []JobSpec
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		if len(f) == 1 && f[0] == "" {
			continue
		}
		if len(f) < 4 {
			return nil, fmt.Errorf("swim line %d: %d fields, want at least 4", line, len(f))
		}
		at, err := strconv.ParseFloat(f[1], 64)
		if err != nil || !(at >= 0 && at <= MaxTime) {
			return nil, fmt.Errorf("swim line %d: bad submit time %q: want a number in [0, %g] s", line, f[1], MaxTime)
		}
		in, err := strconv.ParseFloat(f[3], 64)
		if err != nil || !(in >= 0) || math.IsInf(in, 0) {
			return nil, fmt.Errorf("swim line %d: bad input bytes %q", line, f[3])
		}
		if window > 0 && at >= window {
			continue
		}
		if len(jobs) == MaxJobs {
			return nil, fmt.Errorf("swim line %d: more than %d jobs in the window", line, MaxJobs)
		}
		mf := math.Max(1, math.Ceil(in/SplitBytes))
		if maxMaps > 0 && mf > float64(maxMaps) {
			mf = float64(maxMaps)
		}
		if mf > MaxJobMaps {
			return nil, fmt.Errorf("swim line %d: %g map tasks, more than %d (use a cap)", line, mf, MaxJobMaps)
		}
		jobs = append(jobs, JobSpec{Type: drawType(types, rng), Arrival: at, Maps: int(mf)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("swim: no job in the window")
	}
	// Start the clock at the first kept submission.
	t0 := math.Inf(1)
	for _, j := range jobs {
		t0 = math.Min(t0, j.Arrival)
	}
	for i := range jobs {
		jobs[i].Arrival -= t0
	}
	return finishTrace(jobs, types, e, rng), nil
}

// sortJobs orders jobs by arrival, then type (stable).
func sortJobs(jobs []JobSpec) {
	slices.SortStableFunc(jobs, func(a, b JobSpec) int {
		return cmp.Or(cmp.Compare(a.Arrival, b.Arrival), cmp.Compare(a.Type, b.Type))
	})
}
