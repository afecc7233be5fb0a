package deadlinecheck

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/tct/jct"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// workloadsGen draws up to 8 workloads as Map produces them. With fixed,
// every run time is exact (σ = 0), so the samples are constants.
func workloadsGen(fixedTimes bool) *rapid.Generator[[]Workload] {
	return rapid.Custom(func(t *rapid.T) []Workload {
		n := rapid.IntRange(0, 10).Draw(t, "n")
		// One ClusterQueue: most workloads share a pod size, so a slot count.
		queueSlots := rapid.IntRange(1, 6).Draw(t, "queue slots")
		ws := make([]Workload, n)
		for i := range ws {
			w := Workload{
				Key:     fmt.Sprintf("ns/w%d", i),
				UID:     kueueUID(i),
				Created: t0.Add(-time.Duration(rapid.IntRange(0, 1000).Draw(t, "age")) * time.Second),
				Phase:   rapid.SampledFrom([]Phase{Waiting, Deciding, Deciding, Promised}).Draw(t, "phase"),
				Slots:   queueSlots,
			}
			w.QueueTime = w.Created
			w.Priority = int64(rapid.IntRange(0, 2).Draw(t, "priority"))
			if rapid.IntRange(0, 3).Draw(t, "other pod size?") == 0 {
				w.Slots = rapid.IntRange(0, 8).Draw(t, "slots")
			}
			w.Pods = rapid.IntRange(0, max(w.Slots, 1)).Draw(t, "pods")
			if w.Pods == 0 {
				w.Slots = MaxSlots
			}
			if w.Phase != Waiting {
				w.Slots = max(w.Slots, w.Pods)
			}
			if rapid.IntRange(0, 3).Draw(t, "deadline?") > 0 {
				w.Deadline = t0.Add(time.Duration(rapid.IntRange(-100, 1500).Draw(t, "deadline")) * time.Second)
			}
			if w.Phase == Promised {
				w.Done = rapid.IntRange(0, w.Pods).Draw(t, "done")
				w.Executed = time.Duration(rapid.IntRange(0, 500).Draw(t, "executed")) * time.Second
			}
			if rapid.IntRange(0, 19).Draw(t, "model?") > 0 {
				median := float64(rapid.IntRange(1, 600).Draw(t, "median"))
				sigma := 0.0
				if !fixedTimes {
					sigma = rapid.Float64Range(0, 1).Draw(t, "sigma")
				}
				w.RunTime = &RunTime{Pod: jct.Lognormal{Mu: math.Log(median), Sigma: sigma}, Source: "gen"}
			} else if w.HasDeadline() {
				w.Problem = ErrNoEstimate
			}
			if rapid.IntRange(0, 19).Draw(t, "problem?") == 0 {
				w.Problem = &InputError{Field: "annotation " + DeadlineAnnotation, Value: "x", Reason: "generated"}
			}
			ws[i] = w
		}
		return ws
	})
}

func kueueUID(i int) types.UID { return types.UID(fmt.Sprintf("uid-%d", i)) }

func propConfig(t *rapid.T) Config {
	return Config{
		Confidence: rapid.SampledFrom([]float64{0.5, 0.9, 0.99, 1}).Draw(t, "p"),
		Samples:    rapid.IntRange(1, 64).Draw(t, "samples"),
		Seed:       rapid.Uint64().Draw(t, "seed"),
		MinRetry:   5 * time.Second,
		MaxRetry:   20 * time.Minute,
	}
}

// Properties of every plan: phases get the outcomes they may; ETAs are
// ordered; retries are bounded; messages are one line; the input order
// does not matter; equal inputs give equal outcomes.
func propPlan(t *rapid.T) {
	ws := workloadsGen(rapid.Bool().Draw(t, "fixed")).Draw(t, "workloads")
	cfg := propConfig(t)
	strict := rapid.Bool().Draw(t, "strict FIFO")
	outs, err := Plan(Queue{Name: "cq", StrictFIFO: strict}, ws, t0, cfg, nil)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if len(outs) != len(ws) {
		t.Fatalf("%d outcomes for %d workloads", len(outs), len(ws))
	}
	byKey := map[string]Outcome{}
	for i, o := range outs {
		w := ws[i]
		if o.Key != w.Key {
			t.Fatalf("outcome %d is %s, want %s", i, o.Key, w.Key)
		}
		byKey[o.Key] = o
		v := o.Verdict
		switch w.Phase {
		case Promised:
			if v != nil || o.ETA != nil || o.Note != "" {
				t.Fatalf("%s promised got %+v", w.Key, o)
			}
		case Waiting:
			if v != nil && (!o.Deactivate || v.State != kueue.CheckStateRejected) {
				t.Fatalf("%s waiting got %s (deactivate %v)", w.Key, v.State, o.Deactivate)
			}
			if w.Problem != nil && (!o.Deactivate || !strings.Contains(o.Note, w.Problem.Error())) {
				t.Fatalf("%s waiting with problem %v: deactivate %v, note %q", w.Key, w.Problem, o.Deactivate, o.Note)
			}
			if o.Deactivate && !strings.HasPrefix(o.Note, "Rejected and deactivated while waiting for quota: ") {
				t.Fatalf("%s deactivated with note %q", w.Key, o.Note)
			}
		case Deciding:
			if v == nil {
				t.Fatalf("%s deciding got no verdict", w.Key)
			}
		}
		if w.Phase == Deciding && w.Problem != nil && (v == nil || v.State != kueue.CheckStateRejected || !strings.Contains(v.Message, w.Problem.Error())) {
			t.Fatalf("%s with problem %v got %+v", w.Key, w.Problem, v)
		}
		if v != nil {
			if strings.ContainsAny(v.Message, "\n\r") || !strings.HasPrefix(v.Message, string(v.State)+":") && !strings.HasPrefix(v.Message, string(v.State)+" ") {
				t.Fatalf("%s message %q is not one line starting with %s", w.Key, v.Message, v.State)
			}
			if v.State == kueue.CheckStateRetry {
				if v.RequeueAfter < cfg.MinRetry || v.RequeueAfter > cfg.MaxRetry || v.RequeueAfter%time.Second != 0 {
					t.Fatalf("%s retry after %v outside [%v, %v] or not whole seconds", w.Key, v.RequeueAfter, cfg.MinRetry, cfg.MaxRetry)
				}
				if !w.HasDeadline() || w.Problem != nil {
					t.Fatalf("%s retried without a deadline or with a problem", w.Key)
				}
			} else if v.RequeueAfter != 0 {
				t.Fatalf("%s %s with requeue after %v", w.Key, v.State, v.RequeueAfter)
			}
			if v.State == kueue.CheckStateReady && w.Problem != nil {
				t.Fatalf("%s Ready with problem %v", w.Key, w.Problem)
			}
		}
		if o.Deactivate && w.Phase != Waiting {
			t.Fatalf("%s %v deactivated", w.Key, w.Phase)
		}
		if e := o.ETA; e != nil {
			if v != nil && v.State != kueue.CheckStateRetry && !o.Deactivate {
				t.Fatalf("%s has an ETA and verdict %s", w.Key, v.State)
			}
			if e.StartP50.Before(t0) || e.StartP90.Before(e.StartP50) {
				t.Fatalf("%s start %v / %v before now or out of order", w.Key, e.StartP50, e.StartP90)
			}
			if e.HasFinish() && (e.FinishP50.Before(e.StartP50) || e.FinishP90.Before(e.FinishP50) || e.FinishP90.Before(e.StartP90)) {
				t.Fatalf("%s ETA out of order: %+v", w.Key, *e)
			}
			if e.HasFinish() != (w.RunTime != nil && w.Problem == nil) || !e.Deadline.Equal(w.Deadline) {
				t.Fatalf("%s ETA %+v for run time %v, deadline %v", w.Key, *e, w.RunTime, w.Deadline)
			}
		}
		if v == nil && w.Phase != Promised && o.Note == "" {
			t.Fatalf("%s pending without a note", w.Key)
		}
	}

	// StrictFIFO: starts never go back along Kueue's order of the waiting
	// workloads that stay in the queue (those being deactivated hold no
	// one back, those sent to Retry enter it later).
	if strict {
		var pend []int
		for i, o := range outs {
			if o.ETA != nil && o.Verdict == nil {
				pend = append(pend, i)
			}
		}
		slices.SortFunc(pend, func(a, b int) int { return KueueOrder(ws[a], ws[b]) })
		for k := 1; k < len(pend); k++ {
			a, b := outs[pend[k-1]].ETA, outs[pend[k]].ETA
			if b.StartP50.Before(a.StartP50) || b.StartP90.Before(a.StartP90) {
				t.Fatalf("%s starts before %s although it comes later in Kueue's order: %+v vs %+v", ws[pend[k]].Key, ws[pend[k-1]].Key, *b, *a)
			}
		}
	}

	// The same state in another order gives the same outcomes, with or
	// without a cache, cold or warm.
	cache := NewWorkCache()
	for _, order := range [][]Workload{ws, rapid.Permutation(ws).Draw(t, "perm")} {
		again, err := Plan(Queue{Name: "cq", StrictFIFO: strict}, order, t0, cfg, cache)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range again {
			if !sameOutcome(o, byKey[o.Key]) {
				t.Fatalf("order or cache changed the outcome of %s: %+v vs %+v", o.Key, o, byKey[o.Key])
			}
		}
	}
}

// edfJob rebuilds the EDF keys Plan uses (deadline, arrival, then the
// creation rank): enough to order the pending workloads.
func edfJob(_ []Outcome, ws []Workload, i int) admission.Job {
	j := admission.Job{ID: int64(i), Arrival: ws[i].Created.Sub(t0).Seconds(), Deadline: math.Inf(1)}
	if ws[i].HasDeadline() && ws[i].Problem == nil {
		j.Deadline = ws[i].Deadline.Sub(t0).Seconds()
	}
	return j
}

func sameOutcome(a, b Outcome) bool {
	if a.Key != b.Key || a.Note != b.Note || a.Deactivate != b.Deactivate || (a.Verdict == nil) != (b.Verdict == nil) || (a.ETA == nil) != (b.ETA == nil) {
		return false
	}
	if a.Verdict != nil && *a.Verdict != *b.Verdict {
		return false
	}
	return a.ETA == nil || *a.ETA == *b.ETA
}

// With exact run times the confidence mode is strict mode (admission's
// guarantee), so the safety promise can be checked by hand: in the final
// EDF schedule of the promised and newly Ready deadline workloads, each
// taking its fluid time, every Ready workload and every promised workload
// that was on time before still meets its deadline, and each Ready one
// also meets it alone. Rejected-as-hopeless workloads really are: alone
// they finish after their deadline.
func propPlanSafety(t *rapid.T) {
	ws := workloadsGen(true).Draw(t, "workloads")
	cfg := propConfig(t)
	outs, err := Plan(Queue{Name: "cq", StrictFIFO: rapid.Bool().Draw(t, "strict FIFO")}, ws, t0, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSafety(t, ws, outs)
}

func checkSafety(t interface{ Fatalf(string, ...any) }, ws []Workload, outs []Outcome) {
	const tol = 1e-6
	type item struct {
		i             int
		deadline      float64
		fluid, own    float64
		ready, before bool
	}
	var set []item
	for i, w := range ws {
		if w.Problem != nil || !w.usable() {
			continue
		}
		fluid, own := exactWork(w)
		it := item{i: i, fluid: fluid, own: own}
		v := outs[i].Verdict
		if w.HasDeadline() {
			it.deadline = w.Deadline.Sub(t0).Seconds()
			if ((v != nil && v.Reason == ReasonLateAlone) || strings.Contains(outs[i].Note, "even started now")) && !(own > it.deadline-tol) {
				t.Fatalf("%s rejected as hopeless but alone it needs %v of %v s", w.Key, own, it.deadline)
			}
			if v != nil && v.State == kueue.CheckStateReady && own > it.deadline+tol {
				t.Fatalf("%s Ready but alone it needs %v of %v s", w.Key, own, it.deadline)
			}
		}
		if !w.HasDeadline() {
			continue
		}
		switch {
		case w.Phase == Promised:
			set = append(set, it)
		case v != nil && v.State == kueue.CheckStateReady:
			it.ready = true
			set = append(set, it)
		}
	}
	edf := func(a, b item) int {
		return admission.CompareEDF(edfJob(outs, ws, a.i), edfJob(outs, ws, b.i))
	}
	slices.SortFunc(set, edf)
	// Which promised workloads were on time before this plan?
	sum := 0.0
	for k := range set {
		if !set[k].ready {
			sum += set[k].fluid
			// Clearly on time: a promised workload exactly at its deadline may
			// be a rounding error late for admission, which then does not
			// protect it.
			set[k].before = sum <= set[k].deadline-tol*(1+sum)
		}
	}
	sum = 0
	for _, it := range set {
		sum += it.fluid
		if (it.ready || it.before) && sum > it.deadline+tol*(1+sum) {
			t.Fatalf("%s (ready %v) finishes at %v after its deadline %v in the final EDF schedule", ws[it.i].Key, it.ready, sum, it.deadline)
		}
	}
}

// exactWork is a workload's remaining own and fluid time with σ = 0, the
// way the samples are computed.
func exactWork(w Workload) (fluid, own float64) {
	rem, err := w.RunTime.Pod.DrawRemaining(w.Executed.Seconds(), rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		panic(err)
	}
	sum := 0.0
	for range w.Pods - w.Done {
		sum += rem
		own = rem
	}
	return sum / float64(w.Slots), own
}

func TestPlanProperties(t *testing.T)       { rapid.Check(t, propPlan) }
func TestPlanSafetyProperties(t *testing.T) { rapid.Check(t, propPlanSafety) }
func FuzzPlan(f *testing.F)                 { f.Fuzz(rapid.MakeFuzz(propPlan)) }
func FuzzPlanSafety(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propPlanSafety)) }
