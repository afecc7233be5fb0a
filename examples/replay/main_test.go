package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
)

// traceDir is ../shared/traces beside the repository, seen from this
// package's directory. The tests read the real traces and fail, never
// skip, when they are missing.
const traceDir = "../../../shared/traces"

func TestCommandLine(t *testing.T) {
	bad := func(name string, want []string, args ...string) clitest.Case {
		return clitest.Case{Name: name, Args: args, Code: 2, Stderr: want}
	}
	cases := append(clitest.Standard(),
		bad("unknown trace", []string{"-trace", `"borg"`, "both, swim, google"}, "-trace", "borg"),
		bad("no slots", []string{"-swim-slots", "[1, 1000000]"}, "-swim-slots", "0"),
		bad("google slots", []string{"-google-slots", "[1, 1000000]"}, "-google-slots", "-3"),
		bad("max maps", []string{"-max-maps"}, "-max-maps", "0"),
		bad("window", []string{"-window", "[0, 1e+06]"}, "-window", "-1"),
		bad("first", []string{"-first"}, "-first", "-1"),
		bad("drain", []string{"-drain"}, "-drain", "Inf"),
		bad("admission", []string{"-admission", "advise, enforce"}, "-admission", "always"),
		bad("mode", []string{"-mode", "strict, paper"}, "-mode", "wave"),
		bad("slack", []string{"-slack"}, "-slack", "NaN"),
		bad("gp interval", []string{"-gp-interval"}, "-gp-interval", "-5"),
		bad("traces missing", []string{"-traces", "cannot be read"}, "-traces", "/no/such/dir"),
		bad("every problem at once", []string{"-swim-slots", "-mode", "-window"}, "-swim-slots", "0", "-mode", "x", "-window", "-2"),
	)
	clitest.Check(t, func(args []string, out, errb *bytes.Buffer) int { return runMain(args, out, errb) }, cases)
}

// replays runs the command with -json and returns its replays.
func replays(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if code := runMain(append(args, "-json", "-traces", traceDir), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		Replays []map[string]any `json:"replays"`
		Kube    []map[string]any `json:"kube_scheduler"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Kube) == 0 {
		t.Errorf("no kube-scheduler figures in the JSON")
	}
	return doc.Replays
}

// TestReplayBothTraces replays the first 3,000 jobs of each trace on small
// clusters (so jobs queue): both traces are read, every decision kind is
// timed, the counts add up, and a second run decides the same (everything
// but the wall-clock figures is equal).
func TestReplayBothTraces(t *testing.T) {
	args := []string{"-first", "3000", "-swim-slots", "40", "-google-slots", "200", "-drain", "120"}
	a, b := replays(t, args...), replays(t, args...)
	if len(a) != 2 || a[0]["trace"] != "swim" || a[1]["trace"] != "google" {
		t.Fatalf("replays %v", a)
	}
	for i, r := range a {
		lat := r["latency"].([]any)
		mp, adm, gp := lat[0].(map[string]any), lat[1].(map[string]any), lat[2].(map[string]any)
		if r["jobs"].(float64) != 3000 || adm["count"].(float64) != 3000 {
			t.Errorf("%v: %v jobs, %v admission decisions", r["trace"], r["jobs"], adm["count"])
		}
		starts := r["task_starts"].(float64)
		if mp["count"].(float64) < starts || starts == 0 || gp["count"].(float64) == 0 {
			t.Errorf("%v: %v MP decisions, %v task starts, %v GP checks", r["trace"], mp["count"], starts, gp["count"])
		}
		if r["admitted"].(float64)+r["rejected"].(float64) != 3000 || r["peak_queued_jobs"].(float64) < 100 {
			t.Errorf("%v: admitted %v + rejected %v, peak queue %v", r["trace"], r["admitted"], r["rejected"], r["peak_queued_jobs"])
		}
		if !strings.HasSuffix(r["source"].(string), filepath.Base(map[int]string{0: swimFile, 1: googleFile}[i])) {
			t.Errorf("source %v", r["source"])
		}
		for _, k := range []string{"latency", "memory_mb", "wall_s", "events"} {
			delete(r, k)
			delete(b[i], k)
		}
		ja, _ := json.Marshal(r)
		jb, _ := json.Marshal(b[i])
		if !bytes.Equal(ja, jb) {
			t.Errorf("two runs differ:\n%s\n%s", ja, jb)
		}
	}
}

// TestReplayReport: the text names each trace, every decision kind with
// its percentiles, the peak memory, and kube-scheduler's figures with their
// source.
func TestReplayReport(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMain([]string{"-first", "500", "-traces", traceDir, "-plot", t.TempDir()}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"FB-2010_samples_24_times_1hr_0.tsv", "task_events-part-00000-of-00500.csv.gz",
		"MP ", "admission ", "GP ", "p99 µs", "peak memory: RSS", "misc/performance-config.yaml",
		"SchedulingBasic/5000Nodes_50000Pods", "arrivals 100%"} {
		if !strings.Contains(out.String()+errb.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
