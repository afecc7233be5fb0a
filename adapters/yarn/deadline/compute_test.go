package deadline

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct/jct"
)

// now is the time of the test clusters (ms since the epoch).
const now = 1_000_000_000_000

// testCatalog has one job type "t": map tasks of mean 10 s (σ 0.1 in ln
// s), containers arriving 1 s after submission. Its TCT is the constant
// 10 s.
func testCatalog() trace.Catalog {
	sigma := 0.1
	return trace.Catalog{Types: []trace.JobType{{Name: "t", Jobs: 3, Maps: 20,
		Map:     trace.LognormalFit{Mu: math.Log(10) - sigma*sigma/2, Sigma: sigma, Samples: 100, MeanS: 10},
		Arrival: trace.LognormalFit{Mu: 0, Sigma: 0, Samples: 10, MeanS: 1}}}}
}

func testConfig() Config {
	c := DefaultConfig()
	c.Catalog = testCatalog()
	return c
}

func mkApp(seq int, state string, deadlineS int64, tasks int, progress float64, containers, startedAgoS, prio int64, extra ...string) rm.App {
	p := rm.Int64(prio)
	a := rm.App{ID: fmt.Sprintf("application_1_%04d", seq), State: rm.String(state), Progress: rm.Float(progress),
		RunningContainers: rm.Int64(containers), StartedTime: rm.Int64(now - startedAgoS*1000), Queue: "default", ApplicationPriority: &p}
	var tags []string
	if deadlineS != 0 {
		tags = append(tags, DeadlineTag(now+deadlineS*1000), "schedkit.io/job-type=t", fmt.Sprintf("schedkit.io/tasks=%d", tasks))
	}
	a.ApplicationTags = rm.String(strings.Join(append(tags, extra...), ","))
	return a
}

func node(id, state string, mb, vcores int64) rm.Node {
	return rm.Node{ID: rm.String(id), State: rm.String(state), AvailMemoryMB: rm.Int64(mb / 2), UsedMemoryMB: rm.Int64(mb - mb/2),
		AvailableVirtualCores: rm.Int64(vcores), UsedVirtualCores: 0}
}

// testCluster is worked by hand below. 10 slots of 1 GB, 1 vcore: node1
// holds 4 (memory and cores), node2 6 (its 6 cores, not its 8 GB); the
// LOST node counts for nothing. The model's TCT is 10 s, so an app's Eq. 6
// JCT is its remaining tasks × 10 s / 10 slots = its remaining tasks, in s.
//
//	app  state     deadline  tasks  progress  containers  remaining  running  JCT
//	0001 RUNNING   +100 s    40     50 %      3 (2 tasks) 20         2        20
//	0002 RUNNING   +30 s     10     0         2 (1 task)  10         1        10
//	0003 ACCEPTED  +25 s     20     0         0           20         0        20  (started 10 s ago)
//	0004 ACCEPTED  +40 s     15     0         0           15         0        15  (started 5 s ago)
//	0005 ACCEPTED  +28 s     4      0         0           4          0        4   (started 2 s ago)
//	0009 RUNNING   +200 s    100    0         2 (1 task)  100        1        100
//
// Admission (strict, EDF prefix sums, arrival order 0003, 0004, 0005 after
// the RUNNING 0002, 0001, 0009):
//
//	0003: 0003 20 ≤ 25, 0002 30 ≤ 30, 0001 50 ≤ 100, 0009 150 ≤ 200: admitted
//	0004: 0003 20, 0002 30, 0004 45 > 40: late by 5 s, killed
//	0005: 0003 20, 0005 24 ≤ 28, 0002 34 > 30: 0002 would miss by 4 s, killed
//
// At risk (Eq. 3, completable = left × containers / 10 s vs remaining):
// 0001 100·2/10 = 20, not < 20: on track; 0002 30·1/10 = 3 < 10; 0003
// holds nothing; 0009 200·1/10 = 20 < 100. MP ranks the at-risk ones by
// deadline, then the rest: 0003, 0002, 0009, 0001 → priorities 10, 9, 8, 7.
// 0001 already has 7. EDF ranks 0003, 0002, 0001, 0009.
//
// Not planned: 0006 (no deadline), 0007 (bad tag), 0008 (unknown model),
// "app_x" (malformed ID), 0010 (FINISHED).
func testCluster() Cluster {
	return Cluster{Now: now, Scheduler: rm.SchedulerCapacity,
		Nodes: []rm.Node{node("n1", "RUNNING", 4096, 4), node("n2", "RUNNING", 8192, 6), node("n3", "LOST", 1<<20, 64)},
		Apps: []rm.App{
			mkApp(9, "RUNNING", 200, 100, 0, 2, 60, 0),
			mkApp(1, "RUNNING", 100, 40, 50, 3, 50, 7),
			mkApp(2, "RUNNING", 30, 10, 0, 2, 40, 0),
			mkApp(3, "ACCEPTED", 25, 20, 0, 0, 10, 0),
			mkApp(4, "ACCEPTED", 40, 15, 0, 0, 5, 0),
			mkApp(5, "ACCEPTED", 28, 4, 0, 0, 2, 0),
			mkApp(6, "ACCEPTED", 0, 0, 0, 0, 1, 0, "etl"),
			mkApp(7, "RUNNING", 0, 0, 0, 1, 1, 0, "schedkit.io/deadline=1h", "schedkit.io/tasks=0"),
			mkApp(8, "ACCEPTED", 0, 0, 0, 0, 1, 0, "schedkit.io/deadline=1h", "schedkit.io/job-type=missing"),
			{ID: "app_x", State: "RUNNING", ApplicationTags: "schedkit.io/deadline=1h"},
			mkApp(10, "FINISHED", 50, 5, 100, 0, 100, 0),
		}}
}

func find(p Plan, kind Kind, app string) (Action, bool) {
	for _, a := range p.Actions {
		if a.Kind == kind && a.App == app {
			return a, true
		}
	}
	return Action{}, false
}

func id(seq int) string { return fmt.Sprintf("application_1_%04d", seq) }

func TestComputeWorkedCluster(t *testing.T) {
	p, err := Compute(testCluster(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if p.Slots != 10 {
		t.Errorf("slots %d, want 10", p.Slots)
	}
	var order []string
	for _, a := range p.Apps {
		order = append(order, a.ID[len(a.ID)-4:]+"/"+fmt.Sprint(a.Rank))
	}
	if want := []string{"0003/0", "0002/1", "0009/2", "0001/3", "0004/-1", "0005/-1"}; !slices.Equal(order, want) {
		t.Errorf("apps %v, want %v", order, want)
	}
	wantJCT := map[string]float64{id(1): 20, id(2): 10, id(3): 20, id(4): 15, id(5): 4, id(9): 100}
	wantRisk := map[string]bool{id(2): true, id(3): true, id(9): true}
	for _, a := range p.Apps {
		if math.Abs(a.JCT-wantJCT[a.ID]) > 1e-9 || a.AtRisk != wantRisk[a.ID] {
			t.Errorf("%s: JCT %v at-risk %v; want %v %v", a.ID, a.JCT, a.AtRisk, wantJCT[a.ID], wantRisk[a.ID])
		}
	}
	kill4, ok := find(p, KindKill, id(4))
	if !ok || !strings.Contains(kill4.Diagnostic, "predicted to finish 45 s from now, 5 s after its deadline") ||
		!strings.Contains(kill4.Diagnostic, "15 s alone on the 10 containers after 30 s of 2 admitted apps ahead") {
		t.Errorf("kill 0004: %+v", kill4)
	}
	kill5, ok := find(p, KindKill, id(5))
	if !ok || !strings.Contains(kill5.Diagnostic, "would make admitted "+id(2)+" miss its deadline") || !strings.Contains(kill5.Diagnostic, "by 4 s") {
		t.Errorf("kill 0005: %+v", kill5)
	}
	for seq, prio := range map[int]int64{3: 10, 2: 9, 9: 8} {
		if a, ok := find(p, KindPriority, id(seq)); !ok || a.Priority != prio || a.From != 0 {
			t.Errorf("priority of %s: %+v, want %d", id(seq), a, prio)
		}
	}
	if a, ok := find(p, KindPriority, id(1)); ok {
		t.Errorf("0001 already has priority 7, yet %+v", a)
	}
	var kinds []Kind
	for _, a := range p.Actions {
		kinds = append(kinds, a.Kind)
	}
	if want := []Kind{KindKill, KindKill, KindPriority, KindPriority, KindPriority}; !slices.Equal(kinds, want) {
		t.Errorf("actions %v, want %v", kinds, want)
	}
	var rejected []string
	for _, r := range p.Rejected {
		rejected = append(rejected, r.App+": "+r.Reason)
	}
	for i, want := range []string{"app_x: malformed application ID", id(7) + `: tag "schedkit.io/tasks=0"`, id(8) + ": schedkit.io/job-type=missing is not a job type"} {
		if i >= len(rejected) || !strings.HasPrefix(rejected[i], want) {
			t.Errorf("rejected %q, want %d. to start %q", rejected, i, want)
		}
	}
	if len(rejected) != 3 {
		t.Errorf("%d rejected", len(rejected))
	}
	if s := p.String(); !strings.Contains(s, "hurts "+id(2)) || !strings.Contains(s, "kill "+id(4)) {
		t.Errorf("String():\n%s", s)
	}
}

func TestComputeVariants(t *testing.T) {
	cfg := testConfig()
	cfg.Order = OrderEDF
	p, _ := Compute(testCluster(), cfg)
	for seq, prio := range map[int]int64{3: 10, 2: 9, 9: 7} {
		if a, ok := find(p, KindPriority, id(seq)); !ok || a.Priority != prio {
			t.Errorf("EDF priority of %s: %+v, want %d", id(seq), a, prio)
		}
	}
	if _, ok := find(p, KindPriority, id(1)); !ok {
		t.Error("EDF: 0001 should move from 7 to 8")
	}

	cfg = testConfig()
	cfg.ReportOnly = true
	p, _ = Compute(testCluster(), cfg)
	if len(p.Writes()) != 6 {
		t.Errorf("report-only writes %v", p.Writes())
	}
	for _, seq := range []int{4, 5} {
		if _, ok := find(p, KindReport, id(seq)); !ok {
			t.Errorf("report-only: %s not reported", id(seq))
		}
		if _, ok := find(p, KindKill, id(seq)); ok {
			t.Errorf("report-only: %s killed", id(seq))
		}
	}
	// Reported apps stay and are ranked: at risk 0003 (25), 0005 (28),
	// 0002 (30), 0004 (40), 0009 (200), then 0001.
	if a, _ := find(p, KindPriority, id(5)); a.Priority != 9 {
		t.Errorf("report-only: 0005 priority %d, want 9", a.Priority)
	}

	c := testCluster()
	c.Scheduler = rm.SchedulerFair
	p, _ = Compute(c, testConfig())
	if _, ok := find(p, KindPriority, id(3)); ok || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "Fair Scheduler does not honour") {
		t.Errorf("fair scheduler: %+v %q", p.Actions, p.Notes)
	}

	c = testCluster()
	c.Nodes = c.Nodes[2:]
	p, _ = Compute(c, testConfig())
	if _, ok := find(p, KindKill, id(4)); ok || p.Slots != 0 || !strings.Contains(strings.Join(p.Notes, ";"), "no RUNNING node has room") {
		t.Errorf("no slots: kills %+v, notes %q", p.Actions, p.Notes)
	}

	cfg = testConfig()
	cfg.Lifetime, cfg.LifetimeGrace = true, time.Minute
	c = testCluster()
	c.Lifetimes = map[string]int64{id(1): now + 160_000}
	p, _ = Compute(c, cfg)
	for _, seq := range []int{2, 3, 9} {
		a, ok := find(p, KindLifetime, id(seq))
		dl := map[int]int64{2: 30, 3: 25, 9: 200}[seq]
		if !ok || a.Expiry != now+(dl+60)*1000 {
			t.Errorf("lifetime of %s: %+v", id(seq), a)
		}
	}
	if _, ok := find(p, KindLifetime, id(1)); ok {
		t.Error("0001's lifetime is already deadline + grace")
	}
	if _, ok := find(p, KindLifetime, id(4)); ok {
		t.Error("lifetime for a killed app")
	}
}

func TestComputeReservations(t *testing.T) {
	cfg := testConfig()
	cfg.PlanQueue = "dedicated"
	c := testCluster()
	userRes := rm.Reservation{ID: "reservation_1_0001", Definition: rm.ReservationDefinition{Name: "res_1"}}
	goneRes := rm.Reservation{ID: "reservation_1_0002", Definition: rm.ReservationDefinition{Name: rm.String(ReservationPrefix + id(99))}}
	c.Reservations = []rm.Reservation{userRes, goneRes}
	p, err := Compute(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := find(p, KindReserve, id(3))
	if !ok || a.Reservation == nil || a.ReservationID != "" || a.Queue != "dedicated" {
		t.Fatalf("reservation for 0003: %+v", a)
	}
	def := a.Reservation
	rq := def.Requests.Request[0]
	if def.Arrival != now || def.Deadline != now+25000 || string(def.Name) != ReservationPrefix+id(3) || rq.Capability.Memory != 1024 || rq.Capability.VCores != 1 {
		t.Errorf("definition %+v", def)
	}
	// The reservation meets the deadline under the fitted model: with its
	// containers P(T ≤ 25 s) ≥ 0.9 (the same runs as the planner), and
	// with one fewer it does not (jct.WorkersFor's minimality).
	typ, _ := cfg.Catalog.Lookup("t")
	m, _ := typ.JobModel(20, 0)
	prob := func(w int) float64 {
		m.Workers = w
		d, err := jct.Predict(m, jct.Options{Runs: cfg.Runs, Seed: cfg.Seed})
		if err != nil {
			t.Fatal(err)
		}
		pr, _ := d.ProbWithin(25)
		return pr
	}
	// One container of the reservation is the ApplicationMaster's.
	w := int(rq.NumContainers) - 1
	if prob(w) < cfg.Confidence || (w > 1 && prob(w-1) >= cfg.Confidence) {
		t.Errorf("%d containers: P = %v, with %d: %v", w, prob(w), w-1, prob(w-1))
	}
	// Two waves of 10 s tasks plus the 1 s arrival fit 25 s; three do not:
	// all 10 slots.
	if w != 10 {
		t.Errorf("%d containers, want 10 (20 tasks in two waves)", w)
	}
	if d := float64(rq.Duration) / 1000; d > 25 || d < 21 {
		t.Errorf("duration %v s, want the 0.9 quantile of ≈ 1 + 2 × 10 s, within the 25 s", d)
	}
	// Rao–Reddy Eq. 10: A = 20 × 10 = 200 s, C = 25 s: n_m = ⌈200/25⌉ = 8.
	ms, _ := edf.MinimumSlots(edf.SlotEstimate{MapTasks: 20, CompletedMaps: 100, MeanMapTime: 10, TimeLeft: 25})
	if rq.MinConcurrency != 8+1 || ms.Map != 8 || !ms.Meets(int(rq.MinConcurrency)-1, 0) {
		t.Errorf("min-concurrency %d, Rao–Reddy Eq. 10 says %+v", rq.MinConcurrency, ms)
	}
	del, ok := find(p, KindDeleteReservation, "")
	if !ok || del.ReservationID != "reservation_1_0002" {
		t.Errorf("deletion %+v", del)
	}
	for _, a := range p.Actions {
		if a.ReservationID == "reservation_1_0001" {
			t.Errorf("the user's reservation touched: %+v", a)
		}
		if a.Kind == KindReserve && a.App != id(3) {
			t.Errorf("reservation for %s, only 0003 is admitted and ACCEPTED", a.App)
		}
	}

	// An existing reservation of the app: too small → update and move;
	// big enough → move only; the app already in its queue → nothing.
	for _, tt := range []struct {
		have       rm.Int64
		queue      string
		kind       bool
		update, in bool
	}{{4, "default", true, true, false}, {12, "default", true, false, false}, {12, "reservation_1_0003", false, false, true}} {
		c := testCluster()
		mine := rm.Reservation{ID: "reservation_1_0003", Definition: rm.ReservationDefinition{Name: rm.String(ReservationPrefix + id(3)),
			Requests: rm.ReservationRequests{Request: rm.List[rm.ReservationRequest]{{NumContainers: tt.have}}}}}
		c.Reservations = []rm.Reservation{mine}
		for i := range c.Apps {
			if c.Apps[i].ID == id(3) {
				c.Apps[i].Queue = rm.String(tt.queue)
			}
		}
		p, _ := Compute(c, cfg)
		a, ok := find(p, KindReserve, id(3))
		if ok != tt.kind || (ok && (a.ReservationID != "reservation_1_0003" || a.Update != tt.update || (a.Reservation != nil) != tt.update)) {
			t.Errorf("have %d in %s: %+v (found %v)", tt.have, tt.queue, a, ok)
		}
		if tt.in {
			for _, v := range p.Apps {
				if v.ID == id(3) && v.Verdict != "admitted" {
					t.Errorf("an app in its reservation is admitted, got %q", v.Verdict)
				}
			}
		}
	}

	c = testCluster()
	c.ReservationsOff = true
	if p, _ := Compute(c, cfg); len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "not enabled") {
		t.Errorf("reservation system off: %q", p.Notes)
	}
	c.ReservationsOff, c.ReservationsUnread = false, "503"
	if p, _ := Compute(c, cfg); len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "not read (503)") {
		t.Errorf("reservations unread: %q", p.Notes)
	}
	if got := ReservationQueue(rm.SchedulerFair, "dedicated", "reservation_1_0003"); got != "root.dedicated.reservation_1_0003" {
		t.Errorf("fair queue %q", got)
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.Order = "fifo" }, "Config.Order"},
		{func(c *Config) { c.MinPriority = -1 }, "Config.MinPriority"},
		{func(c *Config) { c.MaxPriority = -2 }, "Config.MaxPriority"},
		{func(c *Config) { c.ContainerMB = 0 }, "Config.ContainerMB"},
		{func(c *Config) { c.ContainerVCores = 0 }, "Config.ContainerVCores"},
		{func(c *Config) { c.Confidence = 1 }, "Config.Confidence"},
		{func(c *Config) { c.Confidence = math.NaN() }, "Config.Confidence"},
		{func(c *Config) { c.Runs = 0 }, "Config.Runs"},
		{func(c *Config) { c.LifetimeGrace = -time.Second }, "Config.LifetimeGrace"},
		{func(c *Config) { c.DefaultModel = "sort" }, "Config.DefaultModel"},
		{func(c *Config) { c.Catalog.Types[0].Map.Sigma = -1 }, "Sigma"},
	}
	for _, tt := range bad {
		c := testConfig()
		tt.mod(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", tt.want, err)
		}
		if _, err := Compute(testCluster(), c); err == nil {
			t.Errorf("Compute accepted a bad %s", tt.want)
		}
	}
	c := testConfig()
	c.Order, c.Runs = "x", 0
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "Order") || !strings.Contains(err.Error(), "Runs") {
		t.Errorf("every problem, joined: %v", err)
	}
}

// TestComputeNoUsageYet: an ACCEPTED app the RM lists with
// runningContainers −1 (no attempt in the scheduler yet) is planned as
// holding no container; −2 is rejected with the field named.
func TestComputeNoUsageYet(t *testing.T) {
	c := Cluster{Now: now, Scheduler: rm.SchedulerCapacity,
		Nodes: []rm.Node{node("n1:1", rm.NodeRunning, 4096, 4)},
		Apps:  []rm.App{mkApp(1, rm.StateAccepted, 600, 4, 0, -1, 1, 0), mkApp(2, rm.StateAccepted, 600, 4, 0, -2, 1, 0)}}
	p, err := Compute(c, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Apps) != 1 || p.Apps[0].ID != id(1) || p.Apps[0].Running != 0 || p.Apps[0].Remaining != 4 || p.Apps[0].Verdict != "admitted" {
		t.Errorf("apps %+v", p.Apps)
	}
	if len(p.Rejected) != 1 || p.Rejected[0].App != id(2) || !strings.Contains(p.Rejected[0].Reason, "runningContainers = -2") {
		t.Errorf("rejected %+v", p.Rejected)
	}
}

// TestComputeHiddenApp: an app listed without its start time and usage
// (startedTime 0: with ACLs on, the RM's view of an app its caller may not
// view) is left alone with a reason naming VIEW_APP, whether its deadline
// is absolute or relative; an app without schedkit tags is ignored as
// always; the others are planned.
func TestComputeHiddenApp(t *testing.T) {
	hidden := func(seq int, tags ...string) rm.App {
		a := mkApp(seq, rm.StateAccepted, 0, 0, 0, 0, 0, 0, tags...)
		a.StartedTime = 0
		return a
	}
	c := Cluster{Now: now, Scheduler: rm.SchedulerCapacity, Nodes: []rm.Node{node("n1:1", rm.NodeRunning, 4096, 4)},
		Apps: []rm.App{mkApp(1, rm.StateAccepted, 600, 4, 0, 0, 1, 0),
			hidden(2, DeadlineTag(now+600_000), "schedkit.io/job-type=t"),
			hidden(3, "schedkit.io/deadline=10m", "schedkit.io/job-type=t"),
			hidden(4, "other=tag")}}
	p, err := Compute(c, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Apps) != 1 || p.Apps[0].ID != id(1) {
		t.Errorf("apps %+v", p.Apps)
	}
	if len(p.Rejected) != 2 || p.Rejected[0].App != id(2) || p.Rejected[1].App != id(3) {
		t.Fatalf("rejected %+v", p.Rejected)
	}
	for _, r := range p.Rejected {
		if !strings.Contains(r.Reason, "startedTime = 0") || !strings.Contains(r.Reason, "VIEW_APP") {
			t.Errorf("%s: %q", r.App, r.Reason)
		}
	}
	for _, a := range p.Actions {
		if a.App != id(1) {
			t.Errorf("action on a hidden app: %v", a)
		}
	}
}
