package controller

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// The scenarios below run, from the same code, against every backend of
// the build (internal/rmbackend): the test double, and Hadoop 3.5.0's
// ResourceManager with real DistributedShell apps in the real tier. The
// apps carry the deadline tags of job type "t" (10-second tasks); the
// cluster has 16 slots of 256 MB.

// scenarioController returns a controller for b with 256 MB containers.
func scenarioController(t *testing.T, b rmbackend.Backend, mod func(*Options)) *Controller {
	t.Helper()
	cfg := deadline.DefaultConfig()
	cfg.Catalog = catalog()
	cfg.Runs = 200
	cfg.ContainerMB = 256
	opt := Options{Config: cfg, Log: &strings.Builder{}}
	if mod != nil {
		mod(&opt)
	}
	c, err := New(b.Client(t, rm.Config{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func tags(deadline string, tasks int) []string {
	return []string{"schedkit.io/deadline=" + deadline, "schedkit.io/job-type=t", fmt.Sprintf("schedkit.io/tasks=%d", tasks)}
}

func app(t *testing.T, c *rm.Client, id string) rm.App {
	t.Helper()
	a, err := c.App(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestScenarioKillDryRunMalformed: an ACCEPTED app that cannot meet its
// deadline is killed with its one-line diagnostic; a dry run beforehand
// plans the same and changes nothing; an app with a malformed tag is
// reported and left alone.
func TestScenarioKillDryRunMalformed(t *testing.T) {
	rmbackend.Each(t, rmbackend.Exclusive, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		// 100 tasks of 10 s on 16 slots take over a minute: a 20 s
		// deadline is hopeless.
		hopeless := b.Submit(t, rmbackend.HeldQueue, 1, time.Minute, tags("20s", 100)...)
		bad := b.Submit(t, rmbackend.HeldQueue, 1, time.Minute, "schedkit.io/deadline=yesterday")
		// The RM lists an app as ACCEPTED a moment after its submission.
		b.Settle(t, hopeless, rm.StateAccepted)
		b.Settle(t, bad, rm.StateAccepted)
		dry := scenarioController(t, b, func(o *Options) { o.DryRun = true })
		writes := 0
		if b.Double != nil {
			writes = len(b.Double.Writes())
		}
		p, res, err := dry.Pass(ctx)
		if err != nil || res != nil {
			t.Fatalf("dry run: %v, %v", res, err)
		}
		var kills int
		for _, a := range p.Writes() {
			if a.Kind == deadline.KindKill && a.App == hopeless {
				kills++
			}
		}
		if kills != 1 || len(p.Rejected) != 1 || p.Rejected[0].App != bad || !strings.Contains(p.Rejected[0].Reason, `tag "schedkit.io/deadline=yesterday"`) {
			t.Fatalf("dry-run plan:\n%s", p)
		}
		if b.Double != nil && len(b.Double.Writes()) != writes {
			t.Errorf("dry run wrote %+v", b.Double.Writes()[writes:])
		}
		if a := app(t, c, hopeless); string(a.State) != rm.StateAccepted || a.Priority() != 0 {
			t.Errorf("after the dry run: %+v", a)
		}

		live := scenarioController(t, b, nil)
		p, res, err = live.Pass(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil {
				t.Errorf("%v", r)
			}
		}
		b.Settle(t, hopeless, rm.StateKilled)
		a := app(t, c, hopeless)
		if !strings.Contains(string(a.Diagnostics), "with diagnostic message: schedkit: not admitted: predicted to finish") ||
			strings.Contains(string(a.Diagnostics), "\n") {
			t.Errorf("killed app's diagnostics: %q", a.Diagnostics)
		}
		if a := app(t, c, bad); string(a.State) != rm.StateAccepted || a.Priority() != 0 || string(a.Queue) != "root."+rmbackend.HeldQueue {
			t.Errorf("the app with a malformed tag was touched: %+v", a)
		}
	})
}

// TestScenarioReservationAndLifetime: an admitted ACCEPTED app gets a
// reservation in the reservable queue sized by tct/jct and is moved into it;
// the same pass writes a node's resource back so that the Capacity
// Scheduler computes the new queue's resources (RefreshReservationQueues),
// and the app runs to the end in its reservation; -lifetime sets its
// LIFETIME to the deadline plus the grace; once the app has ended, the
// next pass deletes the reservation.
func TestScenarioReservationAndLifetime(t *testing.T) {
	rmbackend.Each(t, rmbackend.Exclusive, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		id := b.Submit(t, rmbackend.HeldQueue, 4, 3*time.Second, tags("10m", 4)...)
		b.Settle(t, id, rm.StateAccepted)
		ctl := scenarioController(t, b, func(o *Options) {
			o.Config.PlanQueue = rmbackend.PlanQueue
			o.Config.Lifetime, o.Config.LifetimeGrace = true, time.Minute
		})
		p, res, err := ctl.Pass(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var resID string
		refreshed := false
		for _, r := range res {
			if r.Err != nil {
				t.Errorf("%v", r)
			}
			if r.Action.Kind == deadline.KindReserve {
				resID, _, _ = strings.Cut(strings.TrimPrefix(r.Note, "reservation "), ",")
			}
			refreshed = refreshed || (r.Action.Kind == KindRefreshQueues && r.Err == nil)
		}
		if resID == "" || !refreshed {
			t.Fatalf("no reservation made, or its queue not refreshed:\n%s\n%v", p, res)
		}
		list, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: rmbackend.PlanQueue, ID: resID})
		if err != nil || len(list) != 1 || string(list[0].Definition.Name) != deadline.ReservationPrefix+id ||
			list[0].Definition.Requests.Request[0].NumContainers < 1 || list[0].Definition.Requests.Request[0].Capability.Memory != 256 {
			t.Fatalf("reservation %s: %+v, %v", resID, list, err)
		}
		queue := "root." + rmbackend.PlanQueue + "." + resID
		a := app(t, c, id)
		if string(a.Queue) != queue {
			t.Errorf("app's queue %q, want the reservation's", a.Queue)
		}
		// The RM applies the node write through its dispatchers, after the
		// REST call has returned: the queue shows its resources a moment
		// after the pass.
		if q, ok := waitQueueResources(t, c, queue, 256, 30*time.Second); !ok {
			t.Errorf("reservation queue 30 s after the pass: capacity %v, minimum effective resource %s", q.Capacity, fmtResource(q.MinEffective))
		}
		started := int64(a.StartedTime)
		ts, err := c.Timeouts(ctx, id)
		if err != nil || len(ts) != 1 {
			t.Fatalf("timeouts: %+v, %v", ts, err)
		}
		want := time.UnixMilli(started).Add(11 * time.Minute)
		if got, err := time.Parse(rm.ExpiryLayout, string(ts[0].ExpiryTime)); err != nil || got.Sub(want).Abs() > time.Second {
			t.Errorf("LIFETIME expires %s, want %s (deadline + 1 m grace)", ts[0].ExpiryTime, want)
		}
		// The app runs in its reservation's queue to the end.
		b.Settle(t, id, rm.StateFinished)
		if a := app(t, c, id); string(a.Queue) != queue || string(a.FinalStatus) != "SUCCEEDED" {
			t.Errorf("app after it ended: queue %q, final status %s", a.Queue, a.FinalStatus)
		}
		_, res, err = ctl.Pass(ctx)
		deleted := false
		for _, r := range res {
			deleted = deleted || (r.Action.Kind == deadline.KindDeleteReservation && r.Action.ReservationID == resID && r.Err == nil)
		}
		if err != nil || !deleted {
			t.Errorf("pass after the app ended: %v, %v", res, err)
		}
		if list, err := c.ListReservations(ctx, rm.ReservationFilter{Queue: rmbackend.PlanQueue, ID: resID}); err != nil || len(list) != 0 {
			t.Errorf("reservation after the delete: %+v, %v", list, err)
		}
	})
}

// waitQueueResources polls the Capacity Scheduler until queue has a
// capacity above 0 and a minimum effective memory of at least mb, for up
// to limit; it returns the queue last read and whether it got there.
func waitQueueResources(t *testing.T, c *rm.Client, queue string, mb int64, limit time.Duration) (rm.SchedulerQueue, bool) {
	t.Helper()
	ctx := context.Background()
	var q rm.SchedulerQueue
	for end := time.Now().Add(limit); ; time.Sleep(200 * time.Millisecond) {
		si, err := c.Scheduler(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ok bool
		q, ok = si.Queue(queue)
		if ok && q.Capacity > 0 && q.MinEffective != nil && int64(q.MinEffective.Memory) >= mb {
			return q, true
		}
		if time.Now().After(end) {
			return q, false
		}
	}
}

func fmtResource(r *rm.Resource) string {
	if r == nil {
		return "not reported"
	}
	return fmt.Sprintf("%+v", *r)
}

// TestScenarioPriorityOrder: two apps wait for containers behind a
// blocker, the one with the far deadline submitted first. The controller
// ranks the near deadline first and writes its priority higher; on
// Hadoop's RM the Capacity Scheduler then serves it first when the
// blocker's containers end — it finishes before the other, which
// first-in-first-out order would have served first.
func TestScenarioPriorityOrder(t *testing.T) {
	rmbackend.Each(t, rmbackend.Exclusive, func(t *testing.T, b rmbackend.Backend) {
		c := b.Client(t, rm.Config{})
		ctx := context.Background()
		// The blocker's ApplicationMaster and 13 containers hold 14 of
		// the 16 slots; the two left run the ApplicationMasters of far
		// and near, which register and ask for 12 containers each
		// while the blocker holds the rest.
		blocker := b.Submit(t, "default", 13, time.Minute)
		b.Settle(t, blocker, rm.StateRunning)
		far := b.Submit(t, "default", 12, 3*time.Second, tags("20m", 12)...)
		near := b.Submit(t, "default", 12, 3*time.Second, tags("5m", 12)...)
		b.Settle(t, far, rm.StateRunning)
		b.Settle(t, near, rm.StateRunning)
		ctl := scenarioController(t, b, nil)
		_, res, err := ctl.Pass(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil || r.Action.Kind == deadline.KindKill {
				t.Errorf("%v", r)
			}
		}
		an, af, ab := app(t, c, near), app(t, c, far), app(t, c, blocker)
		if an.Priority() != rmbackend.MaxPriority || af.Priority() >= an.Priority() {
			t.Fatalf("priorities near %d, far %d", an.Priority(), af.Priority())
		}
		// The order is shown only if both still wait for containers
		// behind the blocker now that their priorities are written.
		if b.Double == nil && (string(ab.State) != rm.StateRunning || an.RunningContainers != 1 || af.RunningContainers != 1) {
			t.Fatalf("the blocker (%s, %d containers) ended, or near (%d) or far (%d) got containers, before the priorities were written: its 1 min sleep is too short for this machine",
				ab.State, ab.RunningContainers, an.RunningContainers, af.RunningContainers)
		}
		b.Settle(t, blocker, rm.StateFinished)
		b.Settle(t, near, rm.StateFinished)
		b.Settle(t, far, rm.StateFinished)
		an, af = app(t, c, near), app(t, c, far)
		if b.Double == nil && an.FinishedTime >= af.FinishedTime {
			t.Errorf("near finished at %d, far at %d: the higher priority was not served first", an.FinishedTime, af.FinishedTime)
		}
	})
}
