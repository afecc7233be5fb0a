package main

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedkit/schedkit/tct/jct"
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
// Errors say what was wrong with the input in words: an empty file, data
// that is not gzip, a file cut short (with the row reached), a row of the
// wrong width or with a bad number (with its line).
func readGoogle(r io.Reader) ([]float64, error) {
	zr, err := gzip.NewReader(r)
	switch {
	case errors.Is(err, io.EOF):
		return nil, errors.New("the file is empty: want a gzip-compressed Google clusterdata-2011 task_events CSV")
	case err != nil:
		return nil, fmt.Errorf("not gzip data (%v): want a gzip-compressed Google clusterdata-2011 task_events CSV", err)
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
	rows := 0
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("the file is cut short after %d rows (truncated gzip data)", rows)
		case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount):
			return nil, fmt.Errorf("line %d: %d fields, want the %d columns of a task_events row", pe.Line, len(rec), gColumns)
		case err != nil:
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		rows++
		ev, err1 := strconv.Atoi(rec[gEventType])
		t, err2 := strconv.ParseInt(rec[gTime], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %d: bad time %q or event type %q", line, rec[gTime], rec[gEventType])
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
	switch {
	case rows == 0:
		return nil, errors.New("no rows: the gzip data holds an empty CSV")
	case len(out) == 0:
		return nil, fmt.Errorf("%d rows but no task both scheduled (after time 0) and finished: nothing to fit", rows)
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
// LoggedJob objects, times in milliseconds. Errors say what was wrong in
// words: an empty file, JSON cut short (with the jobs read), or no
// successful attempt.
func readRumen(r io.Reader) ([]float64, error) {
	dec := json.NewDecoder(r)
	var out []float64
	jobs := 0
	for dec.More() {
		var j rumenJob
		if err := dec.Decode(&j); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("the JSON is cut short after %d complete jobs", jobs)
			}
			return nil, fmt.Errorf("job %d: not a Rumen LoggedJob: %v", jobs+1, err)
		}
		jobs++
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
	switch {
	case jobs == 0:
		return nil, errors.New("the file holds no job: want a Rumen job history (JSON LoggedJob objects)")
	case len(out) == 0:
		return nil, fmt.Errorf("%d jobs but no successful task attempt with start and finish times: nothing to fit", jobs)
	}
	return out, nil
}

// traceFit compares lognormal and normal fits to task durations, like
// thesis Fig. 5.2 (JSON schema of the issue).
type traceFit struct {
	Source      string  `json:"source"`
	Tasks       int     `json:"tasks"`
	KSLognormal float64 `json:"ks_lognormal"`
	KSNormal    float64 `json:"ks_normal"`
	Mu          float64 `json:"mu"`
	Sigma       float64 `json:"sigma"`
	Mean        float64 `json:"mean_s"`
	SD          float64 `json:"sd_s"`
	Median      float64 `json:"median_s"`
	// For the plots only.
	Dist      jct.Distribution `json:"-"`
	Normal    distuv.Normal    `json:"-"`
	Lognormal jct.Lognormal    `json:"-"`
}

// fitTrace fits a lognormal (maximum likelihood, jct.LognormalFromSamples)
// and a normal (sample mean and standard deviation) to durations and
// reports each one's Kolmogorov–Smirnov distance to the data.
func fitTrace(durations []float64) (traceFit, error) {
	if len(durations) < 2 {
		return traceFit{}, fmt.Errorf("%d task duration(s): need at least 2 to fit a distribution", len(durations))
	}
	d, err := jct.NewDistribution(durations)
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
		return traceFit{}, fmt.Errorf("all %d durations are equal (%g s): no spread to fit", len(durations), mean)
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

// runTraceFit reads the -google or -rumen file and fits its durations.
// Errors name the file.
func runTraceFit(cfg config) (traceFit, error) {
	path, read, name := cfg.Google, readGoogle, "Google clusterdata-2011 task"
	if cfg.Rumen != "" {
		path, read, name = cfg.Rumen, readRumen, "Rumen task attempt"
	}
	f, err := os.Open(path)
	if err != nil {
		return traceFit{}, err
	}
	defer f.Close()
	d, err := read(f)
	if err != nil {
		return traceFit{}, fmt.Errorf("%s: %w", path, err)
	}
	tr, err := fitTrace(d)
	if err != nil {
		return traceFit{}, fmt.Errorf("%s: %w", path, err)
	}
	tr.Source = name
	return tr, nil
}

// printTraceJSON writes {"trace_fit":{...}}.
func printTraceJSON(w io.Writer, f traceFit) error {
	return json.NewEncoder(w).Encode(struct {
		TraceFit traceFit `json:"trace_fit"`
	}{f})
}

// printTrace writes the text report of a trace fit.
func printTrace(w io.Writer, f traceFit, plotDir string) error {
	fmt.Fprintf(w, "%s durations: %d tasks, mean %.1f s, sd %.1f s, median %.1f s\n", f.Source, f.Tasks, f.Mean, f.SD, f.Median)
	fmt.Fprintf(w, "  %-36s KS distance %.3f\n", fmt.Sprintf("lognormal (MLE) μ = %.3f, σ = %.3f:", f.Mu, f.Sigma), f.KSLognormal)
	fmt.Fprintf(w, "  %-36s KS distance %.3f\n", fmt.Sprintf("normal mean %.1f s, sd %.1f s:", f.Mean, f.SD), f.KSNormal)
	fmt.Fprintln(w, "Terms: KS distance = the largest gap between the durations' empirical CDF and the fitted CDF (smaller fits better);")
	fmt.Fprintln(w, "  MLE = maximum likelihood: μ and σ are the mean and standard deviation of ln(duration) (Lee thesis §5.2.1, Fig. 5.2).")
	if plotDir != "" {
		fmt.Fprintf(w, "plot written to %s\n", filepath.Join(plotDir, "fig5_2_trace_fit.png"))
	}
	return nil
}
