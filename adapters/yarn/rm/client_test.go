package rm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/rm/rmtest"
)

var t0 = time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC)

// newPair starts a test RM with cfg and a client for it that retries fast.
func newPair(t *testing.T, cfg rmtest.Config) (*rmtest.Server, *rm.Client) {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	s := rmtest.New(cfg)
	t.Cleanup(s.Close)
	c, err := rm.New(s.URL, rm.Config{User: "schedkit", Timeout: 2 * time.Second, Backoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func app(id, state string, prio int64) rmtest.App {
	return rmtest.App{ID: id, User: "u", Name: "n", Queue: "default", State: state, Priority: prio,
		StartedTime: t0.UnixMilli() - 60000, Tags: []string{"schedkit.io/deadline=1h", "other"}}
}

func TestNewValidates(t *testing.T) {
	for _, tt := range []struct {
		url  string
		cfg  rm.Config
		want string
	}{
		{"ftp://rm:8088", rm.Config{}, "scheme"},
		{"http://", rm.Config{}, "no host"},
		{"http://rm:8088", rm.Config{Timeout: -1}, "Config.Timeout"},
		{"http://rm:8088", rm.Config{MaxAttempts: -1}, "Config.MaxAttempts"},
		{"http://rm:8088", rm.Config{Backoff: -1, MaxBackoff: -1}, "Config.MaxBackoff"},
	} {
		if _, err := rm.New(tt.url, tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q, %+v) = %v, want an error naming %s", tt.url, tt.cfg, err, tt.want)
		}
	}
}

// The contract tests below run, from the same code, against every backend
// of the build (internal/rmbackend): the test double, and Hadoop 3.5.0's
// ResourceManager in the real tier. Each asserts what both answer.

// TestReads covers the GET endpoints (RMWebServices.getApps, getApp,
// getNodes, getClusterMetricsInfo, getSchedulerInfo).
func TestReads(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		tag := fmt.Sprintf("reads-%d", time.Now().UnixNano())
		running := b.Submit(t, "default", 1, 10*time.Minute, tag, "schedkit.io/deadline=1h")
		held := b.Submit(t, rmbackend.HeldQueue, 1, time.Second, tag)
		b.Settle(t, running, rm.StateRunning)
		apps, err := c.Apps(ctx, rm.AppsFilter{States: []string{"accepted", "RUNNING"}, Tags: []string{strings.ToUpper(tag), "nope"}, Limit: 50})
		if err != nil || len(apps) != 2 {
			t.Fatalf("Apps(ACCEPTED,RUNNING, tag) = %+v, %v", apps, err)
		}
		byID := map[string]rm.App{}
		for _, a := range apps {
			byID[a.ID] = a
		}
		// Tags are stored lower-cased and listed sorted; the queue is
		// reported as its full path.
		if a := byID[running]; string(a.State) != rm.StateRunning || string(a.Queue) != "root.default" ||
			string(a.ApplicationTags) != tag+",schedkit.io/deadline=1h" || a.RunningContainers < 1 {
			t.Errorf("running app = %+v", a)
		}
		if a := byID[held]; string(a.State) != rm.StateAccepted || string(a.Queue) != "root."+rmbackend.HeldQueue {
			t.Errorf("held app = %+v", a)
		}
		// ApplicationsRequestBuilder rejects an unknown state: 400, final.
		_, err = c.Apps(ctx, rm.AppsFilter{States: []string{"SLEEPING"}})
		var e *rm.Error
		if !errors.As(err, &e) || e.Status != 400 || e.Exception != "BadRequestException" || !strings.Contains(e.Message, "Invalid application-state SLEEPING") {
			t.Errorf("unknown state: %v", err)
		}
		// RMWebServices.getRMAppForAppId: NotFoundException, 404.
		if _, err := c.App(ctx, "application_1_0009"); !errors.Is(err, rm.ErrNotFound) || !strings.Contains(err.Error(), "app with id: application_1_0009 not found") {
			t.Errorf("unknown app: %v", err)
		}
		if _, err := c.App(ctx, "nonsense"); !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, "Invalid ApplicationId prefix: nonsense") {
			t.Errorf("malformed app ID: %v", err)
		}
		if _, err := c.App(ctx, "../apps"); err == nil {
			t.Error("a path-breaking app ID was sent")
		}
		nodes, err := c.Nodes(ctx, "RUNNING")
		if err != nil || len(nodes) != rmbackend.Nodes || nodes[0].AvailMemoryMB+nodes[0].UsedMemoryMB != rmbackend.NodeMB {
			t.Errorf("Nodes(RUNNING) = %+v, %v", nodes, err)
		}
		m, err := c.Metrics(ctx)
		if err != nil || m.AppsRunning < 1 || m.TotalMB != rmbackend.Nodes*rmbackend.NodeMB || m.ActiveNodes != rmbackend.Nodes {
			t.Errorf("Metrics = %+v, %v", m, err)
		}
		si, err := c.Scheduler(ctx)
		if err != nil || si.Type != rm.SchedulerCapacity {
			t.Errorf("Scheduler = %+v, %v", si, err)
		}
	})
}

func TestSchedulerTypes(t *testing.T) {
	for _, typ := range []string{rm.SchedulerFair, rm.SchedulerFifo} {
		_, c := newPair(t, rmtest.Config{Scheduler: typ})
		si, err := c.Scheduler(context.Background())
		if err != nil || string(si.Type) != typ {
			t.Errorf("%s: %+v, %v", typ, si, err)
		}
	}
}

// TestPriority follows RMWebServices.updateApplicationPriority and
// ClientRMService.updateApplicationPriority.
func TestPriority(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		running := b.Submit(t, "default", 1, 10*time.Minute)
		done := b.Submit(t, "default", 1, time.Second)
		b.Settle(t, running, rm.StateRunning)
		b.Settle(t, done, rm.StateFinished)
		// An active app under the Capacity Scheduler: set, capped at
		// yarn.cluster.max-application-priority
		// (CapacityScheduler.checkAndGetApplicationPriority).
		if got, err := c.SetPriority(ctx, running, 4); err != nil || got != 4 {
			t.Errorf("SetPriority 4 = %d, %v", got, err)
		}
		if got, err := c.SetPriority(ctx, running, 15); err != nil || got != rmbackend.MaxPriority {
			t.Errorf("SetPriority 15 with max %d = %d, %v; want the cap", rmbackend.MaxPriority, got, err)
		}
		if a, err := c.App(ctx, running); err != nil || a.Priority() != rmbackend.MaxPriority {
			t.Errorf("priority read back: %d, %v", a.Priority(), err)
		}
		// A FINISHED app: the update is skipped and succeeds, nothing
		// changes (COMPLETED_APP_STATES).
		if got, err := c.SetPriority(ctx, done, 7); err != nil || got != 0 {
			t.Errorf("SetPriority on FINISHED = %d, %v; want success with the old 0", got, err)
		}
		if _, err := c.SetPriority(ctx, "application_1_0099", 1); !errors.Is(err, rm.ErrNotFound) {
			t.Errorf("unknown app: %v", err)
		}
	})
}

// TestPriorityDouble covers what the minicluster's configuration does not
// reach, checked against the RM source only: an app not yet ACCEPTED, and
// the Fair Scheduler.
func TestPriorityDouble(t *testing.T) {
	s, c := newPair(t, rmtest.Config{MaxPriority: 5})
	ctx := context.Background()
	s.AddApp(app("application_1_0003", "SUBMITTED", 0))
	// A SUBMITTED app: YarnException that modifyApplicationPriority does
	// not recognise, rethrown: 503, retried, then given up.
	_, err := c.SetPriority(ctx, "application_1_0003", 1)
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "SUBMITTED state cannot update priority") || !strings.Contains(err.Error(), "gave up after 4 attempts") {
		t.Errorf("SetPriority on SUBMITTED: %v", err)
	}
	// Fair Scheduler: AbstractYarnScheduler.updateApplicationPriority keeps
	// the old priority; the answer says so.
	s2, c2 := newPair(t, rmtest.Config{Scheduler: rm.SchedulerFair})
	s2.AddApp(app("application_1_0001", "RUNNING", 0))
	if got, err := c2.SetPriority(ctx, "application_1_0001", 3); err != nil || got != 0 {
		t.Errorf("Fair Scheduler SetPriority = %d, %v; want the unchanged 0", got, err)
	}
}

// TestKill follows RMWebServices.updateAppState and killApp over
// ClientRMService.forceKillApplication.
func TestKill(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		held := b.Submit(t, rmbackend.HeldQueue, 1, time.Second)
		done := b.Submit(t, "default", 1, time.Second)
		running := b.Submit(t, "default", 1, 10*time.Minute)
		b.Settle(t, done, rm.StateFinished)
		b.Settle(t, running, rm.StateRunning)
		state, finished, err := c.Kill(ctx, held, "schedkit: too late")
		// 202 with the app's internal state when the RM answered:
		// ACCEPTED, KILLING or KILLED, as the kill event is handled.
		if err != nil || finished || state == "" {
			t.Errorf("Kill ACCEPTED = %q, done %v, %v; want 202 with a state", state, finished, err)
		}
		b.Settle(t, held, rm.StateKilled)
		a, err := c.App(ctx, held)
		want := "Application " + held + " was killed by user schedkit with diagnostic message: schedkit: too late"
		if err != nil || string(a.FinalStatus) != rm.StateKilled || string(a.Diagnostics) != want {
			t.Errorf("after the kill: %+v, %v; want the diagnostics %q", a, err, want)
		}
		// Repeating the PUT on the killed app: same state, 200.
		if state, finished, err = c.Kill(ctx, held, "again"); err != nil || !finished || state != rm.StateKilled {
			t.Errorf("second Kill = %q, %v, %v", state, finished, err)
		}
		// A finished app is left as it is: 200 with its state (the
		// RM's internal one, FINISHING until the AM's container has
		// exited, then FINISHED).
		if state, finished, err = c.Kill(ctx, done, "x"); err != nil || !finished || !strings.HasPrefix(state, "FINISH") {
			t.Errorf("Kill FINISHED = %q, %v, %v", state, finished, err)
		}
		// Without user.name the write is made as the static web user.
		anon, _ := rm.New(b.URL, rm.Config{MaxAttempts: 1})
		if _, _, err := anon.Kill(ctx, running, "anonymous"); err != nil {
			t.Errorf("anonymous kill: %v", err)
		}
		b.Settle(t, running, rm.StateKilled)
		if a, _ := c.App(ctx, running); !strings.Contains(string(a.Diagnostics), "killed by user dr.who") {
			t.Errorf("anonymous kill's diagnostics: %q", a.Diagnostics)
		}
	})
	// Behind an authentication filter a write needs a user: 401.
	s, _ := newPair(t, rmtest.Config{RequireUser: true})
	s.AddApp(app("application_1_0001", "ACCEPTED", 0))
	anon, _ := rm.New(s.URL, rm.Config{MaxAttempts: 1})
	_, _, err := anon.Kill(context.Background(), "application_1_0001", "")
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 401 || e.Exception != "AuthorizationException" {
		t.Errorf("anonymous kill behind a filter: %v", err)
	}
}

// TestQueueAndTimeout follows RMWebServices.updateAppQueue/moveApp and
// updateApplicationTimeout/updateApplicationTimeouts.
func TestQueueAndTimeout(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{MaxAttempts: 2})
		ctx := context.Background()
		held := b.Submit(t, rmbackend.HeldQueue, 1, 10*time.Minute)
		killed := b.Submit(t, rmbackend.HeldQueue, 1, time.Second)
		if _, _, err := c.Kill(ctx, killed, "x"); err != nil {
			t.Fatal(err)
		}
		b.Settle(t, killed, rm.StateKilled)
		ts, err := c.Timeouts(ctx, held)
		if err != nil || len(ts) != 1 || ts[0].ExpiryTime != "UNLIMITED" || ts[0].RemainingTimeInSeconds != -1 {
			t.Errorf("Timeouts unset = %+v, %v", ts, err)
		}
		expiry := time.Now().Add(90 * time.Second)
		to, err := c.SetLifetime(ctx, held, expiry)
		if err != nil || to.RemainingTimeInSeconds < 85 || to.RemainingTimeInSeconds > 90 || !strings.HasPrefix(string(to.ExpiryTime), expiry.Format("2006-01-02T15:04:05")[:16]) {
			t.Errorf("SetLifetime = %+v, %v", to, err)
		}
		// An expiry in the past: YarnException, rethrown: 503.
		_, err = c.SetLifetime(ctx, held, time.Now().Add(-time.Minute))
		var e *rm.Error
		if !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "Expire time is less than current time") {
			t.Errorf("past expiry: %v", err)
		}
		// A queue that does not exist: 503 naming it.
		if _, err := c.MoveQueue(ctx, held, "nosuch"); !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "The specified Queue: nosuch doesn't exist") {
			t.Errorf("move to an unknown queue: %v", err)
		}
		// The reservable queue stands for its default reservation
		// queue, which does not exist.
		if _, err := c.MoveQueue(ctx, held, rmbackend.PlanQueue); !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, rmbackend.PlanQueue+"-default doesn't exist") {
			t.Errorf("move to the plan queue: %v", err)
		}
		// A final app cannot move: moveApp answers a plain-text 400.
		if _, err := c.MoveQueue(ctx, killed, "default"); !errors.As(err, &e) || e.Status != 400 || e.Body != "App in KILLED state cannot be moved." {
			t.Errorf("move KILLED: %v", err)
		}
		if q, err := c.MoveQueue(ctx, held, "default"); err != nil || q != "root.default" {
			t.Errorf("MoveQueue = %q, %v; want the full path", q, err)
		}
		if q, err := c.MoveQueue(ctx, held, "root.default"); err != nil || q != "root.default" {
			t.Errorf("MoveQueue to the same queue = %q, %v", q, err)
		}
	})
}

// TestReservations follows RMWebServices.createNewReservation,
// submitReservation, updateReservation, deleteReservation and
// listReservation over ClientRMService and ReservationInputValidator.
func TestReservations(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{MaxAttempts: 2})
		ctx := context.Background()
		held := b.Submit(t, rmbackend.HeldQueue, 1, 10*time.Minute)
		// The queue parameter defaults to "default", not a plan queue: 400.
		if _, err := c.ListReservations(ctx, rm.ReservationFilter{}); err == nil || !strings.Contains(err.Error(), "not managed by reservation system") {
			t.Errorf("list of queue default: %v", err)
		}
		id, err := c.NewReservation(ctx)
		if err != nil || !strings.HasPrefix(id, "reservation_") {
			t.Fatalf("NewReservation = %q, %v", id, err)
		}
		now := time.Now().UnixMilli()
		def := rm.ReservationDefinition{Arrival: rm.Int64(now), Deadline: rm.Int64(now + 600000), Name: rm.String("schedkit/" + held),
			Requests: rm.ReservationRequests{Interpreter: rm.InterpreterAll, Request: rm.List[rm.ReservationRequest]{{
				Capability: rm.Resource{Memory: 256, VCores: 1}, NumContainers: 4, MinConcurrency: 2, Duration: 300000}}}}
		sub := rm.ReservationSubmission{Queue: rmbackend.PlanQueue, ID: id, Definition: def}
		if err := c.SubmitReservation(ctx, sub); err != nil {
			t.Fatalf("SubmitReservation: %v", err)
		}
		t.Cleanup(func() { c.DeleteReservation(context.Background(), id) })
		// The same ID and definition again: accepted, nothing new.
		if err := c.SubmitReservation(ctx, sub); err != nil {
			t.Errorf("resubmission: %v", err)
		}
		res, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: rmbackend.PlanQueue, ID: id, IncludeAllocations: true})
		if err != nil || len(res) != 1 || res[0].ID != rm.String(id) || res[0].Definition.Requests.Request[0].NumContainers != 4 ||
			res[0].Definition.Name != def.Name || len(res[0].Allocations) == 0 {
			t.Fatalf("list = %+v, %v", res, err)
		}
		// The app moves into the reservation's queue, named by its ID
		// (AbstractSchedulerPlanFollower.getReservationQueueName) and
		// reported as its path under the plan queue.
		// Hadoop's plan follower creates the queue at its next step
		// (1 s); until then the move is refused.
		q, err := c.MoveQueue(ctx, held, id)
		for end := time.Now().Add(5 * time.Second); err != nil && strings.Contains(err.Error(), "doesn't exist") && time.Now().Before(end); {
			time.Sleep(500 * time.Millisecond)
			q, err = c.MoveQueue(ctx, held, id)
		}
		if err != nil || q != "root."+rmbackend.PlanQueue+"."+id {
			t.Errorf("move into the reservation: %q, %v", q, err)
		}
		bad := []struct {
			name string
			mod  func(*rm.ReservationSubmission)
			want string
		}{
			{"deadline past", func(s *rm.ReservationSubmission) { s.Definition.Deadline = rm.Int64(now - 1) }, "is the past"},
			{"duration longer than the window", func(s *rm.ReservationSubmission) {
				s.Definition.Requests.Request[0].Duration = 700000
			}, "must  be greater or equal to the minimum resource duration"},
			{"gang above capacity", func(s *rm.ReservationSubmission) {
				s.Definition.Requests.Request[0].MinConcurrency = rmbackend.PlanContainers + 3
				s.Definition.Requests.Request[0].NumContainers = rmbackend.PlanContainers + 3
			}, "largest gang"},
			{"not a plan queue", func(s *rm.ReservationSubmission) { s.Queue = "default" }, "not managed by reservation system"},
			{"no requests", func(s *rm.ReservationSubmission) { s.Definition.Requests.Request = nil }, "at least one ReservationRequest"},
		}
		for _, bb := range bad {
			id2, err := c.NewReservation(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s2 := rm.ReservationSubmission{Queue: rmbackend.PlanQueue, ID: id2, Definition: def}
			s2.Definition.Requests.Request = append(rm.List[rm.ReservationRequest](nil), def.Requests.Request...)
			bb.mod(&s2)
			err = c.SubmitReservation(ctx, s2)
			var e *rm.Error
			if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, bb.want) {
				t.Errorf("%s: %v, want a 400 saying %q", bb.name, err, bb.want)
			}
		}
		upd := def
		upd.Requests.Request = rm.List[rm.ReservationRequest]{{Capability: rm.Resource{Memory: 256, VCores: 1}, NumContainers: 6, MinConcurrency: 2, Duration: 300000}}
		if err := c.UpdateReservation(ctx, rm.ReservationUpdate{ID: id, Definition: upd}); err != nil {
			t.Errorf("UpdateReservation: %v", err)
		}
		if res, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: rmbackend.PlanQueue, ID: id}); err != nil || len(res) != 1 || res[0].Definition.Requests.Request[0].NumContainers != 6 {
			t.Errorf("after the update: %+v, %v", res, err)
		}
		if err := c.DeleteReservation(ctx, id); err != nil {
			t.Errorf("DeleteReservation: %v", err)
		}
		if err := c.DeleteReservation(ctx, id); err == nil || !strings.Contains(err.Error(), "does not exist in the plan") {
			t.Errorf("delete twice: %v", err)
		}
	})
}

// TestReservationsOff: with the ReservationSystem off
// (ClientRMService.checkReservationSytem) list is a 400 and
// new-reservation a 503 from the YarnRuntimeException wrapper. Checked
// against the RM source only: the minicluster runs with the system on.
func TestReservationsOff(t *testing.T) {
	ctx := context.Background()
	_, off := newPair(t, rmtest.Config{})
	if _, err := off.ListReservations(ctx, rm.ReservationFilter{Queue: "dedicated"}); !rm.IsReservationSystemOff(err) {
		t.Errorf("list with the system off: %v", err)
	}
	if _, err := off.NewReservation(ctx); !rm.IsReservationSystemOff(err) {
		t.Errorf("new-reservation with the system off: %v", err)
	}
}

// TestRetries: a 5xx is retried with backoff until it succeeds or the
// attempts run out; a 4xx is not retried.
func TestRetries(t *testing.T) {
	s, c := newPair(t, rmtest.Config{})
	ctx := context.Background()
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/metrics", Status: 500, Times: 3})
	if _, err := c.Metrics(ctx); err != nil {
		t.Errorf("three 500s then success, 4 attempts: %v", err)
	}
	if n := count(s, "/ws/v1/cluster/metrics"); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/metrics", Status: 503, Times: 4})
	_, err := c.Metrics(ctx)
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 503 || !strings.Contains(err.Error(), "gave up after 4 attempts") || !strings.Contains(err.Error(), "injected fault") {
		t.Errorf("four 503s: %v", err)
	}
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/nodes", Status: 403})
	before := count(s, "/ws/v1/cluster/nodes")
	if _, err := c.Nodes(ctx); !errors.As(err, &e) || e.Status != 403 {
		t.Errorf("403: %v", err)
	}
	if n := count(s, "/ws/v1/cluster/nodes") - before; n != 1 {
		t.Errorf("a 403 was sent %d times", n)
	}
	// A malformed 200 answer is an error naming the endpoint, not retried.
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/apps", Body: `{"apps":{"app":[{"id":"a","progress":"fast"}]}}`})
	if _, err := c.Apps(ctx, rm.AppsFilter{}); err == nil || !strings.Contains(err.Error(), "GET /ws/v1/cluster/apps: malformed JSON") {
		t.Errorf("malformed answer: %v", err)
	}
}

func count(s *rmtest.Server, path string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Path == path {
			n++
		}
	}
	return n
}

// TestStallAndCancel: an RM that accepts and then stalls is cut off by the
// per-attempt timeout and retried; a cancelled context stops at once, in
// a request or in a backoff wait.
func TestStallAndCancel(t *testing.T) {
	s := rmtest.New(rmtest.Config{})
	defer s.Close()
	c, err := rm.New(s.URL, rm.Config{Timeout: 50 * time.Millisecond, MaxAttempts: 3, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/scheduler", Stall: 5 * time.Second})
	start := time.Now()
	if _, err := c.Scheduler(context.Background()); err != nil {
		t.Errorf("one stall then an answer: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v: the stalled attempt was not cut off", d)
	}
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/scheduler", Stall: 5 * time.Second, Times: 3})
	if _, err := c.Scheduler(context.Background()); err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Errorf("three stalls: %v", err)
	}

	slow, _ := rm.New(s.URL, rm.Config{Timeout: 10 * time.Second, MaxAttempts: 5, Backoff: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/nodes", Stall: 5 * time.Second})
	start = time.Now()
	if _, err := slow.Nodes(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancel during a stall: %v", err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	s.Inject(rmtest.Fault{Path: "/ws/v1/cluster/nodes", Status: 502})
	if _, err := slow.Nodes(ctx2); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting to retry") {
		t.Errorf("cancel during the backoff: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	// Nothing listening: a transport error, retried, then reported.
	dead, _ := rm.New("http://127.0.0.1:1", rm.Config{MaxAttempts: 2, Backoff: time.Millisecond})
	if _, err := dead.Metrics(context.Background()); err == nil || !strings.Contains(err.Error(), "gave up after 2 attempts") {
		t.Errorf("connection refused: %v", err)
	}
}

// TestSetNodeResource follows RMWebServices.updateNodeResource: a node's
// own resource written back answers that resource and leaves the node as
// it was; an unknown node is a 404; the scheduler's answer carries the
// reservable queue under its full path.
func TestSetNodeResource(t *testing.T) {
	rmbackend.Each(t, rmbackend.Shared, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		nodes, err := c.Nodes(ctx, rm.NodeRunning)
		if err != nil || len(nodes) != rmbackend.Nodes {
			t.Fatalf("nodes %+v, %v", nodes, err)
		}
		n := nodes[0]
		own := rm.Resource{Memory: n.UsedMemoryMB + n.AvailMemoryMB, VCores: n.UsedVirtualCores + n.AvailableVirtualCores}
		if own.Memory != rmbackend.NodeMB || own.VCores != rmbackend.NodeVCores {
			t.Fatalf("node %s has <%d MB, %d vcores>", n.ID, own.Memory, own.VCores)
		}
		got, err := c.SetNodeResource(ctx, string(n.ID), own)
		if err != nil || got != own {
			t.Errorf("SetNodeResource(own) = %+v, %v; want %+v", got, err, own)
		}
		after, err := c.Nodes(ctx, rm.NodeRunning)
		if err != nil || len(after) != rmbackend.Nodes {
			t.Fatalf("nodes after: %+v, %v", after, err)
		}
		for _, m := range after {
			if m.UsedMemoryMB+m.AvailMemoryMB != rmbackend.NodeMB || m.UsedVirtualCores+m.AvailableVirtualCores != rmbackend.NodeVCores {
				t.Errorf("node %s after the write: %+v", m.ID, m)
			}
		}
		_, err = c.SetNodeResource(ctx, "nowhere:1", own)
		var e *rm.Error
		if !errors.As(err, &e) || e.Status != 404 || !strings.Contains(e.Message, "nodeId, nowhere:1, is not found") {
			t.Errorf("unknown node: %v", err)
		}
		if _, err := c.SetNodeResource(ctx, "a/b", own); err == nil {
			t.Error("node ID with a slash: no error")
		}
		if _, err := c.SetNodeResource(ctx, string(n.ID), rm.Resource{Memory: 0, VCores: 8}); err == nil || !strings.Contains(err.Error(), "both must be ≥ 1") {
			t.Errorf("zero memory: %v", err)
		}
		si, err := c.Scheduler(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if q, ok := si.Queue("root." + rmbackend.PlanQueue); !ok || q.Name != rmbackend.PlanQueue {
			t.Errorf("plan queue in the scheduler's answer: %+v, %v", q, ok)
		}
	})
}
