package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// schedkitPlugins are the plugin extension points the schedkit profile
// runs on every pod (so the scheduler's 10% sample of cycles always holds
// some), and the leastworklost profile's.
var (
	schedkitPoints      = [][2]string{{"DeadlineAdmission", "PreFilter"}, {"ProgressShare", "PreScore"}, {"LeastWorkLostPreemption", "PreEnqueue"}}
	leastworklostPoints = [][2]string{{"LeastWorkLostPreemption", "PreEnqueue"}}
	// forbidden are the plugins a profile must not run.
	forbidden = map[string][]string{
		"default":       {"Deadline", "DeadlineAdmission", "ProgressShare", "LeastWorkLostPreemption"},
		"leastworklost": {"Deadline", "DeadlineAdmission", "ProgressShare", "DefaultPreemption"},
		"schedkit":      {"DefaultPreemption"},
	}
)

// check reports what a run's data items lack (all joined, nil when
// nothing): every workload measured in each of its rounds under the
// default and schedkit profiles (and a Preemption workload under
// leastworklost) with a
// SchedulingDuration above 0, which the harness reports only once every
// measured pod was scheduled (the run's throughput is measured pods over
// it; the sampled SchedulingThroughput is missing when a run ends inside
// one sample, so it is not required); the per-plugin figures of the plugins a profile enables in at
// least one of its workloads (anyWorkload); and no figures, in any
// workload, of a plugin the profile does not enable (forbidden).
func check(items []item) error {
	var errs []error
	duration := map[run]float64{}
	seen := map[run]map[[2]string]bool{}
	// A workload in one round.
	type workloadRound struct {
		workload string
		round    int
	}
	var workloads []workloadRound
	for _, it := range items {
		r := parse(it.Labels["Name"])
		if w := (workloadRound{r.workload, r.round}); !slices.Contains(workloads, w) {
			workloads = append(workloads, w)
		}
		switch it.Labels["Metric"] {
		case "SchedulingDuration":
			duration[r] = it.Data["Duration"]
		case "scheduler_plugin_execution_duration_seconds":
			if seen[r] == nil {
				seen[r] = map[[2]string]bool{}
			}
			seen[r][[2]string{it.Labels["plugin"], it.Labels["extension_point"]}] = true
		}
	}
	if len(workloads) == 0 {
		return errors.New("no data items")
	}
	for _, w := range workloads {
		profiles := []string{"default", "schedkit"}
		if strings.HasPrefix(w.workload, "Preemption/") {
			profiles = append(profiles, "leastworklost")
		}
		for _, p := range profiles {
			r := run{w.workload, p, w.round}
			if !(duration[r] > 0) {
				errs = append(errs, fmt.Errorf("%s under %s: no SchedulingDuration above 0", r.name(), p))
			}
			var want [][2]string
			switch p {
			case "schedkit":
				want = schedkitPoints
			case "leastworklost":
				want = leastworklostPoints
			case "default":
				want = [][2]string{{"DefaultPreemption", "PreEnqueue"}}
			}
			for _, pe := range want {
				if !anyWorkload(seen, p, pe) {
					errs = append(errs, fmt.Errorf("%s: no %s %s figures in any workload", p, pe[0], pe[1]))
				}
			}
			for pe := range seen[r] {
				if slices.Contains(forbidden[p], pe[0]) {
					errs = append(errs, fmt.Errorf("%s under %s: %s ran (%s)", r.name(), p, pe[0], pe[1]))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// anyWorkload reports whether a workload run under profile has figures of
// the plugin extension point pe. The scheduler samples its cycles (10 %)
// and drops samples when its metric recorder's buffer is full, which it is
// at times on a loaded machine: one workload may lack a plugin's figures
// although the plugin ran.
func anyWorkload(seen map[run]map[[2]string]bool, profile string, pe [2]string) bool {
	for r, points := range seen {
		if r.profile == profile && points[pe] {
			return true
		}
	}
	return false
}
