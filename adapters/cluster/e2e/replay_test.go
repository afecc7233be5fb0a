//go:build e2e && replay

package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/cluster/replay"
)

// TestReplay runs a small slice of the replay (adapters/cluster/replay,
// the README's command at full size): the first 30 Jobs of the KTH SP2
// SWF log's day at 40× compression (those whose compressed run time is
// at most 60 s; median slack, requested less run time, 121 s) at the
// offered load of the cluster's capacity, on two fresh clusters of the
// same nodes one after the other, with the schedkit.io/deadline check
// (check) and with the check and schedkit-scheduler (schedkit). It
// asserts the replay's first must-show: every Job ends
// met, missed or rejected, at least 10 are admitted, and at most 3 % of
// the Jobs Kueue admitted miss their deadline. The check runs with
// replay.DefaultDeadlineFlags: it learns its start delay, the time from
// its decision to a Job's completion beyond the run time, from the Jobs
// it made Ready (their 97th percentile; README, "Stock against schedkit
// on a real trace"). The clusters run one after the other so that each
// has the machine to itself, as a control plane has its own machines:
// side by side on two cores their control planes' delays are what
// decides the outcomes (README, "Why admitted Jobs miss").
func TestReplay(t *testing.T) {
	jobs, _, err := replay.ReadTraceFile(filepath.Join(clusterDir(t), "..", "..", "..", "shared", "traces", "pwa-swf", "KTH-SP2-1996-2.1-cln.swf.gz"), "swf", 1)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	rs, err := replay.Execute(context.Background(), jobs, replay.Options{
		Workload: replay.Workload{From: 8726400, Span: 86400, Compress: 40, TraceProcs: 100,
			MinRun: 2 * time.Second, MaxRun: 60 * time.Second, MaxJobs: 30, Seed: 1},
		Loads: []float64{1}, Configs: []replay.Config{replay.Check, replay.Schedkit}, Reps: 1, Nodes: 4, NodeCPUs: 8,
		Scripts: clusterDir(t), StateDir: t.TempDir(), Grace: 10 * time.Second, DeadlineFlags: replay.DefaultDeadlineFlags,
		Progress: func(s string) { t.Log(s) },
	})
	var b strings.Builder
	replay.Table(&b, rs)
	replay.PhaseTable(&b, rs)
	t.Logf("in %v:\n%s", time.Since(t0).Round(time.Second), b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	for _, r := range rs {
		if r.Jobs != 30 || r.Met+r.Missed+r.Rejected != r.Jobs {
			t.Errorf("%s: %d jobs, met %d + missed %d + rejected %d", r.Config, r.Jobs, r.Met, r.Missed, r.Rejected)
		}
		if r.Admitted < 10 {
			t.Errorf("%s admitted %d of 30 Jobs; a bound on the admitted that miss says little below 10", r.Config, r.Admitted)
		}
		if r.MissedShare > 0.03 {
			t.Errorf("%s: %d of %d admitted Jobs missed their deadline (%.0f%%), want at most 3%%", r.Config, r.AdmittedMissed, r.Admitted, 100*r.MissedShare)
		}
	}
}
