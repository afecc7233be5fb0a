package main

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
	"github.com/schedkit/schedkit/tct"
)

// A jobType is what the scheduler knows of a class of jobs (its model and
// read rate) and what the simulated world does with it.
type jobType struct {
	Name   string
	Model  tct.Exp2 // the scheduler's TCT(r) (MIMP Eq. 1)
	World  tct.Exp2 // the world's mean task time TCT(r)
	Read90 float64  // MB/s, MIMP Eq. 5 (0: reads nothing)
}

// A unit is one job of the replay: what arrives, is admitted, queued and
// served task by task.
type unit struct {
	Arrival  float64 // s from the start of the replay
	Deadline float64 // absolute s, or +Inf
	Tasks    int
	Type     int
	// Scale[k] times World.TCT(r) is the run time of the job's k-th started
	// task on a slot with residual capacity r.
	Scale []float64
}

// A workload is a trace turned into units.
type workload struct {
	Name   string
	Source string // the trace file
	Types  []jobType
	Units  []unit // by arrival
	Note   string // how the trace was mapped
}

// swimWorkload reads a SWIM day with hadoopsim.SWIMTrace: maps =
// ⌈input / 128 MiB⌉ capped at maxMaps, a MIMP case-study job type drawn per
// job (seeded), deadline = arrival + the type's period, per-task time
// factors as MIMP §6.3.1's errors. window > 0 keeps the jobs submitted in
// its first window seconds.
func swimWorkload(path string, maxMaps int, window float64, seed uint64) (*workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cl := hadoopsim.CaseStudyCluster()
	ht := hadoopsim.CaseStudyTypes(cl, hadoopsim.PaperError)
	jobs, err := hadoopsim.SWIMTrace(f, ht, window, maxMaps, hadoopsim.PaperError, rand.New(rand.NewPCG(seed, 0x5717)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w := &workload{Name: "swim", Source: path,
		Note: fmt.Sprintf("maps = ⌈map input / 128 MiB⌉, at most %d; job types, deadlines and task-time errors of the MIMP case study (examples/internal/hadoopsim)", maxMaps)}
	for _, t := range ht {
		w.Types = append(w.Types, jobType{Name: t.Name, Model: t.Model, World: t.TCT, Read90: t.Read90})
	}
	w.Units = make([]unit, len(jobs))
	for i, j := range jobs {
		w.Units[i] = unit{Arrival: j.Arrival, Deadline: j.Deadline, Tasks: j.Maps, Type: j.Type, Scale: j.Noise}
	}
	return w, nil
}

// Google clusterdata-2011 task_events columns and event types (format v2.1,
// ../shared/traces/README.md §3).
const (
	gTime      = 0
	gJob       = 2
	gTaskIndex = 3
	gEventType = 5
	gPriority  = 8
	gColumns   = 13
	gSubmit    = 0
	gSchedule  = 1
	gFinish    = 4
)

// googleBands are the priority bands of the Borg trace: free (0–1), batch
// (2–8) and production (9–11).
var googleBands = []struct {
	name   string
	lo, hi int
}{{"free", 0, 1}, {"batch", 2, 8}, {"production", 9, 11}}

// googleWorkload reads a Google task_events shard. Borg places tasks one
// by one, as kube-scheduler places pods, so each task is a unit of one task:
// it arrives at its first SUBMIT (time 0 for the tasks already present when
// the trace starts) and runs, on a dedicated slot, for its SCHEDULE → FINISH
// time when the trace has one inside the window, else for its priority
// band's median of those. Its job type is its band: the scheduler's model
// predicts the band's median on a dedicated slot, slowing on a shared slot
// as TeraSort does in the MIMP case study. Production tasks get a deadline
// of arrival + 3 × the band's median; the others none. window > 0 keeps the
// tasks submitted in its first window seconds.
func googleWorkload(path string, window float64) (*workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	cr := csv.NewReader(zr)
	cr.FieldsPerRecord = gColumns
	cr.ReuseRecord = true
	type key struct{ job, index int64 }
	type task struct {
		submit, sched, dur float64
		band               int
	}
	byKey := map[key]int{}
	var tasks []task
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		us, err1 := strconv.ParseInt(rec[gTime], 10, 64)
		job, err2 := strconv.ParseInt(rec[gJob], 10, 64)
		idx, err3 := strconv.ParseInt(rec[gTaskIndex], 10, 64)
		ev, err4 := strconv.Atoi(rec[gEventType])
		if err := errors.Join(err1, err2, err3, err4); err != nil || us < 0 {
			return nil, fmt.Errorf("%s line %d: bad time, job, task index or event type (%q %q %q %q)", path, line, rec[gTime], rec[gJob], rec[gTaskIndex], rec[gEventType])
		}
		t := float64(us) / 1e6
		k := key{job, idx}
		i, seen := byKey[k]
		switch ev {
		case gSubmit:
			if seen || window > 0 && t >= window {
				continue // a resubmission after an eviction or failure: one unit per task
			}
			prio, err := strconv.Atoi(rec[gPriority])
			if err != nil || prio < 0 || prio > 11 {
				return nil, fmt.Errorf("%s line %d: bad priority %q", path, line, rec[gPriority])
			}
			band := 0
			for b, r := range googleBands {
				if prio >= r.lo && prio <= r.hi {
					band = b
				}
			}
			byKey[k] = len(tasks)
			tasks = append(tasks, task{submit: t, band: band, sched: -1})
		case gSchedule:
			if seen && t > 0 {
				tasks[i].sched = t
			}
		case gFinish:
			if seen && tasks[i].sched > 0 && t > tasks[i].sched && tasks[i].dur == 0 {
				tasks[i].dur = t - tasks[i].sched
			}
		}
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("%s: no task submitted in the window", path)
	}
	// The band medians of the known run times; 367 s (the shard's median)
	// for a band with none.
	median := make([]float64, len(googleBands))
	for b := range googleBands {
		var d []float64
		for _, t := range tasks {
			if t.band == b && t.dur > 0 {
				d = append(d, t.dur)
			}
		}
		median[b] = 367
		if len(d) > 0 {
			slices.Sort(d)
			median[b] = d[len(d)/2]
		}
	}
	w := &workload{Name: "google", Source: path,
		Note: "one unit per task (its first SUBMIT), run time SCHEDULE → FINISH in the window or its priority band's median, band = job type, production tasks' deadline arrival + 3 × band median"}
	for b, r := range googleBands {
		m := shapedAt(median[b])
		w.Types = append(w.Types, jobType{Name: fmt.Sprintf("%s (priority %d–%d, median %.0f s)", r.name, r.lo, r.hi, median[b]), Model: m, World: m})
	}
	slices.SortStableFunc(tasks, func(a, b task) int { return cmpFloat(a.submit, b.submit) })
	w.Units = make([]unit, len(tasks))
	for i, t := range tasks {
		u := unit{Arrival: t.submit, Deadline: math.Inf(1), Tasks: 1, Type: t.band, Scale: []float64{1}}
		if t.dur > 0 {
			u.Scale[0] = t.dur / median[t.band]
		}
		if googleBands[t.band].name == "production" {
			u.Deadline = t.submit + 3*median[t.band]
		}
		w.Units[i] = u
	}
	return w, nil
}

// shapedAt is an exp2 model taking d seconds on a dedicated slot and
// slowing as the MIMP case study's TeraSort does (NormTCT 2.1 at r = 0.2):
// TCT(r) = d·(2·e^(−2.5r) + 1 − 2·e^(−2.5)).
func shapedAt(d float64) tct.Exp2 {
	return tct.Exp2{A: 2 * d, B: -2.5, C: d * (1 - 2*math.Exp(-2.5)), D: 0}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The traces this example replays, under ../shared/traces beside the
// repository.
const (
	swimFile   = "swim-facebook/FB-2010_samples_24_times_1hr_0.tsv"
	googleFile = "google-clusterdata-2011/task_events-part-00000-of-00500.csv.gz"
)
