package main

import (
	"github.com/schedkit/schedkit/internal/enumname"
	"github.com/schedkit/schedkit/preempt"
)

// Source is what a kill was made for: the Fair Scheduler's trigger (its
// minimum-share or fair-share preemption, which sets k) or GP's starvation
// rule (GP §V), so that the work each loses is reported apart.
type Source int

const (
	// SourceMinShare: slots for pools below their minimum share for
	// longer than minSharePreemptionTimeout.
	SourceMinShare Source = iota
	// SourceFairShare: slots for pools below half their fair share for
	// longer than fairSharePreemptionTimeout.
	SourceFairShare
	// SourceStarvation: GP step 1, the overflowing tasks of a long job that
	// starves others (preempt.ReasonStarvingLongJob victims), whether they fill
	// part of k or go beyond it.
	SourceStarvation
	numSources
)

// sources lists every Source in report order.
var sources = []Source{SourceMinShare, SourceFairShare, SourceStarvation}

// String returns "min-share preemption", "fair-share preemption" or
// "starvation rule", the -json keys.
func (s Source) String() string { return enumname.Of(s, "Source", sourceNames[:]) }

var sourceNames = [numSources]string{
	SourceMinShare:   "min-share preemption",
	SourceFairShare:  "fair-share preemption",
	SourceStarvation: "starvation rule",
}

// account adds one check's victims to the run's work lost and kills by
// source. A starvation victim counts for the starvation rule; the others
// (the baseline's overflow, GP's most recent) were freed for the trigger's k
// and count for minimum-share and fair-share preemption in proportion to
// the slots each asked for at this check (s.need). Starvation victims beyond
// the first k slots (Algorithm 1 line 5 returns them all) are also counted
// in BeyondKills and BeyondLost: slots the Fair Scheduler did not ask for.
func (s *sim) account(k int, d preempt.Decision) {
	asked := float64(s.need[SourceMinShare] + s.need[SourceFairShare])
	slots := 0 // slots freed so far, in the decision's order
	for _, v := range d.Victims {
		if v.Reason == preempt.ReasonStarvingLongJob {
			s.res.LostBySource[SourceStarvation] += v.WorkLost
			s.res.KillsBySource[SourceStarvation]++
			if slots >= k {
				s.res.BeyondKills++
				s.res.BeyondLost += v.WorkLost
			}
		} else if asked > 0 {
			for _, src := range sources[:2] {
				f := float64(s.need[src]) / asked
				s.res.LostBySource[src] += f * v.WorkLost
				s.res.KillsBySource[src] += f
			}
		}
		slots += v.Slots
	}
}
