package deadlinecheck

import (
	"testing"
	"time"
	"unsafe"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestOutcomeDetached: a detached outcome holds the same ETA and note in
// memory of its own, so that keeping it does not keep its pass's blocks.
func TestOutcomeDetached(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	block := []ETA{{StartP50: t0, FinishP90: t0.Add(4 * time.Second)}, {StartP50: t0.Add(2 * time.Second), FinishP90: t0.Add(5 * time.Second)}}
	notes := "Pending: first note|Pending: second note"
	o := Outcome{Key: "ns/b", ETA: &block[1], Note: notes[20:]}
	d := o.detached()
	if d.ETA == o.ETA || *d.ETA != block[1] {
		t.Errorf("detached ETA %p = %+v, want a copy of %p = %+v", d.ETA, *d.ETA, o.ETA, block[1])
	}
	if d.Note != o.Note || unsafe.StringData(d.Note) == unsafe.StringData(o.Note) {
		t.Errorf("detached note %q shares the pass's string or differs from %q", d.Note, o.Note)
	}
	if d.Key != o.Key {
		t.Errorf("detached key %q, want %q", d.Key, o.Key)
	}
	if e := (Outcome{}).detached(); e.ETA != nil || e.Note != "" {
		t.Errorf("detached zero outcome = %+v", e)
	}

	var h etaHandoff
	h.begin()
	wl := &kueue.Workload{}
	wl.UID, wl.ResourceVersion = "b", "7"
	if !h.due(wl, o) {
		t.Fatal("first hand-over not due")
	}
	if kept := h.byUID["b"].note; kept != o.Note || unsafe.StringData(kept) == unsafe.StringData(o.Note) {
		t.Errorf("hand-over keeps note %q sharing the pass's string", kept)
	}
	if h.due(wl, d) {
		t.Error("the same outcome, detached, is due again")
	}
}
