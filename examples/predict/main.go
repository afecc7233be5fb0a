// Command predict reproduces Lee thesis §5.4 with the tct/jct Monte-Carlo
// model (§5.2.2): the completion-time distribution of a 500 GB sort (8,000
// maps, 120 reduce splits) on 50, 100 and 200 workers and the workers
// needed for a 1,400 s deadline at 50%, 80% and 95% confidence (§5.4.1,
// Fig. 5.14/5.15); online remaining-time prediction every 20 simulated
// seconds with and without 50 more workers, for 200 and 40 reduce splits
// (§5.4.2, Fig. 5.16–5.18); and, on real traces, how well lognormal and
// normal distributions fit task durations (§5.2.1, Fig. 5.2).
//
// Usage:
//
//	go run ./examples/predict [-runs N] [-alloc-runs N] [-alloc-run-limit N] [-level L]
//	                          [-online-runs N] [-max-workers N] [-seed S] [-goroutines G] [-json] [-plot DIR]
//	go run ./examples/predict -google task_events-part-00000-of-00500.csv.gz [-json] [-plot DIR]
//	go run ./examples/predict -rumen 2jobs2min-rumen-jh.json [-json] [-plot DIR]
//
// # What is calibrated
//
// The thesis gives the sort's sizes and its §5.4.1 outcomes (a 50-50
// chance of 1,400 s on 50 workers, 80% on 100, "slightly higher" on 200)
// but no per-phase statistics. One number is fitted: the map mean, 4.5 s,
// chosen so that P(T ≤ 1,400 s) on 50 workers is 0.5 (measured: 0.495,
// 0.498 and 0.515 for seeds 1–3, 4,000 runs each). The other phase
// statistics are assumptions, listed in the output; P on 100 and 200
// workers (0.775–0.780 and 0.832–0.840) and every worker count below are
// predictions.
//
// # Worker search
//
// jct.SearchWorkers with 1,000 runs per worker count first, doubled up to
// 32,000 where the estimate's interval straddles the confidence, each
// verdict 95% sure (-level). The answer is the smallest worker count whose
// interval clears the confidence; the noise band is the counts the runs
// could not tell from it. Seeds 1, 2 and 3 (go run ./examples/predict
// -json -seed S):
//
//	confidence  seed 1                           seed 2                           seed 3
//	50%         51: P 0.514 [0.503, 0.524], 50–51  51: P 0.535 [0.505, 0.565], 50–51  50: P 0.548 [0.506, 0.590], 50–50
//	80%         136: P 0.809 [0.801, 0.817], 130–136  138: P 0.806 [0.800, 0.812], 128–138  134: P 0.806 [0.800, 0.812], 125–134
//	95%         unreachable: P(256) 0.836          unreachable: P(256) 0.847          unreachable: P(256) 0.838
//
// The 80% answers lie within 3% of each other and their bands overlap in
// 130–134. A bisection on point estimates from 250 runs per count gave
// 103 to 123 workers for seeds 1–5: P rises only from 0.777 to 0.787
// between 100 and 120 workers (the first-wave boundary r = 120 and the late start-ups
// the map barrier waits for; see the tct/jct package doc), far less than
// 250 runs can resolve. 95% is out of reach of the model: P peaks near
// 0.84 and falls again at larger worker counts, where more start-ups delay
// the map barrier.
//
// # Cost
//
// The default run takes 106–112 s of CPU (seeds 1–3; the 80% search about
// 220,000–275,000 runs, the 50% search 22,000–63,000, the three
// distributions 12,000, the online predictions 23,000), spread over
// -goroutines (default GOMAXPROCS): measured 135–294 s wall on the 2-core
// development machine at load average 5–16; with both cores free about a
// minute. The results do not depend on -goroutines. Progress is shown on
// stderr unless -json.
//
// # Output
//
// The text report has the §5.4.1 table (mean, p50, p90, P(T ≤ D) with its
// interval, the fitted lognormal), the calibration, the search table, the
// online tables (every 100 s; -json and the plots have every point), a
// legend of terms and "differs from the paper because" lines computed
// from the results. -json prints one object: deadline_s, maps, reduces,
// runs, level, alloc_runs, alloc_run_limit, max_workers, seed;
// calibration {parameter, value_s, target, achieved_p_meet,
// achieved_p_low, achieved_p_high, assumed}; allocation [{workers, mean_s,
// p50_s, p90_s, p_meet, p_low, p_high, runs, lognormal_mu,
// lognormal_sigma}]; workers_for [{confidence, workers (−1 when none up to
// -max-workers is shown to meet it), verdict, at_workers, p_meet, p_low,
// p_high, runs, noise_from, total_runs, evaluated [{workers, p_meet,
// p_low, p_high, runs, verdict}]}]; online [{name, workers, reduces,
// added, actual_completion_s, benefit_below_5pct_from_s, points [{t_s,
// maps_done, reduces_done, actual_s, pred_mean_s, pred_sd_s, added_mean_s,
// added_sd_s, benefit_s}]}]; differs_from_paper [text]. With -google or
// -rumen: {"trace_fit": {source, tasks, ks_lognormal, ks_normal, mu,
// sigma, mean_s, sd_s, median_s}}. -plot DIR writes fig5_14_pdf.png,
// fig5_15_cdf.png, worker_search.png (every count each search tried, with
// its interval), worker_search_80.png (the 80% search near its answer and
// noise band), fig5_16_online.png, fig5_17_online_added.png and
// fig5_18_online_40.png, or fig5_2_trace_fit.png for a trace.
//
// # Differs from the thesis
//
// P(T ≤ 1,400 s) on 100 workers is 0.78, not 0.8, so the 80% answer is
// about 135 workers rather than 100; with 50 more workers from the start
// the predicted remaining time is about 70% of the 50-worker one rather
// than half; with 200 reduce splits the benefit of adding workers lasts
// until about 1,040 s rather than 600 s; with 40 splits adding workers
// still helps during the map phase, where the thesis expects no benefit.
// The thesis's phase statistics are not published, and its "actual" job
// was measured where ours is one run drawn from the model. The report
// prints each of these with the run's own numbers.
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

// runDefault runs §5.4.1 and §5.4.2, reporting each stage's progress on
// its own line of progress (nil: silent).
func runDefault(cfg config, progress io.Writer) (report, error) {
	rep := report{DeadlineS: sortDeadline, Maps: sortMaps, Reduces: sortReduces, Runs: cfg.Runs, Level: cfg.Level,
		AllocRuns: cfg.AllocRuns, AllocRunLimit: cfg.AllocRunLimit, MaxWorkers: cfg.MaxWorkers, Seed: cfg.Seed}
	s, err := runSort(cfg, progress)
	if err != nil {
		return rep, err
	}
	rep.Sort = s
	oopt := onlineOptions(cfg)
	for _, sc := range onlineScenarios {
		o, err := prepareOnline(sc.name, sc.reduces, cfg.Step, cfg.Seed)
		if err != nil {
			return rep, err
		}
		prog := cli.NewProgress(progress, "§5.4.2 online, "+sc.name, len(o.predictTimes))
		if err := o.runOnline(oopt, prog); err != nil {
			return rep, err
		}
		prog.Done()
		rep.Online = append(rep.Online, o)
	}
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
