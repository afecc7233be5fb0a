//go:build e2e

package controller_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/controller"
	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
	"github.com/schedkit/schedkit/adapters/yarn/replay"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// faultPort is the REST port of the faults' own ResourceManager (RPC on
// the next four): the shared RM of the real tier is on 18088 and the
// replay's clusters on 18288.
const faultPort = 18388

// recoveryOpts turn on the RM's restart recovery with its state in a file
// system store under dir, kept across a restart of the process, so that
// the apps submitted before it are there again after it (YARN's
// ResourceManager Restart, work-preserving).
func recoveryOpts(dir string) string {
	return strings.Join([]string{
		"-D yarn.resourcemanager.recovery.enabled=true",
		"-D yarn.resourcemanager.work-preserving-recovery.enabled=true",
		"-D yarn.resourcemanager.store.class=org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore",
		"-D yarn.resourcemanager.fs.state-store.uri=file://" + filepath.Join(dir, "rmstore"),
	}, " ")
}

// TestFaults breaks the ResourceManager under the controller and checks
// that no decision is lost or made twice. It runs its own RM (minirm.sh,
// the real tier's layout: Capacity Scheduler, queues default, held and the
// reservable dedicated, 16 slots of 256 MB, maximum application priority
// 10), since it stops and restarts it.
func TestFaults(t *testing.T) {
	dir := t.TempDir()
	cl, b := ownRM(t, dir, recoveryOpts(dir), faultPort)
	b.Settle = func(t *testing.T, id, state string) {
		t.Helper()
		rmbackend.WaitState(t, b.Client(t, rm.Config{}), id, state, 3*time.Minute)
	}
	t.Run("app ends between read and write", func(t *testing.T) { faultAppEnds(t, b) })
	t.Run("write refused", func(t *testing.T) { faultWriteRefused(t, b) })
	t.Run("rm restart", func(t *testing.T) { faultRMRestart(t, b, cl, minirmScript, dir) })
}

// minirmScript starts and stops the real tier's ResourceManagers.
var minirmScript = filepath.Join("..", "minirm", "minirm.sh")

// ownRM starts a ResourceManager of the test's own (minirm.sh, state in
// dir, MINIRM_OPTS opts, REST API on port), stopped when the test ends.
func ownRM(t *testing.T, dir, opts string, port int) (*replay.Cluster, rmbackend.Backend) {
	t.Helper()
	t.Setenv("MINIRM_OPTS", opts)
	cl, err := replay.StartCluster(context.Background(), minirmScript, dir, port)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cl.Stop(); err != nil {
			t.Error(err)
		}
	})
	return cl, rmbackend.Backend{Name: "hadoop", URL: cl.URL, Env: cl.Env}
}

// faultController returns a controller of b with 256 MB containers and
// job type "t" (10-second tasks); mod adjusts its options.
func faultController(t *testing.T, b rmbackend.Backend, rc rm.Config, mod func(*controller.Options)) (*controller.Controller, deadline.Config, *syncLog) {
	t.Helper()
	cfg := deadline.DefaultConfig()
	s := 0.1
	cfg.Catalog = trace.Catalog{Types: []trace.JobType{{Name: "t", Jobs: 3, Maps: 20,
		Map: trace.LognormalFit{Mu: math.Log(10) - s*s/2, Sigma: s, Samples: 100, MeanS: 10}, Arrival: trace.LognormalFit{Samples: 10, MeanS: 1}}}}
	cfg.Runs, cfg.ContainerMB = 200, 256
	log := &syncLog{}
	opt := controller.Options{Config: cfg, Log: log}
	if mod != nil {
		mod(&opt)
	}
	c, err := controller.New(b.Client(t, rc), opt)
	if err != nil {
		t.Fatal(err)
	}
	return c, opt.Config, log
}

// syncLog is a log the controller's goroutine writes while the test reads.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readPlan is the first half of a pass: read the cluster and plan, with
// the controller's config, without writing.
func readPlan(t *testing.T, c *controller.Controller, cfg deadline.Config) deadline.Plan {
	t.Helper()
	cl, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p, err := deadline.Compute(cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func deadlineTags(deadline string, tasks int) []string {
	return []string{"schedkit.io/deadline=" + deadline, "schedkit.io/job-type=t", fmt.Sprintf("schedkit.io/tasks=%d", tasks)}
}

// faultWriteRefused: one pass whose writes the RM partly refuses. The
// reservation of an app that needs more containers at once than the plan
// queue holds (300 tasks of 10 s by a deadline 6 minutes away: about ten
// 256 MB containers, the plan 8) is refused by the RM's planner and
// reported; the other app's reservation, the move into it and both
// priorities go through. The priorities are planned above the cluster's
// maximum (MaxPriority 20 against 10): the RM lowers them, and each
// result says so. A second pass plans the refused reservation again and
// reuses the one made: the app has exactly one reservation.
func faultWriteRefused(t *testing.T, b rmbackend.Backend) {
	big := b.Submit(t, rmbackend.HeldQueue, 1, time.Minute, deadlineTags("6m", 300)...)
	small := b.Submit(t, rmbackend.HeldQueue, 1, 20*time.Second, deadlineTags("1h", 2)...)
	b.Settle(t, big, rm.StateAccepted)
	b.Settle(t, small, rm.StateAccepted)
	waitPlan(t, b)
	c, _, log := faultController(t, b, rm.Config{}, func(o *controller.Options) {
		o.Config.PlanQueue, o.Config.MaxPriority = rmbackend.PlanQueue, 20
	})
	ctx := context.Background()
	p, res, err := c.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var refused, reserved, capped int
	for _, r := range res {
		switch {
		case r.Action.Kind == deadline.KindReserve && r.Action.App == big:
			if r.Err == nil {
				t.Errorf("the RM made a reservation the plan queue cannot hold: %v", r)
			}
			refused++
		case r.Err != nil:
			t.Errorf("a write beside the refused one failed: %v", r)
		case r.Action.Kind == deadline.KindReserve && r.Action.App == small:
			reserved++
		case r.Action.Kind == deadline.KindPriority && strings.Contains(r.Note, "the RM set 10, not"):
			capped++
		}
	}
	t.Logf("results:\n%s", log)
	if refused != 1 || reserved != 1 || capped != 2 {
		t.Fatalf("refused %d, reserved %d, capped priorities %d; plan:\n%s\nlog:\n%s", refused, reserved, capped, p, log)
	}
	rc := b.Client(t, rm.Config{})
	for _, id := range []string{big, small} {
		if a, err := rc.App(ctx, id); err != nil || a.Priority() != rmbackend.MaxPriority {
			t.Errorf("%s: priority %d (%v), want the cluster's maximum %d", id, a.Priority(), err, rmbackend.MaxPriority)
		}
	}
	if _, res, err = c.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Action.Kind == deadline.KindReserve && r.Action.App == small && r.Action.ReservationID == "" {
			t.Errorf("second pass made the app a second reservation: %v", r)
		}
	}
	rs, err := rc.ListReservations(ctx, rm.ReservationFilter{Queue: rmbackend.PlanQueue})
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]int{}
	for _, r := range rs {
		mine[string(r.Definition.Name)]++
	}
	if mine[deadline.ReservationPrefix+small] != 1 || mine[deadline.ReservationPrefix+big] != 0 {
		t.Fatalf("reservations %v: want one for %s, none for %s", mine, small, big)
	}
}

// waitPlan waits until the plan queue takes a reservation of one
// container: a freshly started RM's ReservationSystem refuses every
// reservation ("exceed the capacity available (<memory:0, vCores:0>)")
// until its plan follower has given the plan the queue's resources.
func waitPlan(t *testing.T, b rmbackend.Backend) {
	t.Helper()
	rc := b.Client(t, rm.Config{})
	ctx := context.Background()
	end := time.Now().Add(2 * time.Minute)
	for {
		now := time.Now().UnixMilli()
		id, err := rc.NewReservation(ctx)
		if err == nil {
			err = rc.SubmitReservation(ctx, rm.ReservationSubmission{Queue: rmbackend.PlanQueue, ID: id, Definition: rm.ReservationDefinition{
				Arrival: rm.Int64(now), Deadline: rm.Int64(now + 600_000), Name: "probe",
				Requests: rm.ReservationRequests{Interpreter: rm.InterpreterAll, Request: rm.List[rm.ReservationRequest]{{
					Capability: rm.Resource{Memory: 256, VCores: 1}, NumContainers: 1, MinConcurrency: 1, Duration: 1000}}}}})
		}
		if err == nil {
			if err := rc.DeleteReservation(ctx, id); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the plan queue takes no reservation after 2 minutes: %v", err)
		}
		time.Sleep(2 * time.Second)
	}
}

// faultAppEnds: the controller reads and plans, then, before it writes,
// the app it planned to kill starts (it is moved out of the held queue
// and its ApplicationMaster registers) and the app it planned a priority
// for is killed by its owner. The kill is not carried out (the controller
// reads the app again and kills only an ACCEPTED one); the priority write
// to the ended app is reported; the next pass kills nothing and plans
// nothing for the ended app.
func faultAppEnds(t *testing.T, b rmbackend.Backend) {
	hopeless := b.Submit(t, rmbackend.HeldQueue, 1, 2*time.Minute, deadlineTags("20s", 100)...)
	other := b.Submit(t, rmbackend.HeldQueue, 1, time.Minute, deadlineTags("1h", 2)...)
	b.Settle(t, hopeless, rm.StateAccepted)
	b.Settle(t, other, rm.StateAccepted)
	c, cfg, log := faultController(t, b, rm.Config{}, nil)
	ctx := context.Background()
	p := readPlan(t, c, cfg)
	planned := map[deadline.Kind]string{}
	for _, a := range p.Writes() {
		if a.App == hopeless || a.App == other {
			planned[a.Kind] += a.App
		}
	}
	if planned[deadline.KindKill] != hopeless || !strings.Contains(planned[deadline.KindPriority], other) {
		t.Fatalf("plan does not kill %s and set %s's priority:\n%s", hopeless, other, p)
	}

	rc := b.Client(t, rm.Config{})
	if _, err := rc.MoveQueue(ctx, hopeless, "default"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rc.Kill(ctx, other, "ended by its owner"); err != nil {
		t.Fatal(err)
	}
	b.Settle(t, hopeless, rm.StateRunning)
	b.Settle(t, other, rm.StateKilled)
	start := time.Now()
	stale := c.Apply(ctx, p)
	if len(stale) != len(p.Writes()) {
		t.Fatalf("%d results for %d writes", len(stale), len(p.Writes()))
	}
	for _, r := range stale {
		switch {
		case r.Action.Kind == deadline.KindKill && r.Action.App == hopeless:
			if r.Err != nil || !strings.Contains(r.Note, "not killed: the app is RUNNING now") {
				t.Errorf("kill of the app that started: %v", r)
			}
		case r.Action.App == other:
			if r.Err == nil && !strings.Contains(r.Note, "not set: the app is KILLED now") {
				t.Errorf("write to the ended app: %v", r)
			}
		case r.Err != nil:
			t.Errorf("a write beside the stale ones failed: %v", r)
		}
	}
	if a, err := rc.App(ctx, hopeless); err != nil || string(a.State) != rm.StateRunning {
		t.Fatalf("the app that started is %s (%v): the controller acted on the stale read", a.State, err)
	}
	p, res, err := c.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range p.Writes() {
		if a.App == other || (a.App == hopeless && a.Kind == deadline.KindKill) {
			t.Errorf("next pass: %v", a)
		}
	}
	t.Logf("recovered: the next pass, %v after the stale writes, plans on the new state (%d writes); log:\n%s", time.Since(start).Round(time.Millisecond), len(res), log)
}

// faultRMRestart: the controller plans, then the ResourceManager process
// stops (minirm.sh stop: the RM, its NodeManagers and their containers)
// before the writes. Every write fails (the kill's re-read finds no RM),
// so nothing is written. The controller then runs (Run, a pass every
// second) while the RM is down: each pass fails at its read and the wait
// grows (NextWait). The RM is started again on the same state store and
// recovers its apps; the controller's next passes read them afresh and
// kill the hopeless app, once, with its diagnostic (a write that fails
// while the RM is still starting is reported and redone by a later pass).
func faultRMRestart(t *testing.T, b rmbackend.Backend, cl *replay.Cluster, script, dir string) {
	hopeless := b.Submit(t, rmbackend.HeldQueue, 1, 2*time.Minute, deadlineTags("20s", 100)...)
	b.Settle(t, hopeless, rm.StateAccepted)
	c, cfg, log := faultController(t, b, rm.Config{Timeout: 2 * time.Second, MaxAttempts: 2, Backoff: 100 * time.Millisecond}, nil)
	ctx := context.Background()
	p := readPlan(t, c, cfg)
	if err := cl.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	res := c.Apply(ctx, p)
	kills := 0
	for _, r := range res {
		if r.Err == nil {
			t.Errorf("a write succeeded with the RM stopped: %v", r)
		}
		if r.Action.Kind == deadline.KindKill && r.Action.App == hopeless {
			kills++
		}
	}
	if kills != 1 {
		t.Fatalf("the plan made before the stop does not kill %s:\n%s", hopeless, p)
	}

	var mu sync.Mutex
	var killedAt []time.Time
	var bad []string      // writes that failed after the restart (the RM still starting): reported, redone by a later pass
	var firstOK time.Time // the first pass that read the restarted RM
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- c.Run(runCtx, time.Second, func(_ deadline.Plan, res []controller.Result) {
			mu.Lock()
			defer mu.Unlock()
			if firstOK.IsZero() {
				firstOK = time.Now()
			}
			for _, r := range res {
				switch {
				case r.Err != nil:
					bad = append(bad, r.String())
				case r.Action.Kind == deadline.KindKill && r.Action.App == hopeless &&
					(strings.HasPrefix(r.Note, "kill accepted, app is") || strings.HasPrefix(r.Note, "app is ")): // a kill sent
					killedAt = append(killedAt, time.Now())
				}
			}
		})
	}()
	var stopRun sync.Once
	stop := func() { stopRun.Do(func() { cancel(); <-done }) }
	defer stop()
	time.Sleep(10 * time.Second) // passes fail while the RM is down
	failedWhileDown := strings.Count(log.String(), "pass failed")
	restart := time.Now()
	if _, err := replay.StartCluster(ctx, script, dir, faultPort); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	end := up.Add(3 * time.Minute)
	for {
		mu.Lock()
		n := len(killedAt)
		mu.Unlock()
		if n > 0 || time.Now().After(end) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	b.Settle(t, hopeless, rm.StateKilled)
	time.Sleep(5 * time.Second) // a few more passes after the kill
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(killedAt) != 1 {
		t.Fatalf("%s killed %d times after the restart; log:\n%s", hopeless, len(killedAt), log)
	}
	if failedWhileDown < 2 || !strings.Contains(log.String(), "next in 4s") {
		t.Errorf("while the RM was down: %d failed passes, waits not growing; log:\n%s", failedWhileDown, log)
	}
	a, err := b.Client(t, rm.Config{}).App(ctx, hopeless)
	if err != nil || !strings.Contains(string(a.Diagnostics), "schedkit: not admitted") {
		t.Errorf("the killed app's diagnostics: %q (%v)", a.Diagnostics, err)
	}
	t.Logf("RM down %v (minirm.sh start took %v); %d failed passes in the first 10 s; first pass on the restarted RM %v after the restart began; the kill %v after that pass; %d writes failed while the RM was starting (redone by later passes); log:\n%s",
		up.Sub(stopped).Round(time.Second), up.Sub(restart).Round(time.Second), failedWhileDown,
		firstOK.Sub(restart).Round(100*time.Millisecond), killedAt[0].Sub(firstOK).Round(100*time.Millisecond), len(bad), log)
}
