// Command preemption reproduces the evaluation of Global Preemption (paper
// 003 §VI) in simulation: 100 workers × 4 map slots, 30% production jobs
// sharing 80% of the slots and non-production jobs with a 20% minimum share,
// the 130-job workload of Table III with the 250-map × 2,500 s long job
// arriving 1st, 66th or 92nd, exponential inter-arrival times of mean 30 s
// (busy) or 80 s (idle), and a preemption check every 20 s. It compares the
// Hadoop Fair Scheduler's per-job preemption (baseline) with GP on SNP, the
// slowdown norms l1 and l2, unfairness, average response time and work lost.
//
//	go run ./examples/preemption                 # table
//	go run ./examples/preemption -json           # {"periods":[…]}
//	go run ./examples/preemption -plot out/      # bar charts like 003 Fig. 3
//	go run ./examples/preemption -trace ../shared/traces/swim-facebook/FB-2009_samples_24_times_1hr_0.tsv
//
// With -trace the 129 ordinary jobs (and the 25 tail jobs) come from the
// trace instead of Table III; see trace.go for the mapping.
//
// # Model (decisions where 003 is silent)
//
//   - Slots form one pool of 400 (no locality: worker identity does not
//     matter to preemption). Killed tasks restart from scratch, ahead of the
//     job's fresh tasks; a kill costs only the work lost.
//   - Each task's service time is uniform within ±25% of its Table III mean.
//     39 of the 130 jobs (30%) are production jobs, drawn at random; the
//     long job is non-production, the case of 003 §IV. 25 tail jobs arrive
//     at the idle rate after the 130 and are not in the metrics.
//   - Fair shares as in HFS: the production pool's minimum share is 80% of
//     the slots, the other pool's 20%, both capped by demand; the rest is
//     split equally between the pools; jobs in a pool get max-min fair
//     shares of their demand (running + queued). Free slots go to the job of
//     largest deficiency (preempt.DeficiencyOrder).
//   - Trigger (-trigger hfs, default): HFS's rule (HADOOP-4665) — a pool
//     below its minimum share, or below half its fair share, preempts up to
//     it, at the first check (20 s period; 003 gives no timeouts, and
//     -preempt-timeout sets HFS's min-share/fair-share timeouts). The whole
//     pool being preempted for is protected (NoPreempt) under both policies:
//     HFS's preemptTasks takes victims only from pools above their fair
//     share, and 003 §IV has a production job's arrival preempt "each
//     non-production job"; a task of the short pool would only hand its slot
//     back to the same pool. The -trigger jobshare ablation preempts for
//     every job below its own fair share at every check; it was this
//     example's first model.
//   - GP: starvation condition (2) from a 3-minute occupancy window sampled
//     at each check (p = 90%, t = 80%); n_task is the slots available to
//     non-production jobs (003 §V's π = 0.5 example); T_timeout = 360 s
//     ("after 2 periods (6 minutes)"); only the 2,500 s job is "long".
//     Algorithm 1 runs at every check and its starvation victims are taken
//     as lines 3–6 are written: all of them (half, rounded up, of the
//     current overflowing tasks before T_timeout), even beyond k and when
//     k = 0 (preempt.GPOptions.StarvationBeyondK).
//   - The ideal time of a job is its tasks list-scheduled on all 400 slots
//     (003 §VI-D: "giving each job exclusive access to the cluster").
//     Metrics are averaged over 5 seeds and the three long-job positions.
//
// # Review of the model against 003 (review4)
//
// Checked and consistent with the text: killed tasks restart from scratch
// (§I, "it simply restarts the task later"); the ideal time is the job alone
// on the cluster (§VI-D); the preemption interval is 20 s (§VI-D); the
// busy window is 3 minutes, p = 90%, t = 80% (§V); T_timeout is 6 minutes
// (§VI-E); the 90%-of-queue exception (§VI-D); production 80% / other 20%
// minimum shares (§VI-D); idle periods have < 5 jobs in the system most of
// the time (§VI-E; the table prints the simulated mean, ≈ 3.3).
//
// Two modelling mistakes were fixed (each kept as an ablation flag):
//
//  1. The check protected only the jobs of the short pool below their own
//     share, so GP's "most recent" pass killed just-launched tasks of the
//     other production jobs while serving the production pool (111 such
//     kills in busy, long job at 1, seed 1; the baseline 26). That
//     contradicts HFS (no victims from a pool under its fair share) and 003
//     §IV (a production job's arrival preempts "each non-production job"),
//     and the slot only goes back to the same pool. Now the whole short pool
//     is protected (-served-jobs-only restores the old model;
//     TestServedPoolLosesNothing pins both). Busy SNP: −7.4% → −5.9%.
//  2. GP's starvation victims stopped at k, and k is only ever asked for by
//     a short pool, so the rule could never free slots for the jobs the long
//     job starves: it only moved the production pool's kills onto the long
//     job. Algorithm 1 returns them all, even beyond k (line 5), and §VI-E
//     has GP preempt them "to make room for other jobs". Now it does
//     (-starvation-at-k restores the old model). Busy SNP: −5.9% → +1.0%.
//
// Readings that do not change the answer: counting condition (3)'s queue as
// all queued tasks, only non-production ones, or only jobs with no running
// task (Little's law's "jobs in the queue") moved busy SNP by < 0.1% (tried
// on the model between the two fixes).
//
// Open readings (003 does not say; kept as in the model, flags to probe):
// the HFS preemption timeouts (-preempt-timeout), and whether the 50%
// graduated kill applies per check (default: it compounds, 50% of what
// still overflows at each 20 s check) or to the overflow at the onset of
// starvation, once, until T_timeout (-graduated-once). The busy result
// turns on both; see Results.
//
// # Results
//
// The paper reports SNP +15% for GP in busy periods with fairness no worse,
// from avoiding wasted work. This simulation does not reproduce it. Default
// run (5 seeds): busy SNP 0.733 (baseline) vs 0.740 (GP), +1.0%, GP higher
// in 7 of 15 paired runs; unfairness −3.7%; average response −2.1%; work
// lost +2.2%. Idle: SNP −0.4%, work lost −16% ("similar performance", as
// 003 reports). With -reps 20: busy SNP +1.3% (GP higher in 29 of 60 paired
// runs), unfairness −4.5%, work lost −7.3%; idle −0.1%. So busy is a
// near-tie with fairness slightly better, not +15%. Why, from the kill
// counts the table prints and the ablations:
//
//   - Load. Table III is 1,441,400 slot·s of map work; arriving every 30 s,
//     the 130 jobs offer 0.92 of the 400 slots over the 3,900 s, and the long
//     job alone (250 × 2,500 s) is 0.40 of it. While the long job holds 250
//     slots the other jobs need ≈ 0.52·400 = 209 of the remaining 150, so in
//     busy periods the long job really does starve the others here, and
//     GP's starvation rule fires at many checks, where 003 §VI-E saw it
//     once. GP then kills the long job more than the baseline does (busy,
//     long job at 1: 1,502 kills per run, 971 by the starvation rule, vs
//     1,367), the opposite of 003's "reduces to a minimum level".
//   - Without the rule (-no-starvation) GP does cut work lost by 35% and
//     the long job's kills by 40–55%, but SNP falls 21%: the long job keeps
//     ≈ 250 slots for 2,500 s and the small jobs queue behind it.
//   - SNP is a geometric mean over 130 jobs, 88 of which have ≤ 10 maps.
//     The baseline never kills a job within its share, which protects these
//     small jobs; GP's "most recent" victims are often their just-launched
//     tasks, and the killed job then waits for a slot behind the production
//     job being served (larger deficiency).
//   - Killed long tasks rerun and are then the most recent again, so GP's
//     "most recent" pass also hits them.
//   - HFS timeouts: with -preempt-timeout 60, busy SNP +5.0% (work lost
//     +5%); with 300 s, +17% (15 of 15 runs) and unfairness −24% — but work
//     lost +39%, every GP long-job kill by the starvation rule. The baseline
//     then rarely preempts, the long job starves the others, and GP's gain
//     is the starvation rule's, not the paper's mechanism of wasting less.
//     003 gives no timeouts; the default stays at 0 and is not tuned.
//   - Graduated kill read as 50% of the onset overflow in all before
//     T_timeout (-graduated-once): busy SNP −8.1% (GP higher in 1 of 15
//     runs), unfairness +14%, work lost −12.5% — GP then wastes less, as
//     003 says, but the small jobs wait longer behind the long job.
//   - With victims restricted to jobs above their share (-overshare-only),
//     busy SNP +5.8% (15 of 15 runs), work lost +3.8%.
//   - Busy-period occupancy differs from 003 §VI-E: non-production jobs hold
//     ≈ 62% of the slots on average here (ramp-up included) against "almost
//     90% most of the time" there.
//   - The simulator has no restart overhead beyond the work lost (no JVM
//     start, input re-read or delay scheduling), so avoiding kills is worth
//     less here than on the paper's EC2 cluster.
//   - HFS itself (0.21 preemptTasks) picks victims newest-first across all
//     over-share pools, which with two pools is close to GP's second step;
//     the per-job baseline here follows 003's and the description
//     ("overflowing tasks of each job").
//   - Traces (-trace, busy): SWIM FB-2009 SNP −1.8%, work lost −47%; Google
//     shard SNP −1.6%, work lost −4.5%.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Row is one line of the -json output.
type Row struct {
	Period     string  `json:"period"`
	Policy     string  `json:"policy"`
	SNP        float64 `json:"snp"`
	L1         float64 `json:"l1"`
	L2         float64 `json:"l2"`
	Unfairness float64 `json:"unfairness"`
	AvgResp    float64 `json:"avg_response_s"`
	WorkLost   float64 `json:"work_lost_slot_s"`
}

// Output is the -json document.
type Output struct {
	Periods []Row `json:"periods"`
}

// Options are the command's inputs.
type Options struct {
	Reps           int        // seeds per (period, long-job position)
	Seed           uint64     // first seed
	Positions      []int      // long-job arrival positions
	Ordinary       []sizedJob // nil: Table III
	OverShareOnly  bool       // Config.OverShareOnly
	NoStarvation   bool       // Config.NoStarvation
	Trigger        Trigger    // Config.Trigger
	ServedJobsOnly bool       // Config.ServedJobsOnly
	PreemptTimeout float64    // Config.PreemptTimeout, seconds
	StarvationAtK  bool       // Config.StarvationAtK
	GraduatedOnce  bool       // Config.GraduatedOnce
}

// Cell is the mean of the runs of one (period, position, policy).
type Cell struct {
	Period   string
	Position int
	Policy   Policy
	Runs     []Result
	Mean     Row
	Kills    float64 // mean tasks killed per run
	LongKill float64 // mean long-job tasks killed per run
	Starve   float64 // mean tasks killed as a starving long job's per run
	Small    float64 // mean tasks of jobs with ≤ 10 maps killed per run
	Jobs     float64 // mean jobs in the system (Result.MeanJobs)
	NonProd  float64 // mean non-production slot fraction (Result.NonProdShare)
}

var periods = []struct {
	name string
	gap  float64
}{{"busy", 30}, {"idle", 80}}

// Run simulates every period × position × seed under both policies.
func Run(o Options) ([]Cell, error) {
	cfg := DefaultConfig()
	cfg.OverShareOnly = o.OverShareOnly
	cfg.NoStarvation = o.NoStarvation
	cfg.Trigger = o.Trigger
	cfg.ServedJobsOnly = o.ServedJobsOnly
	cfg.PreemptTimeout = o.PreemptTimeout
	cfg.StarvationAtK = o.StarvationAtK
	cfg.GraduatedOnce = o.GraduatedOnce
	var cells []Cell
	for _, p := range periods {
		for _, pos := range o.Positions {
			cb := Cell{Period: p.name, Position: pos, Policy: Baseline}
			cg := Cell{Period: p.name, Position: pos, Policy: GP}
			for r := range o.Reps {
				sc := Scenario{Period: p.name, MeanGap: p.gap, LongPos: pos, Seed: o.Seed + uint64(r)}
				jobs, err := sc.Build(o.Ordinary)
				if err != nil {
					return nil, err
				}
				for _, c := range []*Cell{&cb, &cg} {
					res, err := Simulate(cfg, jobs, c.Policy)
					if err != nil {
						return nil, fmt.Errorf("%s p=%d seed %d %v: %w", p.name, pos, sc.Seed, c.Policy, err)
					}
					c.Runs = append(c.Runs, res)
				}
			}
			cb.summarise()
			cg.summarise()
			cells = append(cells, cb, cg)
		}
	}
	return cells, nil
}

func (c *Cell) summarise() {
	n := float64(len(c.Runs))
	c.Mean = Row{Period: c.Period, Policy: c.Policy.String()}
	for _, r := range c.Runs {
		m := r.Metrics
		c.Mean.SNP += m.SNP / n
		c.Mean.L1 += m.L1 / n
		c.Mean.L2 += m.L2 / n
		c.Mean.Unfairness += m.Unfairness / n
		c.Mean.AvgResp += m.AvgResponse / n
		c.Mean.WorkLost += r.WorkLost / n
		c.Kills += float64(r.Kills) / n
		c.LongKill += float64(r.LongKills) / n
		c.Starve += float64(r.StarveKills) / n
		c.Small += float64(r.SmallKills) / n
		c.Jobs += r.MeanJobs / n
		c.NonProd += r.NonProdShare / n
	}
}

// Summary averages the cells of each (period, policy) over positions, in the
// order busy/baseline, busy/GP, idle/baseline, idle/GP.
func Summary(cells []Cell) Output {
	var out Output
	for _, p := range periods {
		for _, pol := range []Policy{Baseline, GP} {
			row := Row{Period: p.name, Policy: pol.String()}
			n := 0.0
			for _, c := range cells {
				if c.Period == p.name && c.Policy == pol {
					n++
				}
			}
			for _, c := range cells {
				if c.Period != p.name || c.Policy != pol {
					continue
				}
				row.SNP += c.Mean.SNP / n
				row.L1 += c.Mean.L1 / n
				row.L2 += c.Mean.L2 / n
				row.Unfairness += c.Mean.Unfairness / n
				row.AvgResp += c.Mean.AvgResp / n
				row.WorkLost += c.Mean.WorkLost / n
			}
			out.Periods = append(out.Periods, row)
		}
	}
	return out
}

// PrintTable writes the per-position cells and the summary.
func PrintTable(w io.Writer, cells []Cell, reps int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "period\tlong job at\tpolicy\tSNP\tl1\tl2\tunfairness\tavg resp (s)\twork lost (slot·s)\tkills\tlong-job\tof which starving\tsmall-job\t\n")
	for _, c := range cells {
		m := c.Mean
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t\n",
			c.Period, c.Position, m.Policy, m.SNP, m.L1, m.L2, m.Unfairness, m.AvgResp, m.WorkLost, c.Kills, c.LongKill, c.Starve, c.Small)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmeans over long-job positions and %d seeds each:\n", reps)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "period\tpolicy\tSNP\tl1\tl2\tunfairness\tavg resp (s)\twork lost (slot·s)\t\n")
	s := Summary(cells).Periods
	for _, r := range s {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.0f\t\n",
			r.Period, r.Policy, r.SNP, r.L1, r.L2, r.Unfairness, r.AvgResp, r.WorkLost)
	}
	tw.Flush()
	for _, p := range periods {
		jobs, nonProd, n := 0.0, 0.0, 0.0
		for _, c := range cells {
			if c.Period == p.name && c.Policy == Baseline {
				jobs, nonProd, n = jobs+c.Jobs, nonProd+c.NonProd, n+1
			}
		}
		if n > 0 {
			fmt.Fprintf(w, "%s (baseline, until the last counted arrival): %.1f jobs in the system, non-production jobs hold %.0f%% of the slots (003 §VI-E: < 5 jobs most of the time when idle; almost 90%% non-production when busy)\n",
				p.name, jobs/n, 100*nonProd/n)
		}
	}
	for i := 0; i+1 < len(s); i += 2 {
		b, g := s[i], s[i+1]
		wins, runs := pairedWins(cells, b.Period)
		fmt.Fprintf(w, "%s: GP changes SNP by %+.1f%% (higher in %d of %d paired runs), unfairness by %+.1f%%, avg response by %+.1f%%, work lost by %+.1f%% (paper, busy: SNP +15%%, fairness no worse)\n",
			b.Period, pct(g.SNP, b.SNP), wins, runs, pct(g.Unfairness, b.Unfairness), pct(g.AvgResp, b.AvgResp), pct(g.WorkLost, b.WorkLost))
	}
}

// pairedWins counts the runs of a period (same jobs under both policies)
// in which GP's SNP is higher than the baseline's.
func pairedWins(cells []Cell, period string) (wins, runs int) {
	for i := 0; i+1 < len(cells); i++ {
		b, g := cells[i], cells[i+1]
		if b.Period != period || b.Policy != Baseline || g.Policy != GP || g.Position != b.Position {
			continue
		}
		for r := range min(len(b.Runs), len(g.Runs)) {
			runs++
			if g.Runs[r].Metrics.SNP > b.Runs[r].Metrics.SNP {
				wins++
			}
		}
	}
	return wins, runs
}

func pct(x, base float64) float64 {
	if base == 0 {
		return 0
	}
	return 100 * (x - base) / base
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "preemption:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("preemption", flag.ContinueOnError)
	jsonOut := fs.Bool("json", false, `print {"periods":[…]} instead of the table`)
	plotDir := fs.String("plot", "", "write bar charts like 003 Fig. 3 into this directory")
	trace := fs.String("trace", "", "take the ordinary jobs from a SWIM .tsv or a Google task_events .csv.gz")
	reps := fs.Int("reps", 5, "seeds per period and long-job position")
	positions := fs.String("positions", "1,66,92", "the long job's arrival positions (1-based, comma-separated)")
	seed := fs.Uint64("seed", 1, "first seed")
	trigger := fs.String("trigger", "hfs", "preemption trigger: hfs (pool min share, half fair share) or jobshare (every job below its fair share; ablation)")
	noStarve := fs.Bool("no-starvation", false, "ablation: turn GP's starvation rule off")
	timeout := fs.Float64("preempt-timeout", 0, "HFS min-share and fair-share preemption timeout in seconds (sensitivity; 003 gives none)")
	once := fs.Bool("graduated-once", false, "ablation: before T_timeout kill 50% of the long job's onset overflow in all, not 50% at every check")
	atK := fs.Bool("starvation-at-k", false, "ablation: GP's starvation victims stop at k (the model before review)")
	servedJobs := fs.Bool("served-jobs-only", false, "ablation: protect only the short pool's jobs below their share, not the whole pool (the model before review)")
	overShare := fs.Bool("overshare-only", false, "ablation: victims only from jobs above their fair share (GP's pool shrinks to the baseline's jobs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !(*timeout >= 0 && *timeout <= 1e6) {
		return fmt.Errorf("-preempt-timeout %v must be in [0, 1e6] s", *timeout)
	}
	if *reps < 1 {
		return fmt.Errorf("-reps %d must be ≥ 1", *reps)
	}
	o := Options{Reps: *reps, Seed: *seed, OverShareOnly: *overShare, NoStarvation: *noStarve, ServedJobsOnly: *servedJobs, PreemptTimeout: *timeout, StarvationAtK: *atK, GraduatedOnce: *once}
	switch *trigger {
	case "hfs":
	case "jobshare":
		o.Trigger = TriggerJobShare
	default:
		return fmt.Errorf("-trigger %q: want hfs or jobshare", *trigger)
	}
	for _, f := range strings.Split(*positions, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 || p > countedJobs {
			return fmt.Errorf("-positions: %q is not a position in 1…%d", f, countedJobs)
		}
		o.Positions = append(o.Positions, p)
	}
	if *trace != "" {
		var err error
		if o.Ordinary, err = ReadTrace(*trace); err != nil {
			return err
		}
	}
	cells, err := Run(o)
	if err != nil {
		return err
	}
	return emit(stdout, cells, *reps, *jsonOut, *plotDir)
}

// emit writes the plots (when plotDir is set) and then the JSON document or
// the table.
func emit(w io.Writer, cells []Cell, reps int, jsonOut bool, plotDir string) error {
	if plotDir != "" {
		if err := Plot(plotDir, cells); err != nil {
			return err
		}
	}
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(Summary(cells))
	}
	PrintTable(w, cells, reps)
	return nil
}
