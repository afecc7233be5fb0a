package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

func runArgs(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "-reservation-queue"},
		{[]string{"import", "-h"}, 0, "-deadline-factor"},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
		{[]string{"-snapshot", "demo", "stray"}, 2, `unexpected argument "stray"`},
		{nil, 2, "-rm URL or -snapshot is required"},
		{[]string{"-rm", "http://rm:8088", "-snapshot", "demo"}, 2, "exclude each other"},
		{[]string{"-snapshot", "demo", "-order", "fifo"}, 2, `-order = "fifo": must be "mp" or "edf"`},
		{[]string{"-snapshot", "demo", "-confidence", "1.5"}, 2, "-confidence = 1.5: must be in (0, 1)"},
		{[]string{"-snapshot", "demo", "-max-priority", "-1"}, 2, "-max-priority = -1"},
		{[]string{"-snapshot", "demo", "-container-mb", "0", "-runs", "0"}, 2, "-runs = 0"},
		{[]string{"-snapshot", "demo", "-interval", "0s"}, 2, "-interval 0s: must be > 0"},
		{[]string{"-snapshot", "demo", "-attempts", "0"}, 2, "-attempts 0: must be ≥ 1"},
		{[]string{"-snapshot", "demo", "-default-model", "sort"}, 2, `-default-model = "sort"`},
		{[]string{"-snapshot", "demo", "-models", "/nonexistent/models.json"}, 2, "-models: open /nonexistent/models.json"},
		{[]string{"-snapshot", "demo", "-record", "x.json"}, 2, "-record needs -rm"},
		{[]string{"-rm", "ftp://rm"}, 2, "scheme must be http or https"},
		{[]string{"-snapshot", "/nonexistent/snap.json"}, 1, "no such file"},
		{[]string{"import"}, 2, "no input FILE"},
		{[]string{"import", "-format", "csv", "x"}, 2, `-format "csv"`},
		{[]string{"import", "-deadline-factor", "-1", "x"}, 2, "-deadline-factor -1"},
		{[]string{"import", "-job-id", "j", "a", "b"}, 2, "-job-id applies to one"},
		{[]string{"import", "/nonexistent/trace.json"}, 1, "no such file"},
		{[]string{"replay", "-h"}, 0, "-deadline-factor"},
		{[]string{"replay"}, 2, "-trace is required"},
		{[]string{"replay", "-trace", "x", "stray"}, 2, `unexpected arguments ["stray"]`},
		{[]string{"replay", "-trace", "x", "-compress", "0.5"}, 2, "Workload.Compress = 0.5"},
		{[]string{"replay", "-trace", "x", "-span", "0"}, 2, "Workload.Span = 0"},
		{[]string{"replay", "-trace", "x", "-split-mb", "0"}, 2, "-split-mb 0"},
		{[]string{"replay", "-trace", "x", "-port", "80"}, 2, "-port 80"},
		{[]string{"replay", "-trace", "x", "-interval", "0s"}, 2, "-interval 0s"},
		{[]string{"replay", "-trace", "/nonexistent/swim.tsv"}, 1, "no such file"},
		{[]string{"replay", "-trace", "../../../../../shared/traces/swim-facebook/FB-2009_samples_24_times_1hr_0.tsv", "-from", "100000"}, 1,
			"no job submitted in [100000, 101800) s"},
	} {
		code, _, stderr := runArgs(tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
	// -container-mb 0 and -runs 0 are both reported.
	if _, _, stderr := runArgs("-snapshot", "demo", "-container-mb", "0", "-runs", "0"); !strings.Contains(stderr, "-container-mb = 0") {
		t.Errorf("every bad flag is named: %q", stderr)
	}
}

// TestImportRealTrace runs the import subcommand on the real Rumen trace:
// the catalog it writes is the one the command embeds, and the SLS file
// reads back with 192 containers and deadlines.
func TestImportRealTrace(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("..", "..", "..", "..", "..", "shared", "traces", "hadoop-sls", "2jobs2min-rumen-jh.json")
	if _, err := os.Stat(in); err != nil {
		t.Fatalf("the shared trace is required: %v", err)
	}
	models, sls := filepath.Join(dir, "models.json"), filepath.Join(dir, "jobs.json")
	code, out, stderr := runArgs("import", "-models", models, "-sls", sls, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 jobs, 192 task attempts", "job type teragen", "μ=3.0015 σ=0.2388", "NRMSE 0.0716", "wrote 2 jobs"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	got, err := os.ReadFile(models)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "teragen-models.json", got)
	f, _ := os.Open(sls)
	defer f.Close()
	jobs, err := trace.ReadSLS(f)
	if err != nil || len(jobs) != 2 || len(jobs[0].Tasks)+len(jobs[1].Tasks) != 192 || jobs[0].Deadline == 0 {
		t.Errorf("SLS file: %d jobs, %v", len(jobs), err)
	}
	// The SLS file imports again, detected by its keys.
	if code, out, stderr := runArgs("import", "-json", sls); code != 0 || !json.Valid([]byte(out)) || !strings.Contains(out, `"name": "teragen"`) {
		t.Errorf("re-import: %d %s %s", code, stderr, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"jobID":"job_1","mapTasks":[]}`), 0o644)
	if code, _, stderr := runArgs("import", bad); code != 1 || !strings.Contains(stderr, "(job_1): submitTime: missing") {
		t.Errorf("bad trace: %d %q", code, stderr)
	}
}

// TestLiveOnceAndRecord runs the controller against the demo cluster in
// the test double: -dry-run -record writes a snapshot that replays to the
// same plan, and -once without -dry-run makes the writes.
func TestLiveOnceAndRecord(t *testing.T) {
	s := demoServer()
	defer s.Close()
	wallClock = func() time.Time { return demoNow }
	defer func() { wallClock = time.Now }()
	snap := filepath.Join(t.TempDir(), "snap.json")
	code, planned, stderr := runArgs("-rm", s.URL, "-once", "-dry-run", "-record", snap, "-reservation-queue", "dedicated")
	if code != 0 || len(s.Writes()) != 0 {
		t.Fatalf("dry run: exit %d, %s, %d writes", code, stderr, len(s.Writes()))
	}
	code, replayed, stderr := runArgs("-snapshot", snap, "-reservation-queue", "dedicated")
	if code != 0 || replayed != planned {
		t.Errorf("replay of the recording: exit %d %s\n%s\nvs\n%s", code, stderr, replayed, planned)
	}
	code, out, stderr := runArgs("-rm", s.URL, "-once", "-user", "yarn", "-reservation-queue", "dedicated")
	if code != 0 || !strings.Contains(out, "6 writes done, 0 failed") {
		t.Errorf("live pass: exit %d, %s\n%s", code, stderr, out)
	}
	if a, _ := s.App("application_1718000000000_0007"); a.State != "KILLED" || !strings.Contains(a.Diagnostics, "miss its deadline") {
		t.Errorf("0007 after the live pass: %+v", a)
	}
	// Without a user an RM behind an authentication filter refuses the
	// writes: exit 1, every failure named.
	s2 := demoServerUser(true)
	defer s2.Close()
	code, out, stderr = runArgs("-rm", s2.URL, "-once", "-user", "")
	if code != 1 || !strings.Contains(stderr, "no -user") || !strings.Contains(stderr, "writes failed") || !strings.Contains(stderr, "AuthorizationException") {
		t.Errorf("anonymous: exit %d\n%s\n%s", code, stderr, out)
	}
}
