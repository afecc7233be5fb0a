package main

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedkit/schedkit/tct"
)

// Google clusterdata-2011 task_events columns and event types (format
// v2.1, ../shared/traces/README.md §3).
const (
	gTime      = 0
	gJob       = 2
	gTaskIndex = 3
	gEventType = 5
	gColumns   = 13
	gSchedule  = 1
	gFinish    = 4
)

// readGoogle returns the run time in seconds of every task that was
// scheduled inside the trace window (time > 0) and finished: each FINISH
// is paired with the task's latest SCHEDULE (a task evicted and
// rescheduled counts from its last start). r is the gzip-compressed CSV.
func readGoogle(r io.Reader) ([]float64, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("google task_events: %w", err)
	}
	defer zr.Close()
	cr := csv.NewReader(zr)
	cr.FieldsPerRecord = gColumns
	cr.ReuseRecord = true
	type task struct {
		job   string
		index string
	}
	scheduled := map[task]int64{}
	var out []float64
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("google task_events: %w", err)
		}
		ev, err1 := strconv.Atoi(rec[gEventType])
		t, err2 := strconv.ParseInt(rec[gTime], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("google task_events line %d: bad time %q or event type %q", line, rec[gTime], rec[gEventType])
		}
		k := task{rec[gJob], rec[gTaskIndex]}
		switch ev {
		case gSchedule:
			if t > 0 {
				scheduled[k] = t
			} else {
				delete(scheduled, k)
			}
		case gFinish:
			if s, ok := scheduled[k]; ok && t > s {
				out = append(out, float64(t-s)/1e6)
			}
			delete(scheduled, k)
		default:
			if ev != 0 && ev != 7 && ev != 8 { // EVICT, FAIL, KILL, LOST end the run
				delete(scheduled, k)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("google task_events: no SCHEDULE → FINISH pair")
	}
	return out, nil
}

// rumenJob is the part of a Rumen LoggedJob we read.
type rumenJob struct {
	JobID       string      `json:"jobID"`
	MapTasks    []rumenTask `json:"mapTasks"`
	ReduceTasks []rumenTask `json:"reduceTasks"`
}

type rumenTask struct {
	Attempts []struct {
		StartTime  int64  `json:"startTime"`
		FinishTime int64  `json:"finishTime"`
		Result     string `json:"result"`
	} `json:"attempts"`
}

// readRumen returns the run time in seconds of every successful task
// attempt (map and reduce) of a Rumen job history: a stream of JSON
// LoggedJob objects, times in milliseconds.
func readRumen(r io.Reader) ([]float64, error) {
	dec := json.NewDecoder(r)
	var out []float64
	for dec.More() {
		var j rumenJob
		if err := dec.Decode(&j); err != nil {
			return nil, fmt.Errorf("rumen: %w", err)
		}
		for _, ts := range [][]rumenTask{j.MapTasks, j.ReduceTasks} {
			for _, t := range ts {
				for _, a := range t.Attempts {
					if a.Result == "SUCCESS" && a.FinishTime > a.StartTime && a.StartTime > 0 {
						out = append(out, float64(a.FinishTime-a.StartTime)/1e3)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("rumen: no successful task attempt")
	}
	return out, nil
}

// traceFit compares lognormal and normal fits to task durations, like
// thesis Fig. 5.2 (JSON schema of the issue).
type traceFit struct {
	Tasks       int     `json:"tasks"`
	KSLognormal float64 `json:"ks_lognormal"`
	KSNormal    float64 `json:"ks_normal"`
	Mu          float64 `json:"mu"`
	Sigma       float64 `json:"sigma"`
	// For the text report and plots only.
	Mean, SD, Median float64          `json:"-"`
	Dist             tct.Distribution `json:"-"`
	Normal           distuv.Normal    `json:"-"`
	Lognormal        tct.Lognormal    `json:"-"`
}

// fitTrace fits a lognormal (maximum likelihood, tct.LognormalFromSamples)
// and a normal (sample mean and standard deviation) to durations and
// reports each one's Kolmogorov–Smirnov distance to the data.
func fitTrace(durations []float64) (traceFit, error) {
	d, err := tct.NewDistribution(durations)
	if err != nil {
		return traceFit{}, err
	}
	ln, err := d.Lognormal()
	if err != nil {
		return traceFit{}, err
	}
	ksL, err := d.KS(ln.CDF)
	if err != nil {
		return traceFit{}, err
	}
	mean, sd := stat.MeanStdDev(durations, nil)
	if !(sd > 0) {
		return traceFit{}, errors.New("durations are all equal: no normal fit")
	}
	nrm := distuv.Normal{Mu: mean, Sigma: sd}
	ksN, err := d.KS(nrm.CDF)
	if err != nil {
		return traceFit{}, err
	}
	med, _ := d.Quantile(0.5)
	return traceFit{
		Tasks: d.Len(), KSLognormal: ksL, KSNormal: ksN, Mu: ln.Mu, Sigma: ln.Sigma,
		Mean: mean, SD: sd, Median: med, Dist: d, Normal: nrm, Lognormal: ln,
	}, nil
}

// finite reports whether x is a usable number (for plots).
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
