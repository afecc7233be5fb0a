package main

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ReadTrace reads the ordinary jobs from a real trace instead of Table III.
// The first 154 jobs of the trace (129 counted and 25 tail jobs) are used in
// trace order; the long job is still inserted at its position.
//
// Mapping, SWIM Facebook (.tsv: job, submit s, gap s, map input bytes, …):
// maps = ⌈input / 128 MiB⌉ clamped to [1, 8000] (Table III's largest job);
// the trace has no durations, so each job takes the task-time mix of the
// Table III row with the nearest map count (a seeded draw per task, ±25%).
//
// Mapping, Google clusterdata-2011 (task_events .csv.gz): jobs whose first
// SUBMIT is inside the window (time > 0), in submit order; maps = number of
// distinct task indices submitted, clamped to [1, 8000]; each task's service
// time is its SCHEDULE → FINISH time inside the window, else the job's mean
// of those, else the shard's median 367 s.
//
// In both, arrivals keep the trace's gaps divided by their mean, scaled to
// the scenario's mean gap (30 s busy, 80 s idle), so periods stay comparable
// with Table III.
func ReadTrace(path string) ([]sizedJob, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var jobs []sizedJob
	var gaps []float64
	switch {
	case strings.HasSuffix(path, ".tsv"):
		jobs, gaps, err = readSWIM(f)
	case strings.HasSuffix(path, ".csv.gz"):
		jobs, gaps, err = readGoogle(f)
	default:
		return nil, fmt.Errorf("%s: want a SWIM .tsv or a Google task_events .csv.gz", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	need := countedJobs - 1 + tailJobs
	if len(jobs) < need {
		return nil, fmt.Errorf("%s: %d jobs, need %d", path, len(jobs), need)
	}
	jobs, gaps = jobs[:need], gaps[:need]
	mean := 0.0
	for _, g := range gaps {
		mean += g / float64(need)
	}
	for i := range jobs {
		jobs[i].gap = 1
		if mean > 0 {
			jobs[i].gap = math.Max(gaps[i]/mean, 1e-9)
		}
	}
	return jobs, nil
}

const splitBytes = 128 << 20

func clampMaps(n float64) int { return int(math.Min(math.Max(n, 1), 8000)) }

// rowFor is the Table III row nearest in map count; its classes' task times
// and counts.
func rowFor(maps int) (times []float64, weights []int) {
	best := -1
	for _, c := range tableIII {
		if best < 0 || math.Abs(math.Log(float64(c.maps))-math.Log(float64(maps))) < math.Abs(math.Log(float64(best))-math.Log(float64(maps))) {
			best = c.maps
		}
	}
	for _, c := range tableIII {
		if c.maps == best && c.taskTime != longTaskTime {
			times = append(times, c.taskTime)
			weights = append(weights, c.count)
		}
	}
	return times, weights
}

func readSWIM(r io.Reader) ([]sizedJob, []float64, error) {
	cr := csv.NewReader(r)
	cr.Comma, cr.FieldsPerRecord = '\t', -1
	var jobs []sizedJob
	var gaps []float64
	prev := 0.0
	for i := 0; ; i++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(rec) < 4 {
			return nil, nil, fmt.Errorf("line %d: %d fields", i+1, len(rec))
		}
		submit, err1 := strconv.ParseFloat(rec[1], 64)
		input, err2 := strconv.ParseFloat(rec[3], 64)
		if err1 != nil || err2 != nil || !(submit >= prev) || !(input >= 0) {
			return nil, nil, fmt.Errorf("line %d: bad submit %q or input %q", i+1, rec[1], rec[3])
		}
		maps := clampMaps(math.Ceil(input / splitBytes))
		times, weights := rowFor(maps)
		// The class is drawn deterministically from the job's index.
		total := 0
		for _, w := range weights {
			total += w
		}
		pick, acc := i%total, 0
		tt := times[len(times)-1]
		for k, w := range weights {
			acc += w
			if pick < acc {
				tt = times[k]
				break
			}
		}
		jobs = append(jobs, sizedJob{maps: maps, taskTime: tt})
		gaps = append(gaps, submit-prev)
		prev = submit
	}
	return jobs, gaps, nil
}

func readGoogle(r io.Reader) ([]sizedJob, []float64, error) {
	zr, err := gzip.NewReader(r)
	if err == io.EOF {
		return nil, nil, fmt.Errorf("empty file (want a gzip-compressed Google task_events CSV)")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("not a gzip-compressed Google task_events CSV: %w", err)
	}
	type gjob struct {
		submit float64
		tasks  map[int]float64 // task index → duration (0 unknown)
		sched  map[int]float64
	}
	byID := map[int64]*gjob{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), ",")
		if len(f) < 6 {
			continue
		}
		t, e1 := strconv.ParseFloat(f[0], 64)
		id, e2 := strconv.ParseInt(f[2], 10, 64)
		idx, e3 := strconv.Atoi(f[3])
		ev, e4 := strconv.Atoi(f[5])
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil || t <= 0 {
			continue
		}
		t /= 1e6 // µs → s
		j := byID[id]
		switch ev {
		case 0: // SUBMIT
			if j == nil {
				j = &gjob{submit: t, tasks: map[int]float64{}, sched: map[int]float64{}}
				byID[id] = j
			}
			if _, ok := j.tasks[idx]; !ok {
				j.tasks[idx] = 0
			}
		case 1: // SCHEDULE
			if j != nil {
				j.sched[idx] = t
			}
		case 4: // FINISH
			if j != nil {
				if s, ok := j.sched[idx]; ok && t > s {
					j.tasks[idx] = t - s
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	ids := make([]int64, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int {
		if c := byID[a].submit - byID[b].submit; c != 0 {
			if c < 0 {
				return -1
			}
			return 1
		}
		if a < b {
			return -1
		}
		return 1
	})
	var jobs []sizedJob
	var gaps []float64
	prev := 0.0
	for k, id := range ids {
		j := byID[id]
		idxs := make([]int, 0, len(j.tasks))
		for i := range j.tasks {
			idxs = append(idxs, i)
		}
		// Sum in task-index order: a float sum in map order differs in its
		// last digits from run to run.
		slices.Sort(idxs)
		known, sum := 0, 0.0
		for _, i := range idxs {
			if d := j.tasks[i]; d > 0 {
				known++
				sum += d
			}
		}
		fallback := 367.0
		if known > 0 {
			fallback = sum / float64(known)
		}
		n := clampMaps(float64(len(idxs)))
		d := make([]float64, n)
		for i := range d {
			d[i] = fallback
			if i < len(idxs) && j.tasks[idxs[i]] > 0 {
				d[i] = j.tasks[idxs[i]]
			}
		}
		jobs = append(jobs, sizedJob{maps: n, taskTime: fallback, durations: d})
		if k == 0 {
			prev = j.submit
		}
		gaps = append(gaps, j.submit-prev)
		prev = j.submit
	}
	return jobs, gaps, nil
}
