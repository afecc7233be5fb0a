package preempt

import (
	"math"
)

// GPOptions tunes GP. The zero value never finds starvation (Busy is false),
// so GP is then pure step 2: the k most recently started slots cluster-wide.
type GPOptions struct {
	// Busy is starvation condition (2), normally OccupancyWindow.Busy.
	Busy bool
	// NTask is condition (3)'s threshold n_task (see NTask): a long job
	// starves others only while the slots queued by the other jobs (Σ
	// Job.Queued over every job but the long job itself) exceed it. NaN is
	// bad input; +Inf disables starvation.
	NTask float64
	// Timeout is T_timeout in seconds, finite and ≥ 0: a job starving
	// others for less than this loses only KillFraction of its overflowing
	// tasks (GraduatedKill). Zero kills all of them at once.
	Timeout float64
	// KillFraction in (0, 1]; zero means DefaultKillFraction (50%).
	KillFraction float64
	// DominantFraction in (0, 1]; zero means DefaultDominantFraction (90%):
	// when one job holds more than this fraction of the demand queued by
	// the jobs other than a long job, that long job is not treated as
	// starving them (QueueDominated).
	DominantFraction float64
	// StarvationBeyondK follows Algorithm 1 lines 3–6 as written: every
	// starvation victim (after the graduated kill) is returned, even beyond
	// k and when k = 0, to make room for the starved jobs (GP §VI-E); then
	// Freed may exceed k. False, the zero value, stops step 1 at k, so a
	// decision frees exactly k slots whenever it can.
	StarvationBeyondK bool
}

func (o GPOptions) validate() error {
	switch {
	case math.IsNaN(o.NTask):
		return bad("GPOptions.NTask", o.NTask, "must not be NaN")
	case !(o.Timeout >= 0) || math.IsInf(o.Timeout, 1):
		return bad("GPOptions.Timeout", o.Timeout, "must be finite and ≥ 0")
	case !(o.KillFraction >= 0 && o.KillFraction <= 1):
		return bad("GPOptions.KillFraction", o.KillFraction, "must be in [0, 1]")
	case !(o.DominantFraction >= 0 && o.DominantFraction <= 1):
		return bad("GPOptions.DominantFraction", o.DominantFraction, "must be in [0, 1]")
	}
	return nil
}

// GP is Global Preemption, GP Algorithm 1, for one preemption check that
// must free k slots (the caller runs it every preemptInterval; its clock is
// Cluster.Now):
//
//  1. Every long job (Job.Long) that starves others (Starves: it holds more
//     than its share, opt.Busy, and the other jobs' queued slots, Σ
//     Job.Queued over every job but itself, exceed opt.NTask), unless one of
//     those jobs holds more than opt.DominantFraction of their queued demand
//     (QueueDominated), offers its newest GraduatedKill(…) overflowing tasks
//     (see Baseline for "overflowing"), Job.StarvingFor against opt.Timeout.
//     These are taken first, newest first across jobs, Reason
//     ReasonStarvingLongJob. Algorithm 1 line 5 returns every such task even beyond k
//     (and when k = 0); GP stops at k so the decision frees exactly k
//     slots, unless opt.StarvationBeyondK asks for the line as written.
//  2. The remaining slots come from all other running tasks cluster-wide,
//     most recently started first, Reason ReasonMostRecent.
//
// Ties in recency go to the lower Job, then the lower Task.ID, then the lower
// index. Tasks of NoPreempt jobs are never victims.
//
// Exactness: a task holding more slots than are still needed is skipped, so
// the victims hold exactly k slots whenever that greedy pass reaches k —
// always when at least k one-slot tasks are eligible. Otherwise, if the
// eligible tasks hold at least k slots, one more task with the fewest slots
// is added (k ≤ Freed < k + its Slots), and if they hold fewer than k, all
// of them are victims (Freed < k).
//
// Work lost: when every task holds one slot and no job starves others, GP
// loses no more work than Baseline freeing the same number of slots, since
// it takes the newest tasks from a superset of Baseline's candidates. With
// multi-slot tasks that can fail: skipping a task that does not fit may
// force an older one-slot task in (see the tests).
//
// Cost: O(n log k) for n tasks when the newest eligible tasks fill k (always
// with one-slot tasks), plus a bounded heap over each starving job's tasks; no
// allocation once the Workspace has grown. Bad input gives an error matching
// ErrBadInput.
func GP(c Cluster, k int, opt GPOptions) (Decision, error) {
	var w Workspace
	return w.GP(c, k, opt)
}

// GP is the package function GP using w's memory; the Decision aliases w
// until the next call. Once w has grown it allocates nothing.
func (w *Workspace) GP(c Cluster, k int, opt GPOptions) (Decision, error) {
	if err := validate(c, k); err != nil {
		return Decision{}, err
	}
	if err := opt.validate(); err != nil {
		return Decision{}, err
	}
	frac := opt.KillFraction
	if frac == 0 {
		frac = DefaultKillFraction
	}
	dom := opt.DominantFraction
	if dom == 0 {
		dom = DefaultDominantFraction
	}
	w.reset(c, k)
	need := k
	if opt.Busy {
		q := sumQueued(c.Jobs)
		w.starving = reserve(w.starving, len(c.Jobs))
		for j, job := range c.Jobs {
			if !job.Long || !(w.held[j] > job.Share) {
				continue
			}
			others, most := q.others(j, job.Queued)
			if !(others > opt.NTask) || (others > 0 && most > dom*others) {
				continue
			}
			w.starving = append(w.starving, j)
			if job.NoPreempt || (k == 0 && !opt.StarvationBeyondK) {
				continue
			}
			o := w.overflowing(c, j)
			n := graduatedKill(len(o), job.StarvingFor, opt.Timeout, frac)
			w.cand = append(w.cand, o[:n]...)
		}
		if opt.StarvationBeyondK {
			all := 0 // ≤ 2³¹ tasks × MaxSlots: no overflow
			for _, i := range w.cand {
				all += c.Tasks[i].Slots
			}
			w.fill(c, w.cand, all, ReasonStarvingLongJob, false)
			need = k - all
		} else {
			need = w.fill(c, w.cand, need, ReasonStarvingLongJob, false)
		}
	}
	if need > 0 {
		w.cand = w.cand[:0]
		for i, t := range c.Tasks {
			if !w.chosen[i] && !c.Jobs[t.Job].NoPreempt {
				w.cand = append(w.cand, int32(i))
			}
		}
		w.fill(c, w.cand, need, ReasonMostRecent, true)
	}
	return w.decision(), nil
}
