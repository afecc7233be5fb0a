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
// Three figures per run. The first, which the ratios are of when both runs
// of a round have it, is the measured pods' own: the pods bound over the
// time from the first of them seen created to the last seen bound, from
// the benchmark's own watch of the pods (perf.Span in the -runs file's
// record, for the namespace the harness's SchedulingDuration names), with
// the benchmark process's CPU milliseconds per pod over the same span.
// The second is the measured pods over the harness's SchedulingDuration,
// which ends at the first of the harness's once-a-second polls that finds
// every measured pod bound: it is the pods' creation time plus a whole
// number of seconds, so a workload that takes about three seconds (the
// preemption workload at label ci) measures 3.2 or 4.2 s for the same
// work, 31 or 24 pods/s, and at 5–8 s 19, 16 or 14 pods/s. The third is
// the harness's SchedulingThroughput average, the mean of one-second
// samples of the bound-pod count between the first sample that sees a
// bound pod and the last sample before the last pod is bound. The sampled
// mean leaves out the pods bound before the first sample and after the
// last one, so it swings with the phase of the one-second ticks whenever a
// run binds many of its pods in a burst. The preemption workload does:
// the scheduler preempts for nearly every preemptor before any preemptor
// is bound (a preemptor goes back to the queue behind the ones not yet
// tried), then binds them all within about a second, and its
// sampled mean ranges twentyfold between runs of the same code. Without a
// -runs record (or without its pods) the ratios are of the second figure.
//
// # Rounds
//
// A run with -schedkit-rounds n (the perf package's rounds) names its
// test cases <workload>_<profile>_<round> and runs each workload's profiles
// in forward order in odd rounds and in reverse order in even ones. Each
// ratio is of two runs of the same round; the first table gives, for each
// workload and profile, the median of its rounds' ratios, their minimum,
// maximum and each round's, so that a machine load that moves during the
// runs shows as spread instead of favouring the profile that ran first,
// and the median, minimum and maximum of the default profile's CPU per
// pod over the profile's (pods per CPU second ÷ default), which moves far
// less than the rates with the share of the cores the process gets.
//
// With -check it prints nothing and exits with status 1, listing the
// problems, when a round lacks a workload's profile, a SchedulingDuration,
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
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

type item struct {
	Data   map[string]float64 `json:"data"`
	Unit   string             `json:"unit"`
	Labels map[string]string  `json:"labels"`
}

// A run is one test case's workload in one round:
// "SchedulingBasic_schedkit_2/100Nodes" splits into workload
// "SchedulingBasic/100Nodes", profile "schedkit" and round 2; a test case
// named without a round ("SchedulingBasic_schedkit") is round 1.
type run struct {
	workload, profile string
	round             int
}

func parse(name string) run {
	// BenchmarkPerfScheduling/<case>_<profile>[_<round>]/<size>/namespace-2
	parts := strings.Split(name, "/")
	if len(parts) < 3 {
		return run{workload: name, round: 1}
	}
	f := strings.Split(parts[1], "_")
	round := 1
	if len(f) == 3 {
		if n, err := strconv.Atoi(f[2]); err == nil && n > 0 {
			round, f = n, f[:2]
		}
	}
	if len(f) != 2 {
		return run{workload: parts[1] + "/" + parts[2], round: round}
	}
	return run{workload: f[0] + "/" + parts[2], profile: f[1], round: round}
}

// name is the run's workload, with its round when that is not 1.
func (r run) name() string {
	if r.round == 1 {
		return r.workload
	}
	return fmt.Sprintf("%s round %d", r.workload, r.round)
}

// testCase is the name of the run's test case and workload in the
// configuration file, without its round: "SchedulingBasic_schedkit/100Nodes".
func (r run) testCase() string {
	w, size, _ := strings.Cut(r.workload, "/")
	return w + "_" + r.profile + "/" + size
}

// points are the extension points the schedkit plugins run at.
var points = []string{"PreFilter", "PostFilter", "PreScore", "Score", "Reserve"}

var plugins = []string{"DeadlineAdmission", "ProgressShare", "LeastWorkLostPreemption", "Deadline", "DefaultPreemption"}

func main() {
	checkOnly := flag.Bool("check", false, "check the run instead of printing its tables")
	config := flag.String("config", "performance-config.yaml", "the scheduler_perf configuration the run used (for its measured pod counts)")
	runsFile := flag.String("runs", "", "the benchmark's -schedkit-runs file, for each run's load average and CPU time")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: perftable [-check] [-config FILE] [-runs FILE] DATA_ITEMS.json")
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
	var recs map[run]perf.RunRecord
	if *runsFile != "" {
		if recs, err = readRuns(*runsFile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	printSummary(doc.DataItems, pods, recs)
	fmt.Println()
	printThroughput(doc.DataItems, pods, recs)
	printBatching(doc.DataItems, recs)
	fmt.Println()
	fmt.Println("| workload | round | profile | extension point | average (ms) | p50 | p90 | p99 |")
	fmt.Println("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |")
	for _, it := range doc.DataItems {
		if it.Labels["Metric"] == "scheduler_framework_extension_point_duration_seconds" && slices.Contains(points, it.Labels["extension_point"]) {
			r := parse(it.Labels["Name"])
			fmt.Printf("| %s | %d | %s | %s | %.3f | %.3f | %.3f | %.3f |\n", r.workload, r.round, r.profile, it.Labels["extension_point"],
				it.Data["Average"], it.Data["Perc50"], it.Data["Perc90"], it.Data["Perc99"])
		}
	}
	fmt.Println()
	fmt.Println("| workload | round | profile | plugin | extension point | average (ms) | p50 | p90 | p99 |")
	fmt.Println("| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |")
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
		fmt.Printf("| %s | %d | %s | %s | %s | %.3f | %.3f | %.3f | %.3f |\n", r.workload, r.round, r.profile, it.Labels["plugin"], it.Labels["extension_point"],
			it.Data["Average"], it.Data["Perc50"], it.Data["Perc90"], it.Data["Perc99"])
	}
}
