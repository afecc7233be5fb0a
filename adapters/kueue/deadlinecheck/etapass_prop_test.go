package deadlinecheck

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// propETASlicesMatchOracle checks an ETA pass run in slices against
// etasOracle, bit for bit (every outcome's ETA and note, and the error):
// each step of a random budget (from one predicted start to more than
// the whole pass) does at most its budget of work, or one unit when the
// budget is smaller, and advances the pass; between steps the caller's
// workloads and outcomes are overwritten, which the pass must not see.
// One scratch serves several passes, some dropped half-way by the start
// of the next.
func propETASlicesMatchOracle(t *rapid.T) {
	var sc etaScratch
	for pass := range rapid.IntRange(1, 3).Draw(t, "passes") {
		in := etaInputsGen(t)
		samples := in.cfg.Samples
		want := slices.Clone(in.outs)
		werr := etasOracle(in.q, in.ws, in.works, want, in.now, samples, in.cfg.Confidence, in.delay, in.arr)

		ws, outs := slices.Clone(in.ws), slices.Clone(in.outs)
		sc.startPass(in.q, ws, in.works, outs, in.now, samples, in.cfg.Confidence, in.delay, in.arr)
		if rapid.Bool().Draw(t, "dropped half-way?") {
			sc.step(rapid.IntRange(1, 50).Draw(t, "budget"))
			sc.startPass(in.q, ws, in.works, outs, in.now, samples, in.cfg.Confidence, in.delay, in.arr)
		}
		pend := len(sc.pend)
		total := (len(sc.fills)+pend)*max(samples/quantileShare, 1) + sc.sampleCost()*samples
		var gerr error
		for steps := 0; ; steps++ {
			if steps > total+1 {
				t.Fatalf("pass %d: not done after %d steps (%d starts)", pass, steps, total)
			}
			// The caller reuses its slices meanwhile.
			for i := range ws {
				ws[i] = Workload{Key: "other", Phase: Promised, Slots: 1, Pods: 9}
				outs[i] = Outcome{Key: "other", Note: "other", Verdict: &Verdict{State: kueue.CheckStateReady}, ETA: &ETA{}}
			}
			budget := rapid.IntRange(1, total+1).Draw(t, "budget")
			f, next, k := sc.f, sc.next, sc.k
			done, err := sc.step(budget)
			qc := max(samples/quantileShare, 1)
			spent := (sc.f-f)*qc + (sc.next-next)*sc.sampleCost() + (sc.k-k)*qc
			unit := sc.sampleCost()
			if f < len(sc.fills) || next == samples {
				unit = qc
			}
			if spent > max(budget, unit) || (spent == 0 && !done) {
				t.Fatalf("pass %d: a step of budget %d did %d starts (a unit %d)", pass, budget, spent, unit)
			}
			if done {
				gerr = err
				break
			}
		}
		if sc.inProgress() {
			t.Fatalf("pass %d: still in progress when done", pass)
		}
		got := slices.Clone(in.outs)
		sc.results(got)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("pass %d: error %v, the oracle's %v", pass, gerr, werr)
		}
		sameOutcomes(t, pass, in.ws, got, want)
	}
}

func TestPropETASlicesMatchOracle(t *testing.T) { rapid.Check(t, propETASlicesMatchOracle) }
