//go:build e2e

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/controller"
	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/dshell"
	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// aclPort is the REST port of the ACL test's own ResourceManager (RPC on
// the next four), beside the shared RM's 18088, the replay's 18288 and
// the faults' 18388.
const aclPort = 18488

// The users of the ACL test: the apps' owner, the controller's user and
// the only administrator.
const (
	aclOwner = "alice"
	aclAdmin = "yarnadmin"
	// aclNoAdminQueue is a second held queue (capacity 0: its apps stay
	// ACCEPTED) that only the administrator administers.
	aclNoAdminQueue = "heldnoadmin"
)

// aclOpts turn on YARN's ACLs (yarn.acl.enable) with one administrator,
// Hadoop's pseudo authentication on the web services (the user is the
// user.name parameter; a request without one is refused), and queue ACLs:
// nobody but the administrator may submit to or administer root, the
// owner may submit to default, held and heldnoadmin, and the controller's
// user administers default and held (acl_administer_queue: VIEW_APP and
// MODIFY_APP on their apps) but not heldnoadmin.
func aclOpts() string {
	cs := "-D yarn.scheduler.capacity.root."
	o := []string{
		"-D yarn.acl.enable=true",
		"-D yarn.admin.acl=" + aclAdmin,
		"-D hadoop.http.filter.initializers=org.apache.hadoop.security.AuthenticationFilterInitializer",
		"-D hadoop.http.authentication.type=simple",
		"-D hadoop.http.authentication.simple.anonymous.allowed=false",
		cs + "queues=default,dedicated,held," + aclNoAdminQueue,
		cs + aclNoAdminQueue + ".capacity=0",
		cs + aclNoAdminQueue + ".maximum-capacity=0",
		cs + aclNoAdminQueue + ".maximum-applications=1000",
		cs + "acl_submit_applications=" + aclAdmin,
		cs + "acl_administer_queue=" + aclAdmin,
	}
	for _, q := range []string{"default", rmbackend.HeldQueue, aclNoAdminQueue} {
		o = append(o, cs+q+".acl_submit_applications="+aclOwner)
		admin := "schedkit"
		if q == aclNoAdminQueue {
			admin = aclAdmin
		}
		o = append(o, cs+q+".acl_administer_queue="+admin)
	}
	return strings.Join(o, " ")
}

// TestACLs runs the controller (user "schedkit", no reservations, with
// -lifetime) against Hadoop 3.5.0's ResourceManager with ACLs on. Apps
// owned by another user wait ACCEPTED in two queues:
//
//   - in held, which the controller's user administers (the ACL FAULTS.md
//     lists for reading and writing apps): a hopeless app, which it
//     kills, and an app on track, whose priority and LIFETIME it sets;
//   - in heldnoadmin, whose apps it may view (each app's VIEW_APP ACL
//     names it) but not modify (MODIFY_APP removed): the same two apps,
//     whose kill, priority and LIFETIME the RM refuses with 403; each
//     result names the app, the call and the missing permission, and the
//     writes to the held apps, listed after the refused kill, go through;
//   - in heldnoadmin without the VIEW_APP ACL: the RM lists it with its
//     tags but hides its start time and usage; the controller leaves it
//     alone, with the reason naming VIEW_APP.
//
// The reads (apps, nodes, scheduler, one app before a kill) need no
// permission beyond the user's own and VIEW_APP. A second pass reports
// the refused writes again and plans nothing more for the held apps.
func TestACLs(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	cl, b := ownRM(t, t.TempDir(), aclOpts(), aclPort)
	t.Logf("RM with ACLs up in %v", time.Since(start).Round(time.Second))
	owner := b.Client(t, rm.Config{User: aclOwner})
	anonymous, err := rm.New(cl.URL, rm.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := anonymous.Apps(ctx, rm.AppsFilter{}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a request without user.name: %v, want 401 (pseudo authentication, anonymous requests refused)", err)
	}
	submit := func(queue, view string, tags ...string) string {
		t.Helper()
		id, err := dshell.Submit(ctx, owner, b.Env, dshell.App{Name: t.Name(), Queue: queue, Tags: tags,
			Containers: 1, Sleep: time.Minute, ViewACL: view})
		if err != nil {
			t.Fatalf("submitting to %s as %s: %v", queue, aclOwner, err)
		}
		t.Cleanup(func() { owner.Kill(context.Background(), id, "test over") })
		return id
	}
	// Submitted in this order, so that in app-ID order (the order of the
	// plan's writes within a kind) the refused kill comes first.
	refusedKill := submit(aclNoAdminQueue, "schedkit", deadlineTags("20s", 100)...)
	kill := submit(rmbackend.HeldQueue, "", deadlineTags("20s", 100)...)
	refused := submit(aclNoAdminQueue, "schedkit", deadlineTags("1h", 2)...)
	allowed := submit(rmbackend.HeldQueue, "", deadlineTags("1h", 2)...)
	hidden := submit(aclNoAdminQueue, "", deadlineTags(time.Now().Add(time.Hour).UTC().Format(time.RFC3339), 2)...)
	for _, id := range []string{refusedKill, kill, refused, allowed, hidden} {
		rmbackend.WaitState(t, owner, id, rm.StateAccepted, 3*time.Minute)
	}

	c, _, log := faultController(t, b, rm.Config{MaxAttempts: 1}, func(o *controller.Options) { o.Config.Lifetime = true })
	p, res, err := c.Pass(ctx)
	if err != nil {
		t.Fatalf("a pass with ACLs on: %v", err)
	}
	t.Logf("plan:\n%s\nresults:\n%s", p, log)
	want := map[string][]deadline.Kind{
		refusedKill: {deadline.KindKill}, kill: {deadline.KindKill},
		refused: {deadline.KindPriority, deadline.KindLifetime}, allowed: {deadline.KindPriority, deadline.KindLifetime},
	}
	got := map[string][]deadline.Kind{}
	firstRefusal, lastAllowed := -1, -1
	for i, r := range res {
		a := r.Action
		got[a.App] = append(got[a.App], a.Kind)
		switch a.App {
		case refusedKill, refused:
			if r.Err == nil || !strings.Contains(r.Err.Error(), "403") || !strings.Contains(r.Err.Error(), "/apps/"+a.App+"/") ||
				!strings.Contains(r.Note, "MODIFY_APP") || !strings.Contains(r.String(), "FAILED "+string(a.Kind)) {
				t.Errorf("%s of an app the controller may not modify: %v", a.Kind, r)
			}
			if firstRefusal < 0 {
				firstRefusal = i
			}
			if !strings.Contains(log.String(), r.String()) {
				t.Errorf("the refusal is not in the controller's log: %v", r)
			}
		case kill, allowed:
			if r.Err != nil {
				t.Errorf("%s of an app in a queue the controller administers: %v", a.Kind, r)
			}
			lastAllowed = i
		default:
			t.Errorf("a write to an app of no test: %v", r)
		}
	}
	for id, kinds := range want {
		if strings.Join(kindNames(got[id]), ",") != strings.Join(kindNames(kinds), ",") {
			t.Errorf("%s: writes %v, want %v", id, got[id], kinds)
		}
	}
	if firstRefusal < 0 || lastAllowed < firstRefusal {
		t.Errorf("no allowed write after a refused one (refused at %d, allowed up to %d)", firstRefusal, lastAllowed)
	}
	hid := false
	for _, r := range p.Rejected {
		if r.App == hidden && strings.Contains(r.Reason, "VIEW_APP") {
			hid = true
		}
	}
	if !hid {
		t.Errorf("the app the controller may not view is not rejected naming VIEW_APP: %v", p.Rejected)
	}

	rmbackend.WaitState(t, owner, kill, rm.StateKilled, 3*time.Minute)
	for id, state := range map[string]string{refusedKill: rm.StateAccepted, refused: rm.StateAccepted} {
		if a, err := owner.App(ctx, id); err != nil || string(a.State) != state || a.Priority() != 0 {
			t.Errorf("%s: %s at priority %d (%v): a refused write changed it", id, a.State, a.Priority(), err)
		}
	}
	a, err := owner.App(ctx, allowed)
	if err != nil || a.Priority() == 0 {
		t.Errorf("%s: priority %d (%v): the allowed priority was not set", allowed, a.Priority(), err)
	}
	tos, err := owner.Timeouts(ctx, allowed)
	if err != nil || len(tos) == 0 || string(tos[0].ExpiryTime) == "UNLIMITED" {
		t.Errorf("%s: timeouts %v (%v): the allowed LIFETIME was not set", allowed, tos, err)
	}

	_, res, err = c.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		switch {
		case r.Action.App == refusedKill || r.Action.App == refused:
			if r.Err == nil {
				t.Errorf("second pass: a refused write went through: %v", r)
			}
		default:
			t.Errorf("second pass: %v", r)
		}
	}
	t.Logf("whole test %v", time.Since(start).Round(time.Second))
}

func kindNames(ks []deadline.Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}
