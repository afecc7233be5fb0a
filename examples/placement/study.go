package main

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/placement"
)

// thesisBudget is the number of candidates of the thesis's comparison with
// random candidates (TARA §3.3.4.4, Table 3.1: "the same number of candidates
// (~300) as evaluated by the GA").
const thesisBudget = 300

// config is what the flags set.
type config struct {
	Seed   uint64  // first seed: random candidates use PCG(seed, 1), TARA PCG(seed, 2)
	Seeds  int     // seeds Seed … Seed+Seeds−1 in the budget study
	Random int     // random candidates in the Fig. 3.10 comparison
	Evals  int     // TARA's evaluation budget
	DiskMB float64 // disk bandwidth of every server in MB/s; 0 leaves disk time out
}

// policy is one line of the comparison at the default budget.
type policy struct {
	Name        string  `json:"name"`
	CompletionS float64 `json:"completion_s"`
	MapS        float64 `json:"map_s"`
	ShuffleS    float64 `json:"shuffle_s"`
	ReduceS     float64 `json:"reduce_s"`
	WriteS      float64 `json:"write_s"`
	// UplinkS is the time the rack uplinks add (placement.Prediction.Uplink):
	// on the thesis's identical servers, the only time placement changes.
	UplinkS float64 `json:"uplink_s"`
	// NetworkShare is (shuffle + write) / completion: the network phases.
	NetworkShare float64 `json:"network_share"`
	// PlacementShare is uplink / completion: the share placement can change.
	PlacementShare float64 `json:"placement_share"`
	// TARABetterBy is 1 − TARA/completion (0 for TARA itself).
	TARABetterBy float64 `json:"tara_better_by"`
	// TARA300BetterBy is 1 − TARA/completion with TARA at the thesis's
	// budget of 300 evaluations (mean over the seeds, heuristic seeds on).
	TARA300BetterBy float64 `json:"tara_300_better_by"`
	// ThesisBetterBy is the thesis's figure for TARABetterBy (§3.3.4.2,
	// Table 3.1), 0 where it gives none.
	ThesisBetterBy float64 `json:"thesis_better_by,omitempty"`
}

// budgetRow is TARA against the best of as many random candidates, over the
// seeds, at one budget.
type budgetRow struct {
	Evaluations        int     `json:"evaluations"`
	Seeds              int     `json:"seeds"`
	WithHeuristicSeeds bool    `json:"with_heuristic_seeds"`
	TARAMeanS          float64 `json:"tara_mean_s"`
	TARAMinS           float64 `json:"tara_min_s"`
	TARAMaxS           float64 `json:"tara_max_s"`
	RandomBestMeanS    float64 `json:"random_best_mean_s"`
	RandomBestMinS     float64 `json:"random_best_min_s"`
	RandomBestMaxS     float64 `json:"random_best_max_s"`
	// MarginOverRandom is 1 − TARAMeanS/RandomBestMeanS.
	MarginOverRandom float64 `json:"margin_over_random"`
	// SeedsBetter counts the seeds on which TARA beat that seed's best
	// random candidate by at least 5%.
	SeedsBetter int `json:"seeds_5pct_better"`
}

// convergencePoint is the mean best predicted time after a number of
// evaluations, over the seeds.
type convergencePoint struct {
	Evaluations             int     `json:"evaluations"`
	TARAMeanS               float64 `json:"tara_mean_s"`
	TARANoHeuristicSeedsS   float64 `json:"tara_no_heuristic_seeds_mean_s"`
	RandomBestMeanS         float64 `json:"random_best_mean_s"`
	TARAMarginOverRandom    float64 `json:"tara_margin_over_random"`
	NoHeuristicMarginRandom float64 `json:"tara_no_heuristic_seeds_margin_over_random"`
}

// report is the outcome of one run.
type report struct {
	Seed        uint64             `json:"seed"`
	Seeds       int                `json:"seeds"`
	Evaluations int                `json:"evaluations"`
	DiskMBs     float64            `json:"disk_mb_s"` // 0: disk time left out
	Policies    []policy           `json:"policies"`
	Budgets     []budgetRow        `json:"budgets"`
	Convergence []convergencePoint `json:"convergence"`
	// TARAPerRack is how many VMs TARA (default budget, seed as given) put
	// in each rack; UplinksMbps the racks' uplinks.
	TARAPerRack []int     `json:"tara_vms_per_rack"`
	UplinksMbps []float64 `json:"uplinks_mbit_s"`
	// Random holds the Fig. 3.10 random candidates' predicted times.
	Random []float64 `json:"random_candidates_s"`
	// TARA300MeanS is TARA's mean over the seeds at 300 evaluations with
	// heuristic seeds (the TARA@300 column).
	TARA300MeanS float64 `json:"tara_300_mean_s"`
	// FixedS is the time of TARA's placement that placement cannot change
	// (completion − uplink time); ThesisScaleGains are TARA's gains over each
	// policy if that fixed time were raised until TARA's prediction is
	// 1,100 s, where the thesis's GA curves start (Figs. 3.5, 3.6).
	FixedS           float64            `json:"tara_fixed_s"`
	ThesisScaleGains map[string]float64 `json:"gains_at_1100_s"`
	// DiffersFromPaper says where and why the results differ from the
	// thesis.
	DiffersFromPaper []string `json:"differs_from_paper"`
}

// thesisGain is TARA's improvement the thesis reports over each policy
// (§3.3.4.2 and Table 3.1).
var thesisGain = map[string]float64{"RR-R": 0.25, "RR-S": 0.59, "H-1": 0.49, "H-2": 0.28,
	"random-best": 0.10, "random-mean": 0.38, "random-worst": 0.69}

// scenario is the thesis's topology with every server's disk set from cfg,
// and the Sort job.
func scenario(cfg config) (placement.Topology, placement.Application) {
	top, app := placement.ThesisTopology(), placement.ThesisSort()
	disk := math.Inf(1)
	if cfg.DiskMB > 0 {
		disk = cfg.DiskMB * 1e6
	}
	for i := range top.Servers {
		top.Servers[i].Disk = disk
	}
	return top, app
}

// work is the number of progress steps run takes (one per evaluation).
func work(cfg config) int {
	return cfg.Random + cfg.Seeds*(max(cfg.Evals, thesisBudget)+2*(cfg.Evals+thesisBudget))
}

// seedRuns is what one seed contributes to the budget study.
type seedRuns struct {
	random  []float64                 // running best of the random candidates, per evaluation count
	tara    [2]placement.SearchResult // default budget, with and without heuristic seeds
	thesis  [2]float64                // TARA at 300 evaluations, with and without heuristic seeds
	taraSrv []int                     // TARA's placement (default budget, heuristic seeds)
}

// study computes the report for the thesis scenario.
func study(cfg config, prog *cli.Progress) (report, error) {
	top, app := scenario(cfg)
	ev, err := placement.NewEvaluator(top, app)
	if err != nil {
		return report{}, err
	}
	rep := report{Seed: cfg.Seed, Seeds: cfg.Seeds, Evaluations: cfg.Evals, DiskMBs: cfg.DiskMB}
	for _, r := range top.Racks {
		rep.UplinksMbps = append(rep.UplinksMbps, r.Uplink/placement.Mbps)
	}

	// Fig. 3.10: heuristics, random candidates, TARA (first seed).
	var preds []placement.Prediction
	var names []string
	for _, h := range placement.Heuristics {
		s, err := h.Place(top, app.VMs)
		if err != nil {
			return report{}, err
		}
		p, err := ev.Predict(s)
		if err != nil {
			return report{}, err
		}
		names, preds = append(names, h.String()), append(preds, p)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	var best, worst, sum placement.Prediction
	for i := range cfg.Random {
		s, err := placement.RandomPlacement(top, app.VMs, rng)
		if err != nil {
			return report{}, err
		}
		p, err := ev.Predict(s)
		if err != nil {
			return report{}, err
		}
		rep.Random = append(rep.Random, p.Total)
		if i == 0 || p.Total < best.Total {
			best = p
		}
		if i == 0 || p.Total > worst.Total {
			worst = p
		}
		sum = placement.Prediction{Map: sum.Map + p.Map, Shuffle: sum.Shuffle + p.Shuffle, Reduce: sum.Reduce + p.Reduce,
			Write: sum.Write + p.Write, Total: sum.Total + p.Total, Uplink: sum.Uplink + p.Uplink}
	}
	prog.Add(cfg.Random)
	n := float64(cfg.Random)
	mean := placement.Prediction{Map: sum.Map / n, Shuffle: sum.Shuffle / n, Reduce: sum.Reduce / n,
		Write: sum.Write / n, Total: sum.Total / n, Uplink: sum.Uplink / n}
	names = append(names, "random-best", "random-mean", "random-worst")
	preds = append(preds, best, mean, worst)

	// The budget study: every seed, default budget and the thesis's, with
	// and without heuristic seeds.
	var runs []seedRuns
	for k := range cfg.Seeds {
		sr, err := runSeed(top, app, ev, cfg, cfg.Seed+uint64(k), prog)
		if err != nil {
			return report{}, err
		}
		runs = append(runs, sr)
	}
	tara, err := ev.Predict(runs[0].taraSrv)
	if err != nil {
		return report{}, err
	}
	names, preds = append(names, "TARA"), append(preds, tara)
	tara300 := 0.0
	for _, sr := range runs {
		tara300 += sr.thesis[0] / float64(len(runs))
	}
	rep.TARA300MeanS = tara300
	for i, p := range preds {
		rep.Policies = append(rep.Policies, policy{
			Name: names[i], CompletionS: p.Total, MapS: p.Map, ShuffleS: p.Shuffle, ReduceS: p.Reduce, WriteS: p.Write,
			UplinkS: p.Uplink, NetworkShare: (p.Shuffle + p.Write) / p.Total, PlacementShare: p.Uplink / p.Total,
			TARABetterBy: 1 - tara.Total/p.Total, TARA300BetterBy: 1 - tara300/p.Total, ThesisBetterBy: thesisGain[names[i]],
		})
	}
	rep.TARAPerRack = make([]int, len(top.Racks))
	for _, s := range runs[0].taraSrv {
		rep.TARAPerRack[top.Servers[s].Rack]++
	}
	rep.Budgets = budgets(cfg, runs)
	rep.Convergence = convergence(cfg, runs)
	rep.FixedS = tara.Total - tara.Uplink
	rep.ThesisScaleGains = map[string]float64{}
	if add := 1100 - tara.Total; add > 0 {
		for _, p := range rep.Policies {
			if p.Name != "TARA" {
				rep.ThesisScaleGains[p.Name] = 1 - 1100/(p.CompletionS+add)
			}
		}
	}
	rep.DiffersFromPaper = differences(rep)
	return rep, nil
}

// runSeed runs the random candidates and the four searches of one seed.
func runSeed(top placement.Topology, app placement.Application, ev *placement.Evaluator, cfg config, seed uint64, prog *cli.Progress) (seedRuns, error) {
	var sr seedRuns
	rng := rand.New(rand.NewPCG(seed, 1))
	best := math.Inf(1)
	for range max(cfg.Evals, thesisBudget) {
		s, err := placement.RandomPlacement(top, app.VMs, rng)
		if err != nil {
			return sr, err
		}
		f, err := ev.CompletionTime(s)
		if err != nil {
			return sr, err
		}
		best = min(best, f)
		sr.random = append(sr.random, best)
	}
	prog.Add(len(sr.random))
	for h, noHeuristics := range []bool{false, true} {
		for _, budget := range []int{cfg.Evals, thesisBudget} {
			sc := placement.SearchOptions{MaxEvaluations: budget, NoHeuristicSeeds: noHeuristics}
			res, err := placement.Search(top, app, sc, rand.New(rand.NewPCG(seed, 2)))
			if err != nil {
				return sr, err
			}
			prog.Add(budget)
			if budget == thesisBudget {
				sr.thesis[h] = res.Fitness
			}
			if budget == cfg.Evals {
				sr.tara[h] = res
			}
		}
	}
	sr.taraSrv = sr.tara[0].Servers
	return sr, nil
}

// budgets summarises the seeds at the thesis's budget and the default one.
func budgets(cfg config, runs []seedRuns) []budgetRow {
	var rows []budgetRow
	evals := []int{thesisBudget}
	if cfg.Evals != thesisBudget {
		evals = append(evals, cfg.Evals)
	}
	for _, e := range evals {
		for h, with := range []bool{true, false} {
			var tara, random []float64
			better := 0
			for _, sr := range runs {
				f := sr.thesis[h]
				if e != thesisBudget {
					f = sr.tara[h].Fitness
				}
				r := sr.random[e-1]
				tara, random = append(tara, f), append(random, r)
				if f <= 0.95*r {
					better++
				}
			}
			tm, rm := meanOf(tara), meanOf(random)
			rows = append(rows, budgetRow{
				Evaluations: e, Seeds: len(runs), WithHeuristicSeeds: with,
				TARAMeanS: tm, TARAMinS: slices.Min(tara), TARAMaxS: slices.Max(tara),
				RandomBestMeanS: rm, RandomBestMinS: slices.Min(random), RandomBestMaxS: slices.Max(random),
				MarginOverRandom: 1 - tm/rm, SeedsBetter: better,
			})
		}
	}
	return rows
}

// checkpoints are the evaluation counts the convergence table reports.
var checkpoints = []int{100, 200, 300, 500, 1000, 2000, 3000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000}

// convergence is the mean best over the seeds after each checkpoint of the
// default-budget searches. Search evaluates the initial population (100)
// first, then 10 offspring per generation: History[g] holds the best after
// 100 + 10g evaluations.
func convergence(cfg config, runs []seedRuns) []convergencePoint {
	const initial, perGeneration = placement.DefaultPopulation, 10
	var pts []convergencePoint
	for _, n := range checkpoints {
		if n > cfg.Evals || n < initial {
			continue
		}
		g := (n - initial) / perGeneration
		var pt convergencePoint
		pt.Evaluations = n
		for _, sr := range runs {
			pt.TARAMeanS += sr.tara[0].History[min(g, len(sr.tara[0].History)-1)]
			pt.TARANoHeuristicSeedsS += sr.tara[1].History[min(g, len(sr.tara[1].History)-1)]
			pt.RandomBestMeanS += sr.random[n-1]
		}
		k := float64(len(runs))
		pt.TARAMeanS /= k
		pt.TARANoHeuristicSeedsS /= k
		pt.RandomBestMeanS /= k
		pt.TARAMarginOverRandom = 1 - pt.TARAMeanS/pt.RandomBestMeanS
		pt.NoHeuristicMarginRandom = 1 - pt.TARANoHeuristicSeedsS/pt.RandomBestMeanS
		pts = append(pts, pt)
	}
	return pts
}

func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
