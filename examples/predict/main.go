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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/schedkit/schedkit/tct"
)

// config is everything a run needs; main fills it from flags.
type config struct {
	Runs       int    // Monte-Carlo runs per sort distribution
	AllocRuns  int    // runs per candidate in the worker search
	OnlineRuns int    // runs per online prediction point
	MaxWorkers int    // upper end of the worker search
	Seed       uint64 // seed of every prediction
	Goroutines int    // goroutines per prediction (result independent of it)
	Step       float64
}

func defaultConfig() config {
	return config{Runs: 1000, AllocRuns: 250, OnlineRuns: 60, MaxWorkers: 300, Seed: 1,
		Goroutines: runtime.GOMAXPROCS(0), Step: onlineStep}
}

// report is the whole default scenario.
type report struct {
	Sort   sortResult
	Online []onlineResult
}

// runDefault runs §5.4.1 and §5.4.2.
func runDefault(cfg config) (report, error) {
	opt := tct.Options{Runs: cfg.Runs, Seed: cfg.Seed, Goroutines: cfg.Goroutines}
	s, err := runSort(opt, cfg.AllocRuns, cfg.MaxWorkers)
	if err != nil {
		return report{}, err
	}
	rep := report{Sort: s}
	oopt := tct.Options{Runs: cfg.OnlineRuns, Seed: cfg.Seed, Goroutines: cfg.Goroutines}
	for _, sc := range []struct {
		name    string
		reduces int
	}{{"200 reduce splits", onlineReduces}, {"40 reduce splits", onlineFewReduce}} {
		r, err := runOnline(sc.name, sc.reduces, cfg.Step, oopt, cfg.Seed)
		if err != nil {
			return report{}, err
		}
		rep.Online = append(rep.Online, r)
	}
	return rep, nil
}

// printReport writes the text report.
func printReport(w io.Writer, rep report, cfg config) {
	fmt.Fprintf(w, "§5.4.1 500 GB sort: %d maps, %d reduces, deadline %.0f s (%d runs each)\n", sortMaps, sortReduces, sortDeadline, cfg.Runs)
	fmt.Fprintf(w, "  %7s  %8s  %8s  %8s  %10s  %s\n", "workers", "mean s", "p50 s", "p90 s", "P(T ≤ D)", "fitted lognormal μ, σ")
	for i, a := range rep.Sort.Allocation {
		f := rep.Sort.Fits[i]
		fmt.Fprintf(w, "  %7d  %8.0f  %8.0f  %8.0f  %10.3f  %.3f, %.3f\n", a.Workers, a.MeanS, a.P50S, a.P90S, a.PMeet, f.Mu, f.Sigma)
	}
	fmt.Fprintf(w, "  workers needed for %.0f s (%d runs per candidate, common random numbers):\n", sortDeadline, cfg.AllocRuns)
	for _, r := range rep.Sort.WorkersFor {
		fmt.Fprintf(w, "    %s\n", r.describe(cfg.MaxWorkers))
	}
	for _, o := range rep.Online {
		fmt.Fprintf(w, "\n§5.4.2 online remaining time, %s on %d workers (actual completion %.0f s, %d runs per point)\n", o.Name, o.Workers, o.End, cfg.OnlineRuns)
		fmt.Fprintf(w, "  %6s  %6s  %7s  %9s  %9s  %12s  %8s\n", "t s", "maps", "reduces", "actual s", "pred s", fmt.Sprintf("+%d pred s", o.Added), "benefit")
		for i, p := range o.Points {
			if i%5 != 0 && i != len(o.Points)-1 { // every 100 s in the text; plots show every point
				continue
			}
			fmt.Fprintf(w, "  %6.0f  %6d  %7d  %9.0f  %5.0f±%-3.0f  %12.0f  %8.0f\n", p.T, p.MapsDone, p.ReducesDone, p.Actual, p.Mean, p.SD, p.MeanAdded, p.Benefit)
		}
		fmt.Fprintf(w, "  benefit of +%d workers falls below 5%% of the remaining time at t = %.0f s\n", o.Added, o.benefitEnds(0.05))
	}
}

// benefitEnds returns the first prediction time from which adding workers
// saves less than frac of the predicted remaining time at every later
// point (the "reduction becomes zero" moment of Fig. 5.17).
func (o onlineResult) benefitEnds(frac float64) float64 {
	t := o.End
	for i := len(o.Points) - 1; i >= 0; i-- {
		p := o.Points[i]
		if p.Benefit >= frac*p.Mean {
			break
		}
		t = p.T
	}
	return t
}

// writePlots draws every figure of the default scenario into dir.
func writePlots(dir string, rep report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := plotSort(dir, rep.Sort); err != nil {
		return err
	}
	figs := []struct {
		file, title string
		i           int
		added       bool
	}{
		{"fig5_16_online.png", "Fig. 5.16: online prediction, 200 reduce splits, 50 workers", 0, false},
		{"fig5_17_online_added.png", "Fig. 5.17: 200 reduce splits, 50 (+50) workers", 0, true},
		{"fig5_18_online_40.png", "Fig. 5.18: 40 reduce splits, 50 (+50) workers", 1, true},
	}
	for _, f := range figs {
		if err := plotOnline(dir, f.file, f.title, rep.Online[f.i], f.added); err != nil {
			return err
		}
	}
	return nil
}

// runTrace reads a trace with read and fits it.
func runTrace(path string, read func(io.Reader) ([]float64, error)) (traceFit, error) {
	f, err := os.Open(path)
	if err != nil {
		return traceFit{}, err
	}
	defer f.Close()
	d, err := read(f)
	if err != nil {
		return traceFit{}, err
	}
	return fitTrace(d)
}

// printTraceJSON writes {"trace_fit":{...}}.
func printTraceJSON(w io.Writer, f traceFit) error {
	return json.NewEncoder(w).Encode(struct {
		TraceFit traceFit `json:"trace_fit"`
	}{f})
}

func main() {
	cfg := defaultConfig()
	flag.IntVar(&cfg.Runs, "runs", cfg.Runs, "Monte-Carlo runs per sort distribution")
	flag.IntVar(&cfg.AllocRuns, "alloc-runs", cfg.AllocRuns, "runs per candidate worker count in the worker search")
	flag.IntVar(&cfg.OnlineRuns, "online-runs", cfg.OnlineRuns, "runs per online prediction point")
	flag.IntVar(&cfg.MaxWorkers, "max-workers", cfg.MaxWorkers, "largest worker count the search considers")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of every prediction and of the 'actual' execution")
	flag.IntVar(&cfg.Goroutines, "goroutines", cfg.Goroutines, "goroutines per prediction (the results do not depend on it)")
	asJSON := flag.Bool("json", false, "print JSON (schema in the package comment)")
	plotDir := flag.String("plot", "", "write PNG figures into this directory")
	google := flag.String("google", "", "Google clusterdata-2011 task_events .csv.gz: fit task durations")
	rumen := flag.String("rumen", "", "Rumen job history JSON: fit task attempt durations")
	flag.Parse()
	if err := run(os.Stdout, cfg, *asJSON, *plotDir, *google, *rumen); err != nil {
		fmt.Fprintln(os.Stderr, "predict:", err)
		os.Exit(1)
	}
}

// run is main without flags and exit codes.
func run(w io.Writer, cfg config, asJSON bool, plotDir, google, rumen string) error {
	if google != "" && rumen != "" {
		return errors.New("give -google or -rumen, not both")
	}
	if google != "" || rumen != "" {
		path, read, name := google, readGoogle, "Google clusterdata-2011 task"
		if rumen != "" {
			path, read, name = rumen, readRumen, "Rumen task attempt"
		}
		f, err := runTrace(path, read)
		if err != nil {
			return err
		}
		if asJSON {
			return printTraceJSON(w, f)
		}
		fmt.Fprintf(w, "%s durations: %d tasks, mean %.1f s, sd %.1f s, median %.1f s\n", name, f.Tasks, f.Mean, f.SD, f.Median)
		fmt.Fprintf(w, "  %-36s KS distance %.3f\n", fmt.Sprintf("lognormal (MLE) μ = %.3f, σ = %.3f:", f.Mu, f.Sigma), f.KSLognormal)
		fmt.Fprintf(w, "  %-36s KS distance %.3f\n", fmt.Sprintf("normal mean %.1f s, sd %.1f s:", f.Mean, f.SD), f.KSNormal)
		if plotDir != "" {
			if err := os.MkdirAll(plotDir, 0o755); err != nil {
				return err
			}
			return plotTrace(plotDir, "fig5_2_trace_fit.png", "Fig. 5.2 style: "+name+" durations", f)
		}
		return nil
	}
	rep, err := runDefault(cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(w).Encode(rep.Sort)
	}
	printReport(w, rep, cfg)
	if plotDir != "" {
		return writePlots(plotDir, rep)
	}
	return nil
}
