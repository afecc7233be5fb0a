package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

// A rate is one run's throughput in pods/s: over the whole run (measured
// pods ÷ SchedulingDuration; 0 when the run or its pod count is missing),
// the harness's sampled mean, and the measured pods' own (perf.Span.Rate
// of the namespace SchedulingDuration names, from the run's record; 0
// without one) with their process CPU milliseconds per pod.
type rate struct{ run, sampled, span, cpuPerPod float64 }

// measure is the rate the ratios are taken of: the pods' own when both
// runs have it, else the rate over the run.
func measure(a, b rate) (float64, float64) {
	if a.span > 0 && b.span > 0 {
		return a.span, b.span
	}
	return a.run, b.run
}

// rates returns each run's rate from the data items and the runs'
// records (nil for none).
func rates(items []item, pods measured, recs map[run]perf.RunRecord) map[run]rate {
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
			name := it.Labels["Name"]
			if sp, ok := recs[r].Pods[name[strings.LastIndex(name, "/")+1:]]; ok {
				v.span, v.cpuPerPod = sp.Rate(), sp.CPUPerPod()
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
// profile's in the same round, with the run's load average and CPU time
// where recs has them.
func printThroughput(items []item, pods measured, recs map[run]perf.RunRecord) {
	rs := rates(items, pods, recs)
	fmt.Println("| workload | round | profile | pods/s, first created to last bound | ÷ default | CPU ms per pod | pods/s over SchedulingDuration | ÷ default | SchedulingThroughput (1-s samples, average) | ÷ default | load average (1 min), start → end | process CPU s / wall s / run-queue wait s |")
	fmt.Println("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
	for _, r := range runOrder(items) {
		v, def := rs[r], rs[run{r.workload, "default", r.round}]
		spanRatio, runRatio, sampledRatio := "—", "—", "—"
		if r.profile != "default" {
			spanRatio, runRatio, sampledRatio = ratio(v.span, def.span), ratio(v.run, def.run), ratio(v.sampled, def.sampled)
		}
		load, cpu := "—", "—"
		if rec, ok := recs[r]; ok {
			load, cpu = fmt.Sprintf("%.1f → %.1f", rec.LoadStart, rec.LoadEnd), fmt.Sprintf("%.1f / %.1f / %.1f", rec.CPU, rec.Wall, rec.RunDelay)
		}
		fmt.Printf("| %s | %d | %s | %.1f | %s | %.1f | %.1f | %s | %.1f | %s | %s | %s |\n", r.workload, r.round, r.profile, v.span, spanRatio, v.cpuPerPod,
			v.run, runRatio, v.sampled, sampledRatio, load, cpu)
	}
}

// A summary is one workload's ratio of a profile's throughput to the
// default profile's (measure's), one per round that has both, and the
// ratio of the default profile's CPU per pod to the profile's (pods per
// CPU second, ÷ default), one per round whose runs both have it.
type summary struct {
	workload, profile string
	ratios            []float64 // in round order
	cpuRatios         []float64 // in round order
}

// summaries returns, for each workload and profile other than default (in
// the order the data items name them), the ratios of its rounds.
func summaries(items []item, pods measured, recs map[run]perf.RunRecord) []summary {
	rs := rates(items, pods, recs)
	var out []summary
	for _, r := range runOrder(items) {
		if r.profile == "default" {
			continue
		}
		i := slices.IndexFunc(out, func(s summary) bool { return s.workload == r.workload && s.profile == r.profile })
		if i < 0 {
			out = append(out, summary{workload: r.workload, profile: r.profile})
			i = len(out) - 1
		}
		if v, def := measure(rs[r], rs[run{r.workload, "default", r.round}]); v > 0 && def > 0 {
			out[i].ratios = append(out[i].ratios, v/def)
		}
		if v, def := rs[r].cpuPerPod, rs[run{r.workload, "default", r.round}].cpuPerPod; v > 0 && def > 0 {
			out[i].cpuRatios = append(out[i].cpuRatios, def/v)
		}
	}
	return out
}

// median is the middle of the sorted values, the mean of the two middle
// ones for an even count; 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// printSummary prints each workload's median ratio over its rounds and
// their range.
func printSummary(items []item, pods measured, recs map[run]perf.RunRecord) {
	fmt.Println("| workload | profile | rounds | ÷ default, median | min | max | each round | pods per CPU s ÷ default, median | min | max |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
	for _, s := range summaries(items, pods, recs) {
		each := make([]string, len(s.ratios))
		for i, v := range s.ratios {
			each[i] = fmt.Sprintf("%.2f", v)
		}
		lo, hi := spread(s.ratios)
		cpuLo, cpuHi := spread(s.cpuRatios)
		cpu := "— | — | —"
		if len(s.cpuRatios) > 0 {
			cpu = fmt.Sprintf("%.2f | %.2f | %.2f", median(s.cpuRatios), cpuLo, cpuHi)
		}
		fmt.Printf("| %s | %s | %d | %.2f | %.2f | %.2f | %s | %s |\n", s.workload, s.profile, len(s.ratios), median(s.ratios), lo, hi, strings.Join(each, ", "), cpu)
	}
}

// spread is the values' minimum and maximum, 0 and 0 for none.
func spread(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	return slices.Min(v), slices.Max(v)
}
