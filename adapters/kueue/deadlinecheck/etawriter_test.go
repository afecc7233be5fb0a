package deadlinecheck

import (
	"context"
	"testing"
	"time"
)

// The ETA writer writes the ETAs a reconcile handed it, after the
// reconcile has returned with its decisions written.
func TestETAWriterWritesInBackground(t *testing.T) {
	g := heldQueue(t)
	g.r.etaWriter = newETAWriter(g.r, 1000)
	g.reconcile(t)
	if got := g.workload(t, "p").Annotations[StartP50Annotation]; got != "" {
		t.Fatalf("ETA %q written before the writer ran", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- g.r.etaWriter.Start(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for g.workload(t, "p").Annotations[StartP50Annotation] != "2026-11-24T12:10:00Z" {
		if time.Now().After(deadline) {
			t.Fatalf("p's ETA not written: %v", g.workload(t, "p").Annotations)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A budget of r a second allows its burst at once, then one every 1/r s.
func TestBudget(t *testing.T) {
	b := newBudget(2)
	at := t0
	for i := range 2 {
		if !b.take(at) {
			t.Fatalf("take %d of the burst refused", i)
		}
	}
	if b.take(at) {
		t.Error("a third take at once allowed")
	}
	if !b.take(at.Add(500 * time.Millisecond)) {
		t.Error("a take half a second later refused")
	}
	if newBudget(0) != nil || !newBudget(-1).take(at) {
		t.Error("a budget of no rate bounds something")
	}
}
