// Package rmbackend gives the adapter's contract tests the
// ResourceManagers they run against from the same test code: the test
// double (package rmtest) always, and, in the real tier (build tag e2e),
// Hadoop's own ResourceManager started by minirm/minirm.sh. Both have the
// layout MiniRM configures: the Capacity Scheduler with queues default,
// held (its apps stay ACCEPTED) and dedicated (reservable, the plan
// queue), maximum application priority 10, two NodeManagers of 2048 MB
// and 8 vcores.
package rmbackend

import (
	"context"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/dshell"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/rm/rmtest"
)

// The cluster layout both backends share.
const (
	MaxPriority = 10
	PlanQueue   = "dedicated"
	HeldQueue   = "held"
	NodeMB      = 2048
	NodeVCores  = 8
	Nodes       = 2
	// PlanContainers is the plan queue's capacity in 256 MB containers:
	// 50% of the cluster's memory.
	PlanContainers = Nodes * NodeMB / 2 / 256
)

// A Backend is one ResourceManager.
type Backend struct {
	// Name is "double" or "hadoop".
	Name string
	// URL is the RM's web address.
	URL string
	// Double is the test double, nil for Hadoop's RM.
	Double *rmtest.Server
	// Env submits DistributedShell apps (the double ignores the AM).
	Env dshell.Env
	// Settle brings app id to state: the double is told to; on Hadoop's
	// RM it waits until the app gets there by itself (RUNNING once its
	// ApplicationMaster registers, FINISHED once its containers are done,
	// KILLED once a kill has gone through).
	Settle func(t *testing.T, id, state string)
}

// real is set by the real tier's file (build tag e2e).
var real func(t *testing.T, use Use) Backend

// Use says how a test shares Hadoop's RM with the tests of other packages
// and with its own package's.
type Use int

const (
	// Shared: the test's assertions hold whatever other apps run beside
	// its own (it reads and writes only apps it submitted), so it runs
	// in parallel with other Shared tests.
	Shared Use = iota
	// Exclusive: the test needs the RM to itself — it fills the cluster
	// or runs a controller, which acts on every tagged app — so it waits
	// until no other test holds the RM and kills what earlier tests left
	// behind.
	Exclusive
)

// All returns the backends of this build: the double, then Hadoop's RM in
// the real tier, held exclusively until the test ends. A real tier whose
// RM cannot be reached fails the test.
func All(t *testing.T) []Backend {
	bs := []Backend{NewDouble(t, time.Now)}
	if real != nil {
		bs = append(bs, real(t, Exclusive))
	}
	return bs
}

// Each runs f as a subtest named after each backend of the build: the
// double, then Hadoop's RM in the real tier, taken as use says. A Shared
// test runs in parallel with the other Shared tests of its package.
func Each(t *testing.T, use Use, f func(t *testing.T, b Backend)) {
	if use == Shared {
		t.Parallel()
	}
	t.Run("double", func(t *testing.T) { f(t, NewDouble(t, time.Now)) })
	if real != nil {
		t.Run("hadoop", func(t *testing.T) { f(t, real(t, use)) })
	}
}

// NewDouble starts a test double with the shared layout and the clock now.
func NewDouble(t *testing.T, now func() time.Time) Backend {
	t.Helper()
	s := rmtest.New(rmtest.Config{MaxPriority: MaxPriority, Queues: []string{"default", HeldQueue},
		PlanQueue: PlanQueue, PlanContainers: PlanContainers, Now: now})
	t.Cleanup(s.Close)
	for _, n := range []string{"localhost:40001", "localhost:40002"} {
		s.AddNode(rmtest.Node{ID: n, Host: "localhost", Rack: "/default-rack", AvailMB: NodeMB, AvailVCores: NodeVCores})
	}
	settle := func(t *testing.T, id, state string) {
		t.Helper()
		if state == rm.StateKilled {
			return // the double kills at once
		}
		if !s.SetState(id, state, 2) {
			t.Fatalf("double: no app %s", id)
		}
	}
	return Backend{Name: "double", URL: s.URL, Double: s, Settle: settle,
		Env: dshell.Env{Java: "java", ClassPath: "unused", Dir: t.TempDir()}}
}

// Client returns a client of b as user "schedkit" that retries fast.
func (b Backend) Client(t *testing.T, cfg rm.Config) *rm.Client {
	t.Helper()
	if cfg.User == "" {
		cfg.User = "schedkit"
	}
	if cfg.Backoff == 0 {
		cfg.Backoff, cfg.MaxBackoff = 5*time.Millisecond, 20*time.Millisecond
	}
	c, err := rm.New(b.URL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Submit submits a DistributedShell app of containers containers sleeping
// sleep each to queue with tags and returns its ID; the app is killed when
// the test ends.
func (b Backend) Submit(t *testing.T, queue string, containers int, sleep time.Duration, tags ...string) string {
	t.Helper()
	c := b.Client(t, rm.Config{})
	id, err := dshell.Submit(context.Background(), c, b.Env, dshell.App{Name: t.Name(), Queue: queue, Tags: tags,
		Containers: containers, Sleep: sleep})
	if err != nil {
		t.Fatalf("%s: submitting: %v", b.Name, err)
	}
	t.Cleanup(func() { c.Kill(context.Background(), id, "test over") })
	return id
}
