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
