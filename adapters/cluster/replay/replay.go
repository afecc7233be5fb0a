package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options of a whole replay: every load, every configuration, each on a
// fresh cluster of the same nodes, one after the other.
type Options struct {
	Workload Workload // Load is set per run from Loads
	// Loads: 0 is the trace's own spacing, else the offered load as a
	// multiple of the cluster's capacity.
	Loads   []float64
	Configs []Config
	Reps    int
	// Nodes kwok nodes of NodeCPUs CPUs each.
	Nodes, NodeCPUs int
	// Scripts is adapters/cluster (up.sh, down.sh); StateDir holds one
	// state directory per cluster.
	Scripts, StateDir string
	Grace             time.Duration
	// DeadlineFlags are schedkit-deadline's extra flags in the check and
	// schedkit configurations (up.sh -deadline-flags).
	DeadlineFlags string
	// SideBySide runs the configurations of a load at the same time, each
	// on its own cluster: they then share the machine's load, which the
	// control plane's delays follow (one after the other, a load average
	// that changes between them changes their figures).
	SideBySide bool
	// Audit keeps each cluster's kube-apiserver audit log of writes to
	// Workloads, Jobs and pods (up.sh -audit) in its state directory.
	Audit bool
	// KueueFlags are the Kueue manager's extra flags (up.sh -kueue-flags),
	// e.g. its log level.
	KueueFlags string
	Progress   func(string)
}

// DefaultDeadlineFlags are schedkit-deadline's flags in the replay: a
// Retry of at least 10 s (the check's default) is long beside jobs
// compressed to seconds; the start delay — the time the control plane
// adds from the check's decision to a Job's completion beyond its run
// time (PhaseTable's decision→done: Kueue admitting after the check's
// Ready, the Job controller, the scheduler, kwok, the Job's completion) —
// is learnt by the check from its own finished workloads: the 97th
// percentile (the complement of the must-show's 3 %) of what it observed
// on the latest 50, 10 s until 10 have finished. The check plans a Ready
// workload's pods to start the start delay after its decision and counts
// its run time as certain, so a Job admitted misses exactly when its own
// decision→done exceeds the slack it had at the decision, which is at
// least the start delay. An ETA pass runs at most every second
// (-eta-interval), so that a workload that waits a second or two for
// quota gets an ETA before its admission and the ETA's calibration can
// be measured on it.
const DefaultDeadlineFlags = "-min-retry=1s -start-delay=10s -start-delay-quantile=0.97 -eta-interval=1s"

// LoadName is how a load is printed: "own" for 0.
func LoadName(l float64) string {
	if l == 0 {
		return "own"
	}
	return strconv.FormatFloat(l, 'g', -1, 64) + "×"
}

// Execute runs the replay and returns one result per repetition, load and
// configuration, in that order. The submissions of a load are the same
// for every configuration and repetition.
func Execute(ctx context.Context, jobs []TraceJob, o Options) ([]Result, error) {
	var plans []Plan
	for _, l := range o.Loads {
		w := o.Workload
		w.Load, w.CPUs = l, o.Nodes*o.NodeCPUs
		p, err := w.Build(jobs)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	var out []Result
	for rep := 1; rep <= max(o.Reps, 1); rep++ {
		for li, l := range o.Loads {
			p := plans[li]
			tag := func(c Config) string {
				return fmt.Sprintf("rep %d, load %s (offered %.2f), %s", rep, LoadName(l), p.Load, c)
			}
			rs, err := o.runLoad(ctx, p, tag, progress)
			for i := range rs {
				rs[i].Load, rs[i].Rep = LoadName(l), rep
				progress(fmt.Sprintf("%s: met %d, missed %d, rejected %d in %.0f s", tag(rs[i].Config), rs[i].Met, rs[i].Missed, rs[i].Rejected, rs[i].Wall))
			}
			out = append(out, rs...)
			if err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// runLoad runs every configuration on the plan, one after the other or
// side by side, and returns their results in the order of o.Configs (up
// to the first that failed, one after the other; those that ran, side by
// side).
func (o Options) runLoad(ctx context.Context, p Plan, tag func(Config) string, progress func(string)) ([]Result, error) {
	if !o.SideBySide {
		var out []Result
		for _, c := range o.Configs {
			progress(fmt.Sprintf("%s: %d Jobs, %d pods; starting a fresh cluster", tag(c), len(p.Subs), pods(p.Subs)))
			r, err := runOne(ctx, o, c, 0, p, tag(c), progress)
			if err != nil {
				return out, fmt.Errorf("%s: %w", tag(c), err)
			}
			out = append(out, r)
		}
		return out, nil
	}
	bases, err := FreePortBases(PortsPerCluster, len(o.Configs))
	if err != nil {
		return nil, err
	}
	// Every cluster is up before any replay starts, so that the
	// replays run over the same minutes.
	n := len(o.Configs)
	cls, rs, errs := make([]*Cluster, n), make([]Result, n), make([]error, n)
	var wg sync.WaitGroup
	for i, c := range o.Configs {
		progress(fmt.Sprintf("%s: %d Jobs, %d pods; starting a fresh cluster beside the others", tag(c), len(p.Subs), pods(p.Subs)))
		wg.Go(func() { cls[i], errs[i] = o.up(c, bases[i], progress) })
	}
	wg.Wait()
	for _, cl := range cls {
		if cl != nil {
			defer o.down(cl, progress)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, c := range o.Configs {
		wg.Go(func() { rs[i], errs[i] = o.run(ctx, cls[i], p, tag(c), progress) })
	}
	wg.Wait()
	var out []Result
	for i := range rs {
		if errs[i] == nil {
			out = append(out, rs[i])
		} else {
			errs[i] = fmt.Errorf("%s: %w", tag(o.Configs[i]), errs[i])
		}
	}
	return out, errors.Join(errs...)
}

func runOne(ctx context.Context, o Options, c Config, base int, p Plan, tag string, progress func(string)) (Result, error) {
	cl, err := o.up(c, base, progress)
	if err != nil {
		return Result{}, err
	}
	defer o.down(cl, progress)
	return o.run(ctx, cl, p, tag, progress)
}

// up starts a fresh cluster for c in a new directory under o.StateDir,
// on ports from base (0: the first free ones).
func (o Options) up(c Config, base int, progress func(string)) (*Cluster, error) {
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(o.StateDir, "cluster-"+string(c)+"-")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(dir); err != nil { // up.sh wants it absent or empty
		return nil, err
	}
	return Up(o.Scripts, dir, base, c, []string{NodesSpec(o.Nodes, o.NodeCPUs)}, o.DeadlineFlags, progress, o.upExtra()...)
}

// upExtra are up.sh's flags for Audit and KueueFlags.
func (o Options) upExtra() []string {
	var extra []string
	if o.Audit {
		extra = append(extra, "-audit")
	}
	if o.KueueFlags != "" {
		extra = append(extra, "-kueue-flags", o.KueueFlags)
	}
	return extra
}

func (o Options) down(cl *Cluster, progress func(string)) {
	if err := cl.Down(); err != nil {
		progress(err.Error())
	}
}

// run replays the plan on the cluster and summarizes it.
func (o Options) run(ctx context.Context, cl *Cluster, p Plan, tag string, progress func(string)) (Result, error) {
	load0 := loadAverage()
	outs, cpu, wall, err := Run(ctx, cl, p.Subs, RunOptions{CPUs: o.Nodes * o.NodeCPUs, Grace: o.Grace,
		Progress: func(s string) { progress(tag + ": " + s) }, ProgressEvery: 15 * time.Second})
	if err != nil {
		return Result{}, fmt.Errorf("%w (logs in %s)", err, filepath.Join(cl.Dir, "logs"))
	}
	r := Summarize(cl.Config, "", p.Load, outs, cpu, wall)
	r.LoadAvg = [2]float64{load0, loadAverage()}
	return r, nil
}

// loadAverage is the machine's 1-minute load average, 0 where
// /proc/loadavg cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return v
}

// LoadAverages returns the smallest and largest load average the results
// saw.
func LoadAverages(rs []Result) (lo, hi float64) {
	lo = math.Inf(1)
	for _, r := range rs {
		for _, l := range r.LoadAvg {
			lo, hi = min(lo, l), max(hi, l)
		}
	}
	if math.IsInf(lo, 1) {
		lo = 0
	}
	return lo, hi
}

func pods(subs []Submission) int {
	n := 0
	for _, s := range subs {
		n += s.Pods
	}
	return n
}
