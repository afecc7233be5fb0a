package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/controller"
	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/dshell"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// Configurations of a comparison.
const (
	Stock    = "stock"    // the Capacity Scheduler alone
	Schedkit = "schedkit" // the Capacity Scheduler with the schedkit controller acting
)

// Compare configures a stock-versus-schedkit comparison.
type Compare struct {
	// Script is minirm.sh; Dir holds each configuration's cluster
	// directory; Port and Port+5 are the clusters' REST ports (RPC on
	// the next four of each).
	Script string
	Dir    string
	Port   int
	// Workload maps Jobs to the apps both configurations run. With
	// MeasureAMStart, its AMStart is first measured on the stock run's
	// fresh cluster (MeasureAMStart).
	Workload       Workload
	Jobs           []trace.SWIMJob
	MeasureAMStart bool
	// Model names the apps' job type; Controller is the controller's
	// policy, its Catalog the workload's (Workload.Catalog).
	Model      string
	Controller deadline.Config
	Interval   time.Duration
	Grace      time.Duration
	Log        io.Writer

	apps []App
}

// A Result is one configuration's outcomes.
type Result struct {
	Config   string
	Outcomes []Outcome
	Summary  Summary
	// Wall is how long the run took, cluster start and stop excluded.
	Wall time.Duration
	// ControllerLog is what the controller wrote (schedkit only).
	ControllerLog string
}

// Do runs the apps once per configuration, stock first, each on a fresh
// cluster of the same nodes. Both clusters start together (stock on Port,
// schedkit on Port+5) and both stay up until both runs are over, so that
// each run has the other, idle, cluster beside it. It returns the results
// and the workload the apps came from (with the measured AMStart).
func (c *Compare) Do(ctx context.Context) ([]Result, Workload, error) {
	logw := c.Log
	if logw == nil {
		logw = io.Discard
	}
	cfgs := []string{Stock, Schedkit}
	clusters := make([]*Cluster, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Fprintf(logw, "== %s: starting a fresh cluster\n", cfg)
			clusters[i], errs[i] = StartCluster(ctx, c.Script, filepath.Join(c.Dir, cfg), c.Port+5*i)
		}()
	}
	wg.Wait()
	defer func() {
		for _, cl := range clusters {
			if cl != nil {
				cl.Stop()
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return nil, c.Workload, err
	}
	if err := c.prepare(ctx, clusters[0], logw); err != nil {
		return nil, c.Workload, fmt.Errorf("%s: %w", Stock, err)
	}
	var out []Result
	for i, cfg := range cfgs {
		res, err := c.one(ctx, cfg, clusters[i], logw)
		if err != nil {
			return nil, c.Workload, fmt.Errorf("%s: %w", cfg, err)
		}
		out = append(out, res)
	}
	return out, c.Workload, nil
}

// prepare measures AMStart if asked and maps the jobs to apps and the
// controller's catalog, once, for both configurations.
func (c *Compare) prepare(ctx context.Context, cl *Cluster, logw io.Writer) error {
	if c.MeasureAMStart {
		client, err := rm.New(cl.URL, rm.Config{User: "schedkit"})
		if err != nil {
			return err
		}
		d, err := MeasureAMStart(ctx, client, cl.Env)
		if err != nil {
			return err
		}
		c.Workload.AMStart = d.Seconds()
		fmt.Fprintf(logw, "== ApplicationMaster start measured: %.1f s\n", d.Seconds())
	}
	var err error
	if c.apps, err = c.Workload.Apps(c.Jobs); err != nil {
		return err
	}
	cat, err := c.Workload.Catalog(c.Model, c.apps)
	if err != nil {
		return err
	}
	c.Controller.Catalog = cat
	return nil
}

// MeasureAMStart submits one DistributedShell app of one container of 1 s
// to the idle cluster and returns the time from its submission until its
// ApplicationMaster registered (RUNNING), then waits for it to end.
func MeasureAMStart(ctx context.Context, c *rm.Client, env dshell.Env) (time.Duration, error) {
	t0 := time.Now()
	id, err := dshell.Submit(ctx, c, env, dshell.App{Name: "replay: ApplicationMaster start", Containers: 1, Sleep: time.Second})
	if err != nil {
		return 0, err
	}
	var d time.Duration
	for end := t0.Add(5 * time.Minute); ; {
		a, err := c.App(ctx, id)
		if err != nil {
			return 0, err
		}
		switch s := string(a.State); {
		case s == rm.StateRunning && d == 0:
			d = time.Since(t0)
		case s == rm.StateFinished:
			if d == 0 {
				d = time.Since(t0)
			}
			return d, nil
		case s == rm.StateFailed || s == rm.StateKilled:
			return 0, fmt.Errorf("replay: the ApplicationMaster-start probe %s ended %s: %s", id, s, a.Diagnostics)
		}
		if time.Now().After(end) {
			return 0, fmt.Errorf("replay: the ApplicationMaster-start probe %s is %s after 5 minutes", id, a.State)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
func (c *Compare) one(ctx context.Context, cfg string, cl *Cluster, logw io.Writer) (Result, error) {
	client, err := rm.New(cl.URL, rm.Config{User: "schedkit"})
	if err != nil {
		return Result{}, err
	}
	r := Run{Client: client, Env: cl.Env, Apps: c.apps, Model: c.Model, Grace: c.Grace, Log: logw}
	var clog strings.Builder
	if cfg == Schedkit {
		ctl, err := controller.New(client, controller.Options{Config: c.Controller, Log: &clog})
		if err != nil {
			return Result{}, err
		}
		r.Controller, r.Interval = ctl, c.Interval
	}
	fmt.Fprintf(logw, "== %s: replaying %d apps on %s\n", cfg, len(c.apps), cl.URL)
	t0 := time.Now()
	os, err := r.Do(ctx)
	if err != nil {
		return Result{}, err
	}
	return Result{Config: cfg, Outcomes: os, Summary: Summarize(os), Wall: time.Since(t0), ControllerLog: clog.String()}, nil
}

// Table writes the results as a table: apps, deadlines met and missed,
// the share of kept apps that missed, apps killed, container time.
func Table(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tapps\tmet\tmissed\tkilled\tkept that missed\tcontainer-s\twall\t")
	for _, r := range rs {
		s := r.Summary
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.0f %%\t%d\t%.0f s\t\n", r.Config, s.Apps, s.Met, s.Missed, s.Killed,
			100*s.KeptMissedShare(), s.ContainerSeconds, r.Wall.Seconds())
	}
	return tw.Flush()
}

// OutcomeTable writes one line per app: its job, maps, task time and
// relative deadline, then per configuration how it ended — met, missed
// (with how late, or how it ended) or killed — and its container time.
func OutcomeTable(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "job\tmaps\ttask s\tdeadline s")
	for _, r := range rs {
		fmt.Fprintf(tw, "\t%s\tcontainer-s", r.Config)
	}
	fmt.Fprintln(tw)
	if len(rs) == 0 {
		return tw.Flush()
	}
	for i, o := range rs[0].Outcomes {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f", o.App.Job, o.App.Maps, o.App.Sleep.Seconds(), (o.App.Deadline - o.App.At).Seconds())
		for _, r := range rs {
			if i < len(r.Outcomes) {
				fmt.Fprintf(tw, "\t%s\t%d", verdict(r.Outcomes[i]), r.Outcomes[i].ContainerSeconds)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func verdict(o Outcome) string {
	switch {
	case o.Met:
		return fmt.Sprintf("met (%.0f s early)", (o.Deadline - o.Finished).Seconds())
	case o.Killed:
		return "killed"
	case o.State == rm.StateFinished && o.FinalStatus == "SUCCEEDED":
		return fmt.Sprintf("missed (%.0f s late)", (o.Finished - o.Deadline).Seconds())
	}
	return "missed (" + strings.ToLower(o.State) + ")"
}
