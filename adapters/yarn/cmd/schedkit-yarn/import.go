package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

type importOptions struct {
	format, jobID, models, sls string
	deadlineFactor             float64
	hostCores                  int
	asJSON                     bool
	files                      []string
}

func parseImport(args []string, stderr io.Writer) (importOptions, error) {
	var o importOptions
	fs := flag.NewFlagSet("schedkit-yarn import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: schedkit-yarn import [flags] FILE...

Reads job traces (Rumen job histories, SLS job files, JobHistory server
task lists of /ws/v1/history/mapreduce/jobs/{id}/tasks), fits each job
type's models with schedkit's tct and prints every fit with its NRMSE.
Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.format, "format", "auto", `input format: "auto", "rumen", "sls" or "jobhistory"`)
	fs.StringVar(&o.jobID, "job-id", "", "job ID of a JobHistory task list (default: from its task IDs); only with one file")
	fs.StringVar(&o.models, "models", "", "write the job-type catalog the controller reads (-models) to this file")
	fs.StringVar(&o.sls, "sls", "", "write the jobs as an SLS job file to this file")
	fs.Float64Var(&o.deadlineFactor, "deadline-factor", 1.5, "SLS deadline = start + factor × the job's recorded run time; 0 keeps the input's deadlines")
	fs.IntVar(&o.hostCores, "host-cores", 0, "also fit exp2 against residual capacity min(1, cores/attempts on the host); 0: lognormal only")
	fs.BoolVar(&o.asJSON, "json", false, "print the catalog and per-job fits as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	o.files = fs.Args()
	var errs []error
	if len(o.files) == 0 {
		errs = append(errs, errors.New("import: no input FILE"))
	}
	switch o.format {
	case "auto", "rumen", "sls", "jobhistory":
	default:
		errs = append(errs, fmt.Errorf(`-format %q: must be "auto", "rumen", "sls" or "jobhistory"`, o.format))
	}
	if o.jobID != "" && len(o.files) > 1 {
		errs = append(errs, errors.New("-job-id applies to one JobHistory file"))
	}
	if !(o.deadlineFactor >= 0) || math.IsInf(o.deadlineFactor, 0) {
		errs = append(errs, fmt.Errorf("-deadline-factor %v: must be finite and ≥ 0", o.deadlineFactor))
	}
	if o.hostCores < 0 {
		errs = append(errs, fmt.Errorf("-host-cores %d: must be ≥ 0", o.hostCores))
	}
	if len(errs) > 0 {
		return o, usageError{errors.Join(errs...)}
	}
	return o, nil
}

// detect guesses a trace's format from its first JSON object's keys.
func detect(head []byte) (string, error) {
	s := string(head)
	switch {
	case strings.Contains(s, `"job.tasks"`) || strings.Contains(s, `"job.start.ms"`):
		return "sls", nil
	case strings.Contains(s, `"jobID"`) || strings.Contains(s, `"mapTasks"`):
		return "rumen", nil
	case strings.Contains(s, `"tasks"`):
		return "jobhistory", nil
	}
	return "", errors.New("cannot tell the format (no job.tasks, jobID or tasks key near the start); give -format")
}

func readTrace(path, format, jobID string) ([]trace.Job, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	if format == "auto" {
		head, _ := br.Peek(1 << 16)
		if format, err = detect(bytes.TrimSpace(head)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var jobs []trace.Job
	switch format {
	case "rumen":
		jobs, err = trace.ReadRumen(br)
	case "sls":
		jobs, err = trace.ReadSLS(br)
	default:
		var j trace.Job
		j, err = trace.ReadJobHistoryTasks(br, jobID)
		jobs = []trace.Job{j}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return jobs, nil
}

func runImport(args []string, stdout, stderr io.Writer) error {
	o, err := parseImport(args, stderr)
	if err != nil {
		return err
	}
	var jobs []trace.Job
	for _, p := range o.files {
		js, err := readTrace(p, o.format, o.jobID)
		if err != nil {
			return err
		}
		jobs = append(jobs, js...)
	}
	cat, perJob, err := trace.Fit(jobs, trace.FitOptions{HostCores: o.hostCores})
	if err != nil {
		return err
	}
	var names []string
	for _, f := range o.files {
		names = append(names, filepath.Base(f))
	}
	cat.Source = strings.Join(names, ", ")
	if o.models != "" {
		if err := writeFile(o.models, func(w io.Writer) error { return trace.WriteCatalog(w, cat) }); err != nil {
			return err
		}
	}
	written := 0
	if o.sls != "" {
		err := writeFile(o.sls, func(w io.Writer) error {
			n, err := trace.WriteSLS(w, jobs, trace.SLSOptions{DeadlineFactor: o.deadlineFactor})
			written = n
			return err
		})
		if err != nil {
			return err
		}
	}
	if o.asJSON {
		return writeJSON(stdout, struct {
			Catalog trace.Catalog  `json:"catalog"`
			Jobs    []trace.JobFit `json:"jobs"`
		}{cat, perJob})
	}
	printFits(stdout, jobs, cat, perJob)
	if o.sls != "" {
		fmt.Fprintf(stdout, "wrote %d jobs to %s (deadline factor %g)\n", written, o.sls, o.deadlineFactor)
	}
	if o.models != "" {
		fmt.Fprintf(stdout, "wrote %d job types to %s\n", len(cat.Types), o.models)
	}
	return nil
}

func printFits(w io.Writer, jobs []trace.Job, cat trace.Catalog, perJob []trace.JobFit) {
	attempts := 0
	for _, j := range jobs {
		attempts += len(j.Tasks)
	}
	fmt.Fprintf(w, "%d jobs, %d task attempts\n", len(jobs), attempts)
	row := func(label string, f trace.LognormalFit) {
		fmt.Fprintf(w, "  %-28s %5d  μ=%.4f σ=%.4f  median %6.2f s  mean %6.2f s  p90 %6.2f s  range %.3f–%.3f s  NRMSE %.4f  KS %.3f\n",
			label, f.Samples, f.Mu, f.Sigma, f.MedianS, f.MeanS, f.P90S, f.MinS, f.MaxS, f.NRMSE, f.KS)
	}
	for _, t := range cat.Types {
		fmt.Fprintf(w, "job type %s: %d jobs, median %d maps, %d reduces (lognormal fits, NRMSE of the Q-Q line, Eq. 9)\n", t.Name, t.Jobs, t.Maps, t.Reduces)
		row("map attempt run time", t.Map)
		if t.Reduce != nil {
			row("reduce attempt run time", *t.Reduce)
		}
		row("container arrival", t.Arrival)
		if t.Exp2 != nil {
			e := t.Exp2
			fmt.Fprintf(w, "  exp2 vs residual (cores %d): TCT(r) = %.4g·e^(%.4g·r) + %.4g·e^(%.4g·r) s, baseline %.2f s, %d samples, NRMSE %.4f\n",
				e.HostCores, e.Model.A, e.Model.B, e.Model.C, e.Model.D, e.Baseline, e.Samples, e.NRMSE)
		}
	}
	for _, f := range perJob {
		row("job "+f.ID, f.Map)
	}
}
