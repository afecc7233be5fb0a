package replay

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	Progress      func(string)
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
			for _, c := range o.Configs {
				tag := fmt.Sprintf("rep %d, load %s (offered %.2f), %s", rep, LoadName(l), p.Load, c)
				progress(fmt.Sprintf("%s: %d Jobs, %d pods; starting a fresh cluster", tag, len(p.Subs), pods(p.Subs)))
				r, err := runOne(ctx, o, c, p, tag, progress)
				if err != nil {
					return out, fmt.Errorf("%s: %w", tag, err)
				}
				r.Load, r.Rep = LoadName(l), rep
				progress(fmt.Sprintf("%s: met %d, missed %d, rejected %d in %.0f s", tag, r.Met, r.Missed, r.Rejected, r.Wall))
				out = append(out, r)
			}
		}
	}
	return out, nil
}

func runOne(ctx context.Context, o Options, c Config, p Plan, tag string, progress func(string)) (Result, error) {
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		return Result{}, err
	}
	dir, err := os.MkdirTemp(o.StateDir, "cluster-"+string(c)+"-")
	if err != nil {
		return Result{}, err
	}
	if err := os.Remove(dir); err != nil { // up.sh wants it absent or empty
		return Result{}, err
	}
	cl, err := Up(o.Scripts, dir, c, []string{NodesSpec(o.Nodes, o.NodeCPUs)}, o.DeadlineFlags, progress)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		if err := cl.Down(); err != nil {
			progress(err.Error())
		}
	}()
	load0 := loadAverage()
	outs, cpu, wall, err := Run(ctx, cl, p.Subs, RunOptions{CPUs: o.Nodes * o.NodeCPUs, Grace: o.Grace,
		Progress: func(s string) { progress(tag + ": " + s) }, ProgressEvery: 15 * time.Second})
	if err != nil {
		return Result{}, fmt.Errorf("%w (logs in %s)", err, filepath.Join(dir, "logs"))
	}
	r := Summarize(c, "", p.Load, outs, cpu, wall)
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
