package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// scenario returns the case study of seed under st: the Poisson trace of
// MIMP §6.6, or the SWIM trace (with job types, task times and web load
// drawn from seed) when trace is not nil.
func (o options) scenario(seed uint64, st settings, trace []byte) (hadoopsim.Scenario, error) {
	e := st.predictionError()
	sc := hadoopsim.CaseStudy(seed, e)
	if trace != nil {
		// Job types: drawn per job, in file order, from this seeded stream with
		// probability proportional to each type's case-study arrival rate.
		rng := rand.New(rand.NewPCG(seed, 0x5717))
		jobs, err := hadoopsim.SWIMTrace(bytes.NewReader(trace), sc.Types, o.window, o.maxMaps, e, rng)
		if err != nil {
			return sc, fmt.Errorf("-trace %s: %w", o.trace, err)
		}
		sc.Jobs = jobs
		sc.Horizon = hadoopsim.LastArrival(jobs) + hadoopsim.Drain
	}
	return sc, st.apply(&sc)
}

// A study is a set of policies run on several traces under one setting.
type study struct {
	settings settings
	seeds    []uint64
	scen     []hadoopsim.Scenario // per seed
	res      [][]hadoopsim.Result // [seed][policy], in the order of policies
	policies []hadoopsim.Policy
}

// runStudy runs policies on o's seeds under st, reporting each run to prog.
func runStudy(o options, st settings, trace []byte, policies []hadoopsim.Policy, prog *cli.Progress) (*study, error) {
	s := &study{settings: st, policies: policies}
	for k := range o.seeds {
		seed := o.seed + uint64(k)
		sc, err := o.scenario(seed, st, trace)
		if err != nil {
			return nil, err
		}
		row := make([]hadoopsim.Result, len(policies))
		for i, p := range policies {
			if row[i], err = hadoopsim.Run(&sc, p); err != nil {
				return nil, fmt.Errorf("seed %d, %v: %w", seed, p, err)
			}
			prog.Add(1)
		}
		s.seeds, s.scen, s.res = append(s.seeds, seed), append(s.scen, sc), append(s.res, row)
	}
	return s, nil
}

// of returns policy p's results, one per seed.
func (s *study) of(p hadoopsim.Policy) []hadoopsim.Result {
	for i, q := range s.policies {
		if q == p {
			out := make([]hadoopsim.Result, len(s.res))
			for k := range s.res {
				out[k] = s.res[k][i]
			}
			return out
		}
	}
	return nil
}

// over returns f of every result in rs.
func over(rs []hadoopsim.Result, f func(hadoopsim.Result) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

// savings returns MP's saving over EDF in percent, per seed.
func savings(edf, mp []hadoopsim.Result) []float64 {
	out := make([]float64, len(edf))
	for i := range edf {
		out[i] = saving(edf[i].TaskHours, mp[i].TaskHours)
	}
	return out
}

// slackP5 returns the 5th percentile of the deadline slack of sc's admitted
// deadline jobs that finished, in percent of their relative deadline:
// 100·(deadline − finish)/(deadline − arrival).
func slackP5(sc *hadoopsim.Scenario, r hadoopsim.Result) float64 {
	var xs []float64
	for i, o := range r.Outcomes {
		j := sc.Jobs[i]
		if !o.Admitted || math.IsInf(o.Finish, 1) || math.IsInf(j.Deadline, 1) || !(j.Deadline > j.Arrival) {
			continue
		}
		xs = append(xs, 100*(j.Deadline-o.Finish)/(j.Deadline-j.Arrival))
	}
	return percentile(xs, 0.05)
}

// deadlineJobs counts sc's jobs with a deadline.
func deadlineJobs(sc *hadoopsim.Scenario) int {
	n := 0
	for _, j := range sc.Jobs {
		if !math.IsInf(j.Deadline, 1) {
			n++
		}
	}
	return n
}

// An ablation changes one setting to show what it is worth.
type ablation struct {
	Name string `json:"name"`
	Flag string `json:"flag"`
	// applies reports whether the ablation changes settings s; modify
	// returns the changed settings; edfToo is false when EDF does not
	// depend on the setting (its base results are reused).
	applies func(s settings) bool
	modify  func(s settings) settings
	edfToo  bool
}

var ablations = []ablation{
	{Name: "data nodes unconstrained (matching tasks to slots alone)", Flag: "-capacity 0",
		applies: func(s settings) bool { return s.capacity != 0 },
		modify:  func(s settings) settings { s.capacity = 0; return s }, edfToo: true},
	{Name: "MP without its IO check", Flag: "-noiocheck",
		applies: func(s settings) bool { return !s.noIOCheck },
		modify:  func(s settings) settings { s.noIOCheck = true; return s }},
	{Name: "exact estimates, no task-time variation", Flag: "-errors none",
		applies: func(s settings) bool { return s.errors != "none" },
		modify:  func(s settings) settings { s.errors = "none"; return s }, edfToo: true},
	{Name: "fastest free slot offered first", Flag: "-offer cluster-order",
		applies: func(s settings) bool { return s.offer != "cluster-order" },
		modify:  func(s settings) settings { s.offer = "cluster-order"; return s }, edfToo: true},
	{Name: "Read90 = 90th percentile of the read rate", Flag: "-read90 p90",
		applies: func(s settings) bool { return s.read90 != "p90" },
		modify:  func(s settings) settings { s.read90 = "p90"; return s }},
}

// ablationResult is EDF, MP-paper and MP under one ablation, over the same
// seeds.
type ablationResult struct {
	ablation
	Saving        stat `json:"mp_saving_pct"`
	EDFHours      stat `json:"edf_total_task_hours"`
	MPHours       stat `json:"mp_total_task_hours"`
	EDFMissed     stat `json:"edf_missed"`
	MPMissed      stat `json:"mp_missed"`
	MPPaperSaving stat `json:"mp_paper_saving_pct"`
	MPPaperMissed stat `json:"mp_paper_missed"`
}

// ablationPolicies are the policies each ablation runs (EDF only when the
// ablation changes what EDF does).
var ablationPolicies = []hadoopsim.Policy{hadoopsim.MPPaper, hadoopsim.MP}

// runAblations runs EDF, MP-paper and MP under each ablation that applies
// to base.
func runAblations(o options, base *study, trace []byte, prog *cli.Progress) ([]ablationResult, error) {
	var out []ablationResult
	for _, a := range ablations {
		if !a.applies(base.settings) {
			continue
		}
		pol := ablationPolicies
		if a.edfToo {
			pol = append([]hadoopsim.Policy{hadoopsim.EDF}, pol...)
		}
		s, err := runStudy(o, a.modify(base.settings), trace, pol, prog)
		if err != nil {
			return nil, err
		}
		edf, paper, mp := base.of(hadoopsim.EDF), s.of(hadoopsim.MPPaper), s.of(hadoopsim.MP)
		if a.edfToo {
			edf = s.of(hadoopsim.EDF)
		}
		hours := func(r hadoopsim.Result) float64 { return r.TaskHours }
		missed := func(r hadoopsim.Result) float64 { return float64(r.Missed) }
		out = append(out, ablationResult{ablation: a,
			Saving:   statOf(savings(edf, mp)),
			EDFHours: statOf(over(edf, hours)), MPHours: statOf(over(mp, hours)),
			EDFMissed: statOf(over(edf, missed)), MPMissed: statOf(over(mp, missed)),
			MPPaperSaving: statOf(savings(edf, paper)), MPPaperMissed: statOf(over(paper, missed))})
	}
	return out, nil
}

// ablationRuns is how many runs runAblations makes for base settings.
func ablationRuns(s settings, seeds int) int {
	n := 0
	for _, a := range ablations {
		if a.applies(s) {
			n += len(ablationPolicies) * seeds
			if a.edfToo {
				n += seeds
			}
		}
	}
	return n
}

// find returns the ablation result with flag, and whether it ran.
func find(as []ablationResult, flag string) (ablationResult, bool) {
	for _, a := range as {
		if a.Flag == flag {
			return a, true
		}
	}
	return ablationResult{}, false
}
