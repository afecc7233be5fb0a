package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/internal/enumname"
	"github.com/schedkit/schedkit/preempt"
)

// Policy is the preemption policy under test.
type Policy int

const (
	// Baseline is the Fair Scheduler's own preemption (preempt.Baseline on
	// the model's pools: victims newest first from pools above their fair
	// share, never taking a pool below it).
	Baseline Policy = iota
	// GP is Global Preemption (GP Algorithm 1) on top of the Fair Scheduler
	// with its preemption off: the Fair Scheduler's trigger says how many
	// slots to free, GP chooses the victims, and the starvation rule runs as
	// Config.Starvation says.
	GP
	// GPNoStarvation is GP without its starvation rule (an ablation):
	// Algorithm 1's lines 8–9 alone.
	GPNoStarvation
)

// policies lists every policy in report order.
var policies = []Policy{Baseline, GP, GPNoStarvation}

// String returns "baseline", "GP" or "GP-no-starvation", the -json names.
func (p Policy) String() string { return enumname.Of(p, "Policy", policyNames[:]) }

var policyNames = [...]string{Baseline: "baseline", GP: "GP", GPNoStarvation: "GP-no-starvation"}

// Config is the simulated cluster (GP §VI-A, §VI-D) and the Fair Scheduler
// model. DefaultConfig gives the example's defaults.
type Config struct {
	Workers, SlotsPerWorker int     // 100 × 4 map slots
	ProdShare               float64 // production pool's minimum share of the slots, 0.8
	CheckInterval           float64 // preemption interval, 20 s (GP §VI-D)
	// Window is the occupancy window of starvation condition (2) and the
	// period over which starvation is judged: 3 minutes (GP §V). It must be
	// a whole number of check intervals.
	Window              float64
	BusySlots, BusyTime float64 // p = 0.9, t = 0.8 (GP §V)
	Timeout             float64 // T_timeout, 360 s ("after 2 periods (6 minutes)", GP §VI-E)
	// Model is the Fair Scheduler configuration: each job its own pool, or a
	// production and a non-production pool.
	Model Model
	// MinShareTimeout and FairShareTimeout are the Fair Scheduler's
	// minSharePreemptionTimeout and fairSharePreemptionTimeout in seconds: a
	// pool preempts once it has been below its minimum share, or below half
	// its fair share, for longer than this. Hadoop's default for both is
	// Long.MAX_VALUE (never preempt); 300 s and 600 s are the values of its
	// sample allocation file; 0 acts at the first check (an ablation).
	MinShareTimeout, FairShareTimeout float64
	// Starvation is how GP judges a long job starving others.
	Starvation StarvationRule
	// StarvationWithinK, an ablation, stops GP's starvation victims at the
	// Fair Scheduler's k (preempt.GPOptions.StarvationBeyondK false). False,
	// the default, follows Algorithm 1 line 5 as written: every starvation
	// victim is killed, beyond k and when k = 0.
	StarvationWithinK bool

	// inspect, when set (tests), sees every cluster handed to preempt and
	// the decision; owner[j] is the simulated job behind Cluster.Jobs[j],
	// or −1−p for the class pool p of the two-pool model.
	inspect func(now float64, c preempt.Cluster, owner []int, d preempt.Decision)
}

// DefaultConfig is the example's default setting.
func DefaultConfig() Config {
	return Config{
		Workers: 100, SlotsPerWorker: 4, ProdShare: 0.8, CheckInterval: 20,
		Window: preempt.DefaultWindow, BusySlots: preempt.DefaultBusySlots,
		BusyTime: preempt.DefaultBusyTime, Timeout: 360,
		Model: PerJob, MinShareTimeout: 300, FairShareTimeout: 600,
		Starvation: PerPeriod,
	}
}

// A JobSpec is one submitted job: its map tasks' service times in seconds.
type JobSpec struct {
	// Arrival is the submission time; ignored when After ≥ 0.
	Arrival   float64
	Durations []float64
	Prod      bool // production job (80% pool) or non-production (20% pool)
	Long      bool // the heavy-tailed long job
	Counted   bool // included in the metrics
	// After is the index of the job whose completion submits this one (the
	// second and third jobs of a Join instance), or −1.
	After int
	App   string // application, for the mixed workload; "" otherwise
}

// Result is one simulated run.
type Result struct {
	Ideal, Actual []float64 // response times of the counted jobs, seconds
	// Arrivals and Finishes are every job's submission and completion
	// times, seconds (a Join stage is submitted when its predecessor
	// finishes).
	Arrivals, Finishes []float64
	Metrics            preempt.Metrics
	WorkLost           float64 // slot·s killed over the whole run
	Kills              int     // tasks killed
	// ByReason counts the kills by preempt.Reason (index 1 overflow, 2
	// starving long job, 3 most recent).
	ByReason [4]int
	// LostBySource and KillsBySource are the work lost (slot·s) and the
	// kills by what they were made for (see Source and account; a kill
	// freed for both kinds of Fair Scheduler preemption counts in part for
	// each). BeyondKills and BeyondLost are the starvation rule's kills
	// beyond the Fair Scheduler's k, and their work.
	LostBySource, KillsBySource [numSources]float64
	BeyondKills                 int
	BeyondLost                  float64
	LongKills                   int     // tasks of the long job killed
	LongLost                    float64 // slot·s lost by the long job
	ProdKills                   int     // tasks of production jobs killed
	// ProtectedKills counts victims from a job or pool the check was
	// freeing slots for: always 0 (preempt's NoPreempt), kept as a check.
	ProtectedKills int
	SmallKills     int // tasks of jobs with at most 10 maps killed
	Checks         int // preemption checks that killed something
	// Episodes counts the onsets of starvation (a long job judged starving
	// others at a judgement after one where it was not); StarvingJudged
	// counts the judgements that found it. Both are judged under every
	// policy; only GP acts on them.
	Episodes, StarvingJudged int
	Makespan                 float64 // time the last job finished
	// MeanJobs, Occupancy and NonProdShare are means over the checks up to
	// the last counted arrival: jobs in the system, and the fractions of
	// the slots held by all jobs and by non-production jobs (GP §VI-E
	// reports "less than 5 jobs" most of the time when idle and "almost
	// 90%" non-production occupancy when busy).
	MeanJobs, Occupancy, NonProdShare float64
	samples                           float64
	Finished                          int // jobs finished (all of them in a sane run)
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
	finished      bool
	arrival       float64
	finish        float64
	succ          int    // the job submitted when this one finishes, or −1
	fs            fsPool // per-job model
	protected     bool   // in a pool being preempted for at this check
	// starvation, judged under every policy
	starving      bool
	since         float64 // onset of the current episode
	onsetOverflow int     // overflowing tasks at the onset
	starveKilled  int     // starvation kills since the onset
	qsum          float64 // Σ queued over the current period's checks
}

// queued is the job's tasks waiting for a slot; 0 before it arrives and
// after it finishes.
func (j *simJob) queued() int {
	if !j.arrived || j.finished {
		return 0
	}
	return j.n - j.next + len(j.retry)
}

func (j *simJob) demand() int { return j.running + j.queued() }

type sim struct {
	cfg      Config
	pol      Policy
	slots    int
	free     int
	perJudge int // checks per starvation period
	checks   int
	jobs     []simJob
	tasks    []simTask
	q        des.Queue
	win      *preempt.OccupancyWindow
	ws       preempt.Workspace
	shares   []float64
	minShare []float64
	order    []int
	live     []int // jobs arrived and not finished, increasing
	// class pools: production (0) and non-production (1)
	class    [2]fsPool
	classMin [2]float64
	queued   []int // scratch for judge
	byClass  [2][]classJob
	wf       []classJob // scratch for waterFill
	act      []int      // jobs with queued tasks, for schedule
	pick     []int      // positions in act of the jobs schedule chooses among
	actShare []float64
	actRun   []int
	// need is the slots the Fair Scheduler's trigger asks for at this
	// check, by the timeout that made each pool preempt.
	need    [2]int
	cluster preempt.Cluster
	owner   []int // simulated job behind each cluster job
	cidx    []int // cluster index of each simulated job, or −1
	pools   preempt.Cluster
	// period sums for the starvation judgement
	periodChecks float64
	ntaskSum     float64
	res          Result
	lastArrival  float64 // of the counted jobs
	finished     int
}

// Simulate runs jobs on the cluster under one policy. Equal inputs give
// equal results bit for bit.
func Simulate(cfg Config, jobs []JobSpec, pol Policy) (Result, error) {
	s := &sim{cfg: cfg, pol: pol, slots: cfg.Workers * cfg.SlotsPerWorker}
	if s.slots <= 0 {
		return Result{}, fmt.Errorf("no slots: %d workers × %d", cfg.Workers, cfg.SlotsPerWorker)
	}
	if !(cfg.CheckInterval > 0) || !(cfg.Window >= cfg.CheckInterval) {
		return Result{}, fmt.Errorf("check interval %v s and window %v s: need 0 < interval ≤ window", cfg.CheckInterval, cfg.Window)
	}
	s.perJudge = int(math.Round(cfg.Window / cfg.CheckInterval))
	if math.Abs(float64(s.perJudge)*cfg.CheckInterval-cfg.Window) > 1e-9*cfg.Window {
		return Result{}, fmt.Errorf("window %v s is not a whole number of %v s checks", cfg.Window, cfg.CheckInterval)
	}
	if !(cfg.MinShareTimeout >= 0) || !(cfg.FairShareTimeout >= 0) || !(cfg.Timeout >= 0) {
		return Result{}, fmt.Errorf("timeouts must be ≥ 0: min share %v, fair share %v, T_timeout %v", cfg.MinShareTimeout, cfg.FairShareTimeout, cfg.Timeout)
	}
	s.free = s.slots
	var err error
	if s.win, err = preempt.NewOccupancyWindow(cfg.Window, cfg.BusySlots); err != nil {
		return Result{}, err
	}
	long := 0
	for i, spec := range jobs {
		if len(spec.Durations) == 0 {
			return Result{}, fmt.Errorf("job %d has no tasks", i)
		}
		if spec.After < -1 || spec.After >= i {
			return Result{}, fmt.Errorf("job %d follows job %d: want −1 or an earlier job", i, spec.After)
		}
		if spec.Long {
			long++
		}
		s.jobs = append(s.jobs, simJob{spec: spec, first: len(s.tasks), n: len(spec.Durations), succ: -1})
		for _, d := range spec.Durations {
			if !(d > 0) || math.IsInf(d, 1) {
				return Result{}, fmt.Errorf("job %d: task time %v s must be finite and > 0", i, d)
			}
			s.tasks = append(s.tasks, simTask{job: i, dur: d})
		}
		if spec.After >= 0 {
			if s.jobs[spec.After].succ >= 0 {
				return Result{}, fmt.Errorf("job %d: two jobs follow it", spec.After)
			}
			s.jobs[spec.After].succ = i
			continue
		}
		s.q.Push(des.Event{Time: spec.Arrival, Kind: evArrive, A: i})
		if spec.Counted {
			s.lastArrival = max(s.lastArrival, spec.Arrival)
		}
	}
	if long > 1 && cfg.Starvation == PerPeriod {
		return Result{}, fmt.Errorf("%d long jobs: the per-period starvation rule keeps one kill allowance, for one long job", long)
	}
	n := len(jobs)
	s.shares = make([]float64, n)
	s.minShare = make([]float64, n)
	s.cidx = make([]int, n)
	s.classMin = [2]float64{float64(s.slots) * cfg.ProdShare, float64(s.slots) * (1 - cfg.ProdShare)}
	s.q.Push(des.Event{Time: cfg.CheckInterval, Kind: evCheck})
	for s.finished < n {
		e, ok := s.q.Pop()
		if !ok {
			return Result{}, fmt.Errorf("event queue empty with %d of %d jobs unfinished", n-s.finished, n)
		}
		now := e.Time
		switch e.Kind {
		case evArrive:
			s.arrive(e.A, now)
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
				s.complete(t.job, now)
			}
		case evCheck:
			if err := s.check(now); err != nil {
				return Result{}, err
			}
			s.q.Push(des.Event{Time: now + cfg.CheckInterval, Kind: evCheck})
		}
		s.computeShares()
		if err := s.schedule(now); err != nil {
			return Result{}, err
		}
		s.updateTimers(now)
	}
	return s.finish(jobs)
}

func (s *sim) arrive(i int, now float64) {
	j := &s.jobs[i]
	j.arrived, j.arrival = true, now
	// A new pool starts its preemption clocks at its creation, as Hadoop's
	// PoolSchedulable does.
	j.fs.lastAtMin, j.fs.lastAtHalf = now, now
	k, _ := slices.BinarySearch(s.live, i)
	s.live = slices.Insert(s.live, k, i)
}

func (s *sim) complete(i int, now float64) {
	j := &s.jobs[i]
	j.finished, j.finish = true, now
	j.starving = false
	s.shares[i], s.minShare[i] = 0, 0
	k, _ := slices.BinarySearch(s.live, i)
	s.live = slices.Delete(s.live, k, k+1)
	s.finished++
	s.res.Makespan = now
	if j.succ >= 0 {
		s.arrive(j.succ, now)
	}
}

// schedule gives free slots, one at a time, to a job with queued tasks, as
// the Fair Scheduler orders them (needyRatio): the jobs whose pool is below
// its minimum share first, the pool furthest below it (lowest running /
// minimum share) before the others; among the jobs left, the one of largest
// deficiency (GP §V; preempt.DeficiencyOrder, ties to the earlier job).
func (s *sim) schedule(now float64) error {
	if s.free == 0 {
		return nil
	}
	s.act = s.act[:0]
	for _, i := range s.live {
		if s.jobs[i].queued() > 0 {
			s.act = append(s.act, i)
		}
	}
	classRun := s.classRunning()
	for s.free > 0 && len(s.act) > 0 {
		best := math.Inf(1) // lowest ratio of a needy pool
		for _, i := range s.act {
			if r, ok := s.needyRatio(i, classRun); ok {
				best = math.Min(best, r)
			}
		}
		s.pick, s.actShare, s.actRun = s.pick[:0], s.actShare[:0], s.actRun[:0]
		for a, i := range s.act {
			if r, ok := s.needyRatio(i, classRun); math.IsInf(best, 1) || (ok && r == best) {
				s.pick = append(s.pick, a)
				s.actShare = append(s.actShare, s.shares[i])
				s.actRun = append(s.actRun, s.jobs[i].running)
			}
		}
		var err error
		if s.order, err = preempt.DeficiencyOrder(s.actShare, s.actRun, s.order); err != nil {
			return err
		}
		a := s.pick[s.order[0]]
		i := s.act[a]
		s.launch(i, now)
		classRun[poolOf(&s.jobs[i])]++
		if s.jobs[i].queued() == 0 {
			s.act = append(s.act[:a], s.act[a+1:]...)
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

// check is one preemption check (every CheckInterval): the Fair Scheduler's
// trigger says how many slots to free, the starvation judge runs, and the
// policy chooses the victims.
func (s *sim) check(now float64) error {
	if err := s.win.Add(now, s.slots-s.free, s.slots); err != nil {
		return err
	}
	s.checks++
	s.computeShares()
	s.updateTimers(now)
	k := max(0, s.trigger(now)-s.free)
	prodRunning := s.classRunning()[0]
	if now <= s.lastArrival {
		s.res.samples++
		s.res.MeanJobs += float64(len(s.live))
		s.res.Occupancy += float64(s.slots-s.free) / float64(s.slots)
		s.res.NonProdShare += float64(s.slots-s.free-prodRunning) / float64(s.slots)
	}
	s.buildCluster(now)
	opt, err := s.judge(now, prodRunning)
	if err != nil {
		return err
	}
	var d preempt.Decision
	c, owner := s.cluster, s.owner
	switch s.pol {
	case Baseline:
		if s.cfg.Model == TwoPool {
			s.buildPools(now)
			c, owner = s.pools, poolOwners[:]
		}
		d, err = s.ws.Baseline(c, k)
	case GP:
		d, err = s.ws.GP(c, k, opt)
	case GPNoStarvation:
		opt.Busy = false
		d, err = s.ws.GP(c, k, opt)
	}
	if err != nil {
		return err
	}
	if s.cfg.inspect != nil {
		s.cfg.inspect(now, c, owner, d)
	}
	if len(d.Victims) > 0 {
		s.res.Checks++
	}
	s.account(k, d)
	for _, v := range d.Victims {
		t := &s.tasks[v.ID]
		j := &s.jobs[t.job]
		t.running = false
		j.running--
		j.retry = append(j.retry, int(v.ID))
		s.free++
		s.res.Kills++
		s.res.ByReason[v.Reason]++
		if j.spec.Long {
			s.res.LongKills++
			s.res.LongLost += v.WorkLost
		}
		if j.spec.Prod {
			s.res.ProdKills++
		}
		if j.protected {
			s.res.ProtectedKills++
		}
		if j.n <= 10 {
			s.res.SmallKills++
		}
		if v.Reason == preempt.ReasonStarvingLongJob {
			j.starveKilled++
		}
		s.res.WorkLost += v.WorkLost
	}
	return nil
}

// buildCluster fills s.cluster with the jobs in the system (arrived, not
// finished) and their running tasks: a job that has not arrived or has
// finished is no input to preempt. Queued is each job's waiting tasks now;
// judge replaces it with the period's mean at a per-period judgement.
func (s *sim) buildCluster(now float64) {
	s.cluster.Now = now
	s.cluster.Tasks = s.cluster.Tasks[:0]
	s.cluster.Jobs = s.cluster.Jobs[:0]
	s.owner = s.owner[:0]
	for i := range s.cidx {
		s.cidx[i] = -1
	}
	for _, i := range s.live {
		j := &s.jobs[i]
		c := len(s.cluster.Jobs)
		s.cidx[i] = c
		s.owner = append(s.owner, i)
		starvingFor := 0.0
		if j.starving {
			starvingFor = now - j.since
		}
		s.cluster.Jobs = append(s.cluster.Jobs, preempt.Job{
			Share: s.shares[i], Queued: j.queued(), Long: j.spec.Long,
			NoPreempt: j.protected, StarvingFor: starvingFor,
		})
		for ti := j.first; ti < j.first+j.n; ti++ {
			if t := &s.tasks[ti]; t.running {
				s.cluster.Tasks = append(s.cluster.Tasks, preempt.Task{ID: int64(ti), Job: c, Start: t.start, Slots: 1})
			}
		}
	}
}

func (s *sim) finish(jobs []JobSpec) (Result, error) {
	r := s.res
	if r.samples > 0 {
		r.MeanJobs /= r.samples
		r.Occupancy /= r.samples
		r.NonProdShare /= r.samples
	}
	for i := range s.jobs {
		j := &s.jobs[i]
		r.Finished++
		r.Arrivals = append(r.Arrivals, j.arrival)
		r.Finishes = append(r.Finishes, j.finish)
		if !jobs[i].Counted {
			continue
		}
		r.Ideal = append(r.Ideal, IdealTime(jobs[i].Durations, s.slots))
		r.Actual = append(r.Actual, j.finish-j.arrival)
	}
	var err error
	r.Metrics, err = preempt.Evaluate(r.Ideal, r.Actual)
	return r, err
}

// IdealTime is a job's response time with exclusive use of the cluster
// (GP §VI-D): its tasks list-scheduled in order on all slots.
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
