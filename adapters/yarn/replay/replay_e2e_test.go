//go:build e2e

package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// TestReplaySlice replays four minutes of the SWIM Facebook 2009 day's
// busiest stretch (from 9 h: 10 jobs, 66 maps), time divided by 3 and task
// times halved, as real apps on two fresh Hadoop 3.5.0 clusters: stock
// Capacity Scheduler, then the schedkit controller acting, deadlines twice
// each app's alone time with the ApplicationMaster start measured on the
// first cluster. Its clusters are its own, so it runs beside the other
// real-tier tests; they share only the machine's cores, and nothing it
// asserts depends on timing.
//
// What it asserts holds whatever the machine's load, because it follows
// from the controller's rules, not from timing: each configuration
// accounts for every app (met + missed + killed); the stock run kills
// nothing; the controller made at least one write and every write it
// made on the real RM succeeded; every app it killed carries the one-line
// diagnostic and was killed while ACCEPTED — it never held more than one
// container at a time (its ApplicationMaster's), so its container time
// is at most its lifetime. Which configuration meets more deadlines is
// measured and logged, not asserted: the controller's admission (MIMP
// Eq. 6) spreads an app over all 16 slots and has no term for the
// ApplicationMaster's start, so on this test bed it kills late apps at
// their deadline rather than at submission, and the outcome of either
// run moves with the machine's load (see the package doc and README).
func TestReplaySlice(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "traces", "swim-facebook", "FB-2009_samples_24_times_1hr_0.tsv"))
	if err != nil {
		t.Fatalf("the shared trace is required: %v", err)
	}
	jobs, err := trace.ReadSWIM(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	w := DefaultWorkload()
	w.From, w.Span, w.Compress, w.TaskScale = 32400, 240, 3, 0.5
	cfg := deadline.DefaultConfig()
	cfg.ContainerMB, cfg.MaxPriority, cfg.Runs = 256, rmbackend.MaxPriority, 200
	var log strings.Builder
	cmp := &Compare{Script: filepath.Join("..", "minirm", "minirm.sh"), Dir: t.TempDir(), Port: 18288, Workload: w, Jobs: jobs,
		MeasureAMStart: true, Model: "swim", Controller: cfg, Interval: 2 * time.Second, Grace: time.Minute, Log: &log}
	rs, w, err := cmp.Do(context.Background())
	t.Log(log.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Config != Stock || rs[1].Config != Schedkit {
		t.Fatalf("results %+v", rs)
	}
	var table strings.Builder
	Table(&table, rs)
	table.WriteString("\n")
	OutcomeTable(&table, rs)
	t.Logf("ApplicationMaster start %.1f s\n%s", w.AMStart, table.String())
	apps := rs[0].Outcomes
	for _, r := range rs {
		s := r.Summary
		if s.Apps != len(apps) || s.Met+s.Missed+s.Killed != s.Apps {
			t.Errorf("%s: %+v does not account for %d apps", r.Config, s, len(apps))
		}
		for _, o := range r.Outcomes {
			if o.Killed && (!strings.Contains(o.Diagnostics, "schedkit: not admitted:") || strings.Contains(o.Diagnostics, "\n")) {
				t.Errorf("%s: %s killed with diagnostics %q", r.Config, o.ID, o.Diagnostics)
			}
		}
	}
	if rs[0].Summary.Killed != 0 {
		t.Errorf("the stock run killed %d apps", rs[0].Summary.Killed)
	}
	clog := rs[1].ControllerLog
	if !strings.Contains(clog, "ok ") || strings.Contains(clog, "FAILED") {
		t.Errorf("the controller made no write, or a write failed:\n%s", clog)
	}
	for _, o := range rs[1].Outcomes {
		if life := (o.Finished - o.Submitted).Seconds(); o.Killed && float64(o.ContainerSeconds) > life+2 {
			t.Errorf("%s was killed after %.0f s holding %d container-seconds: more than its ApplicationMaster", o.ID, life, o.ContainerSeconds)
		}
	}
}
