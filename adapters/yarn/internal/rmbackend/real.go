//go:build e2e

package rmbackend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/dshell"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

func init() { real = Hadoop }

// Hadoop returns the backend of the ResourceManager at $SCHEDKIT_YARN_RM
// (started by minirm/minirm.sh, whose env command prints the variables).
// It fails the test when the variables are missing or the RM does not
// answer. Test binaries of several packages share the one RM through a
// lock on a file beside the system's temporary directory, held until the
// test ends: shared by Shared tests, which run side by side, exclusive
// for an Exclusive one, which then kills every app left ACCEPTED or
// RUNNING so that it starts on an idle cluster.
func Hadoop(t *testing.T, use Use) Backend {
	t.Helper()
	url := os.Getenv("SCHEDKIT_YARN_RM")
	if url == "" {
		t.Fatal("SCHEDKIT_YARN_RM is not set: start the real RM with bash adapters/yarn/minirm/minirm.sh start and export what it prints (adapters/test-e2e.sh does)")
	}
	env, err := dshell.EnvFromEnviron()
	if err != nil {
		t.Fatal(err)
	}
	lock(t, use)
	b := Backend{Name: "hadoop", URL: url, Env: env}
	c := b.Client(t, rm.Config{MaxAttempts: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nodes, err := c.Nodes(ctx, rm.NodeRunning)
	if err != nil {
		t.Fatalf("the real RM at %s does not answer: %v", url, err)
	}
	if len(nodes) != Nodes {
		t.Fatalf("the real RM at %s has %d running NodeManagers, want %d", url, len(nodes), Nodes)
	}
	if use == Exclusive {
		killActive(t, c)
	}
	b.Settle = func(t *testing.T, id, state string) {
		t.Helper()
		WaitState(t, c, id, state, 3*time.Minute)
	}
	return b
}

// lock takes the cross-process lock for the rest of the test, shared or
// exclusive as use says.
func lock(t *testing.T, use Use) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "schedkit-minirm.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	how := syscall.LOCK_SH
	if use == Exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

// killActive kills every app left ACCEPTED or RUNNING by an earlier test,
// so that each test starts on an idle cluster.
func killActive(t *testing.T, c *rm.Client) {
	t.Helper()
	ctx := context.Background()
	apps, err := c.Apps(ctx, rm.AppsFilter{States: []string{rm.StateNew, rm.StateNewSaving, rm.StateSubmitted, rm.StateAccepted, rm.StateRunning}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if _, _, err := c.Kill(ctx, a.ID, "killed before "+t.Name()); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range apps {
		WaitState(t, c, a.ID, rm.StateKilled, time.Minute)
	}
}

// WaitState polls app id until it reaches state, failing the test after
// limit or when it reaches another final state.
func WaitState(t *testing.T, c *rm.Client, id, state string, limit time.Duration) rm.App {
	t.Helper()
	end := time.Now().Add(limit)
	for {
		a, err := c.App(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		s := string(a.State)
		if s == state {
			return a
		}
		final := s == rm.StateFinished || s == rm.StateFailed || s == rm.StateKilled
		if final || time.Now().After(end) {
			t.Fatalf("%s is %s (%s), waited for %s: %s", id, s, a.FinalStatus, state, fmt.Sprint(a.Diagnostics))
		}
		time.Sleep(500 * time.Millisecond)
	}
}
