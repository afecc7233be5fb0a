package deadlinecheck

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// propKeptPlan is the oracle of what a plan keeps between plans of its
// queue (keptplan.go, WorkCache.workAt): over a random sequence of queue
// states, as a reconcile sees them one after another, the decisions with
// one WorkCache throughout (decide in the cache's scratch, the
// reconciler's call, and now and then Plan with it) are those of a fresh
// Decide and Plan without a cache, bit for bit. Between states workloads
// arrive (often in the same second, with equal deadlines: EDF ties), the
// last plan's Ready ones become promised or stay to decide (a write the
// cache has not shown), workloads finish, the clock moves a second (the
// running ones' executed time with it), and the list comes in another
// order.
func propKeptPlan(t *rapid.T) {
	ws := workloadsGen(rapid.Bool().Draw(t, "fixed")).Draw(t, "workloads")
	cfg := propConfig(t)
	q := Queue{Name: "cq", StrictFIFO: rapid.Bool().Draw(t, "strict FIFO")}
	cache := NewWorkCache()
	now := t0
	next := len(ws)
	var last []Outcome
	for step := range rapid.IntRange(1, 12).Draw(t, "steps") {
		switch rapid.IntRange(0, 5).Draw(t, "change") {
		case 0: // arrivals
			for range rapid.IntRange(1, 3).Draw(t, "arrivals") {
				w := Workload{
					Key: fmt.Sprintf("ns/n%d", next), UID: kueueUID(next),
					Created: now.Add(-time.Duration(rapid.IntRange(0, 2).Draw(t, "age")) * time.Second),
					Phase:   rapid.SampledFrom([]Phase{Deciding, Deciding, Waiting}).Draw(t, "phase"),
					Pods:    1, Slots: rapid.IntRange(1, 4).Draw(t, "slots"),
				}
				next++
				w.QueueTime = w.Created
				if rapid.IntRange(0, 4).Draw(t, "deadline?") > 0 {
					w.Deadline = t0.Add(time.Duration(rapid.SampledFrom([]int{300, 300, 600, 1200}).Draw(t, "deadline")) * time.Second)
				}
				median := float64(rapid.SampledFrom([]int{10, 60, 300}).Draw(t, "median"))
				w.RunTime = &RunTime{Pod: jct.Lognormal{Mu: math.Log(median), Sigma: rapid.SampledFrom([]float64{0, 0.3}).Draw(t, "sigma")}, Source: "gen"}
				at := rapid.IntRange(0, len(ws)).Draw(t, "listed at")
				ws = append(ws[:at], append([]Workload{w}, ws[at:]...)...)
			}
		case 1: // the last plan's Ready verdicts seen, or some of them
			for i := range last {
				if v := last[i].Verdict; v != nil && v.State == kueue.CheckStateReady && ws[i].Phase == Deciding && rapid.IntRange(0, 3).Draw(t, "seen?") > 0 {
					ws[i].Phase = Promised
				}
			}
		case 2: // a finish
			if len(ws) > 0 {
				at := rapid.IntRange(0, len(ws)-1).Draw(t, "finished")
				ws = append(ws[:at], ws[at+1:]...)
			}
		case 3: // a second later
			now = now.Add(time.Second)
			for i := range ws {
				if ws[i].Phase == Promised {
					ws[i].Executed += time.Second
				}
			}
		case 4: // another list order
			if len(ws) > 1 {
				i, j := rapid.IntRange(0, len(ws)-1).Draw(t, "swap i"), rapid.IntRange(0, len(ws)-1).Draw(t, "swap j")
				ws[i], ws[j] = ws[j], ws[i]
			}
		case 5: // the same state again (a refused write)
		}
		fresh, err := Decide(q, ws, now, cfg, nil)
		if err != nil {
			t.Fatalf("step %d: fresh Decide: %v", step, err)
		}
		var got []Outcome
		if rapid.IntRange(0, 4).Draw(t, "plan?") == 0 {
			full, err := Plan(q, ws, now, cfg, nil)
			if err != nil {
				t.Fatalf("step %d: fresh Plan: %v", step, err)
			}
			kept, err := Plan(q, ws, now, cfg, cache)
			if err != nil {
				t.Fatalf("step %d: Plan with the kept state: %v", step, err)
			}
			for i := range full {
				if !sameOutcome(kept[i], full[i]) {
					t.Fatalf("step %d: %s: Plan with the kept state %+v (verdict %+v), fresh %+v (verdict %+v)", step, full[i].Key, kept[i], kept[i].Verdict, full[i], full[i].Verdict)
				}
				kept[i].ETA, kept[i].Note = nil, fresh[i].Note
			}
			got = kept
		} else {
			outs, _, err := decide(q, ws, now, cfg, cache, true)
			if err != nil {
				t.Fatalf("step %d: decide with the kept state: %v", step, err)
			}
			got = append([]Outcome(nil), outs...)
		}
		for i := range fresh {
			if !sameOutcome(got[i], fresh[i]) {
				t.Fatalf("step %d: %s: with the kept state %+v (verdict %+v), fresh %+v (verdict %+v)", step, fresh[i].Key, got[i], got[i].Verdict, fresh[i], fresh[i].Verdict)
			}
		}
		last = got
	}
}

func TestPropKeptPlan(t *testing.T) { rapid.Check(t, propKeptPlan) }
func FuzzKeptPlan(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propKeptPlan)) }
