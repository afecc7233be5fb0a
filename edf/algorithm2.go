package edf

import (
	"fmt"
	"math"
)

// SlotKind is the kind of a free Hadoop slot in Algorithm 2.
type SlotKind uint8

const (
	MapSlot    SlotKind = iota // a free map slot
	ReduceSlot                 // a free reduce slot
)

// An Alg2Job is one job as Rao–Reddy's Algorithm 2 sees it.
type Alg2Job struct {
	ID       int64   // unique, last tie-break key
	Arrival  float64 // submission time, seconds, finite
	Deadline float64 // absolute deadline, seconds, or NoDeadline()
	// Task counts, all ≥ 0. The map phase is finished when PendingMaps and
	// RunningMaps are both 0.
	PendingMaps, RunningMaps, PendingReduces, RunningReduces int
	// CompletedTasks counts completed map and reduce tasks.
	CompletedTasks int
	// Slots is the job's latest MinimumSlots answer (Algorithm 2 lines 2
	// and 19: recompute it whenever a task of the job finishes).
	Slots MinSlots
}

// fresh reports whether the job has no completed or running task.
func (j *Alg2Job) fresh() bool {
	return j.CompletedTasks == 0 && j.RunningMaps == 0 && j.RunningReduces == 0
}

// limits returns the job's (map, reduce) slot caps from its MinSlots.
func (j *Alg2Job) limits() (int, int) {
	switch j.Slots.Status {
	case SlotsFeasible:
		return j.Slots.Map, j.Slots.Reduce
	case SlotsNoEstimate:
		return 1, 1
	}
	return MaxPhaseSlots, MaxPhaseSlots
}

// eligible reports whether j may take a slot of kind k in the deadline pass.
func (j *Alg2Job) eligible(k SlotKind) bool {
	nm, nr := j.limits()
	mapDone := j.PendingMaps == 0 && j.RunningMaps == 0
	if k == MapSlot {
		return j.PendingMaps > 0 && j.RunningMaps < nm
	}
	return mapDone && j.PendingReduces > 0 && j.RunningReduces < nr
}

func alg2Earlier(a, b *Alg2Job) bool {
	return edfBefore(a.Deadline, a.Arrival, a.ID, b.Deadline, b.Arrival, b.ID)
}

func alg2Older(a, b *Alg2Job) bool { return fifoBefore(a.Arrival, a.ID, b.Arrival, b.ID) }

func validateAlg2(i int, j *Alg2Job) error {
	if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) {
		return &ValueError{Field: fmt.Sprintf("Jobs[%d].Arrival", i), Value: j.Arrival, Reason: "must be finite"}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1) {
		return &ValueError{Field: fmt.Sprintf("Jobs[%d].Deadline", i), Value: j.Deadline, Reason: "must be finite, or NoDeadline() (+Inf)"}
	}
	for _, c := range [...]struct {
		f string
		n int
	}{{"PendingMaps", j.PendingMaps}, {"RunningMaps", j.RunningMaps}, {"PendingReduces", j.PendingReduces},
		{"RunningReduces", j.RunningReduces}, {"CompletedTasks", j.CompletedTasks}, {"Slots.Map", j.Slots.Map}, {"Slots.Reduce", j.Slots.Reduce}} {
		if c.n < 0 {
			return &ValueError{Field: fmt.Sprintf("Jobs[%d].%s", i, c.f), Value: c.n, Reason: "must be >= 0"}
		}
	}
	if j.Slots.Status > SlotsInfeasible {
		return &ValueError{Field: fmt.Sprintf("Jobs[%d].Slots.Status", i), Value: j.Slots.Status, Reason: "unknown status"}
	}
	return nil
}

// Algorithm2 is the completion-time-based scheduler of Rao–Reddy
// (Algorithm 2, §4.2) as a picker for one free slot of kind k:
//
//  1. A job with no completed and no running task comes first (it must run
//     to give an estimate), the oldest first (ties: smaller ID); only for a
//     map slot, since its map phase has not started.
//  2. Otherwise jobs in increasing deadline order (ties: earlier arrival,
//     smaller ID; jobs without deadline last): the first one that may take
//     the slot — a map slot while its map phase is unfinished, it has a
//     pending map and RunningMaps < n_m; a reduce slot once its map phase
//     is finished, while it has a pending reduce and RunningReduces < n_r.
//
// n_m, n_r come from Slots: a feasible estimate caps the job at Slots.Map and
// Slots.Reduce; a job without estimate (it has running but no completed
// task) is capped at 1 running task per phase until a task completes; an
// infeasible job is not capped (it will miss its deadline; running it as
// fast as the deadline order allows keeps its lateness small) — decisions
// where Rao–Reddy is silent.
//
// It returns the index in jobs of the job that gets the slot, or -1 when
// none may take it. Errors (matching ErrBadInput) name the first bad field.
// One pass, no allocation.
func Algorithm2(jobs []Alg2Job, k SlotKind) (int, error) {
	if k > ReduceSlot {
		return -1, &ValueError{Field: "k", Value: k, Reason: "unknown slot kind"}
	}
	if len(jobs) > MaxJobs {
		return -1, &ValueError{Field: "len(jobs)", Value: len(jobs), Reason: "more than MaxJobs"}
	}
	fresh, best := -1, -1
	for i := range jobs {
		j := &jobs[i]
		if err := validateAlg2(i, j); err != nil {
			return -1, err
		}
		if k == MapSlot && j.fresh() && j.PendingMaps > 0 {
			if fresh < 0 || alg2Older(j, &jobs[fresh]) {
				fresh = i
			}
			continue
		}
		if j.eligible(k) && (best < 0 || alg2Earlier(j, &jobs[best])) {
			best = i
		}
	}
	if fresh >= 0 {
		best = fresh
	}
	return best, nil
}
