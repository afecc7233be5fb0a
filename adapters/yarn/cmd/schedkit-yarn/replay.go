package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/replay"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

type replayOptions struct {
	tracePath, minirm, dir, order, planQueue string
	port                                     int
	splitMB                                  int64
	interval, grace                          time.Duration
	w                                        replay.Workload
	verbose, perApp                          bool
}

func parseReplay(args []string, stderr io.Writer) (replayOptions, error) {
	o := replayOptions{w: replay.DefaultWorkload()}
	fs := flag.NewFlagSet("schedkit-yarn replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: schedkit-yarn replay -trace FILE [flags]

Replays a slice of a SWIM workload (the Facebook Hadoop days) as real
DistributedShell apps on Hadoop's MiniYARNCluster, twice, each time on a
fresh cluster started by minirm.sh: with the stock Capacity Scheduler
alone, then with the schedkit controller acting. Prints deadlines met and
missed, the share of kept (not killed) apps that missed, apps killed and
container time for each. Run from adapters/yarn. Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.tracePath, "trace", "", "SWIM workload file (tab-separated: id, submit s, gap s, input, shuffle, output bytes)")
	fs.Float64Var(&o.w.From, "from", o.w.From, "first second of the trace's slice")
	fs.Float64Var(&o.w.Span, "span", o.w.Span, "seconds of the trace replayed")
	fs.Float64Var(&o.w.Compress, "compress", o.w.Compress, "divide the time between submissions by this")
	fs.Int64Var(&o.splitMB, "split-mb", 128, "input MB per map task")
	fs.IntVar(&o.w.MaxMaps, "max-maps", o.w.MaxMaps, "most map tasks (containers) of one app")
	fs.Float64Var(&o.w.TaskScale, "task-scale", o.w.TaskScale, "multiply the task times (drawn from the TeraGen map lognormal) by this")
	fs.Float64Var(&o.w.AMStart, "am-start", 0, "seconds an ApplicationMaster takes to start, in each app's alone time; 0 measures it on the stock run's fresh cluster")
	fs.Float64Var(&o.w.DeadlineFactor, "deadline-factor", o.w.DeadlineFactor, "deadline = submission + factor × alone time")
	fs.Uint64Var(&o.w.Seed, "seed", o.w.Seed, "seed of the task-time draws")
	fs.StringVar(&o.minirm, "minirm", "minirm/minirm.sh", "the script that starts and stops a cluster")
	fs.StringVar(&o.dir, "dir", filepath.Join(os.TempDir(), "schedkit-replay"), "directory of the clusters' state and logs")
	fs.IntVar(&o.port, "port", 18288, "the stock cluster's REST port; the schedkit cluster's is port+5 (RPC on the next four of each)")
	fs.DurationVar(&o.interval, "interval", 2*time.Second, "controller pass interval")
	fs.DurationVar(&o.grace, "grace", 2*time.Minute, "wait this long after the last deadline, then kill what runs")
	fs.StringVar(&o.order, "order", deadline.OrderMP, `controller priority order: "mp" or "edf"`)
	fs.StringVar(&o.planQueue, "reservation-queue", "", "controller's reservable queue (default: no reservations)")
	fs.BoolVar(&o.verbose, "v", false, "log submissions, progress and the controller's writes to standard error")
	fs.BoolVar(&o.perApp, "apps", false, "also print how each app ended in each configuration")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	o.w.Split = o.splitMB << 20
	var errs []error
	if o.tracePath == "" {
		errs = append(errs, errors.New("replay: -trace is required"))
	}
	if fs.NArg() > 0 {
		errs = append(errs, fmt.Errorf("replay: unexpected arguments %q", fs.Args()))
	}
	if o.splitMB < 1 || o.splitMB > 1<<30 {
		errs = append(errs, fmt.Errorf("-split-mb %d: must be in [1, 2^30]", o.splitMB))
	}
	if err := o.w.Validate(); err != nil {
		errs = append(errs, err)
	}
	if o.port < 1024 || o.port > 65530 {
		errs = append(errs, fmt.Errorf("-port %d: must be in [1024, 65530]", o.port))
	}
	if o.interval <= 0 || o.grace < 0 {
		errs = append(errs, fmt.Errorf("-interval %v, -grace %v: must be > 0 and ≥ 0", o.interval, o.grace))
	}
	if len(errs) > 0 {
		return o, usageError{errors.Join(errs...)}
	}
	return o, nil
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	o, err := parseReplay(args, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(o.tracePath)
	if err != nil {
		return err
	}
	jobs, err := trace.ReadSWIM(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", o.tracePath, err)
	}
	if _, err := o.w.Apps(jobs); err != nil { // an empty window, before any cluster starts
		return err
	}
	cfg := deadline.DefaultConfig()
	cfg.Order, cfg.PlanQueue = o.order, o.planQueue
	cfg.ContainerMB, cfg.ContainerVCores, cfg.MaxPriority = 256, 1, 10
	logw := io.Discard
	if o.verbose {
		logw = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cmp := &replay.Compare{Script: o.minirm, Dir: o.dir, Port: o.port, Workload: o.w, Jobs: jobs, MeasureAMStart: o.w.AMStart == 0,
		Model: "swim", Controller: cfg, Interval: o.interval, Grace: o.grace, Log: logw}
	rs, w, err := cmp.Do(ctx)
	if err != nil {
		return err
	}
	if o.verbose {
		for _, r := range rs {
			fmt.Fprintf(stderr, "== %s controller log\n%s", r.Config, r.ControllerLog)
		}
	}
	maps, last := 0, time.Duration(0)
	for _, oc := range rs[0].Outcomes {
		maps += oc.App.Maps
		last = max(last, oc.App.At)
	}
	fmt.Fprintf(stdout, "%s: jobs submitted in [%g, %g) s: %d apps, %d map containers, submitted over %.0f s (time ÷ %g); task times TeraGen lognormal × %g; deadlines %g × alone time (ApplicationMaster start %.1f s)\n",
		filepath.Base(o.tracePath), w.From, w.From+w.Span, len(rs[0].Outcomes), maps, last.Seconds(), w.Compress, w.TaskScale, w.DeadlineFactor, w.AMStart)
	if err := replay.Table(stdout, rs); err != nil {
		return err
	}
	if o.perApp {
		fmt.Fprintln(stdout)
		return replay.OutcomeTable(stdout, rs)
	}
	return nil
}
