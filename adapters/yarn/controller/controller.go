// Package controller runs the YARN deadline controller: each pass it reads
// the cluster from the ResourceManager's REST API (package rm), plans with
// package deadline — which decides with schedkit's edf, admission and tct/jct —
// and carries out the plan's writes, or, in a dry run, only prints it.
//
// A pass is read → plan → write. A failed read skips the pass (nothing is
// written on a partial view, except that unreadable reservations only
// disable reservations), and Run waits longer after each failed pass in a
// row (NextWait). A failed write is reported and the pass goes on
// with the next action: one app's trouble never stops the others. Before
// killing an app the controller reads it again and kills only if it is
// still ACCEPTED, and it does not send a kill again while one the RM
// accepted is under way (a minute at most).
//
// # What it is checked against
//
// The scenario tests run the same code against package rmtest and, in the
// real tier (go test -tags e2e), against Hadoop 3.5.0's ResourceManager
// (minirm) with real DistributedShell apps tagged for the controller.
// Shown on Hadoop 3.5.0: the priorities it writes change which app the
// Capacity Scheduler serves first (of two apps waiting for containers
// behind a blocker, the near deadline submitted second finishes first); a
// hopeless ACCEPTED app is killed with its one-line diagnostic; a dry run
// plans the same and changes nothing; an app with a malformed tag is
// reported and left alone; -lifetime sets the LIFETIME timeout to the
// deadline plus the grace; a reservation sized by tct/jct is made in the
// reservable queue, the app is moved into its queue (root.<plan>.<reservation
// ID>; the move waits for the plan follower to create the queue), the
// queue's resources are computed (RefreshReservationQueues: Hadoop 3.5.0
// leaves a new reservation queue without any), the app runs to the end in
// its reservation, and the reservation is deleted once the app has ended.
// TestFaults (real tier) breaks that RM under the controller: an app that
// ends between the read and the write, writes the RM refuses or caps, the
// RM stopped and restarted (../FAULTS.md has the table and every REST call
// with the ACL it needs). TestACLs (real tier) runs it against an RM with
// ACLs on: the writes its queue ACLs allow are made, those they do not are
// refused, reported with the app, the call and the permission missing,
// and the others proceed; an app it may not view is left alone. Package replay compares the controller with the
// stock Capacity Scheduler on a SWIM trace replayed as real apps. The unit tests
// (controller_test.go) run on the double only.
package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// Options configures a Controller.
type Options struct {
	// Config is the planning policy.
	Config deadline.Config
	// DryRun prints each plan and writes nothing.
	DryRun bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives one line per write and per failed pass; nil discards.
	Log io.Writer
}

// Controller is the deadline controller for one ResourceManager.
type Controller struct {
	rm  *rm.Client
	opt Options

	mu sync.Mutex
	// killing holds the apps whose kill the RM accepted (202) but had not
	// finished, with when: Hadoop lists an app being killed in the state
	// it had before (RMAppImpl.createApplicationState), so the next pass
	// may plan its kill again.
	killing map[string]time.Time

	// plan makes the passes' plans in the storage it keeps between them.
	planMu sync.Mutex
	plan   deadline.Planner
}

// New returns a controller; the Config is validated.
func New(client *rm.Client, opt Options) (*Controller, error) {
	if client == nil {
		return nil, errors.New("controller: nil rm.Client")
	}
	if err := opt.Config.Validate(); err != nil {
		return nil, err
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	return &Controller{rm: client, opt: opt, killing: map[string]time.Time{}}, nil
}

// Read takes one snapshot of the cluster: the ACCEPTED and RUNNING apps,
// the nodes, the scheduler type, the controller's plan queue's
// reservations (when reservations are on) and the apps' LIFETIME timeouts
// (when lifetimes are on). An error reading apps, nodes or the scheduler
// fails the read; a reservation list the RM refuses because its
// ReservationSystem is off sets ReservationsOff, any other failure to list
// them sets ReservationsUnread.
func (c *Controller) Read(ctx context.Context) (deadline.Cluster, error) {
	cl := deadline.Cluster{Now: c.opt.Now().UnixMilli()}
	var err error
	if cl.Apps, err = c.rm.Apps(ctx, rm.AppsFilter{States: []string{rm.StateAccepted, rm.StateRunning}}); err != nil {
		return deadline.Cluster{}, err
	}
	if cl.Nodes, err = c.rm.Nodes(ctx); err != nil {
		return deadline.Cluster{}, err
	}
	si, err := c.rm.Scheduler(ctx)
	if err != nil {
		return deadline.Cluster{}, err
	}
	cl.Scheduler = string(si.Type)
	if q := c.opt.Config.PlanQueue; q != "" && cl.Scheduler != rm.SchedulerFifo {
		res, err := c.rm.ListReservations(ctx, rm.ReservationFilter{Queue: q})
		switch {
		case rm.IsReservationSystemOff(err):
			cl.ReservationsOff = true
		case err != nil:
			if ctx.Err() != nil {
				return deadline.Cluster{}, err
			}
			cl.ReservationsUnread = err.Error()
		default:
			cl.Reservations = res
		}
	}
	if c.opt.Config.Lifetime {
		cl.Lifetimes = map[string]int64{}
		for _, a := range cl.Apps {
			if !hasDeadlineTag(a) {
				continue
			}
			ts := []rm.Timeout(nil)
			if a.Timeouts != nil {
				ts = a.Timeouts.Timeout
			} else if ts, err = c.rm.Timeouts(ctx, a.ID); err != nil {
				if ctx.Err() != nil {
					return deadline.Cluster{}, err
				}
				fmt.Fprintf(c.opt.Log, "read %s timeouts: %v\n", a.ID, err)
				continue
			}
			if ms, ok := lifetime(ts); ok {
				cl.Lifetimes[a.ID] = ms
			}
		}
	}
	return cl, nil
}

func hasDeadlineTag(a rm.App) bool {
	for _, t := range a.Tags() {
		if strings.HasPrefix(strings.ToLower(t), deadline.TagDeadline+"=") {
			return true
		}
	}
	return false
}

// lifetime returns the LIFETIME expiry in ms since the epoch (0 for
// UNLIMITED); ok is false when there is none or it cannot be parsed.
func lifetime(ts []rm.Timeout) (int64, bool) {
	for _, t := range ts {
		if string(t.Type) != rm.TimeoutLifetime {
			continue
		}
		if string(t.ExpiryTime) == "UNLIMITED" {
			return 0, true
		}
		tm, err := time.Parse(rm.ExpiryLayout, string(t.ExpiryTime))
		if err != nil {
			return 0, false
		}
		return tm.UnixMilli(), true
	}
	return 0, false
}

// A Result is the outcome of one action.
type Result struct {
	Action deadline.Action
	// Err is nil when the write succeeded (or was not needed any more).
	Err error
	// Note says what the RM answered where it matters: a capped priority,
	// a kill in progress, an app that was not killed because it started.
	Note string
}

// String renders the result on one line.
func (r Result) String() string {
	status := "ok"
	if r.Err != nil {
		status = "FAILED"
	}
	s := fmt.Sprintf("%s %s", status, r.Action)
	if r.Note != "" {
		s += " [" + r.Note + "]"
	}
	if r.Err != nil {
		s += ": " + r.Err.Error()
	}
	return s
}

// Apply carries out the plan's writes in order and returns one Result per
// write. A failed write does not stop the others; a cancelled context
// does.
func (c *Controller) Apply(ctx context.Context, p deadline.Plan) []Result {
	var out []Result
	for _, a := range p.Writes() {
		if ctx.Err() != nil {
			out = append(out, Result{Action: a, Err: ctx.Err()})
			continue
		}
		note, err := c.apply(ctx, p, a)
		if note == "" {
			note = refusedNote(a.Kind, err)
		}
		r := Result{Action: a, Err: err, Note: note}
		fmt.Fprintln(c.opt.Log, r)
		out = append(out, r)
	}
	return out
}

func (c *Controller) apply(ctx context.Context, p deadline.Plan, a deadline.Action) (string, error) {
	switch a.Kind {
	case deadline.KindKill:
		if at, ok := c.killSent(a.App); ok {
			return fmt.Sprintf("kill accepted by the RM at %s and under way: not sent again", at.UTC().Format(time.RFC3339)), nil
		}
		app, err := c.rm.App(ctx, a.App)
		if err != nil {
			return "", err
		}
		if st := string(app.State); st != rm.StateAccepted {
			return "not killed: the app is " + st + " now; the next pass decides again", nil
		}
		state, done, err := c.rm.Kill(ctx, a.App, a.Diagnostic)
		if err != nil {
			return "", err
		}
		if !done {
			c.mu.Lock()
			c.killing[a.App] = time.Now()
			c.mu.Unlock()
			return "kill accepted, app is " + state, nil
		}
		return "app is " + state, nil
	case deadline.KindPriority:
		got, err := c.rm.SetPriority(ctx, a.App, a.Priority)
		if err != nil {
			return "", err
		}
		if got == a.Priority {
			return "", nil
		}
		// The RM answers a priority update of an app that has ended with
		// the priority it kept, without an error.
		if app, err := c.rm.App(ctx, a.App); err == nil && ended(string(app.State)) {
			return "not set: the app is " + string(app.State) + " now", nil
		}
		return fmt.Sprintf("the RM set %d, not %d: is yarn.cluster.max-application-priority below -max-priority?", got, a.Priority), nil
	case deadline.KindLifetime:
		t, err := c.rm.SetLifetime(ctx, a.App, time.UnixMilli(a.Expiry))
		if err != nil {
			return "", err
		}
		return "expires " + string(t.ExpiryTime), nil
	case deadline.KindDeleteReservation:
		return "", c.rm.DeleteReservation(ctx, a.ReservationID)
	case deadline.KindReserve:
		id := a.ReservationID
		switch {
		case id == "":
			var err error
			if id, err = c.rm.NewReservation(ctx); err != nil {
				return "", err
			}
			if err := c.rm.SubmitReservation(ctx, rm.ReservationSubmission{Queue: a.Queue, ID: id, Definition: *a.Reservation}); err != nil {
				return "", fmt.Errorf("reservation %s: %w", id, err)
			}
		case a.Update:
			if err := c.rm.UpdateReservation(ctx, rm.ReservationUpdate{ID: id, Definition: *a.Reservation}); err != nil {
				return "", fmt.Errorf("reservation %s: %w", id, err)
			}
		}
		q := deadline.ReservationQueue(p.Scheduler, c.opt.Config.PlanQueue, id)
		got, err := c.moveIntoReservation(ctx, a.App, q)
		if err != nil {
			return "", fmt.Errorf("reservation %s made, moving the app failed (the next pass retries): %w", id, err)
		}
		return "reservation " + id + ", app moved to queue " + got, nil
	}
	return "", fmt.Errorf("controller: unknown action kind %q", a.Kind)
}

// refusedNote names the permission the RM found missing when it refused a
// write with 403 Forbidden (ACLs on; ../FAULTS.md lists each call's), ""
// for any other outcome.
func refusedNote(k deadline.Kind, err error) string {
	var e *rm.Error
	if !errors.As(err, &e) || e.Status != http.StatusForbidden {
		return ""
	}
	switch k {
	case deadline.KindKill, deadline.KindPriority, deadline.KindLifetime:
		return "refused: the controller's user lacks MODIFY_APP on the app (its queue's acl_administer_queue, the app's MODIFY_APP ACL or yarn.admin.acl grant it)"
	}
	return "refused: the controller's user lacks a permission of the plan queue (acl_submit_reservations, acl_administer_reservations, acl_submit_applications)"
}

// killGrace is how long a kill the RM accepted is taken to be under way:
// an ACCEPTED app without a running ApplicationMaster is killed within a
// second or two.
const killGrace = time.Minute

// killSent reports whether the RM accepted a kill of app within
// killGrace, and when; older entries are forgotten.
func (c *Controller) killSent(app string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, at := range c.killing {
		if time.Since(at) > killGrace {
			delete(c.killing, id)
		}
	}
	at, ok := c.killing[app]
	return at, ok
}

// ended reports whether an app state is final.
func ended(state string) bool {
	return state == rm.StateFinished || state == rm.StateFailed || state == rm.StateKilled
}

// planFollowerWait bounds the wait for a new reservation's queue. The RM
// creates it when its plan follower next runs
// (yarn.resourcemanager.reservation-system.planfollower.time-step, 1 s by
// default): Hadoop 3.5.0 answers a move made at once 503 "The specified
// Queue: <reservation ID> doesn't exist".
const planFollowerWait = 5 * time.Second

// moveIntoReservation moves app into reservation queue q, retrying every
// half second up to planFollowerWait while the RM says the queue does not
// exist yet.
func (c *Controller) moveIntoReservation(ctx context.Context, app, q string) (string, error) {
	end := time.Now().Add(planFollowerWait)
	for {
		got, err := c.rm.MoveQueue(ctx, app, q)
		if err == nil || !strings.Contains(err.Error(), "doesn't exist") || time.Now().After(end) {
			return got, err
		}
		t := time.NewTimer(500 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		case <-t.C:
		}
	}
}

// Pass is one read → plan → (write) cycle. It returns the plan and, unless
// DryRun, the results of its writes, the last of them the refresh of
// reservation queues when one was needed (RefreshReservationQueues).
func (c *Controller) Pass(ctx context.Context) (deadline.Plan, []Result, error) {
	cl, err := c.Read(ctx)
	if err != nil {
		return deadline.Plan{}, nil, fmt.Errorf("reading the cluster: %w", err)
	}
	c.planMu.Lock()
	p, err := c.plan.Compute(cl, c.opt.Config)
	c.planMu.Unlock()
	if err != nil {
		return deadline.Plan{}, nil, err
	}
	if c.opt.DryRun {
		return p, nil, nil
	}
	res := c.Apply(ctx, p)
	if c.opt.Config.PlanQueue != "" && p.Scheduler == rm.SchedulerCapacity && ctx.Err() == nil {
		if r, ok := c.RefreshReservationQueues(ctx); ok {
			fmt.Fprintln(c.opt.Log, r)
			res = append(res, r)
		}
	}
	return p, res, nil
}

// MaxBackoff bounds Run's wait after failed passes, in intervals.
const MaxBackoff = 8

// Run makes a pass every interval until ctx is done, handing each plan to
// report (which may be nil), and returns ctx's error. A failed pass — the
// RM unreachable, or refusing a read — writes nothing; it is logged with
// the wait before the next one, which doubles with every failed pass in a
// row, from 2 intervals up to MaxBackoff intervals, so that a
// ResourceManager that is down or restarting is not asked again at full
// rate; the first pass that succeeds brings the wait back to interval.
// Each wait runs from the end of the pass before.
func (c *Controller) Run(ctx context.Context, interval time.Duration, report func(deadline.Plan, []Result)) error {
	if interval <= 0 {
		return fmt.Errorf("controller: interval %v: must be > 0", interval)
	}
	wait := interval
	for {
		p, res, err := c.Pass(ctx)
		wait = NextWait(wait, interval, err != nil)
		switch {
		case err != nil && ctx.Err() == nil:
			fmt.Fprintf(c.opt.Log, "pass failed, next in %v: %v\n", wait, err)
		case err == nil && report != nil:
			report(p, res)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// NextWait is Run's wait before the next pass: interval after a pass that
// succeeded; after a failed one, twice the wait before it, at least 2 and
// at most MaxBackoff intervals.
func NextWait(wait, interval time.Duration, failed bool) time.Duration {
	if !failed {
		return interval
	}
	return min(max(2*wait, 2*interval), MaxBackoff*interval)
}

// MarshalJSON writes the result with its error as a string.
func (r Result) MarshalJSON() ([]byte, error) {
	e := ""
	if r.Err != nil {
		e = r.Err.Error()
	}
	return json.Marshal(struct {
		Action deadline.Action `json:"action"`
		Error  string          `json:"error,omitempty"`
		Note   string          `json:"note,omitempty"`
	}{r.Action, e, r.Note})
}
