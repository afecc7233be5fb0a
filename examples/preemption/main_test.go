package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
)

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "jobs.tsv")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "jobs.txt")
	if err := os.WriteFile(txt, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := append(clitest.Standard(),
		clitest.Case{Name: "workload", Args: []string{"-workload", "cpu"}, Code: 2, Stderr: []string{`-workload = "cpu"`, "io, mixed"}},
		clitest.Case{Name: "model", Args: []string{"-model", "fifo"}, Code: 2, Stderr: []string{`-model = "fifo"`, "per-job, two-pool"}},
		clitest.Case{Name: "starvation", Args: []string{"-starvation", "never"}, Code: 2, Stderr: []string{`-starvation = "never"`, "per-period, every-check"}},
		clitest.Case{Name: "min-share-timeout negative", Args: []string{"-min-share-timeout", "-1"}, Code: 2, Stderr: []string{"-min-share-timeout = -1", "[0, 1e+07]"}},
		clitest.Case{Name: "min-share-timeout NaN", Args: []string{"-min-share-timeout", "NaN"}, Code: 2, Stderr: []string{"-min-share-timeout = NaN"}},
		clitest.Case{Name: "fair-share-timeout too large", Args: []string{"-fair-share-timeout", "1e9"}, Code: 2, Stderr: []string{"-fair-share-timeout = 1e+09", "[0, 1e+07]"}},
		clitest.Case{Name: "reps 0", Args: []string{"-reps", "0"}, Code: 2, Stderr: []string{"-reps = 0", "[1, 100]"}},
		clitest.Case{Name: "reps 101", Args: []string{"-reps", "101"}, Code: 2, Stderr: []string{"-reps = 101", "[1, 100]"}},
		clitest.Case{Name: "seed too large", Args: []string{"-seed", "9223372036854775807"}, Code: 2, Stderr: []string{"-seed = 9223372036854775807"}},
		clitest.Case{Name: "positions 0", Args: []string{"-positions", "0"}, Code: 2, Stderr: []string{`-positions = "0"`, "[1, 130]"}},
		clitest.Case{Name: "positions word", Args: []string{"-positions", "1,x"}, Code: 2, Stderr: []string{`-positions = "1,x"`}},
		clitest.Case{Name: "positions twice", Args: []string{"-positions", "66,66"}, Code: 2, Stderr: []string{"-positions", "twice"}},
		clitest.Case{Name: "positions too many", Args: []string{"-positions", "1,2,3,4,5,6,7,8,9,10,11"}, Code: 2, Stderr: []string{"-positions", "at most 10"}},
		clitest.Case{Name: "trace missing", Args: []string{"-trace", filepath.Join(dir, "nope.tsv")}, Code: 2, Stderr: []string{"-trace = ", "cannot be read"}},
		clitest.Case{Name: "trace suffix", Args: []string{"-trace", txt}, Code: 2, Stderr: []string{"-trace = ", ".tsv", ".csv.gz"}},
		clitest.Case{Name: "trace with mixed", Args: []string{"-workload", "mixed", "-trace", file}, Code: 2, Stderr: []string{"-trace = ", "io only"}},
		clitest.Case{Name: "task-scale with io", Args: []string{"-task-scale", "2"}, Code: 2, Stderr: []string{"-task-scale = 2", "mixed only"}},
		clitest.Case{Name: "task-scale 0", Args: []string{"-workload", "mixed", "-task-scale", "0"}, Code: 2, Stderr: []string{"-task-scale = 0", "10]"}},
		clitest.Case{Name: "join-stage-scale 11", Args: []string{"-workload", "mixed", "-join-stage-scale", "11"}, Code: 2, Stderr: []string{"-join-stage-scale = 11", "10]"}},
		clitest.Case{Name: "join-stage-scale with io", Args: []string{"-join-stage-scale", "0.5"}, Code: 2, Stderr: []string{"-join-stage-scale = 0.5", "mixed only"}},
		clitest.Case{Name: "plot onto a file", Args: []string{"-plot", filepath.Join(file, "x")}, Code: 2, Stderr: []string{"-plot = "}},
		clitest.Case{Name: "every problem at once", Args: []string{"-reps", "0", "-model", "x"}, Code: 2, Stderr: []string{"-reps = 0", `-model = "x"`}},
		clitest.Case{Name: "empty trace", Args: []string{"-trace", file, "-reps", "1"}, Code: 1, Stderr: []string{"jobs.tsv", "0 jobs, need 154"}},
	)
	clitest.Check(t, func(args []string, out, errb *bytes.Buffer) int { return run(args, out, errb) }, cases)
}

// runJSON runs the command with -json and returns stdout.
func runJSON(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"-json"}, args...), &out, &errb); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errb.String())
	}
	if errb.Len() != 0 {
		t.Fatalf("%q: -json printed on stderr: %s", args, errb.String())
	}
	return out.Bytes()
}

// The real traces sit beside the repository (../shared/traces from a
// checkout at /work/X).
const traceDir = "../../../shared/traces"

// googleFixture writes a small Google task_events file whose jobs have many
// tasks of irregular durations, a third of them unfinished (they take the
// job's mean), so that summing the durations in map order would show in the
// last digits.
func googleFixture(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "task_events.csv.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	us := int64(1_000_000)
	for j := range 160 {
		submit := int64(j+1) * 7 * us
		for k := range 40 {
			id := 1000 + j
			fmt.Fprintf(zw, "%d,,%d,%d,,0,,,,,,,\n", submit, id, k)
			fmt.Fprintf(zw, "%d,,%d,%d,,1,,,,,,,\n", submit+int64(k)*us/3, id, k)
			if k%3 == 0 {
				continue // no FINISH in the window: the job's mean duration stands in
			}
			fmt.Fprintf(zw, "%d,,%d,%d,,4,,,,,,,\n", submit+int64(k)*us/3+int64(10+(j*37+k*11)%500)*us+int64(k)*us/7, id, k)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every input mode gives the same bytes on two runs: Table III, the mixed
// workload, a SWIM trace, a Google trace (a fixture and the real shard), and
// both Fair Scheduler models. (readGoogle once summed task durations in map
// order, and its output changed from run to run.)
func TestDeterministicOutput(t *testing.T) {
	modes := map[string][]string{
		"io":             nil,
		"io two-pool":    {"-model", "two-pool"},
		"io every-check": {"-starvation", "every-check"},
		"io within k":    {"-starvation-within-k"},
		"mixed":          {"-workload", "mixed"},
		"google fixture": {"-trace", googleFixture(t)},
		"swim":           {"-trace", filepath.Join(traceDir, "swim-facebook/FB-2009_samples_24_times_1hr_0.tsv")},
		"google":         {"-trace", filepath.Join(traceDir, "google-clusterdata-2011/task_events-part-00000-of-00500.csv.gz")},
	}
	for name, args := range modes {
		if raceEnabled && strings.HasPrefix(name, "io ") {
			continue // the plain run covers the model variants; -race the input modes
		}
		if i := slices.Index(args, "-trace"); i >= 0 {
			if _, err := os.Stat(args[i+1]); err != nil {
				t.Fatalf("%s: %v (the real traces are expected in ../shared/traces beside the checkout)", name, err)
			}
		}
		args = append(args, "-reps", "1", "-positions", "66")
		a, b := runJSON(t, args...), runJSON(t, args...)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}

var (
	defaultOnce sync.Once
	defaultOut  Output
	defaultRaw  []byte
	defaultErr  error
)

// defaultRun runs the command with its default flags once for the tests that
// read the whole report; under the race detector, which makes the simulator
// several times slower, with one seed.
func defaultRun(t *testing.T) (Output, []byte) {
	defaultOnce.Do(func() {
		args := []string{"-json"}
		if raceEnabled {
			args = append(args, "-reps", "1")
		}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			defaultErr = fmt.Errorf("exit %d: %s", code, errb.String())
			return
		}
		defaultRaw = out.Bytes()
		defaultErr = json.Unmarshal(defaultRaw, &defaultOut)
	})
	if defaultErr != nil {
		t.Fatal(defaultErr)
	}
	return defaultOut, defaultRaw
}

// The shape that holds under the default (per-job model, 300/600 s
// timeouts, starvation per period, 20 seeds × 3 long-job positions): in busy
// periods GP's SNP is at least the baseline's and its unfairness at most 5%
// above it; the kills GP makes for the Fair Scheduler's own preemption lose
// at most half the work the baseline's lose (GP §V: the newest tasks
// cluster-wide); GP loses more work in all, and its starvation rule's kills
// account for all of the difference. It runs the busy period's baseline and
// GP only, so that it runs under the race detector too.
func TestDefaultShape(t *testing.T) {
	cfg := DefaultConfig()
	pos, err := parsePositions(defaultPositions)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Reps: defaultReps, Seed: 1, Positions: pos, Config: cfg, Periods: []string{"busy"}, Policies: []Policy{Baseline, GP}}
	cells, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	out := Summarise(o, cells)
	b, _ := findRow(out.Periods, "busy", Baseline)
	g, _ := findRow(out.Periods, "busy", GP)
	ch, _ := findChange(out, "busy", GP)
	starv := g.WorkLostBySource[SourceStarvation.String()]
	t.Logf("busy: SNP %.3f → %.3f (%+.1f%%, seeds %+.1f…%+.1f%%, %d of %d runs), unfairness %v, work lost %.0f → %.0f (%v; Fair Scheduler's preemption %.0f → %.0f, %v; starvation rule %.0f)",
		b.SNP, g.SNP, ch.SNPPct, ch.SeedMinPct, ch.SeedMaxPct, ch.Wins, ch.PairedRuns, ch.UnfairnessPct, b.WorkLost, g.WorkLost, ch.WorkLostPct,
		triggerLost(b), triggerLost(g), ch.TriggerWorkLostPct, starv)
	if b.Runs != 60 || g.Runs != 60 {
		t.Fatalf("%d and %d runs, want 20 seeds × 3 positions", b.Runs, g.Runs)
	}
	if !(g.SNP >= b.SNP) || !(g.Unfairness <= 1.05*b.Unfairness) {
		t.Fatalf("busy shape does not hold: SNP %.4f vs %.4f, unfairness %.4f vs %.4f", g.SNP, b.SNP, g.Unfairness, b.Unfairness)
	}
	if !(triggerLost(g) <= 0.5*triggerLost(b)) || !(g.WorkLost > b.WorkLost) || !(g.WorkLost-b.WorkLost < starv) {
		t.Fatalf("busy work lost: Fair Scheduler's preemption %.0f vs %.0f, total %.0f vs %.0f, starvation rule %.0f",
			triggerLost(g), triggerLost(b), g.WorkLost, b.WorkLost, starv)
	}
}

// -json prints its schema: workload, hfs_model and per period and
// policy snp, l1, l2, unfairness, avg_response_s, work_lost_slot_s,
// starvation_episodes and kills by reason, with the comparisons and the
// per-position cells the table shows.
func TestJSONSchema(t *testing.T) {
	out, raw := defaultRun(t)
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"workload", "hfs_model", "periods", "cells", "changes", "min_share_preemption_timeout_s", "fair_share_preemption_timeout_s", "starvation", "paper", "differs_from_paper"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("no %q in the document", k)
		}
	}
	if out.Workload != "io" || out.HFSModel != "per-job" || out.MinShareTimeout != 300 || out.FairShareTimeout != 600 || out.Starvation != "per-period" {
		t.Errorf("default setting %+v", out)
	}
	var got []string
	for _, row := range doc["periods"].([]any) {
		r := row.(map[string]any)
		for _, k := range []string{"period", "policy", "snp", "l1", "l2", "unfairness", "avg_response_s", "work_lost_slot_s", "starvation_episodes", "kills", "nonprod_occupancy", "long_job_kills",
			"work_lost_by_source_slot_s", "kills_by_source", "starvation_kills_beyond_k", "starvation_work_lost_beyond_k_slot_s"} {
			if _, ok := r[k]; !ok {
				t.Errorf("period row lacks %q: %v", k, r)
			}
		}
		kills := r["kills"].(map[string]any)
		if len(kills) != 3 || kills["overflow"] == nil || kills["starving-long-job"] == nil || kills["most-recent"] == nil {
			t.Errorf("kills %v: want the three reasons", kills)
		}
		bySource := r["work_lost_by_source_slot_s"].(map[string]any)
		if len(bySource) != 3 || bySource["min-share preemption"] == nil || bySource["fair-share preemption"] == nil || bySource["starvation rule"] == nil {
			t.Errorf("work lost by source %v: want the three sources", bySource)
		}
		got = append(got, r["period"].(string)+"/"+r["policy"].(string))
	}
	for _, c := range doc["changes"].([]any) {
		for _, k := range []string{"work_lost_change_pct", "seed_work_lost_change_min_pct", "seed_work_lost_change_max_pct", "trigger_work_lost_change_pct", "seeds", "seeds_less_work_lost"} {
			if _, ok := c.(map[string]any)[k]; !ok {
				t.Errorf("change lacks %q: %v", k, c)
			}
		}
	}
	want := []string{"busy/baseline", "busy/GP", "busy/GP-no-starvation", "idle/baseline", "idle/GP", "idle/GP-no-starvation"}
	if !slices.Equal(got, want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	if len(out.Cells) != len(want)*len(out.Positions) || len(out.Changes) != 4 {
		t.Fatalf("%d cells, %d changes", len(out.Cells), len(out.Changes))
	}
	for _, r := range out.Periods {
		switch r.Policy {
		case "baseline":
			if r.Kills["starving-long-job"] != 0 || r.Kills["most-recent"] != 0 {
				t.Errorf("%s baseline kills %v: only overflow", r.Period, r.Kills)
			}
		default:
			if r.Kills["overflow"] != 0 {
				t.Errorf("%s %s kills %v: no overflow victims", r.Period, r.Policy, r.Kills)
			}
		}
		if r.Policy == "GP-no-starvation" && r.Kills["starving-long-job"] != 0 {
			t.Errorf("%s GP-no-starvation killed for starvation", r.Period)
		}
		// The sources split the work lost and the kills; only GP's starvation
		// rule kills beyond k.
		lost, kills := 0.0, 0.0
		for _, src := range sources {
			lost += r.WorkLostBySource[src.String()]
			kills += r.KillsBySource[src.String()]
		}
		allKills := r.Kills["overflow"] + r.Kills["starving-long-job"] + r.Kills["most-recent"]
		if math.Abs(lost-r.WorkLost) > 1e-9*r.WorkLost || math.Abs(kills-allKills) > 1e-9*allKills ||
			r.KillsBySource[SourceStarvation.String()] != r.Kills["starving-long-job"] || r.BeyondKKills > r.Kills["starving-long-job"] ||
			(r.Policy != "GP" && (r.WorkLostBySource[SourceStarvation.String()] != 0 || r.BeyondKKills != 0)) {
			t.Errorf("%s %s: work lost %v by source %v, kills %v by source %v, %v beyond k", r.Period, r.Policy, r.WorkLost, r.WorkLostBySource, r.Kills, r.KillsBySource, r.BeyondKKills)
		}
	}
	// Everything the table shows is in the document.
	var table bytes.Buffer
	PrintTable(&table, out)
	for _, l := range append(out.Paper, out.DiffersFromPaper...) {
		if !strings.Contains(table.String(), l) {
			t.Errorf("table lacks %q", l)
		}
	}
}

// The mixed workload has GP §VI-B's 160 jobs: 25 I/O-bound Grep instances
// with 15,554 maps, 56 CPU-bound Grep with 1,589 (the long job among them),
// 34 Aggregate with 10,608 and 15 Join instances of three consecutive jobs
// each, for every seed.
func TestMixedWorkload(t *testing.T) {
	for seed := range uint64(50) {
		jobs, err := Scenario{Workload: Mixed, Period: "busy", MeanGap: 30, LongPos: 66, Seed: seed}.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		type tally struct{ instances, jobs, maps int }
		apps := map[string]*tally{}
		counted := 0
		for i, j := range jobs {
			if !j.Counted {
				continue
			}
			counted++
			a := apps[j.App]
			if a == nil {
				a = &tally{}
				apps[j.App] = a
			}
			a.jobs++
			if j.After < 0 {
				a.instances++
				a.maps += len(j.Durations)
			} else if jobs[j.After].App != appJoin || j.App != appJoin || i != j.After+1 {
				t.Fatalf("seed %d: job %d follows job %d", seed, i, j.After)
			}
			if j.Long && (j.App != appCPUGrep || len(j.Durations) != 250 || j.Prod) {
				t.Fatalf("seed %d: long job %+v", seed, j.App)
			}
		}
		want := map[string]tally{appIOGrep: {25, 25, 15554}, appCPUGrep: {56, 56, 1589}, appAggregate: {34, 34, 10608}, appJoin: {15, 45, 870}}
		for name, w := range want {
			if a := apps[name]; a == nil || *a != w {
				t.Fatalf("seed %d: %s %+v, want %+v", seed, name, a, w)
			}
		}
		if counted != 160 {
			t.Fatalf("seed %d: %d counted jobs, want 160", seed, counted)
		}
	}
}

// The I/O workload is Table III: 130 jobs, the long job at its position, 39
// production jobs among the counted ones, 25 uncounted tail jobs.
func TestWorkloadShape(t *testing.T) {
	ord, long := tableIIIJobs()
	if len(ord) != 129 || long.maps != 250 || long.taskTime != 2500 {
		t.Fatalf("%d ordinary jobs, long %+v", len(ord), long)
	}
	maps := 0
	for _, j := range ord {
		maps += j.maps
	}
	if maps+long.maps != 28621 { // 49·1 + 21·2 + 18·10 + 11·50 + 8·100 + 8·250 + 5·400 + 5·800 + 2·1500 + 3000 + 5000 + 8000
		t.Fatalf("Table III has %d maps, want 28621", maps+long.maps)
	}
	for _, pos := range []int{1, 66, 92} {
		jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: pos, Seed: 3}.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != countedJobs+tailJobs || !jobs[pos-1].Long || len(jobs[pos-1].Durations) != 250 || jobs[pos-1].Prod {
			t.Fatalf("position %d: long job misplaced", pos)
		}
		prod, counted := 0, 0
		for i, j := range jobs {
			if j.Counted {
				counted++
				if j.Prod {
					prod++
				}
			}
			if i > 0 && j.Arrival < jobs[i-1].Arrival {
				t.Fatal("arrivals out of order")
			}
		}
		if counted != 130 || prod != 39 {
			t.Fatalf("counted %d, production %d; want 130, 39", counted, prod)
		}
	}
	if _, err := (Scenario{MeanGap: 30, LongPos: 131}).Build(nil); err == nil {
		t.Fatal("position 131 accepted")
	}
}

// -plot writes the twelve charts.
func TestPlot(t *testing.T) {
	out, _ := defaultRun(t)
	dir := t.TempDir()
	if err := Plot(dir, out); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	if len(files) != 12 {
		t.Fatalf("%d PNGs, want 12", len(files))
	}
}

func TestTraces(t *testing.T) {
	for _, path := range []string{
		filepath.Join(traceDir, "swim-facebook/FB-2009_samples_24_times_1hr_0.tsv"),
		filepath.Join(traceDir, "google-clusterdata-2011/task_events-part-00000-of-00500.csv.gz"),
	} {
		ord, err := ReadTrace(path)
		if err != nil {
			t.Fatalf("%v (the real traces are expected in ../shared/traces beside the checkout)", err)
		}
		if len(ord) != countedJobs-1+tailJobs {
			t.Fatalf("%s: %d jobs", path, len(ord))
		}
		jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: 66, Seed: 1}.Build(ord)
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range policies {
			r, err := Simulate(DefaultConfig(), jobs, pol)
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, jobs, r)
		}
	}
}
