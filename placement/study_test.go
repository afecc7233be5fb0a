package placement

import (
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

var (
	studyBudget = flag.Int("study.budget", 300, "evaluations per search in TestSearchOperatorStudy")
	studySeeds  = flag.Int("study.seeds", 20, "seeds per row in TestSearchOperatorStudy")
)

// studyRow is one line of the operator study: a set of operators and what
// it achieved over the seeds.
type studyRow struct {
	name  string
	ops   gaOperators
	fits  []float64
	stats gaStats
}

// runStudy searches the thesis scenario with each set of operators for
// seeds 1..n (rand.NewPCG(seed, 2), as examples/placement does) and returns
// the rows and the best of budget random candidates per seed
// (rand.NewPCG(seed, 1)).
func runStudy(t testing.TB, top Topology, app Application, cfg SearchOptions, n int, rows []studyRow) ([]studyRow, []float64) {
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		for seed := range uint64(n) {
			res, st, err := search(top, app, cfg, rand.New(rand.NewPCG(seed+1, 2)), rows[i].ops, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows[i].fits = append(rows[i].fits, res.Fitness)
			for op := range 3 {
				rows[i].stats.bred[op] += st.bred[op]
				rows[i].stats.better[op] += st.better[op]
				rows[i].stats.neutral[op] += st.neutral[op]
				rows[i].stats.newBest[op] += st.newBest[op]
			}
		}
	}
	if err := cfg.withDefaults(); err != nil {
		t.Fatal(err)
	}
	var random []float64
	for seed := range uint64(n) {
		rng := rand.New(rand.NewPCG(seed+1, 1))
		best := math.Inf(1)
		for range cfg.MaxEvaluations {
			s, _ := RandomPlacement(top, app.VMs, rng)
			f, _ := ev.CompletionTime(s)
			best = min(best, f)
		}
		random = append(random, best)
	}
	return rows, random
}

func studyMean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// What the GA's operators do, measured.
//
// The thesis's GA (binary tournament, mutation, swap and crossover at equal
// rates, a mutation that moves a uniformly drawn VM) was no better than
// random sampling at the thesis's budget: on the thesis scenario, at 300
// evaluations, it was 2.7% better than the best of 300 random candidates
// (mean of seeds 1–20; 0.6% without heuristic seeds; the thesis reports
// 10%). Two things held it back. The predicted time is a maximum over the
// uplinks, so only moving a VM off the bottleneck uplink helps, and a
// uniformly drawn VM is there with probability n_k/r (about 5%): 17–19% of
// mutations improved on their parent, and 53–59% changed nothing. And when
// two uplinks tie at the maximum (the two 200 Mbit/s racks), relieving one
// changes nothing, so the population drifts on plateaus: at 10,000
// evaluations the runs ended anywhere from 379.8 to 436.7 s (532.3 s
// without heuristic seeds). The first third of the budget is the initial
// population, so what breeding does with the remaining 200 evaluations
// decides the comparison.
//
// Search's changes, each measured on top of the previous one (mean over
// seeds 1–20 of the best after 300 evaluations with heuristic seeds; in
// brackets the margin over the best of 300 random candidates, 559.3 s; then
// at 10,000 evaluations against 493.4 s):
//   - thesis operators: 544.3 s (2.7%); 416.8 s [379.8–436.7] (15.5%).
//   - ties in predicted time broken by uplink crowding, Σ_k (t_k/t_max)⁴:
//     544.6 s (2.6%); 411.1 s (16.7%). It does nothing at 300 evaluations
//     and lets selection see progress on plateaus later (without heuristic
//     seeds at 1,000 evaluations, 459.7 → 441.2 s).
//   - mutation moves a VM off the bottleneck uplink: 510.8 s (8.7%);
//     380.8 s [379.8–383.6] (22.8%). Mutations that beat their parent: 17%
//     → 66%, that change nothing: 59% → 17%.
//   - 3-way tournament: 486.3 s (13.0%); 384.2 s (22.1%). Parents come from
//     the top quarter instead of the top third.
//   - mutation for half the offspring, swap and crossover a quarter each
//     (Search): 465.6 s [437.3–521.2] (16.7%); 380.6 s [379.8–383.6]
//     (22.9%). Without heuristic seeds: 475.1 s (15.0%) at 300 and 381.0 s
//     at 10,000.
//
// Reproduce with
//
//	go test -run TestSearchOperatorStudy -v ./placement -args -study.budget 300
//
// (and -study.budget 10000), which also asserts the 5% margin at 300.
// Measured without disk time (which adds the same 60 s to every placement of
// this scenario) and without heuristic seeds, and not adopted: repairing a
// crossover only inside the crossed segment (411.9 → 411.4 s at 300
// evaluations, 321.2 → 320.4 s at 10,000: noise), retrying a swap until it
// changes a rack's VM count (411.9 → 407.5 s, 321.2 → 321.0 s: noise, and
// swaps on unequal servers are not neutral), and a population of 50 instead
// of 100 (with the thesis's operators better at 300 evaluations, 495.8 →
// 470.7 s, but more often stuck on plateaus at 10,000, 371.9 → 381.9 s). On
// four other scenarios (30 and 160 VMs, random background load and server
// speeds, 50 racks of 20) the same changes moved the margin at 300
// evaluations from −0.2–4.1% to 9.2–18.4% (30 VMs with heuristic seeds left
// out: its single-rack seed is optimal from the start); the package does not
// carry those variants and scenarios, so no command reproduces these
// figures. Search fixes the operators; a caller's Objective gets blind
// mutation and no tie-break, since only the prediction engine knows which
// uplink binds.
//
// On the thesis scenario the model predicts RR-R 740 s, RR-S 1316 s, H-1
// 916 s, H-2 616 s and TARA 380 s (seed 1,2; 10,000 evaluations), of which
// 216 s (CPU, disks, NICs) no placement changes; see examples/placement for
// the comparison with the thesis's Fig. 3.10 and Table 3.1.

// TestSearchOperatorStudy measures, on the thesis scenario, what each change
// from the thesis's operators to Search's buys at a budget of
// -study.budget evaluations (300 by default: the thesis's comparison with
// random candidates, §3.3.4.4): the mean, least and largest result over
// -study.seeds seeds, the margin over the best of as many random candidates,
// and per operator the share of offspring fitter than their fittest parent,
// of neutral offspring (equal fitness) and the number of new bests. Run
//
//	go test -run TestSearchOperatorStudy -v ./placement -args -study.budget 10000
//
// to see it at another budget. It asserts that Search's operators beat the
// thesis's and the best random candidate by at least 5% at 300 evaluations.
func TestSearchOperatorStudy(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	steps := func() []studyRow {
		ops := thesisOperators
		rows := []studyRow{{name: "thesis operators", ops: ops}}
		ops.crowding = true
		rows = append(rows, studyRow{name: "+ crowding tie-break", ops: ops})
		ops.directed = true
		rows = append(rows, studyRow{name: "+ directed mutation", ops: ops})
		ops.tournament = 3
		rows = append(rows, studyRow{name: "+ 3-way tournament", ops: ops})
		ops.weights = [3]float64{2, 1, 1}
		rows = append(rows, studyRow{name: "+ mutation 1/2 (Search)", ops: ops})
		return rows
	}
	if steps()[len(steps())-1].ops != taraOperators {
		t.Fatal("the last step is not Search's operators")
	}
	for _, noHeuristics := range []bool{false, true} {
		cfg := SearchOptions{MaxEvaluations: *studyBudget, NoHeuristicSeeds: noHeuristics}
		rows, random := runStudy(t, top, app, cfg, *studySeeds, steps())
		rm := studyMean(random)
		t.Logf("%d evaluations, %d seeds, heuristic seeds %v; best of %d random candidates: mean %.1f s [%.1f, %.1f]",
			*studyBudget, *studySeeds, !noHeuristics, *studyBudget, rm, slices.Min(random), slices.Max(random))
		t.Logf("%-26s %7s %15s %7s | %-17s | %-17s | %s", "operators", "mean s", "range s", "margin",
			"better % m/s/x", "neutral % m/s/x", "new bests m/s/x")
		pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
		for _, r := range rows {
			st := r.stats
			t.Logf("%-26s %7.1f %7.1f–%-7.1f %6.1f%% | %5.0f %5.0f %5.0f | %5.0f %5.0f %5.0f | %d %d %d",
				r.name, studyMean(r.fits), slices.Min(r.fits), slices.Max(r.fits), 100*(1-studyMean(r.fits)/rm),
				pct(st.better[0], st.bred[0]), pct(st.better[1], st.bred[1]), pct(st.better[2], st.bred[2]),
				pct(st.neutral[0], st.bred[0]), pct(st.neutral[1], st.bred[1]), pct(st.neutral[2], st.bred[2]),
				st.newBest[0], st.newBest[1], st.newBest[2])
		}
		if *studyBudget == 300 && *studySeeds >= 10 {
			first, last := studyMean(rows[0].fits), studyMean(rows[len(rows)-1].fits)
			if !(last <= 0.95*first) || !(last <= 0.95*rm) {
				t.Errorf("heuristic seeds %v: Search %.1f s, thesis operators %.1f s, best random %.1f s: want 5%% better than both",
					!noHeuristics, last, first, rm)
			}
		}
	}
}
