package hadoopsim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/examples/internal/des"
)

// OfferOrder is the order in which a dispatch offers the free slots to the
// policy.
type OfferOrder int

const (
	// OfferHeartbeat (the zero value) offers the VMs in a fresh random order
	// at every dispatch, drawn from the scenario's seed, each VM's free slots
	// together: Hadoop's TaskTrackers heartbeat in no fixed order and each
	// heartbeat offers that tracker's free slots.
	OfferHeartbeat OfferOrder = iota
	// OfferClusterOrder offers the slots in Cluster.VMs order. The case-study
	// cluster lists dedicated VMs first and heavy ones last, so the fastest
	// free slot is always offered first: an ablation, not Hadoop's behaviour.
	OfferClusterOrder
)

// String returns "heartbeat" or "cluster-order".
func (o OfferOrder) String() string {
	switch o {
	case OfferHeartbeat:
		return "heartbeat"
	case OfferClusterOrder:
		return "cluster-order"
	}
	return fmt.Sprintf("OfferOrder(%d)", int(o))
}

// Scenario is one simulated experiment.
type Scenario struct {
	Cluster Cluster
	Types   []JobType
	Jobs    []JobSpec
	// Seed seeds the per-VM web-load streams and the heartbeat order.
	Seed uint64
	// Horizon (s): the run stops here; admitted jobs not finished fail. It
	// lies in [LastArrival(Jobs), MaxTime].
	Horizon float64
	// NoIOCheck switches MP's Eq. 5 data-node check off (an ablation: it
	// separates what matching tasks to slots saves from what the IO check
	// saves).
	NoIOCheck bool
	// Offer is the order free slots are offered in; zero is OfferHeartbeat.
	Offer OfferOrder
	// Margin is MP+AC's safety factor on the scheduler's task times: wave
	// admission plans each task at Model.TCT(r) × Margin
	// (admission.Options.Margin) and MP keeps each deadline job ahead of
	// that plan (edf.Config.Margin, the same number). 0 means 1 (models
	// taken as exact);
	// otherwise in [1, admission.MaxMargin]. CaseStudy and SweepScenario
	// set it with AdmissionMargin. MP+AC-paper and MP+AC-strict ignore it.
	Margin float64
	// TCTError is the estimation error MP protects deadlines against
	// (edf.MPOptions.TCTError; the other policies ignore it): zero is the
	// paper's MP; otherwise Mean finite and > 0, Spread finite and >= 0.
	// CaseStudy and SweepScenario set it with PredictionError.MPError at
	// AdmissionConfidence.
	TCTError edf.TCTError
	// RecordUntil (s): record slot allocation changes up to this time
	// (MIMP Fig. 15); 0 records nothing.
	RecordUntil float64
}

// An AllocChange says job Job runs Running tasks from Time on.
type AllocChange struct {
	Time    float64
	Job     int
	Running int
}

// Result is one policy's outcome on a scenario (MIMP Table 3's rows).
type Result struct {
	Policy                Policy
	Jobs                  int // jobs in the trace
	Met, Missed, Rejected int // deadline jobs
	Failed                int // admitted jobs unfinished at the horizon
	// TaskHours sums the run times of completed tasks (Table 3's "Total
	// TCT"), IOSlowdownHours the part of it due to data-node overload: each
	// such task's run time minus what it would have taken with the data
	// nodes within capacity.
	TaskHours, IOSlowdownHours float64
	AvgLateness                float64 // s, mean over jobs that missed
	MaxLateness                float64 // s
	TasksOnHeavy, TasksTotal   []int   // completed tasks per type on heavy VMs, in total
	Alloc                      []AllocChange
	// OverloadedStarts counts tasks that started while the data nodes were
	// above capacity (and so ran slower).
	OverloadedStarts int
	// Errors is the scheduler's prediction error realised on the completed
	// tasks: the Model's TCT at the task's start against its actual run time
	// (overload included), in the terms of MIMP §6.3.1.
	Errors PredictionError
	// Outcomes has one entry per job of the trace, in trace order.
	Outcomes []Outcome
}

// Outcome is what happened to one job.
type Outcome struct {
	Admitted bool
	Finish   float64 // s; +Inf if unfinished at the horizon or rejected
	// JCT is the admission estimate (MIMP Eq. 6) at arrival, and Prefix the
	// Eq. 7 sum the new job was checked against (AC policies only; 0 else).
	JCT, Prefix float64
}

const (
	evArrival = iota
	evTaskDone
	evWeb
)

// run is the state of one simulation.
type run struct {
	s        *Scenario
	p        Policy
	q        *edf.Queue
	ev       des.Queue
	cluster  []admission.Slot // each slot's residual capacity (R)
	slotVM   []int
	busy     []bool
	task     []edf.Task
	started  []int
	done     []int
	admitted []bool
	finished []bool
	aq       admission.Queue // the admitted jobs and their tasks (AC policies)
	res      Result
	lateSum  float64
	running  []int
	offerRNG *rand.Rand
	vmOrder  []int
	world    world
	errs     errorStats
}

// Run simulates the scenario under policy p. A nil scenario, one that fails
// Validate, and an unknown policy give an error naming the problem; a valid
// scenario runs to its horizon without error.
func Run(s *Scenario, p Policy) (Result, error) {
	if s == nil {
		return Result{}, fmt.Errorf("hadoopsim: Run: scenario is nil")
	}
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	if !p.valid() {
		return Result{}, fmt.Errorf("hadoopsim: unknown policy %d", int(p))
	}
	if opt, ok := p.admission(s.Margin); ok && opt.Mode == admission.ModeWave {
		// Wave admission plans every pending task of the queue: bound it up
		// front so that a valid run never fails midway.
		tasks := 0
		for _, j := range s.Jobs {
			tasks += j.Maps
		}
		if tasks > admission.MaxPlannedTasks {
			return Result{}, fmt.Errorf("hadoopsim: %v plans every pending task: the trace's %d maps exceed admission.MaxPlannedTasks (%d)", p, tasks, admission.MaxPlannedTasks)
		}
	}
	c := s.Cluster
	q, err := edf.NewQueue(edf.Config{DataNodes: edf.DataNodes{Count: c.DataNodes, Capacity: c.NodeCapacity}, Margin: p.edfMargin(s.Margin)})
	if err != nil {
		return Result{}, err
	}
	n, ns := len(s.Jobs), c.Slots()
	r := &run{s: s, p: p, q: q,
		cluster: make([]admission.Slot, ns), slotVM: make([]int, ns), busy: make([]bool, ns),
		task:    make([]edf.Task, ns),
		started: make([]int, n), done: make([]int, n),
		admitted: make([]bool, n), finished: make([]bool, n), running: make([]int, n),
		offerRNG: rand.New(rand.NewPCG(s.Seed, offerStream)), vmOrder: make([]int, len(c.VMs)),
		world: newWorld(c), errs: errorStats{predicted: make([]float64, ns)},
	}
	r.res = Result{Policy: p, Jobs: n, Outcomes: make([]Outcome, n), TasksOnHeavy: make([]int, len(s.Types)), TasksTotal: make([]int, len(s.Types))}
	web := make([]*rand.Rand, len(c.VMs))
	for v, k := range c.VMs {
		r.vmOrder[v] = v
		web[v] = rand.New(rand.NewPCG(s.Seed, uint64(v)+1))
		r.setWeb(v, web[v])
		for k2 := range c.SlotsPerVM {
			r.slotVM[v*c.SlotsPerVM+k2] = v
		}
		if k.WebHigh > k.WebLow && c.WebPeriod > 0 {
			r.push(des.Event{Time: c.WebPeriod, Kind: evWeb, A: v})
		}
	}
	for i, j := range s.Jobs {
		r.res.Outcomes[i].Finish = math.Inf(1)
		r.push(des.Event{Time: j.Arrival, Kind: evArrival, A: i})
	}
	arrivalsLeft := n
	for {
		e, ok := r.ev.Pop()
		if !ok || e.Time > s.Horizon {
			break
		}
		switch e.Kind {
		case evArrival:
			arrivalsLeft--
			if err := r.arrive(e.A, e.Time); err != nil {
				return Result{}, fmt.Errorf("hadoopsim: job %d at %v s: %w", e.A, e.Time, err)
			}
		case evTaskDone:
			if err := r.taskDone(e.A, e.B, e.Time); err != nil {
				return Result{}, fmt.Errorf("hadoopsim: job %d, task end on slot %d at %v s: %w", e.A, e.B, e.Time, err)
			}
		case evWeb:
			r.setWeb(e.A, web[e.A])
			if arrivalsLeft > 0 || q.Len() > 0 {
				r.push(des.Event{Time: e.Time + c.WebPeriod, Kind: evWeb, A: e.A})
			}
		}
		if err := r.dispatch(e.Time); err != nil {
			return Result{}, fmt.Errorf("hadoopsim: dispatch at %v s: %w", e.Time, err)
		}
		if arrivalsLeft == 0 && q.Len() == 0 {
			break
		}
	}
	for i := range s.Jobs {
		if r.admitted[i] && !r.finished[i] {
			r.res.Failed++
		}
	}
	if r.res.Missed > 0 {
		r.res.AvgLateness = r.lateSum / float64(r.res.Missed)
	}
	r.res.Errors = r.errs.realised()
	return r.res, nil
}

// push queues an event. Validate bounds every time the simulation computes,
// so a NaN time is a broken invariant.
func (r *run) push(e des.Event) {
	if err := r.ev.Push(e); err != nil {
		panic(err)
	}
}

// setWeb redraws VM v's web load; its slots share the one web VM, so they
// share the residual capacity.
func (r *run) setWeb(v int, rng *rand.Rand) {
	c := r.s.Cluster
	res := Residual(webLoad(c.VMs[v], rng))
	for k := range c.SlotsPerVM {
		r.cluster[v*c.SlotsPerVM+k].R = res
	}
}

// arrive admits (or rejects) job i and queues it.
func (r *run) arrive(i int, now float64) error {
	j := &r.s.Jobs[i]
	jt := &r.s.Types[j.Type]
	// One description for both queues (a pointer to the type's model:
	// boxing it allocates nothing).
	job := edf.Job{ID: int64(j.ID), Arrival: now, Deadline: j.Deadline, Tasks: j.Maps, Model: &jt.Model, Read90: jt.Read90}
	if ok, err := r.admit(i, &job, now); err != nil || !ok {
		return err
	}
	if err := r.q.Add(job); err != nil {
		return err
	}
	r.admitted[i] = true
	r.res.Outcomes[i].Admitted = true
	if j.Maps == 0 {
		return r.finish(i, now)
	}
	return nil
}

// start runs the next task of job i on slot sl: the scheduler's queues
// record it with its estimates (admission's with its planned end, start +
// Model.TCT(r) × Margin), the world decides how long it runs.
func (r *run) start(i, sl int, now float64) error {
	j := &r.s.Jobs[i]
	jt := &r.s.Types[j.Type]
	rr := r.cluster[sl].R
	t, err := r.q.Start(int64(j.ID), rr)
	if err != nil {
		return err
	}
	if r.admits() {
		if err := r.aq.Start(t.ID, sl, t.PlannedEnd(now)); err != nil {
			return err
		}
	}
	d, over := r.world.start(sl, jt, rr, j.Noise[r.started[i]])
	if over {
		r.res.OverloadedStarts++
	}
	r.errs.predicted[sl] = t.TCT
	r.started[i]++
	r.busy[sl], r.task[sl] = true, t
	r.running[i]++
	r.record(now, i)
	r.push(des.Event{Time: now + d, Kind: evTaskDone, A: i, B: sl})
	return nil
}

func (r *run) record(now float64, i int) {
	if now <= r.s.RecordUntil {
		r.res.Alloc = append(r.res.Alloc, AllocChange{Time: now, Job: i, Running: r.running[i]})
	}
}

// taskDone ends the task on slot sl of job i.
func (r *run) taskDone(i, sl int, now float64) error {
	if err := r.q.End(r.task[sl], true); err != nil {
		return err
	}
	if r.admits() {
		if err := r.aq.End(sl, true); err != nil {
			return err
		}
	}
	r.busy[sl] = false
	d, slow := r.world.end(sl)
	r.errs.add(r.errs.predicted[sl], d)
	r.running[i]--
	r.done[i]++
	r.res.TaskHours += d / 3600
	r.res.IOSlowdownHours += slow / 3600
	ty := r.s.Jobs[i].Type
	r.res.TasksTotal[ty]++
	if r.s.Cluster.VMs[r.slotVM[sl]] == Heavy {
		r.res.TasksOnHeavy[ty]++
	}
	r.record(now, i)
	if r.done[i] == r.s.Jobs[i].Maps {
		return r.finish(i, now)
	}
	return r.refreshJCT(i)
}

// finish records job i's outcome and dequeues it.
func (r *run) finish(i int, now float64) error {
	j := &r.s.Jobs[i]
	r.finished[i] = true
	r.res.Outcomes[i].Finish = now
	if !math.IsInf(j.Deadline, 1) {
		if now <= j.Deadline {
			r.res.Met++
		} else {
			r.res.Missed++
			late := now - j.Deadline
			r.lateSum += late
			r.res.MaxLateness = math.Max(r.res.MaxLateness, late)
		}
	}
	r.aq.Remove(int64(j.ID))
	r.q.Remove(int64(j.ID))
	return nil
}
