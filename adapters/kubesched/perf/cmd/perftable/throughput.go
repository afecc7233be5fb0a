package main

import (
	"fmt"
	"slices"
)

// A rate is one run's throughput in pods/s: over the whole run (measured
// pods ÷ SchedulingDuration; 0 when the run or its pod count is missing)
// and the harness's sampled mean.
type rate struct{ run, sampled float64 }

// rates returns each run's rate from the data items.
func rates(items []item, pods measured) map[run]rate {
	out := map[run]rate{}
	for _, it := range items {
		r := parse(it.Labels["Name"])
		v := out[r]
		switch it.Labels["Metric"] {
		case "SchedulingThroughput":
			v.sampled = it.Data["Average"]
		case "SchedulingDuration":
			if n, ok := pods.pods(it.Labels["Name"]); ok && it.Data["Duration"] > 0 {
				v.run = float64(n) / it.Data["Duration"]
			}
		default:
			continue
		}
		out[r] = v
	}
	return out
}

// runOrder lists the runs in the order the data items name them.
func runOrder(items []item) []run {
	var runs []run
	for _, it := range items {
		if r := parse(it.Labels["Name"]); r.profile != "" && !slices.Contains(runs, r) {
			runs = append(runs, r)
		}
	}
	return runs
}

// ratio formats a ÷ b, "—" when b is not above 0.
func ratio(a, b float64) string {
	if !(b > 0) {
		return "—"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// printThroughput prints each run's throughput beside the default
// profile's.
func printThroughput(items []item, pods measured) {
	rs := rates(items, pods)
	fmt.Println("| workload | profile | pods/s over the run | ÷ default | SchedulingThroughput (1-s samples, average) | ÷ default |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: |")
	for _, r := range runOrder(items) {
		v, def := rs[r], rs[run{r.workload, "default"}]
		runRatio, sampledRatio := "—", "—"
		if r.profile != "default" {
			runRatio, sampledRatio = ratio(v.run, def.run), ratio(v.sampled, def.sampled)
		}
		fmt.Printf("| %s | %s | %.1f | %s | %.1f | %s |\n", r.workload, r.profile, v.run, runRatio, v.sampled, sampledRatio)
	}
}
