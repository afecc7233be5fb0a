package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/progressshare"
)

// A NodeSpec is one node of a scenario's cluster.
type NodeSpec struct {
	Type, Rack, Slots int
}

// A JobSpec is one job: it arrives, has Tasks tasks (one input block each)
// and TaskTime[t] seconds of processing per task on node type t (the truth
// the scheduler learns by calibration: CR = 1/TaskTime).
type JobSpec struct {
	Name     string
	Arrival  float64
	Tasks    int
	TaskTime []float64
}

// A Scenario is a cluster and a workload.
type Scenario struct {
	Name        string
	TypeNames   []string
	Nodes       []NodeSpec
	Jobs        []JobSpec
	Options     progressshare.Options
	Replication int     // replicas per block, on distinct random nodes
	Heartbeat   float64 // seconds between re-offers of slots left free while tasks wait
	Seed        uint64  // replica placement
	Trace       bool    // record progress and shares at every event

	// ShuffleOffers offers the free slots of each instant in a random order
	// (drawn from Seed) instead of slot order.
	ShuffleOffers bool

	// Spread is the task-time variation: each task's processing time is
	// its job's TaskTime on the slot's node type times a factor drawn
	// uniformly from [1 − Spread, 1 + Spread], once per task (from Seed,
	// the same under every policy). 0: every task of a job takes exactly
	// TaskTime.
	Spread float64

	// Affinity is the factor of the affinity rule (progressshare
	// Options.AffinityFactor) for the affinity policies.
	Affinity float64

	// Seeds is how many seeds (Seed, Seed+1, …) the scenario is run with;
	// results are averaged over them. 0 or 1: one run.
	Seeds int

	// Calibration is the rate the scheduler records for a job on a node
	// type when the job's first task there finishes (CalibrateKnown, the
	// default, CalibrateFirstTask or CalibrateMean).
	Calibration string

	// RatesKnown gives every job its true rates (1/TaskTime) on arrival, as
	// from earlier runs of the same job (§4.2's job history): no job
	// calibrates. Otherwise jobs calibrate (see Calibration).
	RatesKnown bool

	// Describe says in one line what the scenario is; Paper what the
	// thesis reports for it (printed with its table).
	Describe, Paper string

	// Stats describes the trace a trace scenario was built from (nil for
	// the others).
	Stats *TraceStats

	// Note says why the scenario shows what it shows, when its tables need
	// it (printed under them, and in the JSON).
	Note string
}

// Calibrations: what rate a job's calibration records on a node type.
const (
	// CalibrateKnown records the job's true mean rate there, 1/TaskTime:
	// rates known as from earlier runs of the job (§4.2's job history);
	// the spread of task times does not reach the rates.
	CalibrateKnown = "known"
	// CalibrateFirstTask records 1/(processing time of that first task),
	// §4.3.1.4 taken literally: one measured task per node type.
	CalibrateFirstTask = "first-task"
	// CalibrateMean records 1/(mean processing time of the job's finished
	// tasks there), refined at every finish.
	CalibrateMean = "mean"
)

// Policies: Algorithm 1 (slot share), Algorithm 2 (progress share) and
// Algorithm 2 with the affinity rule of §4.3.1.4, unbounded and bounded.
const (
	SlotShare            = "slot-share"
	ProgressShare        = "progress-share"
	ProgressShareAff     = "progress-share+affinity"
	ProgressShareBounded = "progress-share+affinity-bounded"
)

// Policies lists every policy in report order.
var Policies = []string{SlotShare, ProgressShare, ProgressShareAff, ProgressShareBounded}

// options returns the scheduler options of policy.
func options(sc Scenario, policy string) progressshare.Options {
	o := sc.Options
	switch policy {
	case ProgressShareAff:
		o.AffinityFactor = sc.Affinity
	case ProgressShareBounded:
		o.AffinityFactor, o.AffinityBounded = sc.Affinity, true
	}
	return o
}

// A Sample is the state at one instant: per job, the fraction of its tasks
// finished, its progress share (with the true rates) and its slot share.
type Sample struct {
	Time               float64
	Progress, PS, Slot []float64
}

// A Result is one scenario run under one policy.
type Result struct {
	Scenario, Policy string
	Finish           []float64 // per job, seconds since the start
	Completion       []float64 // per job, Finish − Arrival
	Samples          []Sample  // when Scenario.Trace
	// PSSpread is the time-weighted mean, over instants with at least two
	// jobs holding slots or waiting, of the standard deviation of the
	// progress share across those jobs; PSRange the same for max − min.
	PSSpread, PSRange float64
	// Held[i][t] is the mean number of slots of node type t that job i ran
	// tasks on while at least two jobs had pending tasks (time-weighted;
	// nil for scenarios of more than maxHeldJobs jobs).
	Held         [][]float64
	Decisions    int
	PeakBusy     int // most slots busy at once
	Waits        int // decisions where every job declined the slot
	Calibrations int // launches of calibrating jobs on a type they had no rate for
	// IdleSlotS is the slot-seconds left free while some job had a pending
	// task: slots every job declined (Algorithm 2's delay rule).
	IdleSlotS        float64
	AffinityLaunches int // launches where the affinity rule passed over Algorithm 2's job
}

// maxHeldJobs is the most jobs a scenario may have for Result.Held.
const maxHeldJobs = 8

const (
	evArrive = iota
	evFinish
	evRetry
)

// Run simulates sc under policy with the discrete-event queue: every event
// (arrival, task finish, heartbeat) offers each free slot, in slot order (or
// shuffled, see Scenario.ShuffleOffers), to the picker.
func Run(sc Scenario, policy string) (Result, error) {
	var slots []progressshare.Slot
	for n, nd := range sc.Nodes {
		for range nd.Slots {
			slots = append(slots, progressshare.Slot{Node: n, Type: nd.Type, Rack: nd.Rack})
		}
	}
	alg2 := policy != SlotShare
	s, err := progressshare.NewScheduler(slots, options(sc, policy))
	if err != nil {
		return Result{}, err
	}
	T := s.NumTypes()
	rng := rand.New(rand.NewPCG(sc.Seed, 0x5eed))
	// Task-time factors come from their own stream, drawn up front, so that
	// task k of a job takes the same time (on a given node type) under
	// every policy.
	trng := rand.New(rand.NewPCG(sc.Seed, 0x7a5c))
	factor := make([][]float64, len(sc.Jobs))
	for i, js := range sc.Jobs {
		factor[i] = make([]float64, js.Tasks)
		for k := range factor[i] {
			factor[i][k] = 1 + sc.Spread*(2*trng.Float64()-1)
		}
	}
	sumTook := make([][]float64, len(sc.Jobs)) // per job and node type: processing times of finished tasks
	nTook := make([][]int, len(sc.Jobs))
	for i := range sumTook {
		sumTook[i] = make([]float64, T)
		nTook[i] = make([]int, T)
	}
	taskOf := make([][]int, 0, len(sc.Jobs)) // per arrived job: the task of each pending block
	nj := len(sc.Jobs)
	jobs := make([]progressshare.Job, 0, nj) // jobs that have arrived
	idOf := make([]int, 0, nj)               // scenario index of jobs[k]
	done := make([]int, nj)
	res := Result{Scenario: sc.Name, Policy: policy, Finish: make([]float64, nj), Completion: make([]float64, nj)}
	slotJob := make([]int, len(slots))     // scenario job index on the slot, −1 when free
	busyFor := make([]float64, len(slots)) // processing time of the task on the slot
	for i := range slotJob {
		slotJob[i] = -1
	}
	kOf := make([]int, nj) // position in jobs, −1 before arrival
	for i := range kOf {
		kOf[i] = -1
	}
	var q des.Queue
	for i, js := range sc.Jobs {
		if len(js.TaskTime) != T || js.Tasks <= 0 {
			return Result{}, fmt.Errorf("job %s: %d task times for %d node types, %d tasks", js.Name, len(js.TaskTime), T, js.Tasks)
		}
		q.Push(des.Event{Time: js.Arrival, Kind: evArrive, A: i})
	}
	replicas := func() []int {
		k := min(sc.Replication, len(sc.Nodes))
		out := make([]int, 0, k)
		for len(out) < k {
			n := rng.IntN(len(sc.Nodes))
			if !contains(out, n) {
				out = append(out, n)
			}
		}
		return out
	}
	retryPending := false
	order := make([]int, len(slots))
	for i := range order {
		order[i] = i
	}
	rt := sc.Options.ReadTime
	// With equal read times Algorithm 2's Pref depends on the node type
	// only; Algorithm 1 still waits by locality (d1, d2), so it keys by node.
	flatRead := rt[progressshare.NodeLocal] == rt[progressshare.Remote] && alg2
	declinedAt := make([]int, len(sc.Nodes)+T)
	stamp, busy := 0, 0
	lastT, spreadArea, rangeArea, spreadTime := 0.0, 0.0, 0.0, 0.0
	curSpread, curRange, active := 0.0, 0.0, 0
	contended, waiting, contendedTime := false, false, 0.0
	small := nj <= maxHeldJobs // Held costs O(jobs × types) per event
	heldArea := make([][]float64, nj)
	for i := range heldArea {
		heldArea[i] = make([]float64, T)
	}
	for q.Len() > 0 {
		e, _ := q.Pop()
		now := e.Time
		if waiting {
			res.IdleSlotS += float64(len(slots)-busy) * (now - lastT)
		}
		if contended && small {
			for k, j := range jobs {
				for t, n := range j.Running {
					heldArea[idOf[k]][t] += float64(n) * (now - lastT)
				}
			}
			contendedTime += now - lastT
		}
		if active >= 2 {
			spreadArea += curSpread * (now - lastT)
			rangeArea += curRange * (now - lastT)
			spreadTime += now - lastT
		}
		lastT = now
		switch e.Kind {
		case evArrive:
			js := sc.Jobs[e.A]
			j := progressshare.Job{Weight: 1, Running: make([]int, T), LastLaunch: now}
			if alg2 {
				j.Rates = make([]float64, T)
				if sc.RatesKnown {
					for t, tt := range js.TaskTime {
						j.Rates[t] = 1 / tt
					}
				}
			}
			tasks := make([]int, js.Tasks)
			for k := range js.Tasks {
				j.Pending = append(j.Pending, progressshare.Block{Replicas: replicas()})
				tasks[k] = k
			}
			taskOf = append(taskOf, tasks)
			if j.Index, err = s.NewPendingIndex(j.Pending); err != nil {
				return Result{}, err
			}
			kOf[e.A] = len(jobs)
			jobs = append(jobs, j)
			idOf = append(idOf, e.A)
		case evFinish:
			si, id, took := e.B, e.A, busyFor[e.B]
			j := &jobs[kOf[id]]
			typ := slots[si].Type
			j.Running[typ]--
			if alg2 {
				// Calibration (§4.3.1.4): the job's first finished task on a
				// node type ends calibration there; Scenario.Calibration says
				// which rate the scheduler then records.
				sumTook[id][typ] += took
				nTook[id][typ]++
				switch {
				case sc.Calibration == CalibrateMean:
					j.Rates[typ] = float64(nTook[id][typ]) / sumTook[id][typ]
				case j.Rates[typ] != 0:
				case sc.Calibration == CalibrateFirstTask:
					j.Rates[typ] = 1 / took
				default: // CalibrateKnown
					j.Rates[typ] = 1 / sc.Jobs[id].TaskTime[typ]
				}
			}
			slotJob[si] = -1
			busy--
			done[id]++
			if done[id] == sc.Jobs[id].Tasks { // finished: drop it from the picker's list
				res.Finish[id] = now
				res.Completion[id] = now - sc.Jobs[id].Arrival
				k := kOf[id]
				jobs = append(jobs[:k], jobs[k+1:]...)
				idOf = append(idOf[:k], idOf[k+1:]...)
				taskOf = append(taskOf[:k], taskOf[k+1:]...)
				kOf[id] = -1
				for kk := k; kk < len(idOf); kk++ {
					kOf[idOf[kk]] = kk
				}
			}
		case evRetry:
			retryPending = false
		}
		if q.Len() > 0 {
			if next, _ := q.Peek(); next.Time == now {
				continue // offer slots once all events of this instant are in
			}
		}
		// Within one instant, a slot's decision depends on its node only (or,
		// for Algorithm 2, on its node type only when reading costs the same
		// from anywhere), so after one slot declines, the others of its node
		// (type) are skipped.
		declined := false
		stamp++
		if sc.ShuffleOffers {
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		for _, si := range order {
			if slotJob[si] >= 0 {
				continue
			}
			key := slots[si].Node
			if flatRead {
				key = len(sc.Nodes) + slots[si].Type
			}
			if declinedAt[key] == stamp {
				continue
			}
			var d progressshare.Decision
			if alg2 {
				d, err = s.PickProgressShare(si, jobs, now)
			} else {
				d, err = s.PickSlotShare(si, jobs, now)
			}
			if err != nil {
				return Result{}, err
			}
			res.Decisions++
			if !d.Launch {
				if d.Reason == progressshare.ReasonNoPendingTask {
					break
				}
				declined = true
				res.Waits++
				declinedAt[key] = stamp
				continue
			}
			switch d.Reason {
			case progressshare.ReasonCalibration:
				res.Calibrations++
			case progressshare.ReasonAffinity:
				res.AffinityLaunches++
			}
			j := &jobs[d.Job]
			id := idOf[d.Job]
			if err := j.Index.Remove(j.Pending[d.Block]); err != nil {
				return Result{}, err
			}
			task := taskOf[d.Job][d.Block]
			j.Pending = append(j.Pending[:d.Block], j.Pending[d.Block+1:]...)
			taskOf[d.Job] = append(taskOf[d.Job][:d.Block], taskOf[d.Job][d.Block+1:]...)
			typ := slots[si].Type
			j.Running[typ]++
			j.LastLaunch = now
			slotJob[si] = id
			busy++
			res.PeakBusy = max(res.PeakBusy, busy)
			// The task reads its block, then processes it; the processing
			// time is what calibration measures.
			busyFor[si] = sc.Jobs[id].TaskTime[typ] * factor[id][task]
			q.Push(des.Event{Time: now + sc.Options.ReadTime[d.Locality] + busyFor[si], Kind: evFinish, A: id, B: si})
		}
		if declined && !retryPending {
			q.Push(des.Event{Time: now + sc.Heartbeat, Kind: evRetry})
			retryPending = true
		}
		curSpread, curRange, active = spread(s, sc, jobs, idOf, done)
		pending := 0
		for _, j := range jobs {
			if len(j.Pending) > 0 {
				pending++
			}
		}
		contended, waiting = pending >= 2, pending >= 1
		if sc.Trace {
			res.Samples = append(res.Samples, sample(s, sc, jobs, kOf, done, now))
		}
	}
	for id := range sc.Jobs {
		if done[id] != sc.Jobs[id].Tasks {
			return Result{}, fmt.Errorf("job %s did not finish", sc.Jobs[id].Name)
		}
	}
	if spreadTime > 0 {
		res.PSSpread, res.PSRange = spreadArea/spreadTime, rangeArea/spreadTime
	}
	if small {
		res.Held = heldArea
		for i := range heldArea {
			for t := range heldArea[i] {
				if contendedTime > 0 {
					heldArea[i][t] /= contendedTime
				}
			}
		}
	}
	return res, nil
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// truePS is Eq. 4.1 with the job's true rates (whatever the scheduler knows).
func truePS(s *progressshare.Scheduler, js JobSpec, running []int) float64 {
	var num, den float64
	for t, tt := range js.TaskTime {
		num += float64(running[t]) / tt
		den += float64(s.SlotsOfType(t)) / tt
	}
	return num / den
}

// spread returns the standard deviation and range of the true progress
// share across unfinished jobs that have arrived, and how many there are.
func spread(s *progressshare.Scheduler, sc Scenario, jobs []progressshare.Job, idOf, done []int) (sd, rng float64, n int) {
	var sum, sum2 float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, j := range jobs {
		id := idOf[k]
		if done[id] == sc.Jobs[id].Tasks {
			continue
		}
		ps := truePS(s, sc.Jobs[id], j.Running)
		sum += ps
		sum2 += ps * ps
		lo, hi = min(lo, ps), max(hi, ps)
		n++
	}
	if n < 2 {
		return 0, 0, n
	}
	mean := sum / float64(n)
	return math.Sqrt(max(sum2/float64(n)-mean*mean, 0)), hi - lo, n
}

func sample(s *progressshare.Scheduler, sc Scenario, jobs []progressshare.Job, kOf, done []int, now float64) Sample {
	n := len(sc.Jobs)
	smp := Sample{Time: now, Progress: make([]float64, n), PS: make([]float64, n), Slot: make([]float64, n)}
	for id, js := range sc.Jobs {
		smp.Progress[id] = float64(done[id]) / float64(js.Tasks)
		if k := kOf[id]; k >= 0 {
			smp.PS[id] = truePS(s, js, jobs[k].Running)
			ss, _ := s.SlotShare(jobs[k])
			smp.Slot[id] = ss
		}
	}
	return smp
}
