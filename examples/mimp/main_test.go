package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// runArgs runs the program and returns its exit code, stdout and stderr.
func runArgs(args ...string) (int, string, string) { return clitest.Output(run, args...) }

// swimFile writes a four-job SWIM trace and returns its path.
func swimFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "swim.tsv")
	// id, submit s, gap s, input bytes, shuffle, output.
	data := "job0\t10\t10\t1000\t0\t0\njob1\t40\t30\t400000000\t5\t5\njob2\t100\t60\t0\t0\t0\njob3\t99999\t5\t1\t0\t0\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCLI is the command-line table of the shared convention: -h, unknown
// flags and stray arguments, and each bad value of each flag, before any
// work (exit 2, nothing on stdout, the flag named on stderr).
func TestCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	swim := swimFile(t)
	cases := append(append(clitest.Standard(), clitest.Seeds(100)...),
		clitest.Bad("capacity -1", []string{"-capacity", "-1"}, "-capacity = -1", "0 (unconstrained)"),
		clitest.Bad("capacity tiny", []string{"-capacity", "0.0001"}, "-capacity = 0.0001"),
		clitest.Bad("capacity NaN", []string{"-capacity", "NaN"}, "-capacity = NaN"),
		clitest.Bad("capacity huge", []string{"-capacity", "1e7"}, "-capacity = 1e+07", "1e+06"),
		clitest.Bad("errors", []string{"-errors", "some"}, `-errors = "some"`, "paper, none"),
		clitest.Bad("offer", []string{"-offer", "fifo"}, `-offer = "fifo"`, "heartbeat, cluster-order"),
		clitest.Bad("read90", []string{"-read90", "p99"}, `-read90 = "p99"`, "mean, p90"),
		clitest.Bad("window negative", []string{"-trace", swim, "-window", "-1"}, "-window = -1"),
		clitest.Bad("window Inf", []string{"-trace", swim, "-window", "Inf"}, "-window = +Inf"),
		clitest.Bad("window without trace", []string{"-window", "100"}, "-window applies only with -trace"),
		clitest.Bad("maxmaps negative", []string{"-trace", swim, "-maxmaps", "-2"}, "-maxmaps = -2"),
		clitest.Bad("maxmaps without trace", []string{"-maxmaps", "5"}, "-maxmaps applies only with -trace"),
		clitest.Bad("trace missing", []string{"-trace", filepath.Join(dir, "none.tsv")}, "-trace = ", "cannot be read"),
		clitest.Bad("trace is a directory", []string{"-trace", dir}, "-trace = ", "readable file"),
		clitest.Bad("plot onto a file", []string{"-plot", filepath.Join(file, "x")}, "-plot = "),
		clitest.Bad("sweep and sensitivity", []string{"-sweep", "-sensitivity"}, "-sweep and -sensitivity"),
		clitest.Bad("sweep with trace", []string{"-sweep", "-trace", swim}, "-trace = "),
		clitest.Bad("confidence below 0.5", []string{"-confidence", "0.4"}, "-confidence = 0.4", "[0.5, 1]"),
		clitest.Bad("confidence NaN", []string{"-confidence", "NaN"}, "-confidence = NaN"),
		clitest.Bad("confidence above 1", []string{"-confidence", "1.5"}, "-confidence = 1.5"),
		clitest.Bad("malformed value", []string{"-seeds", "x"}, "-seeds", "usage:"),
		clitest.Bad("every problem at once", []string{"-seeds", "0", "-capacity", "-1", "-errors", "x"}, "-seeds = 0", "-capacity = -1", `-errors = "x"`),
	)
	clitest.Check(t, func(args []string, out, errb *bytes.Buffer) int { return run(args, out, errb) }, cases)
	code, _, stderr := runArgs("-h")
	for _, f := range []string{"-seeds", "-sensitivity", "-capacity", "-errors", "-offer", "-read90", "-noiocheck", "-confidence", "-sweep", "-trace", "-plot", "-json"} {
		if !strings.Contains(stderr, f) {
			t.Errorf("-h (exit %d) does not list %s", code, f)
		}
	}
}

// TestTraceFailsWhileWorking: a trace that reads but does not parse is a
// failure while working (exit 1), naming the file and the line.
func TestTraceFailsWhileWorking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.tsv")
	if err := os.WriteFile(path, []byte("job0\tx\t1\t1\t0\t0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runArgs("-trace", path, "-seeds", "1")
	if code != 1 || out != "" || !strings.Contains(stderr, "bad.tsv") || !strings.Contains(stderr, "line 1") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

var (
	faithfulOnce sync.Once
	faithfulS    *study
	faithfulAbl  []ablationResult
	faithfulErr  error
)

// faithfulSeeds are the traces the shape tests run on.
const faithfulSeeds = 6

// faithful runs FIFO, EDF, MP-paper and MP with every ablation on seeds
// 1–6 under the default (faithful) settings, once per test binary.
func faithful(t *testing.T) (*study, []ablationResult) {
	t.Helper()
	faithfulOnce.Do(func() {
		o := options{seed: 1, seeds: faithfulSeeds, settings: defaultSettings}
		faithfulS, faithfulErr = runStudy(o, o.settings, nil, []hadoopsim.Policy{hadoopsim.FIFO, hadoopsim.EDF, hadoopsim.MPPaper, hadoopsim.MP}, nil)
		if faithfulErr == nil {
			faithfulAbl, faithfulErr = runAblations(o, faithfulS, nil, nil)
		}
	})
	if faithfulErr != nil {
		t.Fatal(faithfulErr)
	}
	return faithfulS, faithfulAbl
}

// TestCaseStudyShape asserts what holds of MIMP Table 3 under the faithful
// settings on every trace: MP uses less total task time than EDF, most of
// the difference is IO slowdown MP's check avoids (MP's is under half of
// EDF's), FIFO misses more deadlines than EDF, and every deadline job is
// accounted for.
func TestCaseStudyShape(t *testing.T) {
	s, _ := faithful(t)
	fifo, edf, mp := s.of(hadoopsim.FIFO), s.of(hadoopsim.EDF), s.of(hadoopsim.MP)
	var fifoMissed, edfMissed, avoided, runSaved float64
	for k, seed := range s.seeds {
		e, m := edf[k], mp[k]
		t.Logf("seed %d: FIFO missed %d; EDF missed %d, %.2f h (IO %.2f); MP missed %d, %.2f h (IO %.2f)", seed, fifo[k].Missed, e.Missed, e.TaskHours, e.IOSlowdownHours, m.Missed, m.TaskHours, m.IOSlowdownHours)
		if !(m.TaskHours < e.TaskHours) {
			t.Errorf("seed %d: MP %.2f h not below EDF %.2f h", seed, m.TaskHours, e.TaskHours)
		}
		if !(m.IOSlowdownHours < e.IOSlowdownHours/2) {
			t.Errorf("seed %d: IO slowdown MP %.2f h, EDF %.2f h", seed, m.IOSlowdownHours, e.IOSlowdownHours)
		}
		for _, r := range []hadoopsim.Result{fifo[k], e, m} {
			if got, want := r.Met+r.Missed+r.Rejected+r.Failed, deadlineJobs(&s.scen[k]); got != want || r.Rejected != 0 {
				t.Errorf("seed %d, %v: %d deadline jobs accounted, want %d", seed, r.Policy, got, want)
			}
		}
		fifoMissed += float64(fifo[k].Missed)
		edfMissed += float64(e.Missed)
		avoided += e.IOSlowdownHours - m.IOSlowdownHours
		runSaved += (e.TaskHours - e.IOSlowdownHours) - (m.TaskHours - m.IOSlowdownHours)
	}
	if !(fifoMissed > edfMissed) {
		t.Errorf("FIFO missed %v, EDF %v over the traces", fifoMissed, edfMissed)
	}
	if !(avoided > runSaved && runSaved > 0) {
		t.Errorf("IO slowdown avoided %.2f h, run time saved %.2f h: want both > 0, IO the larger", avoided, runSaved)
	}
}

// TestSavingSources: matching tasks to slots alone (unconstrained data
// nodes) saves between 0 and 2% on every trace; MP without its IO check
// saves less than with it on every trace; so the IO check gives the rest.
func TestSavingSources(t *testing.T) {
	s, abl := faithful(t)
	base := savings(s.of(hadoopsim.EDF), s.of(hadoopsim.MP))
	free, ok := find(abl, "-capacity 0")
	noio, ok2 := find(abl, "-noiocheck")
	if !ok || !ok2 {
		t.Fatal("ablations missing")
	}
	t.Logf("saving %v; unconstrained %+v; no IO check %+v", base, free.Saving, noio.Saving)
	if !(free.Saving.Min > 0 && free.Saving.Max < 2) {
		t.Errorf("unconstrained saving %+v: want in (0, 2%%) on every trace", free.Saving)
	}
	if !(noio.Saving.Max < statOf(base).Min) {
		t.Errorf("no IO check %+v, with it %+v: want every trace below", noio.Saving, statOf(base))
	}
}

// TestSavingGrowsAsDataNodesShrink: MP's mean saving rises as the data
// nodes' capacity falls (100 → 60 → 40 MB/s), and at 100 MB/s it is the
// unconstrained saving (no overload).
func TestSavingGrowsAsDataNodesShrink(t *testing.T) {
	s, abl := faithful(t)
	free, _ := find(abl, "-capacity 0")
	mean := map[float64]float64{60: statOf(savings(s.of(hadoopsim.EDF), s.of(hadoopsim.MP))).Mean}
	for _, c := range []float64{40, 100} {
		st := defaultSettings
		st.capacity = c
		o := options{seed: 1, seeds: 3, settings: st}
		r, err := runStudy(o, st, nil, []hadoopsim.Policy{hadoopsim.EDF, hadoopsim.MP}, nil)
		if err != nil {
			t.Fatal(err)
		}
		mean[c] = statOf(savings(r.of(hadoopsim.EDF), r.of(hadoopsim.MP))).Mean
	}
	t.Logf("mean saving by capacity %v, unconstrained %v", mean, free.Saving.Mean)
	if !(mean[40] > mean[60] && mean[60] > mean[100]) {
		t.Errorf("saving at 40, 60, 100 MB/s: %.2f, %.2f, %.2f%%: want falling", mean[40], mean[60], mean[100])
	}
	if math.Abs(mean[100]-free.Saving.Mean) > 0.5 {
		t.Errorf("saving at 100 MB/s %.2f%%, unconstrained %.2f%%", mean[100], free.Saving.Mean)
	}
}

// TestMPKeepsDeadlines is the bar of MP's deadline protection on the
// traces the command runs by default (seeds 1–10, faithful settings): MP
// misses no more deadlines than EDF over them, fewer than MP-paper, and
// uses less total task time than EDF on every trace.
func TestMPKeepsDeadlines(t *testing.T) {
	o := options{seed: 1, seeds: defaultSeeds, settings: defaultSettings}
	s, err := runStudy(o, o.settings, nil, []hadoopsim.Policy{hadoopsim.EDF, hadoopsim.MPPaper, hadoopsim.MP}, nil)
	if err != nil {
		t.Fatal(err)
	}
	edf, paper, mp := s.of(hadoopsim.EDF), s.of(hadoopsim.MPPaper), s.of(hadoopsim.MP)
	var missedE, missedP, missedM int
	for k, seed := range s.seeds {
		t.Logf("seed %d: missed EDF %d, MP-paper %d, MP %d; hours EDF %.2f, MP %.2f", seed, edf[k].Missed, paper[k].Missed, mp[k].Missed, edf[k].TaskHours, mp[k].TaskHours)
		missedE, missedP, missedM = missedE+edf[k].Missed, missedP+paper[k].Missed, missedM+mp[k].Missed
		if !(mp[k].TaskHours < edf[k].TaskHours) {
			t.Errorf("seed %d: MP %.2f h not below EDF %.2f h", seed, mp[k].TaskHours, edf[k].TaskHours)
		}
	}
	if missedM > missedE || missedM >= missedP {
		t.Errorf("missed over seeds 1–%d: MP %d, EDF %d, MP-paper %d: want MP <= EDF and MP < MP-paper", defaultSeeds, missedM, missedE, missedP)
	}
}

// TestErrorsAreThePapers: the scheduler's realised TCT prediction errors on
// MP's tasks are MIMP §6.3.1's within 0.03 on every trace; MP-paper
// finishes jobs nearer their deadlines than EDF (lower 5th-percentile
// slack), which is why those errors cost it more deadlines, and MP, which
// protects deadlines against them, finishes them earlier than MP-paper;
// the literal 90th-percentile Read90 makes MP's IO check hold tasks back
// and miss many more.
func TestErrorsAreThePapers(t *testing.T) {
	s, abl := faithful(t)
	edf, paper, mp := s.of(hadoopsim.EDF), s.of(hadoopsim.MPPaper), s.of(hadoopsim.MP)
	var slackE, slackP, slackM, missedM float64
	for k := range mp {
		e := mp[k].Errors
		if math.Abs(e.OverShare-0.57) > 0.03 || math.Abs(e.MeanOver-0.35) > 0.03 || math.Abs(e.MeanUnder-0.29) > 0.03 {
			t.Errorf("seed %d: realised errors %+v", s.seeds[k], e)
		}
		slackE += slackP5(&s.scen[k], edf[k])
		slackP += slackP5(&s.scen[k], paper[k])
		slackM += slackP5(&s.scen[k], mp[k])
		missedM += float64(mp[k].Missed)
	}
	if !(slackP < slackE && slackP < slackM) {
		t.Errorf("5th-percentile slack: MP-paper %.1f, MP %.1f, EDF %.1f (sums)", slackP, slackM, slackE)
	}
	p90, ok := find(abl, "-read90 p90")
	if !ok || !(p90.MPMissed.Mean > 3*missedM/float64(len(mp))) {
		t.Errorf("Read90 p90: MP missed %+v, default %.1f", p90.MPMissed, missedM/float64(len(mp)))
	}
}

// TestJSON checks -json: the field names (policies[].name, missed,
// total_task_hours, io_slowdown_hours, overloaded_starts), ranges and
// per-seed rows, MP's saving and its sources, the ablations, terms and the
// differs-from-paper lines; and that the text shows the same sections.
func TestJSON(t *testing.T) {
	code, out, stderr := runArgs("-json", "-seeds", "2")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got struct {
		Settings map[string]any   `json:"settings"`
		Policies []map[string]any `json:"policies"`
		MPSaving map[string]any   `json:"mp_saving"`
		Guard    map[string]any   `json:"mp_deadline_protection"`
		Abl      []map[string]any `json:"ablations"`
		Terms    []string         `json:"terms"`
		Differs  []string         `json:"differs_from_paper"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got.Policies {
		names = append(names, p["name"].(string))
		for _, m := range metrics {
			if _, ok := p[m.key].(float64); !ok {
				t.Errorf("%s: %q missing", p["name"], m.key)
			}
			if r, ok := p["range"].(map[string]any)[m.key].([]any); !ok || len(r) != 2 {
				t.Errorf("%s: range of %q missing", p["name"], m.key)
			}
		}
		if ps, ok := p["per_seed"].([]any); !ok || len(ps) != 2 {
			t.Errorf("%s: per_seed %v", p["name"], p["per_seed"])
		}
		if _, ok := p["prediction_error"].(map[string]any)["over_share"]; !ok {
			t.Errorf("%s: prediction_error missing", p["name"])
		}
	}
	if want := []string{"FIFO", "EDF", "MP-paper", "MP", "MP+AC", "MP+AC-paper", "MP+AC-strict"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	for _, k := range []string{"percent", "hours", "io_slowdown_avoided_hours", "run_time_saved_hours", "paper_percent", "sources"} {
		if got.MPSaving[k] == nil {
			t.Errorf("mp_saving.%s missing", k)
		}
	}
	for _, k := range []string{"confidence", "tct_error_mean", "tct_error_spread", "edf_missed", "mp_paper_missed", "mp_missed", "mp_paper_saving_pct", "mp_saving_pct", "mp_paper_traces_above_edf", "mp_traces_above_edf", "text"} {
		if got.Guard[k] == nil {
			t.Errorf("mp_deadline_protection.%s missing", k)
		}
	}
	if len(got.Abl) != len(ablations) || len(got.Terms) == 0 || len(got.Differs) == 0 || got.Settings["node_capacity_mb_s"] != 60.0 {
		t.Errorf("ablations %d, terms %d, differs %d, settings %v", len(got.Abl), len(got.Terms), len(got.Differs), got.Settings)
	}
	fs, abl := faithful(t)
	var b bytes.Buffer
	if err := printReport(&b, buildReport(options{seed: 1, seeds: faithfulSeeds, settings: defaultSettings}, fs, abl)); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, s := range []string{"of which IO slowdown", "Tasks on overloaded data nodes", "MP's saving over EDF", "MP's deadline protection", "MP-paper (without)", "MP (with)", "Terms:", "MP-paper: Maximum Progress", "MP: MP-paper protecting deadlines", "AC: admission control", "TCT: task completion time", "Differs from the paper because:", "FIFO misses"} {
		if !strings.Contains(text, s) {
			t.Errorf("text output lacks %q", s)
		}
	}
}

// TestDeterministic: each trace mode gives the same bytes twice — the
// Poisson case study and the SWIM trace.
func TestDeterministic(t *testing.T) {
	swim := swimFile(t)
	for _, args := range [][]string{
		{"-seed", "7", "-seeds", "1"},
		{"-trace", swim, "-window", "1000", "-seeds", "3", "-json"},
	} {
		_, a, _ := runArgs(args...)
		_, b, _ := runArgs(args...)
		if a == "" || a != b {
			t.Errorf("%q: two runs differ (or print nothing)", args)
		}
	}
}

// TestTraceAndPlot: a SWIM trace keeps the jobs in its window; -plot
// writes every figure of each mode.
func TestTraceAndPlot(t *testing.T) {
	code, out, stderr := runArgs("-trace", swimFile(t), "-window", "1000", "-json", "-seeds", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Policies []policyRow `json:"policies"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Policies {
		for _, r := range p.PerSeed {
			if r.Met+r.Missed+r.Rejected+r.FailedJobs > 3 {
				t.Errorf("%s seed %d: more than the 3 jobs in the window", p.Name, r.Seed)
			}
		}
	}
	if testing.Short() {
		return
	}
	// -plot's wiring in run on the case study; the sweep and sensitivity
	// figures from small inputs (the full modes are slow under -race).
	dir := t.TempDir()
	if code, _, stderr := runArgs("-seeds", "1", "-json", "-plot", dir); code != 0 {
		t.Fatalf("-plot: exit %d: %s", code, stderr)
	}
	points, err := sweep(1, 1, defaultSettings, []float64{0.5, 3}, SweepPolicies, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plotSweep(dir, points); err != nil {
		t.Fatal(err)
	}
	rows := []sensitivityRow{{CapacityMBs: 40, Saving: stat{10, 9, 12}, SavingNoIO: stat{2, 1, 3}}, {Unconstrained: true, Saving: stat{1, 0.9, 1.2}, SavingNoIO: stat{1, 0.9, 1.2}}}
	if err := plotSensitivity(dir, rows); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig11.png", "sensitivity.png", "fig15_FIFO.png", "fig15_EDF.png", "fig15_MP-paper.png", "fig15_MP.png", "fig15_MP-AC.png", "fig15_MP-AC-paper.png", "fig15_MP-AC-strict.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSweepKeepsPromise is admission's promise on the sweep as the command
// runs it (the default seeds, every load, the faithful settings): at every
// load at most 3% of the jobs MP+AC admits miss their deadline, and at the
// highest load MP+AC meets at least twice as many deadlines as the best of
// EDF, MP-paper and MP. (Only the runs the two claims need: MP+AC at every
// load, EDF, MP-paper and MP at the highest.)
func TestSweepKeepsPromise(t *testing.T) {
	top := SweepLoads[len(SweepLoads)-1]
	ac, err := sweep(1, defaultSeeds, defaultSettings, SweepLoads, []hadoopsim.Policy{hadoopsim.MPAC}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := sweep(1, defaultSeeds, defaultSettings, []float64{top}, []hadoopsim.Policy{hadoopsim.EDF, hadoopsim.MPPaper, hadoopsim.MP}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ac {
		t.Logf("load %.2f MP+AC: met %d, missed %d, rejected %d (%.1f%% of admitted)", p.Load, p.Met, p.Missed, p.Rejected, 100*p.AdmittedMissedShare)
		if !(p.AdmittedMissedShare <= 0.03) || p.Admitted == 0 {
			t.Errorf("load %.2f: %d of the %d jobs MP+AC admitted missed (%.1f%%), more than 3%%", p.Load, p.Missed, p.Admitted, 100*p.AdmittedMissedShare)
		}
	}
	worst, gotTop, acTop, best := promise(append(ac, base...))
	t.Logf("load %.2f: MP+AC met %d, %s met %d; worst share %.1f%% at load %.2f", gotTop, acTop.Met, best.Policy, best.Met, 100*worst.AdmittedMissedShare, worst.Load)
	if gotTop != top || acTop.Met < 2*best.Met {
		t.Errorf("load %.2f: MP+AC met %d, not twice the %d of %s", gotTop, acTop.Met, best.Met, best.Policy)
	}
}

// TestSweepOutput: the sweep sums its seeds, labels its cluster and loads
// honestly, states the promise, and -json keeps its field names.
func TestSweepOutput(t *testing.T) {
	one, err := sweep(1, 1, defaultSettings, []float64{3}, []hadoopsim.Policy{hadoopsim.MPAC}, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := sweep(1, 2, defaultSettings, []float64{3}, []hadoopsim.Policy{hadoopsim.MPAC}, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed2, err := sweep(2, 1, defaultSettings, []float64{3}, []hadoopsim.Policy{hadoopsim.MPAC}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b, c := one[0], two[0], seed2[0]; b.Met != a.Met+c.Met || b.Missed != a.Missed+c.Missed || b.Rejected != a.Rejected+c.Rejected || b.Seeds != 2 || b.Admitted != b.Met+b.Missed {
		t.Errorf("two seeds %+v are not seed 1 %+v plus seed 2 %+v", b, a, c)
	}
	code, out, stderr := runArgs("-sweep", "-seeds", "1", "-json")
	var got struct {
		Seeds  []uint64         `json:"seeds"`
		Margin float64          `json:"mp_ac_margin"`
		Sweep  []map[string]any `json:"sweep"`
		Prom   []string         `json:"promise"`
		Terms  []string         `json:"terms"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || stderr != "" {
		t.Fatalf("exit %d, %v, stderr %q", code, err, stderr)
	}
	if len(got.Sweep) != len(SweepLoads)*len(SweepPolicies) || len(got.Seeds) != 1 || !(got.Margin > 2 && got.Margin < 2.3) || len(got.Prom) != 2 || len(got.Terms) == 0 {
		t.Fatalf("sweep %d points, seeds %v, margin %v, promise %q", len(got.Sweep), got.Seeds, got.Margin, got.Prom)
	}
	for _, k := range []string{"load", "policy", "met", "missed", "rejected", "admitted", "admitted_missed_share", "mean_lateness_s", "seeds"} {
		if _, ok := got.Sweep[0][k]; !ok {
			t.Errorf("sweep point lacks %q: %v", k, got.Sweep[0])
		}
	}
	var names []string
	for _, p := range got.Sweep[:len(SweepPolicies)] {
		names = append(names, p["policy"].(string))
	}
	if want := []string{"EDF", "MP-paper", "MP", "MP+AC", "MP+AC-paper", "MP+AC-strict"}; !reflect.DeepEqual(names, want) {
		t.Errorf("policies %v, want %v", names, want)
	}
	code, text, _ := runArgs("-sweep", "-seeds", "1")
	for _, s := range []string{"40-slot case-study cluster", "synthetic offered loads", "4-slot cluster", "admitted missed", "Of the jobs MP+AC admits", "Terms:", "MP+AC-paper: MIMP's admission rule"} {
		if code != 0 || !strings.Contains(text, s) {
			t.Errorf("sweep text (exit %d) lacks %q", code, s)
		}
	}
}

// TestSensitivity: -sensitivity prints a row per capacity including the
// unconstrained one, in text and -json, with the note on where MP's saving
// comes from.
func TestSensitivity(t *testing.T) {
	saved := capacities
	capacities = []float64{40, 0}
	defer func() { capacities = saved }()
	code, text, stderr := runArgs("-sensitivity", "-seeds", "1")
	if code != 0 || !strings.Contains(text, "unconstrained") || !strings.Contains(text, "40 MB/s") || !strings.Contains(text, "Matching tasks to slots alone") || !strings.Contains(stderr, "100%") {
		t.Errorf("exit %d, text:\n%s\nstderr %q", code, text, stderr)
	}
	code, out, stderr := runArgs("-sensitivity", "-seeds", "1", "-json")
	var got struct {
		Sensitivity []sensitivityRow `json:"sensitivity"`
		Note        string           `json:"note"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || stderr != "" {
		t.Fatalf("exit %d, %v, stderr %q", code, err, stderr)
	}
	if len(got.Sensitivity) != 2 || !got.Sensitivity[1].Unconstrained || got.Sensitivity[1].EDFIOSlow.Mean != 0 || !(got.Sensitivity[0].Saving.Mean > got.Sensitivity[1].Saving.Mean) || got.Note == "" {
		t.Errorf("rows %+v", got.Sensitivity)
	}
}
