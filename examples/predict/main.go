// Command predict reproduces thesis 004 §5.4 with the tct Monte-Carlo
// model: the completion-time distribution of a 500 GB sort on 50, 100 and
// 200 workers and the workers needed for a deadline at 50/80/95%
// confidence (§5.4.1, Fig. 5.14/5.15); online remaining-time prediction
// every 20 simulated seconds with and without 50 more workers, for 200 and
// 40 reduce splits (§5.4.2, Fig. 5.16–5.18); and, on real traces, how
// well lognormal and normal distributions fit task durations (Fig. 5.2).
//
// Usage:
//
//	go run ./examples/predict [-runs N] [-seed S] [-json] [-plot DIR]
//	go run ./examples/predict -google task_events-part-00000-of-00500.csv.gz [-json]
//	go run ./examples/predict -rumen 2jobs2min-rumen-jh.json [-json]
//
// The default scenario is built in (no file is read). It costs about 4.5 s
// of CPU (1,000 runs on each of 50/100/200 workers, 250 runs for each of the
// 16 worker counts the three confidence searches share, 60 runs per online
// point), spread over -goroutines (default GOMAXPROCS): measured 2.5–3.3 s
// wall on the 2-core development machine at load average 4–6, 10–26 s at
// load 10–18. The results do not depend on -goroutines. -json prints
// {"allocation":[{"workers","mean_s","p50_s","p90_s","p_meet"}],
// "workers_for":[{"confidence","workers"}]} for the sort (workers -1: not
// reachable within -max-workers), or {"trace_fit":{"tasks","ks_lognormal",
// "ks_normal","mu","sigma"}} with -google or -rumen.
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

// report is the whole default scenario.
type report struct {
	DeadlineS     float64        `json:"deadline_s"`
	Maps          int            `json:"maps"`
	Reduces       int            `json:"reduces"`
	Runs          int            `json:"runs"`
	Level         float64        `json:"level"`
	AllocRuns     int            `json:"alloc_runs"`
	AllocRunLimit int            `json:"alloc_run_limit"`
	MaxWorkers    int            `json:"max_workers"`
	Seed          uint64         `json:"seed"`
	Sort          sortResult     `json:"-"`
	Online        []onlineResult `json:"online"`
	Differs       []string       `json:"differs_from_paper"`
}

// MarshalJSON puts the §5.4.1 parts at the top level.
func (r report) MarshalJSON() ([]byte, error) {
	type plain report
	return json.Marshal(struct {
		plain
		Calibration calibration     `json:"calibration"`
		Allocation  []allocationRow `json:"allocation"`
		WorkersFor  []workersForRow `json:"workers_for"`
	}{plain(r), r.Sort.Calibration, r.Sort.Allocation, r.Sort.WorkersFor})
}

// runDefault runs §5.4.1 and §5.4.2 with progress on prog's writer.
func runDefault(cfg config, progress io.Writer) (report, error) {
	rep := report{DeadlineS: sortDeadline, Maps: sortMaps, Reduces: sortReduces, Runs: cfg.Runs, Level: cfg.Level,
		AllocRuns: cfg.AllocRuns, AllocRunLimit: cfg.AllocRunLimit, MaxWorkers: cfg.MaxWorkers, Seed: cfg.Seed}
	steps := len(sortWorkers) + len(confidences)
	for _, sc := range onlineScenarios {
		o, err := prepareOnline(sc.name, sc.reduces, cfg.Step, cfg.Seed)
		if err != nil {
			return rep, err
		}
		rep.Online = append(rep.Online, o)
		steps += len(o.predictTimes)
	}
	prog := cli.NewProgress(progress, "predict", steps)
	s, err := runSort(cfg, prog)
	if err != nil {
		return rep, err
	}
	rep.Sort = s
	oopt := onlineOptions(cfg)
	for i := range rep.Online {
		if err := rep.Online[i].runOnline(oopt, prog); err != nil {
			return rep, err
		}
	}
	prog.Done()
	rep.Differs = rep.differs()
	return rep, nil
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole program; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, code, done := parse(args, stderr)
	if done {
		return code
	}
	fail := func(err error) int { return cli.Fail(stderr, "predict", err, cli.ExitError) }
	if cfg.Google != "" || cfg.Rumen != "" {
		tr, err := runTraceFit(cfg)
		if err != nil {
			return fail(err)
		}
		if cfg.PlotDir != "" {
			if err := plotTrace(cfg.PlotDir, "fig5_2_trace_fit.png", "Fig. 5.2 style: "+tr.Source+" durations", tr); err != nil {
				return fail(err)
			}
		}
		if cfg.JSON {
			return done1(printTraceJSON(stdout, tr), stderr)
		}
		return done1(printTrace(stdout, tr, cfg.PlotDir), stderr)
	}
	progress := stderr
	if cfg.JSON {
		progress = nil
	}
	rep, err := runDefault(cfg, progress)
	if err != nil {
		return fail(err)
	}
	if cfg.PlotDir != "" {
		if err := writePlots(cfg.PlotDir, rep); err != nil {
			return fail(err)
		}
	}
	if cfg.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return done1(enc.Encode(rep), stderr)
	}
	return done1(printReport(stdout, rep, cfg), stderr)
}

// done1 turns a write error into exit code 1.
func done1(err error, stderr io.Writer) int {
	if err != nil {
		return cli.Fail(stderr, "predict", err, cli.ExitError)
	}
	return cli.ExitOK
}
