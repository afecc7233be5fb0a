// Command perftable prints the side-by-side tables of the README from the
// data-items JSON that BenchmarkPerfScheduling writes to -data-items-dir:
// each workload's SchedulingThroughput under each profile with its ratio
// to the default profile's, the latency percentiles of the extension points
// the schedkit plugins run at, and those of the schedkit plugins (and
// DefaultPreemption) where the scheduler records them per plugin.
//
//	go run ./cmd/perftable BenchmarkPerfScheduling_benchmark_schedkit_*.json
//
// With -check it prints nothing and exits with status 1, listing the
// problems, when the run lacks a workload's profile, a throughput, or the
// schedkit plugins' figures where their profile enables them (check).
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
	throughput := map[run]float64{}
	var runs []run
	for _, it := range doc.DataItems {
		if it.Labels["Metric"] == "SchedulingThroughput" {
			r := parse(it.Labels["Name"])
			throughput[r] = it.Data["Average"]
			runs = append(runs, r)
		}
	}
	fmt.Println("| workload | profile | SchedulingThroughput (pods/s, average) | ÷ default |")
	fmt.Println("| --- | --- | ---: | ---: |")
	for _, r := range runs {
		ratio := "—"
		if def, ok := throughput[run{r.workload, "default"}]; ok && def > 0 && r.profile != "default" {
			ratio = fmt.Sprintf("%.2f", throughput[r]/def)
		}
		fmt.Printf("| %s | %s | %.1f | %s |\n", r.workload, r.profile, throughput[r], ratio)
	}
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
