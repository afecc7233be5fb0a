package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
)

func runBuf(args []string, out, errb *bytes.Buffer) int { return run(args, out, errb) }

// TestCommandLine: -h, unknown flags, stray arguments and every bad flag
// value exit as the examples' convention says, print nothing on stdout and
// name the flag and its range, before any work.
func TestCommandLine(t *testing.T) {
	file := clitest.EmptyFile(t)
	cases := append(clitest.Standard(),
		clitest.Bad("g 0", []string{"-g", "0"}, "-g = 0", "[1, 100]"),
		clitest.Bad("g NaN", []string{"-g", "NaN"}, "-g = NaN", "[1, 100]"),
		clitest.Bad("g too big", []string{"-g", "101"}, "-g = 101", "[1, 100]"),
		clitest.Bad("seeds 0", []string{"-seeds", "0"}, "-seeds = 0", "[1, 1000]"),
		clitest.Bad("seeds too many", []string{"-seeds", "1001"}, "-seeds = 1001", "[1, 1000]"),
		clitest.Bad("tasks too few", []string{"-tasks", "15"}, "-tasks = 15", "[16, 16384]"),
		clitest.Bad("tasks too many", []string{"-tasks", "20000"}, "-tasks = 20000", "[16, 16384]"),
		clitest.Bad("spread negative", []string{"-spread", "-0.1"}, "-spread = -0.1", "[0, 0.9]"),
		clitest.Bad("spread 1", []string{"-spread", "1"}, "-spread = 1", "[0, 0.9]"),
		clitest.Bad("affinity below 1", []string{"-affinity", "0.5"}, "-affinity = 0.5", "[1, 100]"),
		clitest.Bad("affinity Inf", []string{"-affinity", "+Inf"}, "-affinity = +Inf", "[1, 100]"),
		clitest.Bad("calibration", []string{"-calibration", "guess"}, `-calibration = "guess"`, "known, first-task, mean"),
		clitest.Bad("compress below 1", []string{"-alibaba-compress", "0.5"}, "-alibaba-compress = 0.5", "[1, 1e+06]"),
		clitest.Bad("compress NaN", []string{"-alibaba-compress", "NaN"}, "-alibaba-compress = NaN"),
		clitest.Bad("alibaba not a trace", []string{"-alibaba", t.TempDir()}, "-alibaba = ", "openb_node_list_all_node.csv"),
		clitest.Bad("plot onto a file", []string{"-plot", filepath.Join(file, "x")}, "-plot = "),
		clitest.Bad("every problem at once", []string{"-g", "0", "-seeds", "0"}, "-g = 0", "-seeds = 0"),
		clitest.Bad("malformed value", []string{"-tasks", "many"}, "-tasks", "usage:"),
	)
	clitest.Check(t, runBuf, cases)
}

// decode parses run's -json output strictly.
func decode(t *testing.T, b []byte) jsonOut {
	t.Helper()
	var out jsonOut
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return out
}

func find(t *testing.T, out jsonOut, scenario, policy string) jsonScenario {
	t.Helper()
	for _, s := range out.Scenarios {
		if s.Name == scenario && s.Policy == policy {
			return s
		}
	}
	t.Fatalf("no %s/%s in the JSON", scenario, policy)
	return jsonScenario{}
}

func completion(t *testing.T, out jsonOut, scenario, policy, job string) float64 {
	t.Helper()
	for _, j := range find(t, out, scenario, policy).Jobs {
		if j.Name == job {
			return j.CompletionS
		}
	}
	t.Fatalf("no job %s in %s/%s", job, scenario, policy)
	return 0
}

// TestGPUMustShow runs the command as a user does (-json, defaults: g = 3,
// 1,024 tasks, ±10%, 20 seeds, affinity 1.2, rates known) and asserts what
// the gpu scenario must show: progress-share+affinity finishes
// crypto at least 25% sooner than slot-share, progress-share at least 15%
// sooner, and sort is not later under either. It also pins the shape of the
// two-types scenario (§4.3.1.1: both jobs progress faster under progress
// share) and the JSON schema.
func TestGPUMustShow(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-json", "-alibaba", ""}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("-json printed progress on stderr: %q", stderr.String())
	}
	out := decode(t, stdout.Bytes())
	if len(out.Scenarios) != 2*len(Policies) || out.Settings != (jsonSettings{G: 3, Spread: 0.1, Tasks: 1024, Seeds: 20, Affinity: 1.2, Calibration: CalibrateKnown, Compress: 1}) {
		t.Fatalf("scenarios %d, settings %+v", len(out.Scenarios), out.Settings)
	}
	for _, s := range out.Scenarios {
		for _, j := range s.Jobs {
			if !(j.MinS > 0 && j.MinS <= j.CompletionS && j.CompletionS <= j.MaxS) || math.IsInf(j.MaxS, 0) || len(j.SlotsHeld) != len(s.NodeTypes) {
				t.Fatalf("%s/%s: job %+v", s.Name, s.Policy, j)
			}
		}
	}
	gain := func(policy string) float64 {
		return 1 - completion(t, out, "gpu", policy, "crypto")/completion(t, out, "gpu", SlotShare, "crypto")
	}
	if g := gain(ProgressShareAff); !(g >= 0.25) {
		t.Errorf("progress-share+affinity finishes crypto %.1f%% sooner than slot-share, want ≥ 25%%", 100*g)
	}
	if g := gain(ProgressShare); !(g >= 0.15) {
		t.Errorf("progress-share finishes crypto %.1f%% sooner than slot-share, want ≥ 15%%", 100*g)
	}
	for _, p := range []string{ProgressShare, ProgressShareAff, ProgressShareBounded} {
		if s, base := completion(t, out, "gpu", p, "sort"), completion(t, out, "gpu", SlotShare, "sort"); s > base {
			t.Errorf("%s finishes sort at %.1f s, later than slot-share's %.1f s", p, s, base)
		}
	}
	// The doc's explanation: Algorithm 2 leaves crypto on 6–7 of the 8 GPU
	// slots, the affinity rule on (nearly) all 8.
	if h := find(t, out, "gpu", ProgressShare).Jobs[0].SlotsHeld[1]; !(h > 6 && h < 7.5) {
		t.Errorf("crypto holds %.2f GPU slots under progress-share, the doc says 6.9", h)
	}
	if h := find(t, out, "gpu", ProgressShareAff).Jobs[0].SlotsHeld[1]; !(h > 7.5) {
		t.Errorf("crypto holds %.2f GPU slots with the affinity rule, the doc says 7.9", h)
	}
	for _, job := range []string{"A", "B"} {
		if ps, ss := completion(t, out, "two-types", ProgressShare, job), completion(t, out, "two-types", SlotShare, job); ps > ss {
			t.Errorf("two-types: %s finishes at %v under progress share, later than %v under slot share", job, ps, ss)
		}
	}
}

// TestCalibrationNoise pins the doc's account of measured rates: with the
// rate of one measured task per node type, sort sees one of two identical
// nodes as faster, Algorithm 2 leaves slots free while its tasks wait, and
// sort finishes later than under slot share; with known rates no slot is
// left free.
func TestCalibrationNoise(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Seeds = 5
	for _, cal := range []string{CalibrateKnown, CalibrateFirstTask} {
		cfg.Calibration = cal
		scs, err := Scenarios(cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := RunAll(scs[1:2], nil)
		if err != nil {
			t.Fatal(err)
		}
		ss, ps := runs[0].Results[0], runs[0].Results[1]
		switch {
		case cal == CalibrateKnown && (ps.IdleSlotS != 0 || ps.Mean[1] > ss.Mean[1]):
			t.Errorf("known rates: %.0f free slot-s, sort %.1f → %.1f s", ps.IdleSlotS, ss.Mean[1], ps.Mean[1])
		case cal == CalibrateFirstTask && !(ps.IdleSlotS > 1000 && ps.Mean[1] > ss.Mean[1]):
			t.Errorf("first-task: %.0f free slot-s, sort %.1f → %.1f s; the doc says thousands, and sort later", ps.IdleSlotS, ss.Mean[1], ps.Mean[1])
		}
	}
}

// TestAlibaba runs the trace scenarios from ../shared/traces (it fails, not
// skips, when the trace is missing): the trace's shape, identical schedules
// under every policy while jobs calibrate with the reason printed, the
// known-rates run's gain from placement, and two runs giving the same
// bytes, as text and as JSON.
func TestAlibaba(t *testing.T) {
	dir := FindAlibaba()
	if dir == "" {
		t.Fatal("../shared/traces/alibaba-gpu-2023 not found beside the repository root")
	}
	sc, err := Alibaba(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Nodes) != 1213 || len(sc.TypeNames) != 7 || slotsOf(sc) != 6212 {
		t.Fatalf("%d GPU nodes, %d models, %d GPUs; the trace has 1,213, 7 and 6,212", len(sc.Nodes), len(sc.TypeNames), slotsOf(sc))
	}
	cfg := DefaultConfig()
	cfg.Alibaba = dir
	scs, err := Scenarios(cfg)
	if err != nil {
		t.Fatal(err)
	}
	scs = scs[2:] // alibaba and alibaba-known-rates
	var texts, jsons [2][]byte
	for k := range 2 {
		runs, err := RunAll(scs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		Report(&text, cfg, runs)
		j, err := json.Marshal(JSON(cfg, runs))
		if err != nil {
			t.Fatal(err)
		}
		texts[k], jsons[k] = text.Bytes(), j
	}
	if !bytes.Equal(texts[0], texts[1]) || !bytes.Equal(jsons[0], jsons[1]) {
		t.Fatal("two runs differ")
	}
	out := decode(t, jsons[0])
	base := find(t, out, "alibaba", SlotShare).Summary
	for _, p := range Policies {
		s := find(t, out, "alibaba", p)
		if s.Summary.MeanJCTS != base.MeanJCTS || s.Summary.PeakBusy != base.PeakBusy || s.Summary.Decisions != base.Decisions {
			t.Errorf("alibaba/%s: %+v, slot-share %+v: calibrating jobs should give the same schedule", p, s.Summary, base)
		}
		if !strings.Contains(s.Note, "never contended") || !strings.Contains(s.Note, "never leave calibration") {
			t.Errorf("alibaba/%s note: %q", p, s.Note)
		}
	}
	known := find(t, out, "alibaba-known-rates", ProgressShare)
	if k, b := known.Summary.MeanJCTS, find(t, out, "alibaba-known-rates", SlotShare).Summary.MeanJCTS; !(k < 0.9*b) || !strings.Contains(known.Note, "not a fairer share") {
		t.Errorf("known rates: mean JCT %.0f against %.0f; note %q", k, b, known.Note)
	}
	if !strings.Contains(string(texts[0]), "why: the GPUs are never contended") {
		t.Fatalf("the text does not say why:\n%s", texts[0])
	}
}

// TestAlibabaSkipped: -alibaba "" skips the trace scenarios, says so, and
// does not look for the trace.
func TestAlibabaSkipped(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-alibaba", "", "-seeds", "1", "-tasks", "16"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `alibaba scenarios skipped (-alibaba "")`) || strings.Contains(out.String(), "== alibaba") ||
		strings.Contains(out.String(), "not found") {
		t.Fatalf("output:\n%s", out.String())
	}
	for _, want := range []string{"legend", "differs from the paper because", "the thesis:", "== gpu", "== two-types"} {
		if !strings.Contains(strings.ToLower(out.String()), strings.ToLower(want)) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestDeterministic: equal inputs, equal results, bit for bit.
func TestDeterministic(t *testing.T) {
	sc := GPU(3, 0.1, 64, 1, 1.2)
	for _, p := range Policies {
		a, err := Run(sc, p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Run(sc, p)
		for i := range a.Completion {
			if a.Completion[i] != b.Completion[i] {
				t.Fatalf("%s: run differs: %v vs %v", p, a.Completion, b.Completion)
			}
		}
	}
}

// TestPlots writes every plot.
func TestPlots(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"-plot", dir, "-alibaba", "", "-seeds", "2", "-tasks", "64"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, f := range []string{"two-types-progress.png", "two-types-share.png", "gpu-progress.png", "gpu-share.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 10_000 {
			t.Fatalf("plot %s: %v", f, err)
		}
	}
}
