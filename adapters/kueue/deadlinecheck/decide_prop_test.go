package deadlinecheck

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// propDecideMatchesPlan checks that the decisions a reconcile takes
// without ETAs are a fresh whole-queue plan's, bit for bit: Decide, with a
// WorkCache warmed by a plan of an earlier state of the queue (some of the
// same workloads, others gone), gives every workload Plan's verdict,
// deactivation and every note that is not an ETA (Plan's without a cache);
// its ETAs are nil. Plan with the warm cache gives Plan's outcomes too.
func propDecideMatchesPlan(t *rapid.T) {
	gen := workloadsGen(rapid.Bool().Draw(t, "fixed"))
	ws := gen.Draw(t, "workloads")
	before := gen.Draw(t, "earlier workloads")
	for i := range ws {
		if rapid.Bool().Draw(t, "also earlier?") {
			before = append(before, ws[i])
		}
	}
	cfg := propConfig(t)
	q := Queue{Name: "cq", StrictFIFO: rapid.Bool().Draw(t, "strict FIFO")}
	cache := NewWorkCache()
	if _, err := Plan(q, before, t0, cfg, cache); err != nil {
		t.Fatalf("Plan of the earlier state: %v", err)
	}
	fresh, err := Plan(q, ws, t0, cfg, nil)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	got, err := Decide(q, ws, t0, cfg, cache)
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	warm, err := Plan(q, ws, t0, cfg, cache)
	if err != nil {
		t.Fatalf("Plan with the warm cache: %v", err)
	}
	for i, f := range fresh {
		g := got[i]
		if g.ETA != nil {
			t.Fatalf("%s: Decide gave an ETA %+v", g.Key, *g.ETA)
		}
		want := f
		want.ETA = nil
		if g.Note == "" && (strings.HasPrefix(f.Note, "Pending: predicted start") || strings.HasPrefix(f.Note, "Pending: no ETA")) {
			want.Note = ""
		}
		if !sameOutcome(g, want) {
			t.Fatalf("%s: Decide %+v (verdict %+v), Plan %+v (verdict %+v)", g.Key, g, g.Verdict, f, f.Verdict)
		}
		if !sameOutcome(warm[i], f) {
			t.Fatalf("%s: Plan with a warm cache %+v, without %+v", f.Key, warm[i], f)
		}
	}
}

func TestPropDecideMatchesPlan(t *testing.T) { rapid.Check(t, propDecideMatchesPlan) }
func FuzzDecideMatchesPlan(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDecideMatchesPlan)) }
