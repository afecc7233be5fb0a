package main

import (
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
	"github.com/schedkit/schedkit/preempt"
)

// Model is the Hadoop 0.21 Fair Scheduler configuration a run models: what a
// pool is. Fair shares are the same in both (computeShares); the models differ
// in what the preemption trigger and the baseline's victims are counted over.
type Model int

const (
	// PerJob puts each job in its own pool: a job below its minimum share
	// (its part of its class's 80% or 20%) for minSharePreemptionTimeout,
	// or below half its fair share for fairSharePreemptionTimeout, preempts
	// for itself, and the baseline's victims are the newest tasks of jobs
	// above their fair share, none taking a job below it. This is HFS as GP
	// §IV–V and §VI-E describe it ("a number of most recently launched
	// tasks of each job will be killed"; the long job loses tasks when a
	// large production job arrives).
	PerJob Model = iota
	// TwoPool is a production pool (minimum share 80% of the slots) and a
	// non-production pool (20%), GP §VI-D's shares as a Hadoop 0.21
	// allocation file writes them: the trigger is per pool, and the
	// baseline's victims are the newest tasks of the pools above their fair
	// share, across all their jobs.
	TwoPool
)

// String returns "per-job" or "two-pool", the flag and -json names.
func (m Model) String() string { return enumname.Of(m, "Model", modelNames[:]) }

var modelNames = [...]string{PerJob: "per-job", TwoPool: "two-pool"}

// fsPool is what the Fair Scheduler triggers preemption for: one job (per-job
// model) or one class pool (two-pool model). Its fields mirror Hadoop 0.21's
// PoolSchedulable.
type fsPool struct {
	minShare, share, demand float64
	// lastAtMin and lastAtHalf are the last times the pool was at its
	// minimum share and at half its fair share (lastTimeAtMinShare,
	// lastTimeAtHalfFairShare).
	lastAtMin, lastAtHalf float64
	need                  int // slots it preempts for at this check
}

func poolOf(j *simJob) int {
	if j.spec.Prod {
		return 0
	}
	return 1
}

// computeShares sets the fair share of each job in the system (GP §VI-D):
// the production and non-production pools get their minimum shares (80% /
// 20% of the slots, capped by demand), the rest is split between the pools
// equally up to their demand, and within a pool jobs get max-min fair shares
// of their demand (running + queued tasks), as the Hadoop Fair Scheduler
// computes them. In the per-job model each job's minimum share is its
// max-min part of its pool's (GP §VI-D: "jobs of the same priority have the
// same resource share").
func (s *sim) computeShares() {
	c := float64(s.slots)
	var dem [2]float64
	s.byClass[0], s.byClass[1] = s.byClass[0][:0], s.byClass[1][:0]
	for _, i := range s.live {
		j := &s.jobs[i]
		s.shares[i], s.minShare[i] = 0, 0
		d, p := float64(j.demand()), poolOf(j)
		dem[p] += d
		s.byClass[p] = append(s.byClass[p], classJob{i, d})
	}
	var pool [2]float64
	for p := range pool {
		pool[p] = math.Min(dem[p], s.classMin[p])
	}
	left := c - pool[0] - pool[1]
	for range 2 { // split the excess equally, then give back what one cannot use
		unmet := 0
		for p := range pool {
			if dem[p] > pool[p] {
				unmet++
			}
		}
		if unmet == 0 || left <= 0 {
			break
		}
		each := left / float64(unmet)
		for p := range pool {
			if add := math.Min(each, dem[p]-pool[p]); add > 0 {
				pool[p] += add
				left -= add
			}
		}
	}
	for p := range pool {
		s.waterFill(p, pool[p], s.shares)
		s.class[p].share, s.class[p].demand, s.class[p].minShare = pool[p], dem[p], s.classMin[p]
		if s.cfg.Model == PerJob {
			s.waterFill(p, math.Min(dem[p], s.classMin[p]), s.minShare)
		}
	}
	if s.cfg.Model == PerJob {
		for _, i := range s.live {
			j := &s.jobs[i]
			j.fs.share, j.fs.minShare, j.fs.demand = s.shares[i], s.minShare[i], float64(j.demand())
		}
	}
}

// A classJob is a job in the system and its demand, for waterFill.
type classJob struct {
	i int
	d float64
}

// waterFill gives the jobs of pool p max-min fair parts of capacity, capped
// by their demand, in out: each round splits what is left equally among the
// jobs still below their demand.
func (s *sim) waterFill(p int, capacity float64, out []float64) {
	s.wf = append(s.wf[:0], s.byClass[p]...)
	for {
		below := s.wf[:0]
		for _, cj := range s.wf {
			if out[cj.i] < cj.d {
				below = append(below, cj)
			}
		}
		s.wf = below
		if len(below) == 0 || capacity <= 1e-9 {
			return
		}
		each := capacity / float64(len(below))
		for _, cj := range below {
			add := math.Min(each, cj.d-out[cj.i])
			out[cj.i] += add
			capacity -= add
		}
	}
}

func (s *sim) classRunning() [2]int {
	var r [2]int
	for _, i := range s.live {
		r[poolOf(&s.jobs[i])] += s.jobs[i].running
	}
	return r
}

// needyRatio reports whether job i's pool (the job itself in the per-job
// model, its class pool in the two-pool model) is needy — it runs fewer than
// m = ⌊min(minShare, demand)⌋ tasks — and its running / max(m, 1). Hadoop
// 0.21's FairShareComparator offers a free slot to needy pools before any
// other, the lowest ratio first (Hadoop 0.20's DeficitComparator also puts
// them first): that is how the slots preemption frees reach the pools it
// frees them for. classRun is the tasks each class pool runs.
func (s *sim) needyRatio(i int, classRun [2]int) (float64, bool) {
	j := &s.jobs[i]
	u, r := &j.fs, float64(j.running)
	if s.cfg.Model == TwoPool {
		p := poolOf(j)
		u, r = &s.class[p], float64(classRun[p])
	}
	m := math.Floor(math.Min(u.minShare, u.demand))
	return r / math.Max(m, 1), r < m
}

// updateTimers is Hadoop 0.21's updatePreemptionVariables, run after every
// event (Hadoop: every 0.5 s): a pool not starved for its minimum share
// (running < ⌊min(minShare, demand)⌋) or for its fair share (running <
// ⌊min(fairShare/2, demand)⌋) has its clock set to now.
func (s *sim) updateTimers(now float64) {
	upd := func(u *fsPool, running int) {
		r := float64(running)
		if !(r < math.Floor(math.Min(u.minShare, u.demand))) {
			u.lastAtMin = now
		}
		if !(r < math.Floor(math.Min(u.share/2, u.demand))) {
			u.lastAtHalf = now
		}
	}
	if s.cfg.Model == TwoPool {
		r := s.classRunning()
		for p := range s.class {
			upd(&s.class[p], r[p])
		}
		return
	}
	for _, i := range s.live {
		upd(&s.jobs[i].fs, s.jobs[i].running)
	}
}

// trigger is Hadoop 0.21's tasksToPreempt summed over the pools: a pool below
// its minimum share for longer than MinShareTimeout may take back up to
// ⌊min(minShare, demand)⌋, one below half its fair share for longer than
// FairShareTimeout up to ⌊min(fairShare, demand)⌋; it needs the larger. It
// marks the jobs of the pools being preempted for (protected: HFS takes
// victims only from pools above their fair share, and a task of such a pool
// would hand its slot back to the same pool), and splits the slots asked for
// in s.need by the timeout that asks for more of each pool's (the minimum
// share's on a tie).
func (s *sim) trigger(now float64) int {
	s.need = [2]int{}
	need := func(u *fsPool, running int) int {
		r := float64(running)
		dueMin, dueFair := 0.0, 0.0
		if now-u.lastAtMin > s.cfg.MinShareTimeout {
			dueMin = math.Floor(math.Min(u.minShare, u.demand)) - r
		}
		if now-u.lastAtHalf > s.cfg.FairShareTimeout {
			dueFair = math.Floor(math.Min(u.share, u.demand)) - r
		}
		u.need = max(0, int(math.Max(dueMin, dueFair)))
		if dueFair > dueMin {
			s.need[SourceFairShare] += u.need
		} else {
			s.need[SourceMinShare] += u.need
		}
		return u.need
	}
	k := 0
	if s.cfg.Model == TwoPool {
		r := s.classRunning()
		for p := range s.class {
			k += need(&s.class[p], r[p])
		}
		for _, i := range s.live {
			j := &s.jobs[i]
			j.protected = s.class[poolOf(j)].need > 0
		}
		return k
	}
	for _, i := range s.live {
		j := &s.jobs[i]
		k += need(&j.fs, j.running)
		j.protected = j.fs.need > 0
	}
	return k
}

// poolOwners marks the two-pool model's class pools in Config.inspect.
var poolOwners = [2]int{-1, -2}

// buildPools is the two-pool model's cluster for preempt.Baseline: the
// production and non-production pools as its two jobs (Hadoop 0.21's
// preemptTasks works on pools), each with its fair share.
func (s *sim) buildPools(now float64) {
	s.pools.Now = now
	s.pools.Jobs = append(s.pools.Jobs[:0],
		preempt.Job{Share: s.class[0].share, NoPreempt: s.class[0].need > 0},
		preempt.Job{Share: s.class[1].share, NoPreempt: s.class[1].need > 0})
	s.pools.Tasks = append(s.pools.Tasks[:0], s.cluster.Tasks...)
	for i := range s.pools.Tasks {
		t := &s.pools.Tasks[i]
		t.Job = poolOf(&s.jobs[s.tasks[t.ID].job])
	}
}
