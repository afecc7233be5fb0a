package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// results runs the case study of seed under the given policies (all of
// them when none is given).
func results(t *testing.T, seed uint64, policies ...hadoopsim.Policy) map[hadoopsim.Policy]hadoopsim.Result {
	t.Helper()
	if len(policies) == 0 {
		policies = hadoopsim.Policies
	}
	sc := hadoopsim.CaseStudy(seed, hadoopsim.PaperError)
	out := map[hadoopsim.Policy]hadoopsim.Result{}
	for _, p := range policies {
		r, err := hadoopsim.Run(&sc, p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = r
	}
	return out
}

// TestCaseStudyShape asserts what holds of MIMP Table 3's shape under the
// faithful settings: MP uses less total task time than EDF and less than
// half its IO slowdown; FIFO misses more deadlines than EDF, later.
func TestCaseStudyShape(t *testing.T) {
	r := results(t, 1)
	fifo, edf, mp := r[hadoopsim.FIFO], r[hadoopsim.EDF], r[hadoopsim.MP]
	t.Logf("FIFO %+v", row(fifo))
	t.Logf("EDF  %+v", row(edf))
	t.Logf("MP   %+v", row(mp))
	if mp.TaskHours >= edf.TaskHours || mp.IOSlowdownHours >= edf.IOSlowdownHours/2 {
		t.Errorf("MP total task time %.2f h (IO slowdown %.2f h), EDF's %.2f h (%.2f h)", mp.TaskHours, mp.IOSlowdownHours, edf.TaskHours, edf.IOSlowdownHours)
	}
	if fifo.Missed <= edf.Missed || fifo.AvgLateness <= edf.AvgLateness {
		t.Errorf("FIFO missed %d (lateness %.1f s), EDF %d (%.1f s): FIFO should be worse", fifo.Missed, fifo.AvgLateness, edf.Missed, edf.AvgLateness)
	}
	if got := fifo.Met + fifo.Missed + fifo.Rejected; got != 163 {
		t.Errorf("deadline jobs accounted %d, want 163", got)
	}
	if mp.Rejected != 0 || edf.Rejected != 0 {
		t.Error("policies without admission rejected jobs")
	}
}

// TestTaskTimeSavingAcrossSeeds: MP saves task time over EDF on other
// traces too. Deadline misses are only logged: MP misses more than EDF.
func TestTaskTimeSavingAcrossSeeds(t *testing.T) {
	for seed := uint64(2); seed <= 4; seed++ {
		r := results(t, seed, hadoopsim.EDF, hadoopsim.MP)
		edf, mp := r[hadoopsim.EDF], r[hadoopsim.MP]
		t.Logf("seed %d: EDF missed %d %.2f h, MP missed %d %.2f h", seed, edf.Missed, edf.TaskHours, mp.Missed, mp.TaskHours)
		if mp.TaskHours >= edf.TaskHours {
			t.Errorf("seed %d: MP %.2f h not below EDF %.2f h", seed, mp.TaskHours, edf.TaskHours)
		}
	}
}

// TestSweepShape asserts what holds of MIMP Fig. 11's shape under the
// faithful settings: at light load nothing is rejected and at most one job
// misses; under heavy overload (3×) both admission variants miss at most
// half as many deadlines as EDF and MP (they do not meet more).
func TestSweepShape(t *testing.T) {
	points, err := sweep(1, []float64{0.5, 3})
	if err != nil {
		t.Fatal(err)
	}
	at := map[float64]map[string]sweepPoint{}
	for _, p := range points {
		if at[p.Load] == nil {
			at[p.Load] = map[string]sweepPoint{}
		}
		at[p.Load][p.Policy] = p
	}
	for name, p := range at[0.5] {
		if p.Missed > 1 || p.Rejected != 0 {
			t.Errorf("light load, %s: %+v", name, p)
		}
	}
	heavy := at[3]
	t.Logf("load 3: %+v", heavy)
	for _, ac := range []string{"MP+AC", "MP+AC-strict"} {
		for _, base := range []string{"EDF", "MP"} {
			if 2*heavy[ac].Missed > heavy[base].Missed {
				t.Errorf("load 3: %s missed %d, %s missed %d", ac, heavy[ac].Missed, base, heavy[base].Missed)
			}
		}
	}
}

// TestJSONSchema checks -json and -sweep -json print exactly the names.
func TestJSONSchema(t *testing.T) {
	var buf bytes.Buffer
	if err := run([]string{"-json"}, &buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Policies []map[string]any `json:"policies"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got.Policies {
		names = append(names, p["name"].(string))
		var keys []string
		for k := range p {
			keys = append(keys, k)
		}
		if len(p) != 7 {
			t.Errorf("keys %v", keys)
		}
		for _, k := range []string{"name", "met", "missed", "rejected", "total_task_hours", "failed_jobs", "avg_lateness_s"} {
			if _, ok := p[k]; !ok {
				t.Errorf("missing key %q", k)
			}
		}
	}
	if want := []string{"FIFO", "EDF", "MP", "MP+AC", "MP+AC-strict"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	buf.Reset()
	dir := t.TempDir() // -plot's wiring in run (TestTraceAndPlot calls the plot functions directly)
	if err := run([]string{"-sweep", "-json", "-plot", dir}, &buf); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "fig11.png")); err != nil || st.Size() == 0 {
		t.Errorf("-sweep -plot: fig11.png: %v", err)
	}
	var sw struct {
		Sweep []map[string]any `json:"sweep"`
	}
	if err := json.Unmarshal(buf.Bytes(), &sw); err != nil {
		t.Fatal(err)
	}
	if len(sw.Sweep) != len(SweepLoads)*len(SweepPolicies) {
		t.Fatalf("%d sweep points", len(sw.Sweep))
	}
	for _, p := range sw.Sweep {
		if len(p) != 5 || p["load"] == nil || p["policy"] == nil || p["met"] == nil || p["missed"] == nil || p["rejected"] == nil {
			t.Fatalf("sweep point %v", p)
		}
	}
}

// TestDeterministic: the same seed gives the same output, byte for byte.
func TestDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := run([]string{"-seed", "7"}, &a); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-seed", "7"}, &b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("two runs differ")
	}
}

func TestTraceAndPlot(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "swim.tsv")
	// Four SWIM rows: id, submit s, gap s, input bytes, shuffle, output.
	data := "job0\t10\t10\t1000\t0\t0\njob1\t40\t30\t400000000\t5\t5\njob2\t100\t60\t0\t0\t0\njob3\t99999\t5\t1\t0\t0\n"
	if err := os.WriteFile(trace, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := run([]string{"-trace", trace, "-window", "1000", "-json"}, &buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Policies []policyRow `json:"policies"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Policies {
		if p.Met+p.Missed+p.Rejected+p.FailedJobs > 3 {
			t.Errorf("%+v: more than the 3 jobs in the window", p)
		}
	}
	if testing.Short() {
		return
	}
	// The plotting code on real results, without recomputing the full
	// case study and sweep as run -plot does (slow under -race).
	sc := hadoopsim.CaseStudy(1, hadoopsim.PaperError)
	rs, err := caseStudy(&sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := plotAllocation(dir, &sc, rs); err != nil {
		t.Fatal(err)
	}
	points, err := sweep(1, []float64{0.5, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := plotSweep(dir, points); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig11.png", "fig15_FIFO.png", "fig15_EDF.png", "fig15_MP.png", "fig15_MP-AC.png", "fig15_MP-AC-strict.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-window", "-1"}, {"-maxmaps", "-2"}, {"extra"}, {"-trace", "/nonexistent/file"}, {"-nosuchflag"}} {
		if err := run(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tsv")
	os.WriteFile(bad, []byte("job0\tx\t1\t1\t0\t0\n"), 0o644)
	if err := run([]string{"-trace", bad}, &bytes.Buffer{}); err == nil {
		t.Error("bad trace accepted")
	}
}

// TestIOCheckAblation separates MP's two savings: without the data-node IO
// check MP still uses less task time than EDF (progress-awareness alone),
// but less than 5% less — the rest of the default run's saving comes from
// not starting tasks on overloaded data nodes. Logged for the notes.
func TestIOCheckAblation(t *testing.T) {
	sc := hadoopsim.CaseStudy(1, hadoopsim.PaperError)
	sc.NoIOCheck = true
	edf, _ := hadoopsim.Run(&sc, hadoopsim.EDF)
	mp, err := hadoopsim.Run(&sc, hadoopsim.MP)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("no IO check: EDF %.2f h, MP %.2f h (%.1f%% less), MP missed %d, EDF %d",
		edf.TaskHours, mp.TaskHours, 100*(1-mp.TaskHours/edf.TaskHours), mp.Missed, edf.Missed)
	if !(mp.TaskHours < edf.TaskHours) {
		t.Errorf("without IO check MP %.2f h >= EDF %.2f h", mp.TaskHours, edf.TaskHours)
	}
	if mp.OverloadedStarts == 0 {
		t.Error("MP without IO check never overloaded the data nodes: the ablation did nothing")
	}
}
