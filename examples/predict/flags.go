package main

import (
	"flag"
	"io"
	"math"
	"runtime"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/tct/jct"
)

const usage = `usage: predict [-runs N] [-alloc-runs N] [-alloc-run-limit N] [-level L] [-online-runs N]
               [-max-workers N] [-seed S] [-goroutines G] [-json] [-plot DIR]
       predict -google FILE | -rumen FILE [-json] [-plot DIR]

Without -google or -rumen: Lee thesis §5.4 on a 500 GB sort (completion-time
distributions on 50/100/200 workers, workers for a 1,400 s deadline at
50/80/95% confidence, online remaining time). With one of them: how well
lognormal and normal distributions fit a real trace's task durations (§5.2.1,
Fig. 5.2).`

// Upper bounds of the flags: the largest run each allows takes tens of
// minutes of CPU, with progress on stderr.
const (
	maxSortRuns      = 200_000
	maxAllocRuns     = 100_000
	maxAllocRunLimit = 256_000
	maxOnlineRuns    = 5_000
	maxMaxWorkers    = 10_000
	maxLevel         = 0.999999
)

// config is everything a run needs.
type config struct {
	Runs          int     // Monte-Carlo runs per §5.4.1 distribution
	AllocRuns     int     // first batch of runs per worker count in the search
	AllocRunLimit int     // most runs per worker count in the search
	Level         float64 // coverage of the search's intervals
	OnlineRuns    int     // runs per online prediction point
	MaxWorkers    int     // upper end of the worker search
	Seed          uint64  // seed of every prediction and of the "actual" execution
	Goroutines    int     // goroutines per prediction (results do not depend on it)
	Step          float64 // seconds between online predictions (not a flag)

	JSON    bool
	PlotDir string
	Google  string
	Rumen   string
}

func defaultConfig() config {
	return config{Runs: 4000, AllocRuns: 1000, AllocRunLimit: 32 * 1000, Level: jct.DefaultLevel,
		OnlineRuns: 60, MaxWorkers: 300, Seed: 1, Goroutines: runtime.GOMAXPROCS(0), Step: onlineStep}
}

// scenarioFlags apply only to the built-in §5.4 scenario.
var scenarioFlags = []string{"runs", "alloc-runs", "alloc-run-limit", "level", "online-runs", "max-workers", "seed", "goroutines"}

// parse parses and checks args. done = true means exit with code now.
func parse(args []string, stderr io.Writer) (cfg config, code int, done bool) {
	cfg = defaultConfig()
	fs := cli.NewFlagSet("predict", usage, stderr)
	fs.IntVar(&cfg.Runs, "runs", cfg.Runs, "Monte-Carlo runs `N` per completion-time distribution (50/100/200 workers)")
	fs.IntVar(&cfg.AllocRuns, "alloc-runs", cfg.AllocRuns, "worker search: first batch of runs `N` for each worker count")
	fs.IntVar(&cfg.AllocRunLimit, "alloc-run-limit", cfg.AllocRunLimit, "worker search: most runs `N` for one worker count (doubling from -alloc-runs while the interval straddles the confidence)")
	fs.Float64Var(&cfg.Level, "level", cfg.Level, "probability `L` that each verdict of the worker search is right, and coverage of the table's intervals")
	fs.IntVar(&cfg.OnlineRuns, "online-runs", cfg.OnlineRuns, "runs `N` per online remaining-time prediction")
	fs.IntVar(&cfg.MaxWorkers, "max-workers", cfg.MaxWorkers, "largest worker count `N` the search considers")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed `S` of every prediction and of the simulated 'actual' execution")
	fs.IntVar(&cfg.Goroutines, "goroutines", cfg.Goroutines, "goroutines `G` per prediction (the results do not depend on it)")
	fs.BoolVar(&cfg.JSON, "json", false, "print JSON instead of tables (schema in the package documentation)")
	fs.StringVar(&cfg.PlotDir, "plot", "", "write PNG figures into `DIR`")
	fs.StringVar(&cfg.Google, "google", "", "Google clusterdata-2011 task_events `FILE` (.csv.gz): fit its task durations")
	fs.StringVar(&cfg.Rumen, "rumen", "", "Rumen job history `FILE` (JSON): fit its task attempt durations")
	if code, done := cli.Parse(fs, args); done {
		return cfg, code, true
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var c cli.Checker
	c.Int("runs", cfg.Runs, 1, maxSortRuns)
	c.Int("alloc-runs", cfg.AllocRuns, 10, maxAllocRuns)
	if cfg.AllocRuns >= 10 && cfg.AllocRuns <= maxAllocRuns {
		c.Int("alloc-run-limit", cfg.AllocRunLimit, cfg.AllocRuns, maxAllocRunLimit)
	} else {
		c.Int("alloc-run-limit", cfg.AllocRunLimit, 10, maxAllocRunLimit)
	}
	c.Float("level", cfg.Level, 0.5, maxLevel)
	c.Int("online-runs", cfg.OnlineRuns, 1, maxOnlineRuns)
	c.Int("max-workers", cfg.MaxWorkers, 1, maxMaxWorkers)
	c.Uint("seed", cfg.Seed, 0, math.MaxUint64)
	c.Int("goroutines", cfg.Goroutines, 1, jct.MaxGoroutines)
	c.File("google", cfg.Google)
	c.File("rumen", cfg.Rumen)
	c.Dir("plot", cfg.PlotDir)
	if cfg.Google != "" && cfg.Rumen != "" {
		c.Failf("google", "and -rumen: give one trace")
	}
	if cfg.Google != "" || cfg.Rumen != "" {
		for _, f := range scenarioFlags {
			if set[f] {
				c.Failf(f, "applies only to the built-in scenario, not with -google or -rumen")
			}
		}
	}
	if err := c.Err(); err != nil {
		return cfg, cli.Fail(stderr, "predict", err, cli.ExitUsage), true
	}
	return cfg, 0, false
}
