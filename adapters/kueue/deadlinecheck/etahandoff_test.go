package deadlinecheck

import (
	"context"
	"errors"
	"testing"
)

// A reconcile hands the ETA writer a workload's outcome only when it
// changed since it was last handed over, or the workload did, or its
// write failed.
func TestETAHandoffOnce(t *testing.T) {
	g := heldQueue(t)
	e := newETAWriter(g.r, 1000)
	g.r.etaWriter = e
	handed := func() []string {
		var keys []string
		for {
			task, ok := e.next()
			if !ok {
				return keys
			}
			e.done(task.wl.UID)
			keys = append(keys, task.o.Key)
		}
	}
	g.reconcile(t)
	if got := handed(); len(got) != 2 {
		t.Fatalf("first reconcile handed %v, want ns/a (holding quota) and ns/p", got)
	}
	g.reconcile(t)
	if got := handed(); len(got) != 0 {
		t.Errorf("the same outcome on the same workload handed again: %v", got)
	}

	// A failed write is handed over again.
	task := etaTask{cq: "cq", check: testCheck, wl: g.workload(t, "p")}
	e.write = func(context.Context, etaTask, func(context.Context) bool) (bool, error) {
		return false, errors.New("refused")
	}
	e.put(task)
	drainWriter(e)
	g.reconcile(t)
	if got := handed(); len(got) != 1 || got[0] != "ns/p" {
		t.Errorf("after a failed write the reconcile handed %v, want ns/p", got)
	}

	// A changed workload is handed over again, its ETA the same.
	p := g.workload(t, "p")
	p.Labels = map[string]string{"changed": "yes"}
	if err := g.c.Update(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	g.reconcile(t)
	if got := handed(); len(got) != 1 || got[0] != "ns/p" {
		t.Errorf("after a change the reconcile handed %v, want ns/p", got)
	}
	g.reconcile(t)
	if got := handed(); len(got) != 0 {
		t.Errorf("handed again without a change: %v", got)
	}
}
