package rm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
		StartedTime: t0.UnixMilli() - 60000, Tags: []string{"schedkit.deadline=+1h", "other"}}
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

// TestReads covers the GET endpoints against the answers shaped like the
// documentation's examples (RMWebServices.getApps, getApp, getNodes,
// getClusterMetricsInfo, getSchedulerInfo).
func TestReads(t *testing.T) {
	s, c := newPair(t, rmtest.Config{})
	ctx := context.Background()
	apps, err := c.Apps(ctx, rm.AppsFilter{})
	if err != nil || apps != nil {
		t.Fatalf("no apps: %v, %v ({\"apps\":null} decodes to none)", apps, err)
	}
	s.AddApp(app("application_1_0001", "RUNNING", 3))
	s.AddApp(app("application_1_0002", "FINISHED", 0))
	s.AddApp(rmtest.App{ID: "application_1_0003", State: "ACCEPTED", Tags: []string{"tag1"}})
	s.AddNode(rmtest.Node{ID: "h1:1234", Host: "h1", UsedMB: 1024, AvailMB: 7168, UsedVCores: 1, AvailVCores: 7})
	s.AddNode(rmtest.Node{ID: "h2:1234", Host: "h2", State: "LOST"})

	apps, err = c.Apps(ctx, rm.AppsFilter{States: []string{"accepted", "RUNNING"}})
	if err != nil || len(apps) != 2 || apps[0].ID != "application_1_0001" || apps[0].Priority() != 3 || apps[0].Tags()[1] != "other" {
		t.Fatalf("Apps(ACCEPTED,RUNNING) = %+v, %v", apps, err)
	}
	// ClientRMService.getApplications: an app matches if it carries any of
	// the tags.
	if apps, err = c.Apps(ctx, rm.AppsFilter{Tags: []string{"TAG1", "nope"}, Limit: 5}); err != nil || len(apps) != 1 || apps[0].ID != "application_1_0003" {
		t.Errorf("Apps(tags) = %+v, %v", apps, err)
	}
	// ApplicationsRequestBuilder rejects an unknown state: 400, final.
	_, err = c.Apps(ctx, rm.AppsFilter{States: []string{"SLEEPING"}})
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 400 || e.Exception != "BadRequestException" || !strings.Contains(e.Message, "Invalid application-state") {
		t.Errorf("unknown state: %v", err)
	}
	a, err := c.App(ctx, "application_1_0002")
	if err != nil || string(a.State) != "FINISHED" || string(a.FinalStatus) != "UNDEFINED" {
		t.Errorf("App = %+v, %v", a, err)
	}
	// RMWebServices.getRMAppForAppId: NotFoundException, 404.
	if _, err := c.App(ctx, "application_1_0009"); !errors.Is(err, rm.ErrNotFound) || !strings.Contains(err.Error(), "app with id: application_1_0009 not found") {
		t.Errorf("unknown app: %v", err)
	}
	if _, err := c.App(ctx, "../apps"); err == nil {
		t.Error("a path-breaking app ID was sent")
	}
	nodes, err := c.Nodes(ctx, "RUNNING")
	if err != nil || len(nodes) != 1 || nodes[0].AvailMemoryMB != 7168 || nodes[0].UsedVirtualCores != 1 {
		t.Errorf("Nodes(RUNNING) = %+v, %v", nodes, err)
	}
	m, err := c.Metrics(ctx)
	if err != nil || m.AppsRunning != 1 || m.AppsCompleted != 1 || m.TotalMB != 8192 || m.ActiveNodes != 1 || m.TotalNodes != 2 {
		t.Errorf("Metrics = %+v, %v", m, err)
	}
	si, err := c.Scheduler(ctx)
	if err != nil || si.Type != rm.SchedulerCapacity {
		t.Errorf("Scheduler = %+v, %v", si, err)
	}
	if len(s.Writes()) != 0 {
		t.Errorf("reads wrote: %+v", s.Writes())
	}
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
	s, c := newPair(t, rmtest.Config{MaxPriority: 5})
	ctx := context.Background()
	s.AddApp(app("application_1_0001", "RUNNING", 0))
	s.AddApp(app("application_1_0002", "FINISHED", 2))
	s.AddApp(app("application_1_0003", "SUBMITTED", 0))
	// An active app under the Capacity Scheduler: set, capped at
	// yarn.cluster.max-application-priority
	// (CapacityScheduler.checkAndGetApplicationPriority).
	if got, err := c.SetPriority(ctx, "application_1_0001", 4); err != nil || got != 4 {
		t.Errorf("SetPriority 4 = %d, %v", got, err)
	}
	if got, err := c.SetPriority(ctx, "application_1_0001", 9); err != nil || got != 5 {
		t.Errorf("SetPriority 9 with max 5 = %d, %v; want the cap 5", got, err)
	}
	// A FINISHED app: the update is skipped and succeeds, nothing changes
	// (COMPLETED_APP_STATES in ClientRMService.updateApplicationPriority).
	if got, err := c.SetPriority(ctx, "application_1_0002", 7); err != nil || got != 2 {
		t.Errorf("SetPriority on FINISHED = %d, %v; want success with the old 2", got, err)
	}
	if a, _ := s.App("application_1_0002"); a.Priority != 2 {
		t.Errorf("FINISHED app's priority changed to %d", a.Priority)
	}
	// A SUBMITTED app: YarnException that modifyApplicationPriority does
	// not recognise, rethrown: 503, retried, then given up.
	_, err := c.SetPriority(ctx, "application_1_0003", 1)
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "SUBMITTED state cannot update priority") || !strings.Contains(err.Error(), "gave up after 4 attempts") {
		t.Errorf("SetPriority on SUBMITTED: %v", err)
	}
	if _, err := c.SetPriority(ctx, "application_1_0099", 1); !errors.Is(err, rm.ErrNotFound) {
		t.Errorf("unknown app: %v", err)
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
	s, c := newPair(t, rmtest.Config{})
	ctx := context.Background()
	s.AddApp(app("application_1_0001", "ACCEPTED", 0))
	s.AddApp(app("application_1_0002", "FINISHED", 0))
	state, done, err := c.Kill(ctx, "application_1_0001", "schedkit: too late")
	if err != nil || done || state != "ACCEPTED" {
		t.Errorf("Kill ACCEPTED = %q, done %v, %v; want 202 with the state before", state, done, err)
	}
	if a, _ := s.App("application_1_0001"); a.State != "KILLED" || a.FinalStatus != "KILLED" || a.Diagnostics != "schedkit: too late" {
		t.Errorf("after the kill: %+v", a)
	}
	// Repeating the PUT on the killed app: same state, 200.
	if state, done, err = c.Kill(ctx, "application_1_0001", "again"); err != nil || !done || state != "KILLED" {
		t.Errorf("second Kill = %q, %v, %v", state, done, err)
	}
	// A finished app is left as it is (isAppFinalStateStored): 200.
	if state, done, err = c.Kill(ctx, "application_1_0002", "x"); err != nil || !done || state != "FINISHED" {
		t.Errorf("Kill FINISHED = %q, %v, %v", state, done, err)
	}
	if a, _ := s.App("application_1_0002"); a.State != "FINISHED" || a.Diagnostics != "" {
		t.Errorf("FINISHED app changed: %+v", a)
	}
	// Writes need a user (RMWebServices.initForWritableEndpoints): 401.
	anon, _ := rm.New(s.URL, rm.Config{MaxAttempts: 1})
	_, _, err = anon.Kill(ctx, "application_1_0001", "")
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 401 || e.Exception != "AuthorizationException" {
		t.Errorf("anonymous kill: %v", err)
	}
}

// TestQueueAndTimeout follows RMWebServices.updateAppQueue/moveApp and
// updateApplicationTimeout/updateApplicationTimeouts with
// RMServerUtils.validateISO8601AndConvertToLocalTimeEpoch.
func TestQueueAndTimeout(t *testing.T) {
	s, c := newPair(t, rmtest.Config{Queues: []string{"default", "fast"}})
	ctx := context.Background()
	s.AddApp(app("application_1_0001", "RUNNING", 0))
	s.AddApp(app("application_1_0002", "KILLED", 0))
	if q, err := c.MoveQueue(ctx, "application_1_0001", "fast"); err != nil || q != "fast" {
		t.Errorf("MoveQueue = %q, %v", q, err)
	}
	// A final app cannot move: moveApp answers a plain-text 400.
	_, err := c.MoveQueue(ctx, "application_1_0002", "fast")
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != 400 || e.Body != "App in KILLED state cannot be moved." {
		t.Errorf("move KILLED: %v", err)
	}
	ts, err := c.Timeouts(ctx, "application_1_0001")
	if err != nil || len(ts) != 1 || ts[0].ExpiryTime != "UNLIMITED" || ts[0].RemainingTimeInSeconds != -1 {
		t.Errorf("Timeouts unset = %+v, %v", ts, err)
	}
	to, err := c.SetLifetime(ctx, "application_1_0001", t0.Add(90*time.Second))
	if err != nil || to.RemainingTimeInSeconds != 90 || !strings.HasPrefix(string(to.ExpiryTime), "2024-06-10T12:01:30.000") {
		t.Errorf("SetLifetime = %+v, %v", to, err)
	}
	if a, _ := s.App("application_1_0001"); a.LifetimeExpiry != t0.Add(90*time.Second).UnixMilli() {
		t.Errorf("lifetime stored %d", a.LifetimeExpiry)
	}
	// An expiry in the past: YarnException without a ParseException cause,
	// rethrown: 503 with the RM's message.
	_, err = c.SetLifetime(ctx, "application_1_0001", t0.Add(-time.Minute))
	if !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "Expire time is less than current time") {
		t.Errorf("past expiry: %v", err)
	}
	// A completed app is left unchanged, 200.
	if to, err = c.SetLifetime(ctx, "application_1_0002", t0.Add(time.Hour)); err != nil || to.ExpiryTime != "UNLIMITED" {
		t.Errorf("SetLifetime on KILLED = %+v, %v", to, err)
	}
}

// TestReservations follows RMWebServices.createNewReservation,
// submitReservation, updateReservation, deleteReservation and
// listReservation over ClientRMService and ReservationInputValidator.
func TestReservations(t *testing.T) {
	ctx := context.Background()
	// ReservationSystem off (ClientRMService.checkReservationSytem): list is
	// a 400, new-reservation a 503 from the YarnRuntimeException wrapper.
	_, off := newPair(t, rmtest.Config{})
	if _, err := off.ListReservations(ctx, rm.ReservationFilter{Queue: "dedicated"}); !rm.IsReservationSystemOff(err) {
		t.Errorf("list with the system off: %v", err)
	}
	if _, err := off.NewReservation(ctx); !rm.IsReservationSystemOff(err) {
		t.Errorf("new-reservation with the system off: %v", err)
	}

	s, c := newPair(t, rmtest.Config{PlanQueue: "dedicated", PlanContainers: 10})
	s.AddApp(app("application_1_0001", "ACCEPTED", 0))
	if res, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: "dedicated"}); err != nil || len(res) != 0 {
		t.Errorf("empty list = %+v, %v", res, err)
	}
	// The queue parameter defaults to "default", not a plan queue: 400.
	if _, err := c.ListReservations(ctx, rm.ReservationFilter{}); err == nil || !strings.Contains(err.Error(), "not managed by reservation system") {
		t.Errorf("list of queue default: %v", err)
	}
	id, err := c.NewReservation(ctx)
	if err != nil || id != "reservation_1700000000000_0001" {
		t.Fatalf("NewReservation = %q, %v", id, err)
	}
	now := t0.UnixMilli()
	def := rm.ReservationDefinition{Arrival: rm.Int64(now), Deadline: rm.Int64(now + 600000), Name: "schedkit/application_1_0001",
		Requests: rm.ReservationRequests{Interpreter: rm.InterpreterAll, Request: rm.List[rm.ReservationRequest]{{
			Capability: rm.Resource{Memory: 1024, VCores: 1}, NumContainers: 4, MinConcurrency: 2, Duration: 300000}}}}
	sub := rm.ReservationSubmission{Queue: "dedicated", ID: id, Definition: def}
	if err := c.SubmitReservation(ctx, sub); err != nil {
		t.Fatalf("SubmitReservation: %v", err)
	}
	// The same ID and definition again: accepted, nothing new.
	if err := c.SubmitReservation(ctx, sub); err != nil {
		t.Errorf("resubmission: %v", err)
	}
	other := sub
	other.Definition.Requests.Request = rm.List[rm.ReservationRequest]{{Capability: rm.Resource{Memory: 1024, VCores: 1}, NumContainers: 5, MinConcurrency: 1, Duration: 1000}}
	if err := c.SubmitReservation(ctx, other); err == nil || !strings.Contains(err.Error(), "different reservation definition") {
		t.Errorf("same ID, other definition: %v", err)
	}
	// One reservation: the list writes it as an object with quoted numbers.
	res, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: "dedicated", IncludeAllocations: true})
	if err != nil || len(res) != 1 || res[0].ID != rm.String(id) || res[0].Definition.Requests.Request[0].NumContainers != 4 || len(res[0].Allocations) != 1 {
		t.Fatalf("list = %+v, %v", res, err)
	}
	// The app moves into the reservation's queue, named by its ID under
	// the Capacity Scheduler (AbstractSchedulerPlanFollower.getReservationQueueName).
	if q, err := c.MoveQueue(ctx, "application_1_0001", id); err != nil || q != id {
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
		{"gang above capacity", func(s *rm.ReservationSubmission) { s.Definition.Requests.Request[0].MinConcurrency = 11 }, "largest gang"},
		{"no capacity left", func(s *rm.ReservationSubmission) { s.Definition.Requests.Request[0].NumContainers = 19 }, "could not find a valid allocation"},
		{"not a plan queue", func(s *rm.ReservationSubmission) { s.Queue = "default" }, "not managed by reservation system"},
		{"no requests", func(s *rm.ReservationSubmission) { s.Definition.Requests.Request = nil }, "at least one ReservationRequest"},
	}
	for _, b := range bad {
		s2 := rm.ReservationSubmission{Queue: "dedicated", ID: "reservation_1700000000000_0099", Definition: def}
		s2.Definition.Requests.Request = append(rm.List[rm.ReservationRequest](nil), def.Requests.Request...)
		b.mod(&s2)
		err := c.SubmitReservation(ctx, s2)
		var e *rm.Error
		if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, b.want) {
			t.Errorf("%s: %v, want a 400 saying %q", b.name, err, b.want)
		}
	}
	upd := def
	upd.Requests.Request = rm.List[rm.ReservationRequest]{{Capability: rm.Resource{Memory: 1024, VCores: 1}, NumContainers: 6, MinConcurrency: 2, Duration: 300000}}
	if err := c.UpdateReservation(ctx, rm.ReservationUpdate{ID: id, Definition: upd}); err != nil {
		t.Errorf("UpdateReservation: %v", err)
	}
	if _, _, _, n, _, _, _ := s.Reservation(id); n != 6 {
		t.Errorf("after update %d containers", n)
	}
	if err := c.UpdateReservation(ctx, rm.ReservationUpdate{ID: "reservation_1700000000000_0077", Definition: upd}); err == nil || !strings.Contains(err.Error(), "is unknown") {
		t.Errorf("update unknown: %v", err)
	}
	if err := c.DeleteReservation(ctx, id); err != nil {
		t.Errorf("DeleteReservation: %v", err)
	}
	if err := c.DeleteReservation(ctx, id); err == nil || !strings.Contains(err.Error(), "is unknown") {
		t.Errorf("delete twice: %v", err)
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
