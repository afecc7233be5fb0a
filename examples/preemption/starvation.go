package main

import (
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
	"github.com/schedkit/schedkit/preempt"
)

// StarvationRule is how GP judges a long job starving others (GP §V) and how
// much of it the graduated kill takes.
type StarvationRule int

const (
	// PerPeriod judges starvation once per 3-minute period, over that
	// period: condition (2) from the period's occupancy samples, condition
	// (3) and the 90%-of-queue exception from each job's mean queue over
	// the period's checks, n_task from the period's mean. At the onset it
	// kills ⌈50%⌉ of the long job's overflowing tasks, in all, until
	// starvation has lasted T_timeout (6 minutes, two periods, GP §VI-E);
	// from then on all of them. The closest reading of GP §V and §VI-E.
	PerPeriod StarvationRule = iota
	// EveryCheck judges at every preemption check (20 s) from the current
	// queue and kills 50% of what still overflows at each check until
	// T_timeout (an ablation).
	EveryCheck
)

// String returns "per-period" or "every-check", the flag and -json names.
func (r StarvationRule) String() string {
	return enumname.Of(r, "StarvationRule", starvationNames[:])
}

var starvationNames = [...]string{PerPeriod: "per-period", EveryCheck: "every-check"}

// judge runs GP's starvation judgement for this check under every policy (so
// that episodes can be compared; only GP acts on them), fills the cluster's
// Queued and StarvingFor inputs, and returns the options for preempt.GP.
// n_task is the slots available to non-production jobs (GP §V with π = 0.5:
// "the mean length of the queue must be less than the size of available
// resources").
func (s *sim) judge(now float64, prodRunning int) (preempt.GPOptions, error) {
	opt := preempt.GPOptions{
		NTask:   float64(s.slots - prodRunning),
		Timeout: s.cfg.Timeout,
		// Algorithm 1 lines 3–6 as written: a starving long job's victims
		// are returned even beyond k and when k = 0, "to make room for
		// other jobs" (GP §VI-E); the within-k ablation stops them at k.
		StarvationBeyondK: !s.cfg.StarvationWithinK,
	}
	s.periodChecks++
	s.ntaskSum += opt.NTask
	for _, i := range s.live {
		s.jobs[i].qsum += float64(s.jobs[i].queued())
	}
	if s.cfg.Starvation == PerPeriod {
		if s.checks%s.perJudge != 0 {
			return opt, nil // judged at the period's end only
		}
		opt.NTask = s.ntaskSum / s.periodChecks
		for c, i := range s.owner {
			s.cluster.Jobs[c].Queued = int(math.Round(s.jobs[i].qsum / s.periodChecks))
		}
		for i := range s.jobs {
			s.jobs[i].qsum = 0
		}
		s.periodChecks, s.ntaskSum = 0, 0
	}
	busy := s.win.Busy(s.cfg.BusyTime)
	opt.Busy = busy
	for c, i := range s.owner {
		j := &s.jobs[i]
		if !j.spec.Long {
			continue
		}
		// Condition (3) and the 90%-of-queue exception over the other jobs'
		// queues, as preempt.GP judges them.
		queued := s.queuedOthers(c)
		total := 0
		for _, q := range queued {
			total += q
		}
		dominated, err := preempt.QueueDominated(queued, preempt.DefaultDominantFraction)
		if err != nil {
			return opt, err
		}
		st := !dominated && preempt.Starves(j.running, s.shares[i], busy, total, opt.NTask)
		if !st {
			j.starving = false
			s.cluster.Jobs[c].StarvingFor = 0
			continue
		}
		s.res.StarvingJudged++
		if !j.starving {
			j.starving, j.since = true, now
			j.onsetOverflow = max(0, j.running-int(math.Ceil(s.shares[i])))
			j.starveKilled = 0
			s.res.Episodes++
		}
		starvingFor := now - j.since
		s.cluster.Jobs[c].StarvingFor = starvingFor
		if s.cfg.Starvation != PerPeriod || starvingFor >= s.cfg.Timeout {
			continue
		}
		// Before T_timeout: ⌈50%⌉ of the onset overflow in all.
		allowance, err := preempt.GraduatedKill(j.onsetOverflow, 0, s.cfg.Timeout, preempt.DefaultKillFraction)
		if err != nil {
			return opt, err
		}
		left := allowance - j.starveKilled
		over := j.running - int(math.Ceil(s.shares[i]))
		switch {
		case left <= 0:
			opt.Busy = false // nothing more before T_timeout
		case over > 0:
			// GP kills ⌈KillFraction·over⌉ = left.
			opt.KillFraction = min(1, (float64(left)-0.5)/float64(over))
		}
	}
	return opt, nil
}

// queuedOthers returns the Queued values of the cluster jobs other than
// cluster job c, in reusable memory.
func (s *sim) queuedOthers(c int) []int {
	s.queued = s.queued[:0]
	for k, j := range s.cluster.Jobs {
		if k != c {
			s.queued = append(s.queued, j.Queued)
		}
	}
	return s.queued
}
