// Command perftable prints the side-by-side tables of the README from the
// data-items JSON that BenchmarkPerfScheduling writes to -data-items-dir:
// each workload's throughput under each profile with its ratio to the
// default profile's, the latency percentiles of the extension points the
// schedkit plugins run at, and those of the schedkit plugins (and
// DefaultPreemption) where the scheduler records them per plugin.
//
//	go run ./cmd/perftable BenchmarkPerfScheduling_benchmark_schedkit_*.json
//
// # Throughput
//
// The first figure is the run's: the measured pods (read from the
// -config file, performance-config.yaml by default) over the harness's
// SchedulingDuration, the time from the start of the measured pods'
// creation until the last of them is bound. The second is the harness's
// SchedulingThroughput average, the mean of one-second samples of the
// bound-pod count between the first sample that sees a bound pod and the
// last sample before the last pod is bound. The sampled mean leaves out
// the pods bound before the first sample and after the last one, so it
// swings with the phase of the one-second ticks whenever a run binds many
// of its pods in a burst. The preemption workload does: the scheduler
// preempts for nearly every preemptor before any preemptor is bound (a
// preemptor goes back to the queue behind the ones not yet tried), then
// binds them all within about a second, and its sampled mean ranges
// twentyfold between runs of the same code. The run's figure counts every
// measured pod, so the ratios are of it.
//
// With -check it prints nothing and exits with status 1, listing the
// problems, when the run lacks a workload's profile, a SchedulingDuration,
// or the schedkit plugins' figures where their profile enables them
// (check).
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

type item struct {
	Data   map[string]float64 `json:"data"`
	Unit   string             `json:"unit"`
	Labels map[string]string  `json:"labels"`
}

// A run is one test case's workload: "SchedulingBasic_schedkit/100Nodes"
// splits into workload "SchedulingBasic/100Nodes" and profile "schedkit".
type run struct{ workload, profile string }

func parse(name string) run {
	// BenchmarkPerfScheduling/<case>_<profile>/<size>/namespace-2
	parts := strings.Split(name, "/")
	if len(parts) < 3 {
		return run{workload: name}
	}
	i := strings.LastIndex(parts[1], "_")
	return run{workload: parts[1][:i] + "/" + parts[2], profile: parts[1][i+1:]}
}

// points are the extension points the schedkit plugins run at.
var points = []string{"PreFilter", "PostFilter", "PreScore", "Score", "Reserve"}

var plugins = []string{"DeadlineAdmission", "ProgressShare", "LeastWorkLostPreemption", "Deadline", "DefaultPreemption"}

func main() {
	checkOnly := flag.Bool("check", false, "check the run instead of printing its tables")
	config := flag.String("config", "performance-config.yaml", "the scheduler_perf configuration the run used (for its measured pod counts)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: perftable [-check] DATA_ITEMS.json")
		os.Exit(2)
	}
	raw, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var doc struct {
		DataItems []item `json:"dataItems"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *checkOnly {
		if err := check(doc.DataItems); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", flag.Arg(0), err)
			os.Exit(1)
		}
		return
	}
	pods, err := readMeasured(*config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	printThroughput(doc.DataItems, pods)
	fmt.Println()
	fmt.Println("| workload | profile | extension point | average (ms) | p50 | p90 | p99 |")
	fmt.Println("| --- | --- | --- | ---: | ---: | ---: | ---: |")
	for _, it := range doc.DataItems {
		if it.Labels["Metric"] == "scheduler_framework_extension_point_duration_seconds" && slices.Contains(points, it.Labels["extension_point"]) {
			r := parse(it.Labels["Name"])
			fmt.Printf("| %s | %s | %s | %.3f | %.3f | %.3f | %.3f |\n", r.workload, r.profile, it.Labels["extension_point"],
				it.Data["Average"], it.Data["Perc50"], it.Data["Perc90"], it.Data["Perc99"])
		}
	}
	fmt.Println()
	fmt.Println("| workload | profile | plugin | extension point | average (ms) | p50 | p90 | p99 |")
	fmt.Println("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |")
	var rows []item
	for _, it := range doc.DataItems {
		if it.Labels["Metric"] == "scheduler_plugin_execution_duration_seconds" && slices.Contains(plugins, it.Labels["plugin"]) {
			rows = append(rows, it)
		}
	}
	runs := runOrder(doc.DataItems)
	order := func(r run) int { return slices.Index(runs, r) }
	slices.SortStableFunc(rows, func(a, b item) int {
		return cmp.Or(cmp.Compare(order(parse(a.Labels["Name"])), order(parse(b.Labels["Name"]))),
			cmp.Compare(slices.Index(plugins, a.Labels["plugin"]), slices.Index(plugins, b.Labels["plugin"])))
	})
	for _, it := range rows {
		r := parse(it.Labels["Name"])
		fmt.Printf("| %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f |\n", r.workload, r.profile, it.Labels["plugin"], it.Labels["extension_point"],
			it.Data["Average"], it.Data["Perc50"], it.Data["Perc90"], it.Data["Perc99"])
	}
}
