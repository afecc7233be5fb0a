// Command schedkit-replay submits a real trace to fresh simulated batch
// clusters (adapters/cluster/up.sh: real etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, Kueue, kwok nodes) as batch/v1
// Jobs, once per configuration — stock Kueue and kube-scheduler; Kueue
// with the schedkit.io/deadline check; the check and schedkit-scheduler —
// and load, and prints the deadlines met, missed and rejected, the share
// of admitted Jobs that missed, creation → admission, work lost to
// preemption, controller and scheduler CPU, and the check's ETA against
// what happened. Progress goes to stderr. Run it from adapters/cluster:
//
//	go run ./cmd/schedkit-replay -h
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schedkit/schedkit/adapters/cluster/replay"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schedkit-replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	trace := fs.String("trace", "../../../shared/traces/pwa-swf/KTH-SP2-1996-2.1-cln.swf.gz", "the trace file")
	format := fs.String("format", "swf", "the trace's format: swf (Parallel Workloads Archive; deadline = submission + the user's requested time), swim (a SWIM Facebook day: ⌈map input / 128 MiB⌉ tasks, run time drawn from the TeraGen map-task lognormal) or google (a clusterdata-2011 task_events file: tasks, the longest task's run); jobs without an estimate get submission + a factor drawn as MIMP §6.6 gives deadlines × their run time")
	seed := fs.Uint64("seed", 1, "seeds the drawn run times (swim) and deadline factors")
	from := fs.Float64("from", 0, "first second of the trace's window")
	span := fs.Float64("span", 86400, "length of the window, trace seconds (0: to the end)")
	compress := fs.Float64("compress", 100, "run and requested times are divided by this")
	loadsFlag := fs.String("loads", "own,0.5,1,2", "offered loads, comma-separated: own (the trace's spacing) or multiples of the cluster's capacity")
	configs := fs.String("configs", "stock,check,schedkit", "configurations, in order: stock, check, schedkit, and instant (Kueue with an admission check the replay answers Ready at once)")
	reps := fs.Int("repeat", 1, "repetitions of the whole replay (the same submissions; the report gives each figure's range)")
	nodes := fs.Int("nodes", 4, "kwok nodes")
	nodeCPUs := fs.Int("node-cpus", 8, "CPUs per node")
	traceProcs := fs.Int("trace-procs", 0, "processors of the traced machine (0: the largest job's)")
	minRun := fs.Duration("min-run", 2*time.Second, "compressed run times below this are raised to it (requested time in proportion)")
	maxRun := fs.Duration("max-run", 0, "leave out jobs whose compressed run time is above this (0: none)")
	maxJobs := fs.Int("max-jobs", 0, "keep the window's first N jobs (0: all)")
	grace := fs.Duration("grace", 15*time.Second, "after the last deadline, wait this long for running jobs")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	plots := fs.String("plots", "", "write PNG plots to this directory: outcomes by load, and each checked configuration's predicted against actual finish")
	deadlineFlags := fs.String("deadline-flags", replay.DefaultDeadlineFlags, "schedkit-deadline's extra flags in the check and schedkit configurations")
	sideBySide := fs.Bool("side-by-side", false, "run the configurations of a load at the same time, each on its own cluster, so that they share the machine's load (else one after the other)")
	dry := fs.Bool("plan", false, "print each load's submissions (count, pods, pod-seconds, span) and stop")
	state := fs.String("state", "", "directory for the clusters' state (default: a new temporary directory, removed at the end)")
	audit := fs.Bool("audit", false, "keep each cluster's kube-apiserver audit log of writes to Workloads (with their bodies), Jobs and pods, as logs/audit.log in its state directory (with -state)")
	kueueFlags := fs.String("kueue-flags", "", `the Kueue manager's extra flags, e.g. "--zap-log-level=3" for its reconcilers' log lines (in logs/kueue.log under -state)`)
	scripts := fs.String("cluster-dir", ".", "adapters/cluster (up.sh, down.sh)")
	summarize := fs.String("summarize", "", "run nothing: read the results of earlier runs' -json files (comma-separated), pool their repetitions, and print the tables of a run (with -plots, its plots)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "schedkit-replay:", err); return 1 }
	if *summarize != "" {
		rs, err := replay.ReadResults(strings.Split(*summarize, ","))
		if err != nil {
			return fail(err)
		}
		report(stdout, rs)
		if *plots != "" {
			if err := replay.Plots(*plots, rs); err != nil {
				return fail(err)
			}
		}
		return 0
	}
	if _, err := os.Stat(filepath.Join(*scripts, "up.sh")); err != nil {
		return fail(fmt.Errorf("-cluster-dir %s: no up.sh (run from adapters/cluster)", *scripts))
	}
	cs, err := replay.ParseConfigs(*configs)
	if err != nil {
		return fail(err)
	}
	var loads []float64
	for _, f := range strings.Split(*loadsFlag, ",") {
		if f = strings.TrimSpace(f); f == "own" {
			loads = append(loads, 0)
			continue
		}
		l, err := strconv.ParseFloat(f, 64)
		if err != nil || l <= 0 {
			return fail(fmt.Errorf("-loads: %q is neither own nor a positive number", f))
		}
		loads = append(loads, l)
	}
	if *nodes < 1 || *nodeCPUs < 1 || *reps < 1 {
		return fail(errors.New("-nodes, -node-cpus and -repeat must be ≥ 1"))
	}
	jobs, skipped, err := replay.ReadTraceFile(*trace, *format, *seed)
	if err != nil {
		return fail(err)
	}
	if *traceProcs == 0 {
		for _, j := range jobs {
			*traceProcs = max(*traceProcs, j.Procs)
		}
	}
	fmt.Fprintf(stderr, "%s: %d jobs (%d skipped: no run time or processors)\n", *trace, len(jobs), skipped)
	w := replay.Workload{From: *from, Span: *span, Compress: *compress, TraceProcs: *traceProcs,
		CPUs: *nodes * *nodeCPUs, MinRun: *minRun, MaxRun: *maxRun, MaxJobs: *maxJobs, Seed: *seed}
	if *dry {
		for _, l := range loads {
			w.Load = l
			p, err := w.Build(jobs)
			if err != nil {
				return fail(err)
			}
			fmt.Fprintln(stdout, replay.Describe(p, replay.LoadName(l)))
		}
		return 0
	}
	dir := *state
	if dir == "" {
		if dir, err = os.MkdirTemp("", "schedkit-replay-"); err != nil {
			return fail(err)
		}
		defer os.RemoveAll(dir)
	}
	scriptsAbs, err := filepath.Abs(*scripts)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t0 := time.Now()
	rs, err := replay.Execute(ctx, jobs, replay.Options{
		Workload: w,
		Loads:    loads, Configs: cs, Reps: *reps, Nodes: *nodes, NodeCPUs: *nodeCPUs,
		Scripts: scriptsAbs, StateDir: dir, Grace: *grace, DeadlineFlags: *deadlineFlags,
		SideBySide: *sideBySide, Audit: *audit, KueueFlags: *kueueFlags,
		Progress: func(s string) { fmt.Fprintf(stderr, "%s %s\n", time.Now().UTC().Format("15:04:05"), s) },
	})
	if len(rs) > 0 {
		report(stdout, rs)
		lo, hi := replay.LoadAverages(rs)
		fmt.Fprintf(stdout, "\n%d nodes × %d CPUs; %s window %s, compressed %g×; %v in all; load average %.1f–%.1f\n",
			*nodes, *nodeCPUs, filepath.Base(*trace), w.Window(), *compress, time.Since(t0).Round(time.Second), lo, hi)
	}
	if *jsonOut != "" && len(rs) > 0 {
		b, jerr := json.MarshalIndent(rs, "", "  ")
		if jerr == nil {
			jerr = os.WriteFile(*jsonOut, append(b, '\n'), 0o644)
		}
		if jerr != nil {
			return fail(jerr)
		}
	}
	if *plots != "" && len(rs) > 0 {
		if perr := replay.Plots(*plots, rs); perr != nil {
			return fail(perr)
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// report writes the tables of a run: the results, their range over
// repetitions, the phases, the Job-by-Job comparison with stock and the
// margins over stock.
func report(w io.Writer, rs []replay.Result) {
	replay.Table(w, rs)
	replay.Spread(w, rs)
	replay.PhaseTable(w, rs)
	cs := replay.Compare(rs)
	replay.CompareTable(w, cs)
	replay.MarginTable(w, replay.Margins(cs))
}
