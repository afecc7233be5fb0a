package controller

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/rm/rmtest"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

var t0 = time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return t0 }

func catalog() trace.Catalog {
	s := 0.1
	return trace.Catalog{Types: []trace.JobType{{Name: "t", Jobs: 3, Maps: 20,
		Map:     trace.LognormalFit{Mu: math.Log(10) - s*s/2, Sigma: s, Samples: 100, MeanS: 10},
		Arrival: trace.LognormalFit{Samples: 10, MeanS: 1}}}}
}

// cluster is a test RM with 10 one-GB slots and four apps of the
// 10-second type "t" (worked in package deadline's tests): 0001 RUNNING
// on track, 0002 RUNNING at risk, 0003 ACCEPTED and feasible, 0004
// ACCEPTED and 5 s late.
func cluster(t *testing.T, cfg rmtest.Config) *rmtest.Server {
	t.Helper()
	cfg.Now = clock
	if cfg.MaxPriority == 0 {
		cfg.MaxPriority = 10
	}
	s := rmtest.New(cfg)
	t.Cleanup(s.Close)
	now := t0.UnixMilli()
	add := func(seq int, state string, dl int64, tasks int, progress float64, containers, ago int64) {
		s.AddApp(rmtest.App{ID: fmt.Sprintf("application_1_%04d", seq), User: "u", Queue: "default", State: state, Progress: progress,
			RunningContainers: containers, StartedTime: now - ago*1000,
			Tags: []string{deadline.DeadlineTag(now + dl*1000), "schedkit.io/job-type=t", fmt.Sprintf("schedkit.io/tasks=%d", tasks)}})
	}
	add(1, "RUNNING", 100, 40, 50, 3, 50)
	add(2, "RUNNING", 30, 10, 0, 2, 40)
	add(3, "ACCEPTED", 25, 20, 0, 0, 10)
	add(4, "ACCEPTED", 40, 15, 0, 0, 5)
	s.AddApp(rmtest.App{ID: "application_1_0006", State: "RUNNING", Queue: "default", RunningContainers: 4, Tags: []string{"etl"}})
	s.AddNode(rmtest.Node{ID: "n1:1", Host: "n1", UsedMB: 2048, AvailMB: 2048, UsedVCores: 2, AvailVCores: 2})
	s.AddNode(rmtest.Node{ID: "n2:1", Host: "n2", UsedMB: 4096, AvailMB: 4096, UsedVCores: 3, AvailVCores: 3})
	return s
}

func controller(t *testing.T, s *rmtest.Server, mod func(*Options), rmc rm.Config) (*Controller, *bytes.Buffer) {
	t.Helper()
	if rmc.User == "" {
		rmc.User = "schedkit"
	}
	if rmc.Backoff == 0 {
		rmc.Backoff = time.Millisecond
	}
	client, err := rm.New(s.URL, rmc)
	if err != nil {
		t.Fatal(err)
	}
	cfg := deadline.DefaultConfig()
	cfg.Catalog = catalog()
	cfg.Runs = 200
	var log bytes.Buffer
	opt := Options{Config: cfg, Now: clock, Log: &log}
	if mod != nil {
		mod(&opt)
	}
	c, err := New(client, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c, &log
}

// TestPassWrites: one pass kills the late ACCEPTED app with its diagnostic
// (it was still ACCEPTED when re-read), reserves for the feasible one and
// moves it into the reservation's queue, and writes the MP priorities;
// a second pass on the changed cluster has nothing left to do.
func TestPassWrites(t *testing.T) {
	s := cluster(t, rmtest.Config{PlanQueue: "dedicated"})
	c, log := controller(t, s, func(o *Options) { o.Config.PlanQueue = "dedicated" }, rm.Config{})
	p, res, err := c.Pass(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Errorf("%v", r)
		}
	}
	// The plan's five writes, then the refresh of the new reservation's
	// queue, which the RM left without effective resources.
	if len(res) != len(p.Writes())+1 || len(res) != 6 || res[5].Action.Kind != KindRefreshQueues ||
		!strings.Contains(res[5].Note, "wrote node n1:1's own resource <4096 MB, 4 vcores> back") {
		t.Errorf("%d results for %d writes: %v\n%s", len(res), len(p.Writes()), res, p)
	}
	a4, _ := s.App("application_1_0004")
	if a4.State != "KILLED" || !strings.Contains(a4.Diagnostics, "predicted to finish 45 s from now, 5 s after its deadline") {
		t.Errorf("0004 after the pass: %+v", a4)
	}
	a3, _ := s.App("application_1_0003")
	if a3.Queue != "root.dedicated.reservation_1700000000000_0001" || a3.Priority != 10 {
		t.Errorf("0003 after the pass: queue %q priority %d", a3.Queue, a3.Priority)
	}
	arr, dl, name, n, minc, dur, ok := s.Reservation("reservation_1700000000000_0001")
	if !ok || arr != t0.UnixMilli() || dl != t0.UnixMilli()+25000 || name != "schedkit/application_1_0003" || n != 10+1 || minc != 8+1 || dur > 25000 {
		t.Errorf("reservation %v %v %q %v %v %v %v", arr, dl, name, n, minc, dur, ok)
	}
	for seq, want := range map[int]int64{1: 8, 2: 9, 6: 0} {
		if a, _ := s.App(fmt.Sprintf("application_1_%04d", seq)); a.Priority != want {
			t.Errorf("priority of %s: %d, want %d", a.ID, a.Priority, want)
		}
	}
	if !strings.Contains(log.String(), "ok kill application_1_0004") || !strings.Contains(log.String(), "app moved to queue root.dedicated.reservation_1700000000000_0001") {
		t.Errorf("log:\n%s", log)
	}
	writes := len(s.Writes())
	p2, res2, err := c.Pass(context.Background())
	if err != nil || len(res2) != 0 || len(s.Writes()) != writes {
		t.Errorf("second pass: %v, %v\n%s", res2, err, p2)
	}
}

// TestDryRunWritesNothing.
func TestDryRunWritesNothing(t *testing.T) {
	s := cluster(t, rmtest.Config{PlanQueue: "dedicated"})
	c, _ := controller(t, s, func(o *Options) { o.DryRun = true; o.Config.PlanQueue = "dedicated" }, rm.Config{})
	p, res, err := c.Pass(context.Background())
	if err != nil || res != nil || len(p.Writes()) != 5 {
		t.Fatalf("%v, %v, %d writes planned", res, err, len(p.Writes()))
	}
	if w := s.Writes(); len(w) != 0 {
		t.Errorf("dry run wrote %+v", w)
	}
}

// TestWriteFailuresAreIsolated: one app's failing priority write (a 400,
// final; a 503, retried) fails only that action; a kill is skipped for an
// app that started between the read and the write.
func TestWriteFailuresAreIsolated(t *testing.T) {
	s := cluster(t, rmtest.Config{})
	c, _ := controller(t, s, nil, rm.Config{MaxAttempts: 2})
	cl, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p, err := deadline.Compute(cl, c.opt.Config)
	if err != nil {
		t.Fatal(err)
	}
	a4, _ := s.App("application_1_0004")
	a4.State = "RUNNING"
	s.AddApp(a4)
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/apps/application_1_0002/priority", Status: 400})
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/apps/application_1_0001/priority", Status: 503, Times: 2})
	res := c.Apply(context.Background(), p)
	failed := map[string]bool{}
	for _, r := range res {
		if r.Err != nil {
			failed[r.Action.App] = true
		}
		if r.Action.Kind == deadline.KindKill && (r.Err != nil || !strings.Contains(r.Note, "not killed: the app is RUNNING now")) {
			t.Errorf("kill of a started app: %v", r)
		}
	}
	if !failed["application_1_0002"] || !failed["application_1_0001"] || len(failed) != 2 {
		t.Errorf("failed %v", failed)
	}
	if a, _ := s.App("application_1_0003"); a.Priority != 10 {
		t.Errorf("0003's priority %d: the others' failures stopped it", a.Priority)
	}
	if a, _ := s.App("application_1_0004"); a.State != "RUNNING" {
		t.Errorf("0004 was killed after it started: %+v", a)
	}
}

// TestReadFailures: an RM that errs, stalls or answers malformed JSON
// fails the pass with a message, and nothing is written.
func TestReadFailures(t *testing.T) {
	for _, f := range []struct {
		fault rmtest.Fault
		want  string
	}{
		{rmtest.Fault{Path: "/ws/v1/cluster/apps", Status: 500, Times: 3}, "500 Internal Server Error"},
		{rmtest.Fault{Path: "/ws/v1/cluster/nodes", Stall: 2 * time.Second, Times: 3}, "gave up after 3 attempts"},
		{rmtest.Fault{Path: "/ws/v1/cluster/scheduler", Body: `{"scheduler":{"schedulerInfo":[`}, "malformed JSON"},
		{rmtest.Fault{Path: "/ws/v1/cluster/apps", Body: `{"apps":{"app":[{"id":"application_1_0001","runningContainers":"many"}]}}`}, "malformed JSON"},
	} {
		s := cluster(t, rmtest.Config{})
		c, _ := controller(t, s, nil, rm.Config{MaxAttempts: 3, Timeout: 50 * time.Millisecond})
		s.Inject(f.fault)
		_, _, err := c.Pass(context.Background())
		if err == nil || !strings.Contains(err.Error(), "reading the cluster") || !strings.Contains(err.Error(), f.want) {
			t.Errorf("%+v: %v", f.fault, err)
		}
		if w := s.Writes(); len(w) != 0 {
			t.Errorf("%+v: wrote %+v", f.fault, w)
		}
	}
	// A reservation list that fails for another reason than a disabled
	// ReservationSystem disables reservations for the pass only.
	s := cluster(t, rmtest.Config{PlanQueue: "dedicated"})
	c, _ := controller(t, s, func(o *Options) { o.Config.PlanQueue = "dedicated" }, rm.Config{MaxAttempts: 1})
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/reservation/list", Status: 500})
	p, res, err := c.Pass(context.Background())
	if err != nil || !strings.Contains(strings.Join(p.Notes, ";"), "reservations not read") {
		t.Errorf("%v %q", err, p.Notes)
	}
	for _, r := range res {
		if r.Action.Kind == deadline.KindReserve {
			t.Errorf("reserved with unread reservations: %v", r)
		}
	}
	// With the ReservationSystem off the pass goes on without reservations.
	s = cluster(t, rmtest.Config{})
	c, _ = controller(t, s, func(o *Options) { o.Config.PlanQueue = "dedicated" }, rm.Config{})
	if p, _, err := c.Pass(context.Background()); err != nil || !strings.Contains(strings.Join(p.Notes, ";"), "not enabled") {
		t.Errorf("system off: %v %q", err, p.Notes)
	}
}

// TestMalformedAppDoesNotStopOthers: an app with a malformed tag is
// rejected and left alone; the others are served.
func TestMalformedAppDoesNotStopOthers(t *testing.T) {
	s := cluster(t, rmtest.Config{})
	s.AddApp(rmtest.App{ID: "application_1_0009", State: "ACCEPTED", Queue: "default", StartedTime: t0.UnixMilli(), Tags: []string{"schedkit.io/deadline=yesterday"}})
	c, _ := controller(t, s, nil, rm.Config{})
	p, res, err := c.Pass(context.Background())
	if err != nil || len(p.Rejected) != 1 || p.Rejected[0].App != "application_1_0009" || len(res) != 4 {
		t.Fatalf("%v, %+v, %d results", err, p.Rejected, len(res))
	}
	if a, _ := s.App("application_1_0009"); a.State != "ACCEPTED" || a.Priority != 0 {
		t.Errorf("the malformed app was touched: %+v", a)
	}
}

// TestLifetime: with -lifetime the controller reads each deadline app's
// timeouts (GET apps/{id}/timeouts) and sets LIFETIME to deadline + grace.
func TestLifetime(t *testing.T) {
	s := cluster(t, rmtest.Config{})
	c, _ := controller(t, s, func(o *Options) { o.Config.Lifetime, o.Config.LifetimeGrace = true, time.Minute }, rm.Config{})
	if _, _, err := c.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.App("application_1_0001"); a.LifetimeExpiry != t0.UnixMilli()+160_000 {
		t.Errorf("lifetime %d", a.LifetimeExpiry)
	}
	writes := len(s.Writes())
	if _, res, _ := c.Pass(context.Background()); len(res) != 0 || len(s.Writes()) != writes {
		t.Errorf("second pass rewrote: %v", res)
	}
}

// TestSnapshotReplay records a pass and replays it through
// SnapshotTransport: the same plan, and no write can get through.
func TestSnapshotReplay(t *testing.T) {
	s := cluster(t, rmtest.Config{})
	rec := &Recorder{}
	c, _ := controller(t, s, func(o *Options) { o.DryRun = true }, rm.Config{HTTPClient: &http.Client{Transport: rec}})
	p, _, err := c.Pass(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rec.Write(&buf, t0); err != nil {
		t.Fatal(err)
	}
	snap, at, err := ReadSnapshot(&buf)
	if err != nil || !at.Equal(t0) {
		t.Fatal(at, err)
	}
	replay, _ := controller(t, s, func(o *Options) { o.DryRun = true }, rm.Config{HTTPClient: &http.Client{Transport: SnapshotTransport{snap}}})
	q, _, err := replay.Pass(context.Background())
	if err != nil || q.String() != p.String() {
		t.Errorf("replay: %v\n%s\nvs\n%s", err, q, p)
	}
	client, _ := rm.New("http://snapshot", rm.Config{User: "x", HTTPClient: &http.Client{Transport: SnapshotTransport{snap}}})
	if _, err := client.SetPriority(context.Background(), "application_1_0001", 3); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("write through a snapshot: %v", err)
	}
	for _, bad := range []string{`{`, `{"now":"x","answers":{"/a":{}}}`, `{"now":"2024-06-10T12:00:00Z"}`} {
		if _, _, err := ReadSnapshot(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadSnapshot(%s) accepted", bad)
		}
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	s := cluster(t, rmtest.Config{})
	c, _ := controller(t, s, func(o *Options) { o.DryRun = true }, rm.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	passes := 0
	err := c.Run(ctx, 10*time.Millisecond, func(deadline.Plan, []Result) {
		if passes++; passes == 3 {
			cancel()
		}
	})
	if err != context.Canceled || passes != 3 {
		t.Errorf("Run = %v after %d passes", err, passes)
	}
	if err := c.Run(context.Background(), 0, nil); err == nil {
		t.Error("interval 0 accepted")
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("nil client accepted")
	}
}

// TestNextWait: after a failed pass Run waits 2, 4, then MaxBackoff
// intervals; a pass that succeeds brings the wait back to one interval.
func TestNextWait(t *testing.T) {
	const iv = time.Second
	tests := []struct {
		name   string
		wait   time.Duration
		failed bool
		want   time.Duration
	}{
		{"success", iv, false, iv},
		{"success after failures", MaxBackoff * iv, false, iv},
		{"first failure", iv, true, 2 * iv},
		{"second failure", 2 * iv, true, 4 * iv},
		{"third failure", 4 * iv, true, MaxBackoff * iv},
		{"at the bound", MaxBackoff * iv, true, MaxBackoff * iv},
	}
	for _, tt := range tests {
		if got := NextWait(tt.wait, iv, tt.failed); got != tt.want {
			t.Errorf("%s: NextWait(%v, %v, %v) = %v, want %v", tt.name, tt.wait, iv, tt.failed, got, tt.want)
		}
	}
}

// TestKillUnderWay: a kill the RM accepted (202, the app KILLING but
// still listed ACCEPTED) is not sent again by the next pass.
func TestKillUnderWay(t *testing.T) {
	var kills atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/ws/v1/cluster/apps/application_1_0001":
			fmt.Fprint(w, `{"app":{"id":"application_1_0001","state":"ACCEPTED"}}`)
		case r.Method == http.MethodPut && r.URL.Path == "/ws/v1/cluster/apps/application_1_0001/state":
			kills.Add(1)
			w.WriteHeader(http.StatusAccepted)
			fmt.Fprint(w, `{"state":"KILLING"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	client, err := rm.New(srv.URL, rm.Config{User: "schedkit"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := deadline.DefaultConfig()
	cfg.Catalog = catalog()
	c, err := New(client, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	p := deadline.Plan{Actions: []deadline.Action{{Kind: deadline.KindKill, App: "application_1_0001", Diagnostic: "late"}}}
	first := c.Apply(context.Background(), p)
	second := c.Apply(context.Background(), p)
	if kills.Load() != 1 || first[0].Err != nil || second[0].Err != nil || !strings.Contains(second[0].Note, "not sent again") {
		t.Fatalf("%d kills sent; first %v; second %v", kills.Load(), first[0], second[0])
	}
}
