package main

import (
	"fmt"
	"io"
	"strings"
)

// A kubePerf is one published kube-scheduler scheduler_perf workload: the
// least average scheduling throughput its CI job accepts.
type kubePerf struct {
	Workload  string  `json:"workload"`
	PodsPerS  float64 `json:"threshold_pods_per_second"`
	PerPodMs  float64 `json:"per_pod_ms"`
	Scheduled string  `json:"measured"`
}

// kubeSchedulerPerf: kubernetes/kubernetes,
// test/integration/scheduler_perf/misc/performance-config.yaml (the
// version at commit 008b3652959c), workloads labelled "performance": the
// threshold each is held to (scheduler_perf compares it with the average
// SchedulingThroughput of the measured pods and fails below it).
var kubeSchedulerPerf = []kubePerf{
	{"SchedulingBasic/5000Nodes_10000Pods", 680, 1000.0 / 680, "10,000 pods onto 5,000 nodes holding 1,000"},
	{"SchedulingBasic/5000Nodes_50000Pods", 810, 1000.0 / 810, "50,000 pods onto 5,000 nodes holding 5,000"},
	{"PreemptionAsync/5000Nodes", 570, 1000.0 / 570, "5,000 pods while high-priority pods preempt at 5/s"},
	{"Unschedulable/5kNodes/20kInit/10kPods", 600, 1000.0 / 600, "10,000 pods among 20,000, unschedulable ones at 5/s"},
}

// report prints the results as text.
func report(w io.Writer, results []Result) {
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Replay of %s: %d jobs, %d tasks, on %d slots; %.0f s simulated in %.1f s (%d events)\n",
			r.Source, r.Units, r.Tasks, r.Slots, r.SimSeconds, r.WallSeconds, r.Events)
		fmt.Fprintf(w, "  mapping: %s\n", r.Note)
		fmt.Fprintf(w, "  queue: at most %d jobs queued and %d tasks not started at once\n", r.PeakQueue, r.PeakPending)
		fmt.Fprintf(w, "  admission (%s): %d admitted, %d rejected; %d tasks started, %d ended, %d killed by GP; %d jobs finished (%d met, %d missed their deadline)\n",
			r.Admission, r.Admitted, r.Rejected, r.TaskStarts, r.TaskEnds, r.Killed, r.Finished, r.Met, r.Missed)
		fmt.Fprintf(w, "  MP's reasons: %s\n", reasons(r.MPReasons))
		fmt.Fprintf(w, "\n  %-10s %10s %14s %10s %10s %10s %10s\n", "decision", "count", "per second", "mean µs", "p50 µs", "p99 µs", "max µs")
		for _, l := range r.Latency {
			fmt.Fprintf(w, "  %-10s %10d %14.0f %10.2f %10.2f %10.2f %10.1f\n",
				l.Decision, l.Count, l.PerSec, l.MeanNs/1e3, float64(l.P50Ns)/1e3, float64(l.P99Ns)/1e3, float64(l.MaxNs)/1e3)
		}
		fmt.Fprintf(w, "\n  peak memory: RSS %.0f MB (the process so far), Go heap %.0f MB\n", r.Memory["peak_rss"], r.Memory["peak_go_heap"])
	}
	fmt.Fprintln(w, "\nFor context, kube-scheduler's scheduler_perf (kubernetes/kubernetes, test/integration/scheduler_perf/")
	fmt.Fprintln(w, "misc/performance-config.yaml): the least average throughput each CI workload accepts, and the per-pod time it")
	fmt.Fprintln(w, "implies. A pod's time covers filtering and scoring 5,000 nodes and binding through the API server; a")
	fmt.Fprintln(w, "schedkit decision picks from state the caller keeps. Context, not a race.")
	fmt.Fprintf(w, "\n  %-40s %12s %12s  %s\n", "workload", "pods/s", "ms per pod", "what")
	for _, k := range kubeSchedulerPerf {
		fmt.Fprintf(w, "  %-40s %12.0f %12.2f  %s\n", k.Workload, k.PodsPerS, k.PerPodMs, k.Scheduled)
	}
}

// reasons lists MP's decision reasons in a fixed order.
func reasons(m map[string]int) string {
	var parts []string
	for _, k := range []string{"at-risk", "best-fit", "io-skip", "idle"} {
		if n := m[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
