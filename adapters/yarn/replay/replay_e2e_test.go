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
// first cluster. It holds the shared RM's lock exclusively so that no
// other test's apps share the machine's cores.
//
// What it asserts, and why it must hold: each configuration accounts for
// every app (met + missed + killed); the stock run kills nothing; every
// app the controller killed carries its one-line diagnostic; and the
// share of kept apps that missed their deadline under schedkit is at most
// the stock share. The last is what admission control is for (MIMP §5.3):
// an app is killed only while ACCEPTED and only when the model predicts
// it late, or would make an admitted app late, and the survivors are
// served in deadline order. The model the controller decides with is the
// workload's own task lognormal (Workload.Catalog).
func TestReplaySlice(t *testing.T) {
	rmbackend.Hadoop(t, rmbackend.Exclusive) // the machine to this test
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
	var table strings.Builder
	Table(&table, rs)
	t.Logf("ApplicationMaster start %.1f s\n%s", w.AMStart, table.String())
	apps := rs[0].Outcomes
	if len(rs) != 2 || rs[0].Config != Stock || rs[1].Config != Schedkit {
		t.Fatalf("results %+v", rs)
	}
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
	stock, sk := rs[0].Summary, rs[1].Summary
	if stock.Killed != 0 {
		t.Errorf("the stock run killed %d apps", stock.Killed)
	}
	if sk.KeptMissedShare() > stock.KeptMissedShare() {
		t.Errorf("schedkit's kept apps missed %.0f %%, stock's %.0f %%\ncontroller log:\n%s",
			100*sk.KeptMissedShare(), 100*stock.KeptMissedShare(), rs[1].ControllerLog)
	}
}
