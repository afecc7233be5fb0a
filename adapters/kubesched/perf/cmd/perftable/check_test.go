package main

import (
	"slices"
	"strings"
	"testing"
)

func tp(name string, v float64) item {
	return item{Data: map[string]float64{"Duration": v}, Labels: map[string]string{"Metric": "SchedulingDuration", "Name": name}}
}

func pe(name, plugin, point string) item {
	return item{Data: map[string]float64{"Average": 0.01}, Labels: map[string]string{
		"Metric": "scheduler_plugin_execution_duration_seconds", "Name": name, "plugin": plugin, "extension_point": point}}
}

// goodRun is a run of SchedulingBasic and Preemption that check passes.
func goodRun() []item {
	const basic, pre = "BenchmarkPerfScheduling/SchedulingBasic_%s/100Nodes", "BenchmarkPerfScheduling/Preemption_%s/100Nodes"
	var items []item
	for _, w := range []string{basic, pre} {
		def, sk := strings.Replace(w, "%s", "default", 1), strings.Replace(w, "%s", "schedkit", 1)
		items = append(items, tp(def, 50), pe(def, "DefaultPreemption", "PreEnqueue"),
			tp(sk, 45), pe(sk, "DeadlineAdmission", "PreFilter"), pe(sk, "ProgressShare", "PreScore"), pe(sk, "LeastWorkLostPreemption", "PreEnqueue"))
	}
	lwl := strings.Replace(pre, "%s", "leastworklost", 1)
	return append(items, tp(lwl, 40), pe(lwl, "LeastWorkLostPreemption", "PreEnqueue"))
}

func TestCheck(t *testing.T) {
	if err := check(goodRun()); err != nil {
		t.Fatalf("a good run: %v", err)
	}
	// One workload without a plugin's figures (samples dropped) passes.
	if err := check(append(goodRun()[:3], goodRun()[4:]...)); err != nil {
		t.Fatalf("a run with one workload's DeadlineAdmission figures dropped: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func([]item) []item
		want string
	}{
		{"empty", func([]item) []item { return nil }, "no data items"},
		{"no leastworklost profile", func(it []item) []item { return it[:len(it)-2] }, "Preemption/100Nodes under leastworklost: no SchedulingDuration"},
		{"zero duration", func(it []item) []item { it[6].Data["Duration"] = 0; return it }, "Preemption/100Nodes under default: no SchedulingDuration above 0"},
		{"plugin figures missing in every workload", func(it []item) []item {
			return slices.DeleteFunc(it, func(i item) bool { return i.Labels["plugin"] == "DeadlineAdmission" })
		}, "schedkit: no DeadlineAdmission PreFilter figures in any workload"},
		{"schedkit plugin in the default profile", func(it []item) []item {
			return append(it, pe("BenchmarkPerfScheduling/SchedulingBasic_default/100Nodes", "DeadlineAdmission", "PreFilter"))
		}, "SchedulingBasic/100Nodes under default: DeadlineAdmission ran (PreFilter)"},
		{"DefaultPreemption in the leastworklost profile", func(it []item) []item {
			return append(it, pe("BenchmarkPerfScheduling/Preemption_leastworklost/100Nodes", "DefaultPreemption", "PostFilter"))
		}, "Preemption/100Nodes under leastworklost: DefaultPreemption ran (PostFilter)"},
	} {
		err := check(c.edit(goodRun()))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestRates: the run's throughput is the measured pods of the workload in
// performance-config.yaml over SchedulingDuration; a run whose workload the
// configuration lacks has none.
func TestRates(t *testing.T) {
	pods, err := readMeasured("../../performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want int
	}{
		{"Preemption_default/100Nodes", 100},
		{"Preemption_leastworklost/5000Nodes", 2000},
		{"SchedulingBasic_schedkit/500Nodes", 1000},
		{"DeadlineRates_default/5000Nodes_10000Pods", 10000},
	} {
		if got := pods[c.name]; got != c.want {
			t.Errorf("%s: %d measured pods, want %d", c.name, got, c.want)
		}
	}
	const name = "BenchmarkPerfScheduling/Preemption_leastworklost/100Nodes/namespace-2"
	items := []item{
		tp(name, 4),
		{Data: map[string]float64{"Average": 80}, Labels: map[string]string{"Metric": "SchedulingThroughput", "Name": name}},
		tp("BenchmarkPerfScheduling/Preemption_other/100Nodes/namespace-2", 4),
	}
	rs := rates(items, pods, nil)
	if got := rs[run{"Preemption/100Nodes", "leastworklost", 1}]; got != (rate{run: 25, sampled: 80}) {
		t.Errorf("rate %+v, want 25 pods/s over the run and 80 sampled", got)
	}
	if got := rs[run{"Preemption/100Nodes", "other", 1}]; got.run != 0 {
		t.Errorf("a workload the configuration lacks: %v pods/s, want 0", got.run)
	}
}
