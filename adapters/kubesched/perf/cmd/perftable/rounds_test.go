package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

// TestParse: a test case's name splits into workload, profile and round;
// a name without a round is round 1.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name string
		want run
	}{
		{"BenchmarkPerfScheduling/SchedulingBasic_schedkit/100Nodes/namespace-2", run{"SchedulingBasic/100Nodes", "schedkit", 1}},
		{"BenchmarkPerfScheduling/Preemption_leastworklost_2/5000Nodes", run{"Preemption/5000Nodes", "leastworklost", 2}},
		{"BenchmarkPerfScheduling/DeadlineRates_default_13/100Nodes/namespace-2", run{"DeadlineRates/100Nodes", "default", 13}},
		// Not a round: the name is no <workload>_<profile>.
		{"BenchmarkPerfScheduling/A_b_c/100Nodes", run{"A_b_c/100Nodes", "", 1}},
		{"BenchmarkPerfScheduling/A_b_0/100Nodes", run{"A_b_0/100Nodes", "", 1}},
		{"BenchmarkPerfScheduling/Plain/100Nodes", run{"Plain/100Nodes", "", 1}},
		{"SchedulingThroughput", run{"SchedulingThroughput", "", 1}},
	} {
		if got := parse(c.name); got != c.want {
			t.Errorf("parse(%q) = %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := parse("BenchmarkPerfScheduling/Preemption_schedkit_3/100Nodes/x").testCase(); got != "Preemption_schedkit/100Nodes" {
		t.Errorf("testCase = %q, want Preemption_schedkit/100Nodes", got)
	}
}

// roundsRun is goodRun's SchedulingBasic in two rounds, the second in
// reverse order, with durations giving schedkit ÷ default = 0.8 and 1.25
// (2,000 measured pods at label ci).
func roundsRun() []item {
	const n = "BenchmarkPerfScheduling/SchedulingBasic_%s/100Nodes/namespace-2"
	name := func(p string) string { return strings.Replace(n, "%s", p, 1) }
	return []item{
		tp(name("default_1"), 10), pe(name("default_1"), "DefaultPreemption", "PreEnqueue"),
		tp(name("schedkit_1"), 12.5), pe(name("schedkit_1"), "DeadlineAdmission", "PreFilter"),
		pe(name("schedkit_1"), "ProgressShare", "PreScore"), pe(name("schedkit_1"), "LeastWorkLostPreemption", "PreEnqueue"),
		tp(name("schedkit_2"), 8),
		tp(name("default_2"), 10),
	}
}

// TestSummaries: each round's ratio is of the same round's runs, and the
// median of two is their mean. The hand-worked figures: 2,000 pods in 10 s
// against 12.5 s is 0.8; against 8 s, 1.25; median 1.025.
func TestSummaries(t *testing.T) {
	pods, err := readMeasured("../../performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := summaries(roundsRun(), pods, nil)
	if len(got) != 1 || got[0].workload != "SchedulingBasic/100Nodes" || got[0].profile != "schedkit" {
		t.Fatalf("summaries = %+v, want one for SchedulingBasic/100Nodes under schedkit", got)
	}
	if r := got[0].ratios; len(r) != 2 || r[0] != 0.8 || r[1] != 1.25 {
		t.Errorf("ratios %v, want [0.8 1.25]", r)
	}
	if m := median(got[0].ratios); m != 1.025 {
		t.Errorf("median %v, want 1.025", m)
	}
	if err := check(roundsRun()); err != nil {
		t.Errorf("check of two complete rounds: %v", err)
	}
	missing := roundsRun()[:len(roundsRun())-1]
	if err := check(missing); err == nil || !strings.Contains(err.Error(), "SchedulingBasic/100Nodes round 2 under default: no SchedulingDuration") {
		t.Errorf("check of a round without its default run: %v", err)
	}
}

// TestMedian: odd and even counts, hand-worked; none is 0.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{0.9}, 0.9},
		{[]float64{1.2, 0.8, 1.0}, 1.0},
		{[]float64{1.5, 0.5, 1.0, 0.75}, 0.875},
	} {
		if got := median(c.v); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestReadRuns: each line's record under its run; a bad line is an error
// naming the file's line.
func TestReadRuns(t *testing.T) {
	write := func(text string) string {
		p := filepath.Join(t.TempDir(), "runs.jsonl")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write(`{"name":"BenchmarkPerfScheduling/Preemption_schedkit_2/100Nodes","load1Start":3.5,"load1End":4,"wallSeconds":30,"cpuSeconds":41.5}` + "\n")
	recs, err := readRuns(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[run{"Preemption/100Nodes", "schedkit", 2}]; got.LoadStart != 3.5 || got.LoadEnd != 4 || got.Wall != 30 || got.CPU != 41.5 || len(recs) != 1 {
		t.Errorf("records %+v", recs)
	}
	for _, c := range []struct{ text, want string }{
		{"{}\n", `runs.jsonl:1: name "" is no run`},
		{`{"name":"BenchmarkPerfScheduling/A_b/1"}` + "\nnot json\n", "runs.jsonl:2: invalid character"},
		{`{"name":"BenchmarkPerfScheduling/A_b/1","cpuSeconds":"x"}`, "runs.jsonl:1: json: cannot unmarshal"},
	} {
		if _, err := readRuns(write(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error containing %q", c.text, err, c.want)
		}
	}
	if _, err := readRuns(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing file: no error")
	}
}

// TestSummariesSpan: a round whose two runs both have the measured pods'
// own span is taken of it, a round where one lacks it of the runs'
// SchedulingDuration. Round 1: 2,000 pods from 0.5 s to 20.5 s (100
// pods/s) under default against 0.5 s to 16.5 s (125 pods/s) under
// schedkit is 1.25, where the durations (10 s, 12.5 s) give 0.8; round 2
// has no default record and keeps 1.25 (and has no CPU ratio).
func TestSummariesSpan(t *testing.T) {
	pods, err := readMeasured("../../performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	span := func(first, last, cpu float64) perf.RunRecord {
		return perf.RunRecord{Pods: map[string]perf.Span{
			"namespace-2": {Created: 2000, Bound: 2000, First: first, Last: last, CPU: cpu},
			"namespace-1": {Created: 100, Bound: 100, First: 0, Last: 100},
		}}
	}
	recs := map[run]perf.RunRecord{
		{"SchedulingBasic/100Nodes", "default", 1}:  span(0.5, 20.5, 20),
		{"SchedulingBasic/100Nodes", "schedkit", 1}: span(0.5, 16.5, 25),
		{"SchedulingBasic/100Nodes", "schedkit", 2}: span(0.5, 100.5, 10),
	}
	got := summaries(roundsRun(), pods, recs)
	if len(got) != 1 || len(got[0].ratios) != 2 || got[0].ratios[0] != 1.25 || got[0].ratios[1] != 1.25 {
		t.Fatalf("summaries = %+v, want ratios [1.25 1.25]", got)
	}
	// CPU: 10 ms a pod under default, 12.5 under schedkit: 0.8 pods per
	// CPU second ÷ default, round 1 only.
	if c := got[0].cpuRatios; len(c) != 1 || c[0] != 0.8 {
		t.Errorf("CPU ratios %v, want [0.8]", c)
	}
}
