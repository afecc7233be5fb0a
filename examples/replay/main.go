// Command replay feeds whole real cluster traces through schedkit's
// decisions as a scheduler calls them, and times every decision: MP (package
// edf) for each free slot, admission control (package admission, MIMP Eq. 7
// strict, Queue.Decide) for each arriving job, and Global Preemption
// (package preempt) at each preemption check.
//
// Usage:
//
//	go run ./examples/replay [-trace both|swim|google] [-traces DIR]
//	    [-swim-slots N] [-google-slots N] [-max-maps N] [-window S] [-first N] [-drain S]
//	    [-admission advise|enforce] [-mode strict|paper] [-slack S]
//	    [-gp-interval S] [-seed N] [-json] [-plot DIR]
//
// The traces are read from ../shared/traces beside the repository (or
// -traces DIR): the FB-2010 SWIM day (24,442 jobs; tasks from input bytes)
// and the first shard of the Google clusterdata-2011 task events (450,146
// events). Each cluster is sized so that the queue grows into the tens of
// thousands: the replay measures decisions at the queue sizes a large cell
// sees, not a schedule's quality.
//
// # What a replay does
//
// A discrete-event simulation (examples/internal/des) of a slot cluster in
// the MIMP case study's mix of residual capacities (30% dedicated, 30%
// light, 30% medium, 10% heavy web load) with its data nodes (6 of 60 MB/s
// per 40 slots):
//
//   - on each arrival, admission.Queue.Decide (strict Eq. 7 by default,
//     O(log n)) over every job queued; with -admission advise (the default)
//     the decision is recorded and the job queued whatever it says, so the
//     queue grows as the trace does; with enforce a rejected job is dropped;
//   - while a job has a task not yet started, each free slot goes to the
//     job edf.Queue.MP picks (the IO check on), then Assign; a task end is
//     Release, and a job with nothing left is removed from both queues;
//   - every -gp-interval seconds, a preemption check: preempt.GP over the
//     running tasks, each job's fair share the slots over the queued jobs,
//     jobs of more than 1,000 tasks long; when some queued job holds no slot
//     it frees min(those jobs, slots/50) slots, whose tasks go back to
//     pending.
//
// The replay stops at the trace's last arrival (or -drain seconds later).
// Wall-clock time is read around each decision call only (the call, not the
// bookkeeping around it); decisions per second is the count over the time
// spent inside the calls. Peak memory is the process's peak RSS (VmHWM) and
// the Go heap's peak (sampled every 65,536 events).
//
// # Mapping the traces
//
//   - SWIM FB-2010 (examples/internal/hadoopsim.SWIMTrace): maps = ⌈map
//     input bytes / 128 MiB⌉, at most -max-maps; each job a MIMP case-study
//     type drawn by its arrival rate (seeded), its deadline arrival + the
//     type's period, its tasks' times off the model by MIMP §6.3.1's errors.
//   - Google clusterdata-2011 shard 0: Borg places tasks one by one, as
//     kube-scheduler places pods, so each task (its first SUBMIT; those
//     present at the start arrive at 0) is one job of one task. Its run
//     time is SCHEDULE → FINISH when the window has both, else its priority
//     band's median; the band (free 0–1, batch 2–8, production 9–11) is its
//     job type; production tasks have a deadline of arrival + 3 × the band
//     median.
//
// # Measured
//
// go run ./examples/replay, twice, on 2 AMD EPYC cores shared with other
// builds (load average 7–8); each replay takes about 2 s:
//
//	FB-2010 SWIM day: 24,442 jobs, 7,191,258 map tasks (at most 20,000 a
//	job), 300 slots; at most 20,338 jobs queued (6.4 million tasks).
//	  decision   count    per second   p50        p99          max
//	  MP         843,811  1.24–1.57 M  0.44 µs    0.62–0.82 µs 12–30 ms
//	  admission  24,442   0.82–1.50 M  0.45–0.57  1.3–2.5 µs   4–8 ms
//	  GP         5,755    88–192 k     3.7–3.8 µs 8.1–10.5 µs  4–28 ms
//	  peak RSS 133 MB, Go heap 122 MB
//
//	Google clusterdata-2011 shard 0: 190,926 tasks, 4,000 slots; at most
//	144,339 queued.
//	  decision   count    per second   p50        p99          max
//	  MP         166,309  1.38–2.56 M  0.34–0.35  0.72–0.88 µs 4–20 ms
//	  admission  190,926  2.0–2.7 M    0.26–0.30  0.72–0.86 µs 4–11 ms
//	  GP         373      7–14 k       67–74 µs   0.14–2.8 ms  1.2–5.6 ms
//	  peak RSS 227 MB, Go heap 205 MB (replayed alone)
//
// The maxima are the shared machine (the process descheduled, a garbage
// collection) more than the decisions: the p99 of every decision over a
// queue of 20,000 or 144,000 jobs is under 3 µs, except GP, which reads
// every running task (O(n log k) for n running tasks; 4,000 here).
// BenchmarkReplay replays both traces at these sizes.
//
// The report ends with kube-scheduler's published scheduler_perf throughput
// for context (kubernetes/kubernetes,
// test/integration/scheduler_perf/misc/performance-config.yaml: each
// workload's threshold is the least average SchedulingThroughput, pods per
// second, its CI job accepts). kube-scheduler's figure is per pod and
// includes filtering and scoring 5,000 nodes and binding through the API
// server; schedkit's is one decision on state the caller keeps: the two are
// context, not a race.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/tracedir"
)

const usage = `usage: go run ./examples/replay [flags]

Replays the FB-2010 SWIM day and the Google clusterdata-2011 shard through
schedkit's decisions (MP, strict admission, Global Preemption) on clusters
small enough that tens of thousands of jobs queue, and reports decisions per
second, p50/p99/max decision latency and peak memory. Progress on stderr.`

// Defaults: clusters that let the queue grow into the tens of thousands.
const (
	defSwimSlots   = 300
	defGoogleSlots = 4000
	defMaxMaps     = 20000
	defGPInterval  = 15
)

func main() { os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr)) }

// runMain is the command: it parses and validates the flags, replays, and
// prints. It returns the exit status.
func runMain(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("replay", usage, stderr)
	which := fs.String("trace", "both", "which trace to replay: both, swim or google")
	dir := fs.String("traces", "", "`DIR` holding swim-facebook/ and google-clusterdata-2011/ (default: ../shared/traces beside the repository)")
	swimSlots := fs.Int("swim-slots", defSwimSlots, "map slots of the SWIM replay's cluster, in [1, 1000000]")
	googleSlots := fs.Int("google-slots", defGoogleSlots, "slots of the Google replay's cluster, in [1, 1000000]")
	maxMaps := fs.Int("max-maps", defMaxMaps, "most map tasks of one SWIM job, in [1, 1000000]")
	window := fs.Float64("window", 0, "replay only the jobs submitted in the first S seconds of each trace, S in [0, 1e6] (0: all)")
	first := fs.Int("first", 0, "replay only the first N jobs of each trace, N in [0, 10000000] (0: all)")
	drain := fs.Float64("drain", 0, "keep replaying S seconds after the last arrival, S in [0, 1e6]")
	admit := fs.String("admission", "advise", "advise (decide, queue every job) or enforce (drop rejected jobs)")
	mode := fs.String("mode", "strict", "admission rule: strict (every queued deadline checked) or paper (MIMP Eq. 7)")
	slack := fs.Float64("slack", 0, "MP's at-risk slack, in [0, 100]: edf.Config.Margin is 1 + slack")
	gp := fs.Float64("gp-interval", defGPInterval, "seconds between preemption checks, in [0, 86400] (0: none)")
	seed := fs.Uint64("seed", 1, "seed of the SWIM job types and task times")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	plotDir := fs.String("plot", "", "write PNG plots of the decision latencies into `DIR`")
	if code, done := cli.Parse(fs, args); done {
		return code
	}
	var c cli.Checker
	c.OneOf("trace", *which, "both", "swim", "google")
	c.Int("swim-slots", *swimSlots, 1, 1000000)
	c.Int("google-slots", *googleSlots, 1, 1000000)
	c.Int("max-maps", *maxMaps, 1, 1000000)
	c.Float("window", *window, 0, 1e6)
	c.Int("first", *first, 0, 10000000)
	c.Float("drain", *drain, 0, 1e6)
	c.OneOf("admission", *admit, "advise", "enforce")
	c.OneOf("mode", *mode, "strict", "paper")
	c.Float("slack", *slack, 0, 100)
	c.Float("gp-interval", *gp, 0, 86400)
	c.Dir("plot", *plotDir)
	if *dir == "" {
		if *dir = tracedir.Find(); *dir == "" {
			c.Failf("traces", "not given, and ../shared/traces was not found beside the repository: give the directory holding swim-facebook/ and google-clusterdata-2011/")
		}
	}
	var files []string
	if *dir != "" {
		if *which != "google" {
			files = append(files, filepath.Join(*dir, swimFile))
		}
		if *which != "swim" {
			files = append(files, filepath.Join(*dir, googleFile))
		}
		for _, f := range files {
			c.File("traces", f)
		}
	}
	if err := c.Err(); err != nil {
		return cli.Fail(stderr, "replay", err, cli.ExitUsage)
	}
	progress := stderr
	if *asJSON {
		progress = nil
	}
	var results []Result
	for _, f := range files {
		var w *workload
		var err error
		cfg := Config{Admission: *admit, Mode: *mode, Slack: *slack, GPInterval: *gp, Drain: *drain}
		if filepath.Base(f) == filepath.Base(swimFile) {
			w, err = swimWorkload(f, *maxMaps, *window, *seed)
			cfg.Slots = *swimSlots
		} else {
			w, err = googleWorkload(f, *window)
			cfg.Slots = *googleSlots
		}
		if err != nil {
			return cli.Fail(stderr, "replay", err, cli.ExitError)
		}
		if *first > 0 && *first < len(w.Units) {
			w.Units = w.Units[:*first]
		}
		var prog *cli.Progress
		if progress != nil {
			prog = cli.NewProgress(progress, "replay "+w.Name+": arrivals", len(w.Units))
		}
		res, err := run(w, cfg, func() { prog.Add(1) })
		prog.Done()
		if err != nil {
			return cli.Fail(stderr, "replay", fmt.Errorf("%s: %w", w.Name, err), cli.ExitError)
		}
		results = append(results, res)
	}
	return cli.Emit(stdout, stderr, "replay", cli.Output{
		PlotDir: *plotDir, Plot: func(dir string) error { return plotLatencies(dir, results) },
		JSON: *asJSON, Doc: func() any { return map[string]any{"replays": results, "kube_scheduler": kubeSchedulerPerf} },
		Text: func(w io.Writer) error { report(w, results); return nil },
	})
}
