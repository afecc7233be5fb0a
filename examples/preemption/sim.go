package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/preempt"
)

// Policy is the preemption policy under test.
type Policy int

const (
	Baseline Policy = iota // HFS per-job preemption: overflowing tasks only
	GP                     // Global Preemption, 003 Algorithm 1
)

// String returns "baseline" or "GP", the -json policy names.
func (p Policy) String() string {
	if p == GP {
		return "GP"
	}
	return "baseline"
}

// Trigger is the preemption trigger of the simulated fair scheduler.
type Trigger int

const (
	TriggerHFS      Trigger = iota // pool min share and half fair share (HFS)
	TriggerJobShare                // every job below its fair share, every check
)

// Config is the simulated cluster of 003 §VI-A/D.
type Config struct {
	Workers, SlotsPerWorker int     // 100 × 4 map slots
	ProdShare               float64 // production pool's share of the slots, 0.8
	CheckInterval           float64 // preemption check period, 20 s
	Window                  float64 // occupancy window, 180 s
	BusySlots, BusyTime     float64 // p = 0.9, t = 0.8
	Timeout                 float64 // T_timeout, 360 s ("after 2 periods (6 minutes)")
	// OverShareOnly restricts both policies' victims to jobs holding more
	// than their fair share (an ablation). False is 003 §V as written: GP
	// takes from "all the running tasks", except the jobs being served.
	OverShareOnly bool
	// Trigger decides how many slots a check must free (see slotsToFree).
	Trigger Trigger
	// PreemptTimeout is HFS's minSharePreemptionTimeout and
	// fairSharePreemptionTimeout in seconds (TriggerHFS): a pool preempts
	// only once it has been short for longer than this, as seen at the
	// checks. 003 does not give them; 0 (default) acts at the first check
	// that sees the deficit.
	PreemptTimeout float64
	// ServedJobsOnly protects, under TriggerHFS, only the jobs of the short
	// pool that are below their own share with queued tasks (an ablation;
	// this example's model before review). False protects the whole pool
	// being preempted for.
	ServedJobsOnly bool
	// StarvationAtK stops GP's starvation victims at k (an ablation; this
	// example's model before review): the rule then only redirects the
	// kills a short pool asks for onto the long job, and never frees slots
	// for the jobs the long job starves.
	StarvationAtK bool
	// GraduatedOnce reads 003 §V's graduated kill as ⌈50%⌉ of the
	// overflowing tasks at the onset of starvation in all before T_timeout
	// (an ablation); false kills 50% of what still overflows at every check.
	GraduatedOnce bool
	// NoStarvation turns GP's starvation rule off (an ablation): GP is then
	// Algorithm 1's lines 8–9 alone.
	NoStarvation bool
}

// DefaultConfig is the paper's setting.
func DefaultConfig() Config {
	return Config{
		Workers: 100, SlotsPerWorker: 4, ProdShare: 0.8, CheckInterval: 20,
		Window: preempt.DefaultWindow, BusySlots: preempt.DefaultBusySlots,
		BusyTime: preempt.DefaultBusyTime, Timeout: 360,
	}
}

// A JobSpec is one submitted job: its map tasks' service times in seconds.
type JobSpec struct {
	Arrival   float64
	Durations []float64
	Prod      bool // production job (80% pool) or non-production (20% pool)
	Long      bool // the heavy-tailed long job
	Counted   bool // included in the metrics (the first 130 of 003 §VI-D)
}

// Result is one simulated run.
type Result struct {
	Ideal, Actual []float64 // response times of the counted jobs, seconds
	Metrics       preempt.Metrics
	WorkLost      float64 // slot·s killed over the whole run
	Kills         int     // tasks killed
	LongKills     int     // of which tasks of the long job
	LongLost      float64 // slot·s lost by the long job
	StarveKills   int     // tasks killed as a starving long job's (GP step 1)
	ProdKills     int     // tasks of production jobs killed
	// ServedKills counts victims from a pool that the check was freeing
	// slots for (TriggerHFS); 0 unless Config.ServedJobsOnly.
	ServedKills int
	SmallKills  int     // tasks of jobs with at most 10 maps killed
	Checks      int     // preemption checks that killed something
	Starvations int     // checks at which GP found a starving long job
	Makespan    float64 // time the last job finished
	// MeanJobs and NonProdShare are means over the checks up to the last
	// counted arrival: jobs in the system, and the fraction of the slots
	// held by non-production jobs (003 §VI-E reports "less than 5 jobs"
	// most of the time when idle and "almost 90%" non-production
	// occupancy when busy).
	MeanJobs, NonProdShare float64
	samples                float64
	Finished               int // jobs finished (all of them in a sane run)
}

const (
	evArrive = iota
	evFinish
	evCheck
)

type simTask struct {
	job     int
	dur     float64
	start   float64
	running bool
	attempt int
}

type simJob struct {
	spec          JobSpec
	first, n      int   // tasks are first … first+n−1
	next          int   // next never-started task
	retry         []int // killed tasks, rerun first (LIFO)
	running, done int
	arrived       bool
	finish        float64
	starvingSince float64
	starving      bool
	onsetOverflow int  // overflowing tasks when starvation began (GraduatedOnce)
	starveKilled  int  // starvation kills since then
	served        bool // below its share with queued tasks at the last check
}

func (j *simJob) queued() int { return j.n - j.next + len(j.retry) }

type sim struct {
	cfg    Config
	pol    Policy
	slots  int
	free   int
	jobs   []simJob
	tasks  []simTask
	q      des.Queue
	win    *preempt.OccupancyWindow
	ws     preempt.Workspace
	shares []float64
	order  []int
	live   []int // active jobs (arrived, unfinished), increasing
	// pool fair shares, demands and minimum shares (production, other)
	poolShare, poolDemand, poolMin [2]float64
	poolNeed                       [2]int // slots each pool preempts for at this check
	// last check at which each pool was at its minimum share, and at half
	// its fair share (HFS's lastTimeAtMinShare, lastTimeAtHalfFairShare)
	lastAtMin, lastAtHalf [2]float64
	act                   []int // jobs with queued tasks, for schedule
	actShare              []float64
	actRun                []int
	cluster               preempt.Cluster
	res                   Result
	lastArrival           float64 // of the counted jobs
	finished              int
}

// Simulate runs jobs on the cluster under one policy. Equal inputs give
// equal results bit for bit.
func Simulate(cfg Config, jobs []JobSpec, pol Policy) (Result, error) {
	s := &sim{cfg: cfg, pol: pol, slots: cfg.Workers * cfg.SlotsPerWorker}
	if s.slots <= 0 {
		return Result{}, fmt.Errorf("no slots: %d workers × %d", cfg.Workers, cfg.SlotsPerWorker)
	}
	s.free = s.slots
	var err error
	if s.win, err = preempt.NewOccupancyWindow(cfg.Window, cfg.BusySlots); err != nil {
		return Result{}, err
	}
	for i, spec := range jobs {
		if len(spec.Durations) == 0 {
			return Result{}, fmt.Errorf("job %d has no tasks", i)
		}
		s.jobs = append(s.jobs, simJob{spec: spec, first: len(s.tasks), n: len(spec.Durations)})
		for _, d := range spec.Durations {
			s.tasks = append(s.tasks, simTask{job: i, dur: d})
		}
		s.q.Push(des.Event{Time: spec.Arrival, Kind: evArrive, A: i})
		if spec.Counted {
			s.lastArrival = max(s.lastArrival, spec.Arrival)
		}
	}
	n := len(jobs)
	s.shares = make([]float64, n)
	s.cluster.Jobs = make([]preempt.Job, n)
	s.q.Push(des.Event{Time: cfg.CheckInterval, Kind: evCheck})
	for s.finished < n {
		e, ok := s.q.Pop()
		if !ok {
			return Result{}, fmt.Errorf("event queue empty with %d of %d jobs unfinished", n-s.finished, n)
		}
		now := e.Time
		switch e.Kind {
		case evArrive:
			s.jobs[e.A].arrived = true
			s.live = append(s.live, e.A) // arrivals come in index order
		case evFinish:
			t := &s.tasks[e.A]
			if !t.running || t.attempt != e.B {
				continue // a killed attempt
			}
			t.running = false
			j := &s.jobs[t.job]
			j.running--
			j.done++
			s.free++
			if j.done == j.n {
				j.finish = now
				s.shares[t.job] = 0
				s.live = slices.DeleteFunc(s.live, func(i int) bool { return i == t.job })
				s.finished++
				s.res.Makespan = now
			}
		case evCheck:
			if err := s.check(now); err != nil {
				return Result{}, err
			}
			s.q.Push(des.Event{Time: now + cfg.CheckInterval, Kind: evCheck})
		}
		if err := s.schedule(now); err != nil {
			return Result{}, err
		}
	}
	return s.finish(jobs)
}

// computeShares sets the fair share of each active job: the production and
// non-production pools get their minimum shares (80% / 20% of the slots,
// capped by demand), the rest is split between the pools equally up to their
// demand, and within a pool jobs get max-min fair shares of their demand
// (running + queued tasks), as the Hadoop Fair Scheduler does.
func (s *sim) computeShares() {
	c := float64(s.slots)
	var dem [2]float64
	for _, i := range s.live {
		j := &s.jobs[i]
		s.shares[i] = 0
		dem[poolOf(j)] += float64(j.running + j.queued())
	}
	minShare := [2]float64{c * s.cfg.ProdShare, c * (1 - s.cfg.ProdShare)}
	var pool [2]float64
	for p := range pool {
		pool[p] = math.Min(dem[p], minShare[p])
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
		s.waterFill(p, pool[p])
	}
	s.poolShare, s.poolDemand, s.poolMin = pool, dem, minShare
}

func poolOf(j *simJob) int {
	if j.spec.Prod {
		return 0
	}
	return 1
}

// waterFill gives the jobs of pool p max-min fair shares of capacity.
func (s *sim) waterFill(p int, capacity float64) {
	for {
		n := 0
		for _, i := range s.live {
			j := &s.jobs[i]
			if poolOf(j) == p && s.shares[i] < float64(j.running+j.queued()) {
				n++
			}
		}
		if n == 0 || capacity <= 1e-9 {
			return
		}
		each := capacity / float64(n)
		for _, i := range s.live {
			j := &s.jobs[i]
			if d := float64(j.running + j.queued()); poolOf(j) == p && s.shares[i] < d {
				add := math.Min(each, d-s.shares[i])
				s.shares[i] += add
				capacity -= add
			}
		}
	}
}

// schedule gives free slots, one at a time, to the queued job with the
// largest deficiency (003 §V; preempt.DeficiencyOrder over the jobs with
// queued tasks, ties to the earlier job).
func (s *sim) schedule(now float64) error {
	if s.free == 0 {
		return nil
	}
	s.computeShares()
	s.act, s.actShare, s.actRun = s.act[:0], s.actShare[:0], s.actRun[:0]
	for _, i := range s.live {
		if j := &s.jobs[i]; j.queued() > 0 {
			s.act = append(s.act, i)
			s.actShare = append(s.actShare, s.shares[i])
			s.actRun = append(s.actRun, j.running)
		}
	}
	for s.free > 0 && len(s.act) > 0 {
		var err error
		if s.order, err = preempt.DeficiencyOrder(s.actShare, s.actRun, s.order); err != nil {
			return err
		}
		a := s.order[0]
		i := s.act[a]
		s.launch(i, now)
		s.actRun[a]++
		if s.jobs[i].queued() == 0 {
			s.act = append(s.act[:a], s.act[a+1:]...)
			s.actShare = append(s.actShare[:a], s.actShare[a+1:]...)
			s.actRun = append(s.actRun[:a], s.actRun[a+1:]...)
		}
	}
	return nil
}

func (s *sim) launch(i int, now float64) {
	j := &s.jobs[i]
	var ti int
	if n := len(j.retry); n > 0 {
		ti, j.retry = j.retry[n-1], j.retry[:n-1]
	} else {
		ti = j.first + j.next
		j.next++
	}
	t := &s.tasks[ti]
	t.running, t.start = true, now
	t.attempt++
	j.running++
	s.free--
	s.q.Push(des.Event{Time: now + t.dur, Kind: evFinish, A: ti, B: t.attempt})
}

// slotsToFree is the number of slots preemption must find at a check, before
// subtracting the free ones, and it marks the jobs being served.
//
// TriggerHFS (default) follows the Hadoop Fair Scheduler's preemption rule
// (HADOOP-4665, the HFS the paper builds on): a pool below its minimum share
// (80% production, 20% other, capped by demand) may take back up to it, and
// a pool below half its fair share up to its fair share, once it has been
// short for longer than Config.PreemptTimeout (the paper gives no timeouts;
// the default 0 acts at the first check that sees the deficit). The whole
// short pool is protected (NoPreempt) unless Config.ServedJobsOnly.
//
// TriggerJobShare (the -trigger=jobshare ablation) makes every job below its
// own fair share with queued tasks demand the difference at every check.
func (s *sim) slotsToFree(now float64) int {
	var running [2]int
	for _, i := range s.live {
		running[poolOf(&s.jobs[i])] += s.jobs[i].running
	}
	var poolNeed [2]int
	for p := range poolNeed {
		r := float64(running[p])
		target := 0.0
		if r < math.Min(s.poolMin[p], s.poolDemand[p]) {
			if now-s.lastAtMin[p] > s.cfg.PreemptTimeout {
				target = math.Min(s.poolMin[p], s.poolDemand[p])
			}
		} else {
			s.lastAtMin[p] = now
		}
		if r < s.poolShare[p]/2 {
			if now-s.lastAtHalf[p] > s.cfg.PreemptTimeout {
				target = math.Max(target, math.Min(s.poolShare[p], s.poolDemand[p]))
			}
		} else {
			s.lastAtHalf[p] = now
		}
		poolNeed[p] = max(0, int(math.Floor(target-r)))
	}
	need := 0
	for i := range s.jobs {
		s.jobs[i].served = false
	}
	for _, i := range s.live {
		j := &s.jobs[i]
		d := int(math.Floor(s.shares[i])) - j.running
		if j.queued() == 0 || d <= 0 {
			continue
		}
		switch s.cfg.Trigger {
		case TriggerJobShare:
			need += min(d, j.queued())
			j.served = true
		default:
			if poolNeed[poolOf(j)] > 0 {
				j.served = true
			}
		}
	}
	s.poolNeed = poolNeed
	if s.cfg.Trigger == TriggerHFS && !s.cfg.ServedJobsOnly {
		// The whole pool being preempted for is protected, as in HFS's
		// preemptTasks (victims only from pools above their fair share)
		// and 003 §IV ("preempt a fraction of tasks from each
		// non-production job" when a production job arrives): a task of
		// the short pool would hand its slot back to the same pool.
		for _, i := range s.live {
			if j := &s.jobs[i]; poolNeed[poolOf(j)] > 0 {
				j.served = true
			}
		}
	}
	if s.cfg.Trigger == TriggerJobShare {
		return need
	}
	return poolNeed[0] + poolNeed[1]
}

// check is one preemption check (every CheckInterval): k is the slots to
// free beyond the free ones (slotsToFree); the policy chooses the victims.
func (s *sim) check(now float64) error {
	if err := s.win.Add(now, s.slots-s.free, s.slots); err != nil {
		return err
	}
	s.computeShares()
	k := s.slotsToFree(now) - s.free
	prodRunning := 0
	for i := range s.jobs {
		if s.jobs[i].spec.Prod {
			prodRunning += s.jobs[i].running
		}
	}
	if now <= s.lastArrival {
		s.res.samples++
		s.res.MeanJobs += float64(len(s.live))
		s.res.NonProdShare += float64(s.slots-s.free-prodRunning) / float64(s.slots)
	}
	s.cluster.Now = now
	s.cluster.Tasks = s.cluster.Tasks[:0]
	for ti := range s.tasks {
		if t := &s.tasks[ti]; t.running {
			s.cluster.Tasks = append(s.cluster.Tasks, preempt.Task{ID: int64(ti), Job: t.job, Start: t.start, Slots: 1})
		}
	}
	for i := range s.jobs {
		j := &s.jobs[i]
		starvingFor := 0.0
		if j.starving {
			starvingFor = now - j.starvingSince
		}
		s.cluster.Jobs[i] = preempt.Job{
			Share:  s.shares[i],
			Queued: j.queued(),
			Long:   j.spec.Long,
			// The jobs the slots are freed for (below their share with
			// queued tasks) never lose tasks; every other running task is
			// a candidate, as 003 §V's "all the running tasks".
			NoPreempt:   j.served || (s.cfg.OverShareOnly && float64(j.running) <= s.shares[i]),
			StarvingFor: starvingFor,
		}
	}
	var d preempt.Decision
	var err error
	switch s.pol {
	case Baseline:
		d, err = s.ws.Baseline(s.cluster, max(k, 0))
	case GP:
		// n_task: 003 §V with π = 0.5 — the queue must stay below the slots
		// available to non-production jobs.
		opt := preempt.GPOptions{
			Busy:    s.win.Busy(s.cfg.BusyTime) && !s.cfg.NoStarvation,
			NTask:   float64(s.slots - prodRunning),
			Timeout: s.cfg.Timeout,
			// Algorithm 1 lines 3–6 as written: a starving long job's
			// victims are returned even beyond k and when k = 0, "to make
			// room for other jobs" (003 §VI-E).
			StarvationBeyondK: !s.cfg.StarvationAtK,
		}
		if s.cfg.GraduatedOnce {
			if err := s.graduateOnce(now, &opt); err != nil {
				return err
			}
		}
		d, err = s.ws.GP(s.cluster, max(k, 0), opt)
		if !s.cfg.GraduatedOnce {
			s.track(now, d.Starving)
		}
	}
	if err != nil {
		return err
	}
	if len(d.Victims) > 0 {
		s.res.Checks++
	}
	for _, v := range d.Victims {
		t := &s.tasks[v.ID]
		j := &s.jobs[t.job]
		t.running = false
		j.running--
		j.retry = append(j.retry, int(v.ID))
		s.free++
		s.res.Kills++
		if j.spec.Long {
			s.res.LongKills++
			s.res.LongLost += v.WorkLost
		}
		if j.spec.Prod {
			s.res.ProdKills++
		}
		if s.cfg.Trigger == TriggerHFS && s.poolNeed[poolOf(j)] > 0 {
			s.res.ServedKills++
		}
		if j.n <= 10 {
			s.res.SmallKills++
		}
		if v.Reason == preempt.StarvingLongJob {
			s.res.StarveKills++
			j.starveKilled++
		}
		s.res.WorkLost += v.WorkLost
	}
	return nil
}

// graduateOnce is the -graduated once reading of 003 §V: before T_timeout
// at most ⌈50%⌉ of the overflowing tasks the long job had when its
// starvation began are killed in all, not 50% of what still overflows at
// every check. It finds who starves now (a GP call with k = 0 that kills
// nothing), updates the starvation clocks, and sets opt so that step 1
// takes only what is left of that allowance. It needs one long job at most
// (the Table III scenario has one).
func (s *sim) graduateOnce(now float64, opt *preempt.GPOptions) error {
	dry := *opt
	dry.StarvationBeyondK = false
	d, err := s.ws.GP(s.cluster, 0, dry)
	if err != nil {
		return err
	}
	for _, i := range d.Starving {
		if j := &s.jobs[i]; !j.starving {
			j.onsetOverflow = j.running - int(math.Ceil(s.shares[i]))
			j.starveKilled = 0
		}
	}
	s.track(now, d.Starving)
	for _, i := range d.Starving {
		j := &s.jobs[i]
		s.cluster.Jobs[i].StarvingFor = now - j.starvingSince
		if now-j.starvingSince >= s.cfg.Timeout {
			continue // GP kills all of them from T_timeout on
		}
		left := (j.onsetOverflow+1)/2 - j.starveKilled // ⌈50%⌉ of the onset overflow
		over := j.running - int(math.Ceil(s.shares[i]))
		switch {
		case left <= 0:
			opt.Busy = false // nothing more before T_timeout
		case over > 0:
			opt.KillFraction = min(1, (float64(left)-0.5)/float64(over)) // ⌈·⌉ gives left
		}
	}
	return nil
}

// track keeps how long each long job has starved others, for the graduated
// kill.
func (s *sim) track(now float64, starving []int) {
	if len(starving) > 0 {
		s.res.Starvations++
	}
	k := 0
	for i := range s.jobs {
		j := &s.jobs[i]
		on := k < len(starving) && starving[k] == i
		if on {
			k++
			if !j.starving {
				j.starving, j.starvingSince = true, now
			}
		} else {
			j.starving = false
		}
	}
}

func (s *sim) finish(jobs []JobSpec) (Result, error) {
	r := s.res
	if r.samples > 0 {
		r.MeanJobs /= r.samples
		r.NonProdShare /= r.samples
	}
	for i := range s.jobs {
		j := &s.jobs[i]
		r.Finished++
		if !jobs[i].Counted {
			continue
		}
		r.Ideal = append(r.Ideal, IdealTime(jobs[i].Durations, s.slots))
		r.Actual = append(r.Actual, j.finish-jobs[i].Arrival)
	}
	var err error
	r.Metrics, err = preempt.Evaluate(r.Ideal, r.Actual)
	return r, err
}

// IdealTime is a job's response time with exclusive use of the cluster
// (003 §VI-D): its tasks list-scheduled in order on all slots.
func IdealTime(durations []float64, slots int) float64 {
	var q des.Queue
	for range min(slots, len(durations)) {
		q.Push(des.Event{Time: 0})
	}
	end := 0.0
	for _, d := range durations {
		e, _ := q.Pop()
		f := e.Time + d
		end = math.Max(end, f)
		q.Push(des.Event{Time: f})
	}
	return end
}
