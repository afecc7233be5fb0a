// Command schedkit-yarn is schedkit's deadline controller for Hadoop YARN,
// acting from outside the ResourceManager through its REST API, and the
// importer that fits its models from job traces.
//
// # Controller
//
//	schedkit-yarn -rm http://rm.example.com:8088 [flags]
//	schedkit-yarn -snapshot demo [-reservation-queue dedicated]   (dry run on the embedded snapshot)
//
// Applications opt in with tags (see package deadline):
//
//	schedkit.io/deadline=<RFC 3339 time> | schedkit.io/deadline=<duration after start>
//	schedkit.io/job-type=<job type in -models>   (optional with -default-model)
//	schedkit.io/tasks=<map tasks>                (optional; the type's median otherwise)
//
// e.g. hadoop jar … -Dmapreduce.job.tags=schedkit.io/deadline=45m,schedkit.io/job-type=teragen.
// Every -interval the controller reads the ACCEPTED and RUNNING apps, the
// nodes and the scheduler, then, deciding with schedkit's edf, admission
// and tct:
//
//   - kills an ACCEPTED app that cannot meet its deadline without making an
//     admitted one late, with a diagnostic saying why (-report-only: only
//     report it);
//   - ranks the deadline apps (-order mp: at risk on their containers
//     first, then EDF; -order edf) and writes YARN priorities from
//     -max-priority down to -min-priority (Capacity Scheduler only);
//   - with -reservation-queue, reserves containers for each admitted
//     ACCEPTED app (count from tct's workers-for-confidence, duration its
//     completion-time quantile, minimum concurrency from edf's minimum
//     slots) and moves the app into the reservation;
//   - with -lifetime, sets each app's LIFETIME timeout to its deadline plus
//     -lifetime-grace.
//
// -dry-run prints the plan — every app's numbers, every change and its
// reason — and writes nothing. -json prints the plan as JSON. Exit status:
// 0 done, 1 a pass or I/O failed (-once), 2 a bad flag.
//
// # Importer
//
//	schedkit-yarn import [-format auto|rumen|sls|jobhistory] [-models FILE] [-sls FILE] [-deadline-factor F] FILE…
//
// reads Rumen job traces, SLS job files or JobHistory task lists, fits each
// job type's models with tct and tct/jct (lognormal task, reduce and container-arrival
// times; exp2 against residual capacity with -host-cores), prints each
// fit and its NRMSE, writes the model catalog the controller reads
// (-models) and an SLS job file with deadlines (-sls) for Hadoop's SLS.
//
// # Replay
//
//	schedkit-yarn replay -trace FILE [-from S] [-span S] [-compress F] [-task-scale F] [flags]
//
// replays a slice of a SWIM workload as real DistributedShell apps on
// Hadoop's MiniYARNCluster (minirm/minirm.sh), once with the stock
// Capacity Scheduler alone and once with this controller acting, each on a
// fresh cluster, and prints deadlines met and missed, the share of kept
// apps that missed, apps killed and container time (package replay).
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/controller"
	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// demoSnapshot is the embedded cluster snapshot of -snapshot demo (see
// testdata/README.md).
//
//go:embed testdata/demo-snapshot.json
var demoSnapshot []byte

// defaultModels is the catalog fitted to the Rumen TeraGen trace of
// Hadoop's SLS (job type "teragen"), used when -models is not given.
//
//go:embed testdata/teragen-models.json
var defaultModels []byte

// wallClock is the controller's clock against a live RM (tests replace it).
var wallClock = time.Now

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is a bad flag or argument: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func run(args []string, stdout, stderr io.Writer) int {
	var err error
	switch {
	case len(args) > 0 && args[0] == "import":
		err = runImport(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "replay":
		err = runReplay(args[1:], stdout, stderr)
	default:
		err = runController(args, stdout, stderr)
	}
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "schedkit-yarn:", err)
		return 2
	}
	fmt.Fprintln(stderr, "schedkit-yarn:", err)
	return 1
}

// options are the controller's flags.
type options struct {
	rmURL, snapshot, record, models, user string
	cfg                                   deadline.Config
	interval, timeout                     time.Duration
	attempts                              int
	once, dryRun, asJSON                  bool
}

func parseController(args []string, stderr io.Writer) (options, error) {
	o := options{cfg: deadline.DefaultConfig()}
	fs := flag.NewFlagSet("schedkit-yarn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: schedkit-yarn -rm URL [flags]          run the deadline controller
       schedkit-yarn -snapshot demo|FILE [flags] plan on a recorded cluster (dry run)
       schedkit-yarn import -h                   fit models from traces
       schedkit-yarn replay -h                   stock vs schedkit on a replayed trace

Apps opt in with the tags schedkit.io/deadline=<RFC 3339 time>|<duration>,
schedkit.io/job-type=<type>, schedkit.io/tasks=<n>. Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.rmURL, "rm", "", "ResourceManager web address, e.g. http://rm:8088")
	fs.StringVar(&o.snapshot, "snapshot", "", `plan on a recorded snapshot instead of a live RM ("demo": the embedded one); implies -dry-run`)
	fs.StringVar(&o.record, "record", "", "after the first pass, write what was read from the RM as a snapshot to this file")
	fs.StringVar(&o.models, "models", "", "job-type catalog written by 'schedkit-yarn import' (default: the embedded teragen catalog)")
	fs.StringVar(&o.cfg.DefaultModel, "default-model", "", "job type of a deadline app without a schedkit.io/job-type tag (default: none; such apps are rejected)")
	fs.StringVar(&o.cfg.Order, "order", o.cfg.Order, `priority order: "mp" (at-risk apps first, then EDF) or "edf"`)
	fs.Int64Var(&o.cfg.MinPriority, "min-priority", o.cfg.MinPriority, "lowest YARN priority written, ≥ 0")
	fs.Int64Var(&o.cfg.MaxPriority, "max-priority", o.cfg.MaxPriority, "priority of the first app in the order, ≥ -min-priority; keep ≤ yarn.cluster.max-application-priority")
	fs.Int64Var(&o.cfg.ContainerMB, "container-mb", o.cfg.ContainerMB, "memory of one task container in MB, ≥ 1")
	fs.Int64Var(&o.cfg.ContainerVCores, "container-vcores", o.cfg.ContainerVCores, "virtual cores of one task container, ≥ 1")
	fs.BoolVar(&o.cfg.ReportOnly, "report-only", false, "report ACCEPTED apps that cannot meet their deadline instead of killing them")
	fs.StringVar(&o.cfg.PlanQueue, "reservation-queue", "", "reservable queue of the ReservationSystem; empty: no reservations")
	fs.Float64Var(&o.cfg.Confidence, "confidence", o.cfg.Confidence, "probability a reservation must give of meeting the deadline, in (0, 1)")
	fs.IntVar(&o.cfg.Runs, "runs", o.cfg.Runs, "Monte-Carlo runs per prediction behind a reservation, ≥ 1")
	fs.Uint64Var(&o.cfg.Seed, "seed", o.cfg.Seed, "seed of the Monte-Carlo predictions (equal seeds, equal plans)")
	fs.BoolVar(&o.cfg.Lifetime, "lifetime", false, "set each deadline app's LIFETIME timeout to its deadline plus -lifetime-grace")
	fs.DurationVar(&o.cfg.LifetimeGrace, "lifetime-grace", 0, "grace added to the deadline for -lifetime, ≥ 0")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "time between passes, > 0")
	fs.BoolVar(&o.once, "once", false, "make one pass and exit")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the plan of each pass and write nothing")
	fs.BoolVar(&o.asJSON, "json", false, "print plans as JSON")
	fs.StringVar(&o.user, "user", os.Getenv("HADOOP_USER_NAME"), "user.name for the RM's simple authentication (default $HADOOP_USER_NAME)")
	fs.DurationVar(&o.timeout, "timeout", rm.DefaultTimeout, "bound on each HTTP attempt, > 0")
	fs.IntVar(&o.attempts, "attempts", rm.DefaultMaxAttempts, "attempts per request (retries on 5xx and timeouts with backoff), ≥ 1")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	if fs.NArg() > 0 {
		return o, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	var errs []error
	switch {
	case o.rmURL == "" && o.snapshot == "":
		errs = append(errs, errors.New("-rm URL or -snapshot is required"))
	case o.rmURL != "" && o.snapshot != "":
		errs = append(errs, errors.New("-rm and -snapshot exclude each other"))
	}
	if o.snapshot != "" {
		o.dryRun = true
		if o.record != "" {
			errs = append(errs, errors.New("-record needs -rm, not -snapshot"))
		}
	}
	if o.interval <= 0 {
		errs = append(errs, fmt.Errorf("-interval %v: must be > 0", o.interval))
	}
	if o.timeout <= 0 {
		errs = append(errs, fmt.Errorf("-timeout %v: must be > 0", o.timeout))
	}
	if o.attempts < 1 {
		errs = append(errs, fmt.Errorf("-attempts %d: must be ≥ 1", o.attempts))
	}
	cat, err := loadCatalog(o.models)
	if err != nil {
		errs = append(errs, fmt.Errorf("-models: %w", err))
	}
	o.cfg.Catalog = cat
	if err := o.cfg.Validate(); err != nil {
		errs = append(errs, flagNames(err))
	}
	if len(errs) > 0 {
		return o, usageError{errors.Join(errs...)}
	}
	return o, nil
}

// flagNames rewrites Config field names in validation errors to the flags
// that set them.
func flagNames(err error) error {
	r := strings.NewReplacer("Config.Order", "-order", "Config.MinPriority", "-min-priority",
		"Config.MaxPriority", "-max-priority", "Config.ContainerMB", "-container-mb",
		"Config.ContainerVCores", "-container-vcores", "Config.Confidence", "-confidence",
		"Config.Runs", "-runs", "Config.LifetimeGrace", "-lifetime-grace",
		"Config.DefaultModel", "-default-model", "MinPriority", "-min-priority")
	return errors.New(r.Replace(strings.ReplaceAll(err.Error(), "deadline: Config.", "Config.")))
}

func loadCatalog(path string) (trace.Catalog, error) {
	if path == "" {
		return trace.ReadCatalog(strings.NewReader(string(defaultModels)))
	}
	f, err := os.Open(path)
	if err != nil {
		return trace.Catalog{}, err
	}
	defer f.Close()
	return trace.ReadCatalog(f)
}

func runController(args []string, stdout, stderr io.Writer) error {
	o, err := parseController(args, stderr)
	if err != nil {
		return err
	}
	cfg := rm.Config{User: o.user, Timeout: o.timeout, MaxAttempts: o.attempts}
	url := o.rmURL
	now := wallClock
	var rec *controller.Recorder
	switch {
	case o.snapshot != "":
		body := demoSnapshot
		if o.snapshot != "demo" {
			if body, err = os.ReadFile(o.snapshot); err != nil {
				return err
			}
		}
		snap, at, err := controller.ReadSnapshot(strings.NewReader(string(body)))
		if err != nil {
			return err
		}
		cfg.HTTPClient = &http.Client{Transport: controller.SnapshotTransport{Snapshot: snap}}
		url, now = "http://snapshot", func() time.Time { return at }
	case o.record != "":
		rec = &controller.Recorder{}
		cfg.HTTPClient = &http.Client{Transport: rec}
	}
	if o.user == "" && !o.dryRun {
		fmt.Fprintln(stderr, "schedkit-yarn: no -user: writes go as the RM's static web user (dr.who), or are refused by an authentication filter in front of it")
	}
	client, err := rm.New(url, cfg)
	if err != nil {
		return usageError{fmt.Errorf("-rm: %w", err)}
	}
	c, err := controller.New(client, controller.Options{Config: o.cfg, DryRun: o.dryRun, Now: now, Log: stderr})
	if err != nil {
		return err
	}
	report := func(p deadline.Plan, res []controller.Result) {
		if o.asJSON {
			writeJSON(stdout, struct {
				Plan    deadline.Plan       `json:"plan"`
				Results []controller.Result `json:"results,omitempty"`
			}{p, res})
			return
		}
		fmt.Fprint(stdout, p)
		if o.dryRun {
			fmt.Fprintf(stdout, "dry run: %d changes planned, none written\n", len(p.Writes()))
		} else {
			fmt.Fprintf(stdout, "%d writes done, %d failed\n", len(res)-failed(res), failed(res))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.once || o.snapshot != "" {
		p, res, err := c.Pass(ctx)
		if err != nil {
			return err
		}
		report(p, res)
		if rec != nil {
			if err := writeFile(o.record, func(w io.Writer) error { return rec.Write(w, now()) }); err != nil {
				return err
			}
		}
		if failed(res) > 0 {
			return fmt.Errorf("%d of %d writes failed", failed(res), len(res))
		}
		return nil
	}
	first := rec != nil
	err = c.Run(ctx, o.interval, func(p deadline.Plan, res []controller.Result) {
		report(p, res)
		if first {
			first = false
			if err := writeFile(o.record, func(w io.Writer) error { return rec.Write(w, now()) }); err != nil {
				fmt.Fprintln(stderr, "schedkit-yarn: -record:", err)
			}
		}
	})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func failed(res []controller.Result) int {
	n := 0
	for _, r := range res {
		if r.Err != nil {
			n++
		}
	}
	return n
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeFile writes through fn to path, "-" meaning stdout is not allowed
// here (stdout carries the report).
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
