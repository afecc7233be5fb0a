package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/preempt"
)

// Cell holds the runs of one period, long-job position and policy, in seed
// order.
type Cell struct {
	Period   string
	Position int
	Policy   Policy
	Runs     []Result
}

// Row is the mean over runs of one period and policy (Output.Periods) or of
// one period, long-job position and policy (Output.Cells).
type Row struct {
	Period     string  `json:"period"`
	Policy     string  `json:"policy"`
	Position   int     `json:"long_job_position,omitempty"`
	Runs       int     `json:"runs"`
	SNP        float64 `json:"snp"`
	L1         float64 `json:"l1"`
	L2         float64 `json:"l2"`
	Unfairness float64 `json:"unfairness"`
	AvgResp    float64 `json:"avg_response_s"`
	WorkLost   float64 `json:"work_lost_slot_s"`
	// StarvationEpisodes is the mean number of onsets of a long job
	// starving others per run (GP §VI-E saw one in all its experiments);
	// StarvingJudgements the mean number of judgements that found it.
	StarvationEpisodes float64 `json:"starvation_episodes"`
	StarvingJudgements float64 `json:"starving_judgements"`
	// Kills is the mean number of tasks killed per run by reason
	// (preempt.Reason names: "overflow", "starving-long-job",
	// "most-recent").
	Kills map[string]float64 `json:"kills"`
	// WorkLostBySource and KillsBySource split the work lost (slot·s) and
	// the kills per run by what they were made for (Source names:
	// "min-share preemption" and "fair-share preemption", the Fair
	// Scheduler's trigger; "starvation rule", GP step 1). BeyondKKills and
	// BeyondKWorkLost are the starvation rule's kills beyond the Fair
	// Scheduler's k (Algorithm 1 line 5), and their work.
	WorkLostBySource map[string]float64 `json:"work_lost_by_source_slot_s"`
	KillsBySource    map[string]float64 `json:"kills_by_source"`
	BeyondKKills     float64            `json:"starvation_kills_beyond_k"`
	BeyondKWorkLost  float64            `json:"starvation_work_lost_beyond_k_slot_s"`
	LongJobKills     float64            `json:"long_job_kills"`
	SmallJobKills    float64            `json:"small_job_kills"` // of jobs with ≤ 10 maps
	JobsInSystem     float64            `json:"jobs_in_system"`
	// Occupancy and NonProdOccupancy are the fractions of the slots held by
	// all jobs and by non-production jobs, means over the checks up to the
	// last counted arrival (GP §VI-E: "almost 90%" non-production when
	// busy).
	Occupancy        float64 `json:"occupancy"`
	NonProdOccupancy float64 `json:"nonprod_occupancy"`
}

// Change compares one policy with the baseline in one period.
type Change struct {
	Period        string  `json:"period"`
	Policy        string  `json:"policy"`
	SNPPct        float64 `json:"snp_change_pct"` // of the means
	UnfairnessPct Pct     `json:"unfairness_change_pct"`
	AvgRespPct    float64 `json:"avg_response_change_pct"`
	// WorkLostPct is null in -json (n/a in the table) when the baseline
	// lost nothing and the policy did; WorkLostSeedMinPct and
	// WorkLostSeedMaxPct are its range over the seeds (each seed's work
	// lost summed over the long-job positions) leaving out the seeds where
	// the baseline lost nothing and the policy did; null when that leaves
	// none.
	WorkLostPct        Pct `json:"work_lost_change_pct"`
	WorkLostSeedMinPct Pct `json:"seed_work_lost_change_min_pct"`
	WorkLostSeedMaxPct Pct `json:"seed_work_lost_change_max_pct"`
	// Seeds counts the seeds compared; SeedsLessWorkLost those where the
	// policy lost less work than the baseline (summed over the positions).
	Seeds             int `json:"seeds"`
	SeedsLessWorkLost int `json:"seeds_less_work_lost"`
	// TriggerWorkLostPct compares the work lost by the kills made for the
	// Fair Scheduler's own preemption (min-share and fair-share sources),
	// leaving out GP's starvation rule.
	TriggerWorkLostPct Pct `json:"trigger_work_lost_change_pct"`
	// PairedRuns counts the runs with the same jobs under both policies;
	// Wins those where the policy's SNP is higher than the baseline's.
	PairedRuns int `json:"paired_runs"`
	Wins       int `json:"wins"`
	// The range of the SNP change over the paired runs, and over the seeds
	// (each seed's SNP averaged over the long-job positions).
	PairedMinPct float64 `json:"paired_snp_change_min_pct"`
	PairedMaxPct float64 `json:"paired_snp_change_max_pct"`
	SeedMinPct   float64 `json:"seed_snp_change_min_pct"`
	SeedMaxPct   float64 `json:"seed_snp_change_max_pct"`
}

// Output is the -json document: everything the table shows.
type Output struct {
	Workload         string  `json:"workload"`
	HFSModel         string  `json:"hfs_model"`
	MinShareTimeout  float64 `json:"min_share_preemption_timeout_s"`
	FairShareTimeout float64 `json:"fair_share_preemption_timeout_s"`
	Starvation       string  `json:"starvation"`
	// StarvationWithinK is the ablation that stops GP's starvation victims
	// at the Fair Scheduler's k.
	StarvationWithinK bool     `json:"starvation_within_k"`
	Trace             string   `json:"trace,omitempty"`
	TaskScale         float64  `json:"task_scale,omitempty"`
	JoinStageScale    float64  `json:"join_stage_scale,omitempty"`
	Seeds             int      `json:"seeds"`
	FirstSeed         uint64   `json:"first_seed"`
	Positions         []int    `json:"positions"`
	Periods           []Row    `json:"periods"`
	Cells             []Row    `json:"cells"`
	Changes           []Change `json:"changes"`
	// Paper holds the lines that set the result against GP's, and
	// DiffersFromPaper the reasons where it differs.
	Paper            []string `json:"paper"`
	DiffersFromPaper []string `json:"differs_from_paper"`
}

var reasons = []preempt.Reason{preempt.ReasonOverflow, preempt.ReasonStarvingLongJob, preempt.ReasonMostRecent}

// mean averages runs into a row.
func mean(period string, pol Policy, runs []Result) Row {
	r := Row{Period: period, Policy: pol.String(), Runs: len(runs), Kills: map[string]float64{},
		WorkLostBySource: map[string]float64{}, KillsBySource: map[string]float64{}}
	n := float64(len(runs))
	for _, reason := range reasons {
		r.Kills[reason.String()] = 0
	}
	for _, src := range sources {
		r.WorkLostBySource[src.String()], r.KillsBySource[src.String()] = 0, 0
	}
	for _, x := range runs {
		m := x.Metrics
		r.SNP += m.SNP / n
		r.L1 += m.L1 / n
		r.L2 += m.L2 / n
		r.Unfairness += m.Unfairness / n
		r.AvgResp += m.AvgResponse / n
		r.WorkLost += x.WorkLost / n
		r.StarvationEpisodes += float64(x.Episodes) / n
		r.StarvingJudgements += float64(x.StarvingJudged) / n
		for _, reason := range reasons {
			r.Kills[reason.String()] += float64(x.ByReason[reason]) / n
		}
		for _, src := range sources {
			r.WorkLostBySource[src.String()] += x.LostBySource[src] / n
			r.KillsBySource[src.String()] += x.KillsBySource[src] / n
		}
		r.BeyondKKills += float64(x.BeyondKills) / n
		r.BeyondKWorkLost += x.BeyondLost / n
		r.LongJobKills += float64(x.LongKills) / n
		r.SmallJobKills += float64(x.SmallKills) / n
		r.JobsInSystem += x.MeanJobs / n
		r.Occupancy += x.Occupancy / n
		r.NonProdOccupancy += x.NonProdShare / n
	}
	return r
}

// Summarise builds the -json document from the cells of a run.
func Summarise(o Options, cells []Cell) Output {
	out := Output{
		Workload: o.Workload.String(), HFSModel: o.Config.Model.String(),
		MinShareTimeout: o.Config.MinShareTimeout, FairShareTimeout: o.Config.FairShareTimeout,
		Starvation: o.Config.Starvation.String(), StarvationWithinK: o.Config.StarvationWithinK, Trace: o.TracePath,
		Seeds: o.Reps, FirstSeed: o.Seed, Positions: o.Positions,
	}
	if o.Workload == Mixed {
		out.TaskScale, out.JoinStageScale = scaleOr1(o.TaskScale), scaleOr1(o.JoinStageScale)
	}
	for _, c := range cells {
		row := mean(c.Period, c.Policy, c.Runs)
		row.Position = c.Position
		out.Cells = append(out.Cells, row)
	}
	for _, p := range periods {
		for _, pol := range policies {
			var runs []Result
			for _, c := range cells {
				if c.Period == p.name && c.Policy == pol {
					runs = append(runs, c.Runs...)
				}
			}
			if len(runs) > 0 {
				out.Periods = append(out.Periods, mean(p.name, pol, runs))
			}
		}
		for _, pol := range policies[1:] {
			if ch, ok := compare(cells, out.Periods, p.name, pol); ok {
				out.Changes = append(out.Changes, ch)
			}
		}
	}
	out.Paper, out.DiffersFromPaper = againstPaper(out)
	return out
}

func scaleOr1(x float64) float64 {
	if x == 0 {
		return 1
	}
	return x
}

func findRow(rows []Row, period string, pol Policy) (Row, bool) {
	for _, r := range rows {
		if r.Period == period && r.Policy == pol.String() {
			return r, true
		}
	}
	return Row{}, false
}

// compare sets pol against the baseline in one period.
func compare(cells []Cell, rows []Row, period string, pol Policy) (Change, bool) {
	b, ok1 := findRow(rows, period, Baseline)
	g, ok2 := findRow(rows, period, pol)
	if !ok1 || !ok2 {
		return Change{}, false
	}
	ch := Change{
		Period: period, Policy: pol.String(),
		SNPPct: pct(g.SNP, b.SNP), UnfairnessPct: Pct(pct(g.Unfairness, b.Unfairness)),
		AvgRespPct: pct(g.AvgResp, b.AvgResp), WorkLostPct: Pct(pct(g.WorkLost, b.WorkLost)),
		TriggerWorkLostPct: Pct(pct(triggerLost(g), triggerLost(b))),
		PairedMinPct:       math.Inf(1), PairedMaxPct: math.Inf(-1),
	}
	var seedB, seedG, lostB, lostG []float64 // Σ SNP and work lost per seed over positions
	for _, cb := range cells {
		if cb.Period != period || cb.Policy != Baseline {
			continue
		}
		for _, cg := range cells {
			if cg.Period != period || cg.Policy != pol || cg.Position != cb.Position {
				continue
			}
			for r := range min(len(cb.Runs), len(cg.Runs)) {
				sb, sg := cb.Runs[r].Metrics.SNP, cg.Runs[r].Metrics.SNP
				ch.PairedRuns++
				if sg > sb {
					ch.Wins++
				}
				d := pct(sg, sb)
				ch.PairedMinPct, ch.PairedMaxPct = math.Min(ch.PairedMinPct, d), math.Max(ch.PairedMaxPct, d)
				for len(seedB) <= r {
					seedB, seedG = append(seedB, 0), append(seedG, 0)
					lostB, lostG = append(lostB, 0), append(lostG, 0)
				}
				seedB[r] += sb
				seedG[r] += sg
				lostB[r] += cb.Runs[r].WorkLost
				lostG[r] += cg.Runs[r].WorkLost
			}
		}
	}
	if ch.PairedRuns == 0 {
		ch.PairedMinPct, ch.PairedMaxPct = 0, 0
	}
	for r := range seedB {
		d := pct(seedG[r], seedB[r])
		if r == 0 {
			ch.SeedMinPct, ch.SeedMaxPct = d, d
		}
		ch.SeedMinPct, ch.SeedMaxPct = math.Min(ch.SeedMinPct, d), math.Max(ch.SeedMaxPct, d)
	}
	ch.WorkLostSeedMinPct, ch.WorkLostSeedMaxPct = pctRange(lostG, lostB)
	ch.Seeds = len(lostB)
	for r := range lostB {
		if lostG[r] < lostB[r] {
			ch.SeedsLessWorkLost++
		}
	}
	return ch, true
}

// pctRange is the range of the changes from base[r] to x[r] in percent over
// the r where the change is defined (base[r] ≠ 0, or both 0); NaN
// (undefined) bounds when it is defined for none, 0 for no seeds.
func pctRange(x, base []float64) (lo, hi Pct) {
	if len(x) == 0 {
		return 0, 0
	}
	l, h := math.Inf(1), math.Inf(-1)
	for r := range x {
		if d := pct(x[r], base[r]); !math.IsNaN(d) {
			l, h = math.Min(l, d), math.Max(h, d)
		}
	}
	if l > h {
		return Pct(math.NaN()), Pct(math.NaN())
	}
	return Pct(l), Pct(h)
}

// triggerLost is a row's work lost by the kills made for the Fair
// Scheduler's own preemption.
func triggerLost(r Row) float64 {
	return r.WorkLostBySource[SourceMinShare.String()] + r.WorkLostBySource[SourceFairShare.String()]
}

// pct is the change from base to x in percent: 0 when both are 0, NaN when
// only base is.
func pct(x, base float64) float64 {
	switch {
	case x == base:
		return 0
	case base == 0:
		return math.NaN()
	}
	return 100 * (x - base) / base
}

// Pct is a change in percent that may be undefined (NaN: the base was 0).
type Pct float64

// MarshalJSON writes null for an undefined change.
func (p Pct) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(p)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(p))
}

// String is the change with its sign and one decimal, or "n/a".
func (p Pct) String() string {
	if math.IsNaN(float64(p)) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", float64(p))
}

func findChange(out Output, period string, pol Policy) (Change, bool) {
	for _, c := range out.Changes {
		if c.Period == period && c.Policy == pol.String() {
			return c, true
		}
	}
	return Change{}, false
}

// PrintTable writes the text report: the setting, the legend, the
// per-position cells, the means per period and policy, the comparisons and
// the lines against the paper.
func PrintTable(w io.Writer, out Output) {
	within := ""
	if out.StarvationWithinK {
		within = ", its victims within k (ablation)"
	}
	fmt.Fprintf(w, "Hadoop 0.21 Fair Scheduler, %s model; minSharePreemptionTimeout %g s, fairSharePreemptionTimeout %g s; starvation judged %s%s\n",
		out.HFSModel, out.MinShareTimeout, out.FairShareTimeout, out.Starvation, within)
	switch {
	case out.Trace != "":
		fmt.Fprintf(w, "workload: %s (ordinary jobs from %s)", out.Workload, out.Trace)
	case out.Workload == Mixed.String():
		fmt.Fprintf(w, "workload: mixed (GP §VI-B on Table III, 160 jobs; task-time scale %g, Join stage scale %g)", out.TaskScale, out.JoinStageScale)
	default:
		fmt.Fprintf(w, "workload: io (GP Table III, 130 jobs)")
	}
	fmt.Fprintf(w, "; %d seeds × long job at %s\n\n", out.Seeds, joinInts(out.Positions))
	fmt.Fprint(w, legend)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "period\tlong job at\tpolicy\tSNP\tl1\tl2\tunfairness\tavg resp (s)\twork lost (slot·s)\tepisodes\toverflow\tstarving\trecent\tlong-job kills\tsmall-job kills\t\n")
	for _, r := range out.Cells {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.0f\t%.2f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t\n",
			r.Period, r.Position, r.Policy, r.SNP, r.L1, r.L2, r.Unfairness, r.AvgResp, r.WorkLost, r.StarvationEpisodes,
			r.Kills[preempt.ReasonOverflow.String()], r.Kills[preempt.ReasonStarvingLongJob.String()], r.Kills[preempt.ReasonMostRecent.String()], r.LongJobKills, r.SmallJobKills)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmeans over long-job positions and %d seeds each:\n", out.Seeds)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "period\tpolicy\tSNP\tl1\tl2\tunfairness\tavg resp (s)\twork lost (slot·s)\tepisodes\toverflow\tstarving\trecent\tlong-job kills\tjobs in system\toccupancy\tnon-prod occupancy\t\n")
	for _, r := range out.Periods {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.0f\t%.2f\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\t%.0f%%\t%.0f%%\t\n",
			r.Period, r.Policy, r.SNP, r.L1, r.L2, r.Unfairness, r.AvgResp, r.WorkLost, r.StarvationEpisodes,
			r.Kills[preempt.ReasonOverflow.String()], r.Kills[preempt.ReasonStarvingLongJob.String()], r.Kills[preempt.ReasonMostRecent.String()],
			r.LongJobKills, r.JobsInSystem, 100*r.Occupancy, 100*r.NonProdOccupancy)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nwork lost by source, slot·s per run (kills per run), same means:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "period\tpolicy\tmin-share preemption\tfair-share preemption\tstarvation rule\tof which beyond k\ttotal\t\n")
	for _, r := range out.Periods {
		fmt.Fprintf(tw, "%s\t%s", r.Period, r.Policy)
		for _, src := range sources {
			fmt.Fprintf(tw, "\t%.0f (%.1f)", r.WorkLostBySource[src.String()], r.KillsBySource[src.String()])
		}
		fmt.Fprintf(tw, "\t%.0f (%.1f)\t%.0f\t\n", r.BeyondKWorkLost, r.BeyondKKills, r.WorkLost)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, c := range out.Changes {
		fmt.Fprintf(w, "%s: %s vs baseline: SNP %+.1f%% (per seed %+.1f%% … %+.1f%%; per run %+.1f%% … %+.1f%%; higher in %d of %d paired runs), unfairness %v, avg response %+.1f%%, work lost %v (per seed %v … %v, less in %d of %d seeds; for the Fair Scheduler's own preemption %v)\n",
			c.Period, c.Policy, c.SNPPct, c.SeedMinPct, c.SeedMaxPct, c.PairedMinPct, c.PairedMaxPct, c.Wins, c.PairedRuns, c.UnfairnessPct, c.AvgRespPct, c.WorkLostPct,
			c.WorkLostSeedMinPct, c.WorkLostSeedMaxPct, c.SeedsLessWorkLost, c.Seeds, c.TriggerWorkLostPct)
	}
	fmt.Fprintln(w)
	for _, l := range out.Paper {
		fmt.Fprintln(w, l)
	}
	for _, l := range out.DiffersFromPaper {
		fmt.Fprintln(w, "differs from the paper because", l)
	}
}

const legend = `legend: SNP = geometric mean of ANP = ideal/actual response time (1 is ideal; higher is better);
  l1, l2 = mean and root-mean-square slowdown 1/ANP; unfairness = coefficient of variation of ANP;
  work lost = slot·s run by tasks that were then killed; episodes = onsets per run of the long job
  starving others (GP §V), judged under every policy, acted on by GP only; kills per run by reason:
  overflow (baseline: newest tasks of pools above their fair share), starving (GP step 1: the long
  job's overflowing tasks), recent (GP step 2: newest tasks cluster-wide); small-job = jobs of ≤ 10
  maps; occupancy = share of the slots held (all jobs / non-production jobs), mean over the checks up
  to the last counted arrival. baseline = the Fair Scheduler's own preemption; GP = GP on the Fair
  Scheduler with its preemption off; GP-no-starvation = GP without its starvation rule.
  work lost by source: what each kill was made for: min-share / fair-share preemption = the slots the
  Fair Scheduler's trigger asks for (k; a check asking for both splits its kills in proportion),
  starvation rule = GP step 1; beyond k = starvation kills in slots the Fair Scheduler did not ask for.

`

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// againstPaper sets the measured figures against GP's (§VI-E, Fig. 3) and
// says why they differ where they do.
func againstPaper(out Output) (paper, differs []string) {
	base, okA := findRow(out.Periods, "busy", Baseline)
	gp, okB := findRow(out.Periods, "busy", GP)
	ch, okC := findChange(out, "busy", GP)
	if okA && okB && okC {
		paper = append(paper,
			fmt.Sprintf("busy SNP: GP %+.1f%% against the baseline (per seed %+.1f%% … %+.1f%%), higher in %d of %d paired runs; unfairness %v, work lost %v (GP Fig. 3: about +15%%, fairness slightly better, fewer long tasks killed)",
				ch.SNPPct, ch.SeedMinPct, ch.SeedMaxPct, ch.Wins, ch.PairedRuns, ch.UnfairnessPct, ch.WorkLostPct),
			fmt.Sprintf("starvation episodes per busy run: GP %.2f, baseline %.2f (GP §VI-E: once in all its experiments)", gp.StarvationEpisodes, base.StarvationEpisodes),
			fmt.Sprintf("non-production occupancy, busy: %.0f%% of the slots on average, %.0f%% all jobs (GP §VI-E: almost 90%% most of the time)", 100*gp.NonProdOccupancy, 100*gp.Occupancy))
		noStarve, okN := findChange(out, "busy", GPNoStarvation)
		switch {
		case ch.SNPPct < 10 && okN:
			differs = append(differs, fmt.Sprintf("busy SNP %+.1f%%, not about +15%%: the baseline's victims are already mostly the long job's (%.0f of %.0f per run); GP without its starvation rule changes SNP by %+.1f%% (the long job keeps its slots and the other jobs queue behind it), so GP's gain is its starvation rule's, which kills %.0f long-job tasks per run",
				ch.SNPPct, base.LongJobKills, base.Kills[preempt.ReasonOverflow.String()], noStarve.SNPPct, gp.Kills[preempt.ReasonStarvingLongJob.String()]))
		case ch.SNPPct < 10:
			differs = append(differs, fmt.Sprintf("busy SNP %+.1f%%, not about +15%%", ch.SNPPct))
		}
		paper = append(paper, fmt.Sprintf("busy work lost per run by source: baseline %.0f slot·s (min-share preemption %.0f, fair-share %.0f); GP %.0f: %.0f for the Fair Scheduler's preemption (%v against the baseline's: GP's newest victims, GP §V), %.0f by its starvation rule (%.1f kills, %.1f of them beyond the Fair Scheduler's k)",
			base.WorkLost, base.WorkLostBySource[SourceMinShare.String()], base.WorkLostBySource[SourceFairShare.String()],
			gp.WorkLost, triggerLost(gp), ch.TriggerWorkLostPct, gp.WorkLostBySource[SourceStarvation.String()], gp.KillsBySource[SourceStarvation.String()], gp.BeyondKKills))
		starv := gp.WorkLostBySource[SourceStarvation.String()]
		if !(ch.WorkLostPct <= 0) && !(starv >= gp.WorkLost-base.WorkLost) {
			differs = append(differs, fmt.Sprintf("GP loses more work than the baseline (%v), and not through its starvation rule alone (%.0f slot·s per busy run): its kills for the Fair Scheduler's own preemption lose %v against the baseline's",
				ch.WorkLostPct, starv, ch.TriggerWorkLostPct))
		}
		if !(ch.WorkLostPct <= 0) && starv >= gp.WorkLost-base.WorkLost {
			without := ""
			if okN {
				without = fmt.Sprintf("; without the rule (GP-no-starvation) the work lost changes by %v against the baseline's and SNP by %+.1f%%", noStarve.WorkLostPct, noStarve.SNPPct)
			}
			differs = append(differs, fmt.Sprintf("GP loses more work than the baseline (%v, per seed %v … %v, less in %d of %d seeds), by design under this workload: its starvation rule (GP §V) kills the long job's overflowing tasks, half at the onset and all once starvation has lasted T_timeout, %.1f per busy run, %.1f of them in slots the Fair Scheduler did not ask for, losing %.0f slot·s%s. GP §VI-E saw the rule act once in all its experiments and credits GP with killing fewer long tasks: here GP kills %.0f long-job tasks per run, the baseline %.0f. The simulator charges a kill only the work lost (no task start-up, no re-read of input, no locality)",
				ch.WorkLostPct, ch.WorkLostSeedMinPct, ch.WorkLostSeedMaxPct, ch.SeedsLessWorkLost, ch.Seeds, gp.KillsBySource[SourceStarvation.String()], gp.BeyondKKills,
				starv, without, gp.LongJobKills, base.LongJobKills))
		}
		if gp.StarvationEpisodes > 0.5 {
			differs = append(differs, fmt.Sprintf("a long job starves others %.2f times per busy run, not once in all experiments: Table III offers about 0.92 of the 400 slots at the busy rate and the long job alone 0.40, so whenever it holds its 250 slots the others queue", gp.StarvationEpisodes))
		}
		if gp.NonProdOccupancy < 0.8 {
			differs = append(differs, fmt.Sprintf("non-production jobs hold %.0f%% of the slots, not almost 90%%: the slots are %.0f%% occupied on average over the busy period (ramp-up and lulls included), and 30%% of the jobs, large ones among them, are production jobs with an 80%% minimum share", 100*gp.NonProdOccupancy, 100*gp.Occupancy))
		}
	}
	if idle, ok := findChange(out, "idle", GP); ok {
		paper = append(paper, fmt.Sprintf("idle SNP: GP %+.1f%% (GP §VI-E: both policies deliver similar performance)", idle.SNPPct))
		if math.Abs(idle.SNPPct) > 5 {
			differs = append(differs, fmt.Sprintf("idle SNP differs by %+.1f%%, not similar: the jobs of this input keep the cluster busier than GP §VI-E's idle periods", idle.SNPPct))
		}
	}
	return paper, differs
}
