// Command preemption compares Global Preemption (GP §VI) with the Hadoop 0.21
// Fair Scheduler's own preemption in simulation.
//
// (Package documentation is completed with the measured figures.)
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

// Options are the command's inputs.
type Options struct {
	Workload       Workload
	Reps           int        // seeds per (period, long-job position)
	Seed           uint64     // first seed
	Positions      []int      // long-job arrival positions
	Ordinary       []sizedJob // nil: Table III
	TracePath      string     // where Ordinary came from, for the report
	TaskScale      float64    // Scenario.TaskScale
	JoinStageScale float64    // Scenario.JoinStageScale
	Config         Config
	Periods        []string      // nil: busy and idle
	Policies       []Policy      // nil: every policy
	Progress       *cli.Progress // nil: silent
}

var periods = []struct {
	name string
	gap  float64
}{{"busy", 30}, {"idle", idleGap}}

// Run simulates every period × position × seed under every policy; the
// policies of one (period, position, seed) see the same jobs.
func Run(o Options) ([]Cell, error) {
	pols := o.Policies
	if pols == nil {
		pols = policies
	}
	var cells []Cell
	for _, p := range periods {
		if o.Periods != nil && !slices.Contains(o.Periods, p.name) {
			continue
		}
		for _, pos := range o.Positions {
			row := make([]Cell, len(pols))
			for k, pol := range pols {
				row[k] = Cell{Period: p.name, Position: pos, Policy: pol}
			}
			for r := range o.Reps {
				sc := Scenario{Workload: o.Workload, Period: p.name, MeanGap: p.gap, LongPos: pos, Seed: o.Seed + uint64(r),
					TaskScale: o.TaskScale, JoinStageScale: o.JoinStageScale}
				jobs, err := sc.Build(o.Ordinary)
				if err != nil {
					return nil, err
				}
				for k := range row {
					res, err := Simulate(o.Config, jobs, row[k].Policy)
					if err != nil {
						return nil, fmt.Errorf("%s p=%d seed %d %v: %w", p.name, pos, sc.Seed, row[k].Policy, err)
					}
					row[k].Runs = append(row[k].Runs, res)
					o.Progress.Add(1)
				}
			}
			cells = append(cells, row...)
		}
	}
	o.Progress.Done()
	return cells, nil
}

// The default seeds per (period, position) and long-job positions (GP
// §VI-D: the long job arrives 1st, 66th or 92nd).
const (
	defaultReps      = 20
	defaultPositions = "1,66,92"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage: preemption [-workload io|mixed] [-model per-job|two-pool] [-min-share-timeout S] [-fair-share-timeout S]
                  [-starvation per-period|every-check] [-reps N] [-seed N] [-positions LIST] [-trace FILE]
                  [-task-scale F] [-join-stage-scale F] [-json] [-plot DIR]

Simulates GP §VI (100 workers × 4 map slots, 30% production jobs with an 80% minimum share) in busy
(30 s mean gap) and idle (80 s) periods and compares the Hadoop 0.21 Fair Scheduler's preemption
(baseline) with GP and with GP without its starvation rule: SNP, slowdown norms, unfairness, response
time, work lost, starvation episodes, kills by reason and occupancy, means over seeds.`

func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("preemption", usage, stderr)
	workload := fs.String("workload", "io", "GP §VI-B workload: io (Table III, 130 jobs) or mixed (Grep, Aggregate and Join on Table III, 160 jobs)")
	model := fs.String("model", "per-job", "Fair Scheduler model: per-job (each job its own pool) or two-pool (production / non-production pools)")
	minTimeout := fs.Float64("min-share-timeout", 300, "minSharePreemptionTimeout in seconds (Hadoop's sample allocation file; its default Long.MAX_VALUE never preempts; 0 is an ablation)")
	fairTimeout := fs.Float64("fair-share-timeout", 600, "fairSharePreemptionTimeout in seconds (Hadoop's sample allocation file; its default never preempts; 0 is an ablation)")
	starvation := fs.String("starvation", "per-period", "GP's starvation rule: per-period (judged over each 3-minute period, 50% of the onset overflow, all after 6 minutes) or every-check (judged every 20 s, 50% of the overflow at each check; ablation)")
	reps := fs.Int("reps", defaultReps, "seeds per period and long-job position")
	seed := fs.Uint64("seed", 1, "first seed")
	positions := fs.String("positions", defaultPositions, "the long job's arrival positions among the 130 instances (1-based, comma-separated)")
	trace := fs.String("trace", "", "take the io workload's ordinary jobs from a SWIM `FILE` (.tsv) or a Google task_events file (.csv.gz)")
	taskScale := fs.Float64("task-scale", 1, "mixed workload: task times of every job but the long job relative to Table III's (sensitivity)")
	joinScale := fs.Float64("join-stage-scale", 1, "mixed workload: task time of a Join instance's second and third jobs relative to its first (sensitivity)")
	jsonOut := fs.Bool("json", false, "print the whole report as JSON instead of the table")
	plotDir := fs.String("plot", "", "write bar charts like GP Fig. 3 into `DIR`")
	if code, done := cli.Parse(fs, args); done {
		return code
	}
	var c cli.Checker
	c.OneOf("workload", *workload, "io", "mixed")
	c.OneOf("model", *model, "per-job", "two-pool")
	c.OneOf("starvation", *starvation, "per-period", "every-check")
	c.Float("min-share-timeout", *minTimeout, 0, 1e7)
	c.Float("fair-share-timeout", *fairTimeout, 0, 1e7)
	c.Int("reps", *reps, 1, 100)
	c.Uint("seed", *seed, 0, 1<<62)
	c.FloatAbove("task-scale", *taskScale, 0.1-1e-12, 10)
	c.FloatAbove("join-stage-scale", *joinScale, 0.1-1e-12, 10)
	if *workload != "mixed" {
		if *taskScale != 1 {
			c.Failf("task-scale", "= %v: applies to -workload mixed only", *taskScale)
		}
		if *joinScale != 1 {
			c.Failf("join-stage-scale", "= %v: applies to -workload mixed only", *joinScale)
		}
	}
	if *trace != "" && *workload == "mixed" {
		c.Failf("trace", "= %q: applies to -workload io only (the mixed workload is built from Table III)", *trace)
	}
	c.File("trace", *trace)
	if *trace != "" && !strings.HasSuffix(*trace, ".tsv") && !strings.HasSuffix(*trace, ".csv.gz") {
		c.Failf("trace", "= %q: must be a SWIM .tsv or a Google task_events .csv.gz file", *trace)
	}
	c.Dir("plot", *plotDir)
	pos, err := parsePositions(*positions)
	if err != nil {
		c.Failf("positions", "= %q: %v", *positions, err)
	}
	if err := c.Err(); err != nil {
		return cli.Fail(stderr, "preemption", err, cli.ExitUsage)
	}
	cfg := DefaultConfig()
	cfg.MinShareTimeout, cfg.FairShareTimeout = *minTimeout, *fairTimeout
	if *model == "two-pool" {
		cfg.Model = TwoPool
	}
	if *starvation == "every-check" {
		cfg.Starvation = EveryCheck
	}
	o := Options{Reps: *reps, Seed: *seed, Positions: pos, Config: cfg, TaskScale: *taskScale, JoinStageScale: *joinScale}
	if *workload == "mixed" {
		o.Workload = Mixed
	}
	if *trace != "" {
		if o.Ordinary, err = ReadTrace(*trace); err != nil {
			return cli.Fail(stderr, "preemption", err, cli.ExitError)
		}
		o.TracePath = *trace
	}
	if !*jsonOut {
		o.Progress = cli.NewProgress(stderr, "simulating", len(periods)*len(pos)*o.Reps*len(policies))
	}
	cells, err := Run(o)
	if err != nil {
		return cli.Fail(stderr, "preemption", err, cli.ExitError)
	}
	if err := emit(stdout, o, cells, *jsonOut, *plotDir); err != nil {
		return cli.Fail(stderr, "preemption", err, cli.ExitError)
	}
	return cli.ExitOK
}

// parsePositions reads a comma-separated list of distinct positions in
// 1…130, at most 10 of them.
func parsePositions(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 || p > countedJobs {
			return nil, fmt.Errorf("%q is not a position in [1, %d]", f, countedJobs)
		}
		for _, q := range out {
			if q == p {
				return nil, fmt.Errorf("position %d given twice", p)
			}
		}
		out = append(out, p)
	}
	if len(out) > 10 {
		return nil, fmt.Errorf("%d positions: at most 10", len(out))
	}
	return out, nil
}

// emit writes the plots (when plotDir is set) and then the JSON document or
// the table.
func emit(w io.Writer, o Options, cells []Cell, jsonOut bool, plotDir string) error {
	out := Summarise(o, cells)
	if plotDir != "" {
		if err := Plot(plotDir, out); err != nil {
			return err
		}
	}
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	PrintTable(w, out)
	return nil
}
