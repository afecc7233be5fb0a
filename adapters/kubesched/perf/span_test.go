package perf

import (
	"math"
	"testing"
)

// An event is one pod seen created (bound false) or bound in namespace ns
// at time at with the process at cpu CPU seconds.
type event struct {
	ns      string
	bound   bool
	at, cpu float64
}

func replay(events []event) map[string]Span {
	var s spans
	for _, e := range events {
		if e.bound {
			s.bound(e.ns, e.at, e.cpu)
		} else {
			s.created(e.ns, e.at, e.cpu)
		}
	}
	return s.all()
}

// TestSpans: hand-worked spans. Three pods of namespace-2 created at 0.5,
// 0.6 and 0.7 s (CPU 1.0, 1.1, 1.2 s), bound at 2.0, 3.5 and 3.0 s (CPU
// 2.0, 4.0, 3.0 s): 3 pods over 3.5 − 0.5 = 3 s is 1 pod/s, CPU 4.0 − 1.0
// = 3 s, 1,000 ms a pod. A bound event seen out of order (3.0 after 3.5)
// does not move Last back.
func TestSpans(t *testing.T) {
	got := replay([]event{
		{"namespace-2", false, 0.5, 1.0}, {"namespace-2", false, 0.6, 1.1}, {"namespace-1", false, 0.55, 1.05},
		{"namespace-2", true, 2.0, 2.0}, {"namespace-2", false, 0.7, 1.2},
		{"namespace-2", true, 3.5, 4.0}, {"namespace-2", true, 3.0, 3.0},
	})
	sp := got["namespace-2"]
	want := Span{Created: 3, Bound: 3, First: 0.5, Last: 3.5, CPU: 3.0, firstCPU: 1.0, lastCPU: 4.0}
	if sp != want {
		t.Fatalf("namespace-2: got %+v, want %+v", sp, want)
	}
	if r := sp.Rate(); math.Abs(r-1) > 1e-12 {
		t.Errorf("Rate = %v, want 1", r)
	}
	if c := sp.CPUPerPod(); math.Abs(c-1000) > 1e-9 {
		t.Errorf("CPUPerPod = %v, want 1000", c)
	}
	other := got["namespace-1"]
	if other.Created != 1 || other.Bound != 0 || other.Rate() != 0 || other.CPUPerPod() != 0 {
		t.Errorf("namespace-1 (created, none bound): got %+v, rate %v, CPU per pod %v", other, other.Rate(), other.CPUPerPod())
	}
}

// TestSpanRateZero: the spans that have no rate.
func TestSpanRateZero(t *testing.T) {
	for name, sp := range map[string]Span{
		"nothing seen":           {},
		"bound, never created":   {Bound: 2, Last: 3},
		"created, none bound":    {Created: 2, First: 1},
		"bound at creation time": {Created: 1, Bound: 1, First: 2, Last: 2},
		"bound before created":   {Created: 1, Bound: 1, First: 2, Last: 1},
	} {
		if r := sp.Rate(); r != 0 {
			t.Errorf("%s: Rate = %v, want 0", name, r)
		}
	}
	if got := replay(nil); got != nil {
		t.Errorf("no event: got %v, want nil", got)
	}
}

// TestPropSpanOrder: a span does not depend on the order its events
// arrive in (the watch delivers one namespace's events in order, but
// namespaces interleave): every rotation of one event list gives the same
// First, Last, counts and CPU (the CPU reading at the latest bind less
// the one at the earliest creation).
func TestPropSpanOrder(t *testing.T) {
	events := []event{
		{"a", false, 1, 10}, {"a", false, 2, 11}, {"b", false, 1.5, 10.5},
		{"a", true, 4, 14}, {"b", true, 3, 13}, {"a", true, 5, 15}, {"a", false, 0.5, 9},
	}
	base := replay(events)
	for k := 1; k < len(events); k++ {
		rot := append(append([]event{}, events[k:]...), events[:k]...)
		got := replay(rot)
		for ns, want := range base {
			g := got[ns]
			if g.Created != want.Created || g.Bound != want.Bound || g.First != want.First || g.Last != want.Last || g.CPU != want.CPU {
				t.Errorf("rotation %d, namespace %s: got %+v, want %+v", k, ns, g, want)
			}
		}
	}
	if a := base["a"]; a.First != 0.5 || a.Last != 5 || a.CPU != 6 {
		t.Errorf("namespace a: got %+v, want First 0.5, Last 5, CPU 15 − 9 = 6", a)
	}
}
