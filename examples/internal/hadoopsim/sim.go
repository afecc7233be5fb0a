package hadoopsim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/examples/internal/des"
)

// Policy is a job scheduler of the case study.
type Policy int

const (
	FIFO       Policy = iota // 000 §5.2 FIFO
	EDF                      // 000 §5.2 EDF
	MP                       // 000 §5.2 Maximum Progress, IO check on
	MPAC                     // MP with the paper's admission rule (Eq. 7)
	MPACStrict               // MP with strict admission (every queued deadline checked)
)

// Policies lists every policy in the order of 000 Table 3 plus admission.
var Policies = []Policy{FIFO, EDF, MP, MPAC, MPACStrict}

// String returns "FIFO", "EDF", "MP", "MP+AC" or "MP+AC-strict".
func (p Policy) String() string {
	switch p {
	case FIFO:
		return "FIFO"
	case EDF:
		return "EDF"
	case MP:
		return "MP"
	case MPAC:
		return "MP+AC"
	case MPACStrict:
		return "MP+AC-strict"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// Scenario is one simulated experiment.
type Scenario struct {
	Cluster Cluster
	Types   []JobType
	Jobs    []JobSpec
	// WebSeed seeds the per-VM web-load streams.
	WebSeed uint64
	// Horizon (s): the run stops here; admitted jobs not finished fail.
	Horizon float64
	// NoIOCheck switches MP's Eq. 5 data-node check off (an ablation: it
	// separates what progress-awareness saves from what the IO check saves).
	NoIOCheck bool
	// RecordUntil (s): record slot allocation changes up to this time
	// (000 Fig. 15); 0 records nothing.
	RecordUntil float64
}

// An AllocChange says job Job runs Running tasks from Time on.
type AllocChange struct {
	Time    float64
	Job     int
	Running int
}

// Result is one policy's outcome on a scenario (000 Table 3's rows).
type Result struct {
	Policy                   Policy
	Jobs                     int // jobs in the trace
	Met, Missed, Rejected    int // deadline jobs
	Failed                   int // admitted jobs unfinished at the horizon
	TaskHours                float64
	AvgLateness              float64 // s, mean over jobs that missed
	MaxLateness              float64 // s
	TasksOnHeavy, TasksTotal []int   // completed tasks per type on heavy VMs, in total
	Alloc                    []AllocChange
	// OverloadedStarts counts tasks that started while the data nodes were
	// above capacity (and so ran slower).
	OverloadedStarts int
	// Outcomes has one entry per job of the trace, in trace order.
	Outcomes []Outcome
}

// Outcome is what happened to one job.
type Outcome struct {
	Admitted bool
	Finish   float64 // s; +Inf if unfinished at the horizon or rejected
	// JCT is the admission estimate (000 Eq. 6) at arrival, and Prefix the
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
	slotR    []float64
	slotVM   []int
	busy     []bool
	task     []edf.Task
	dur      []float64
	handle   []edf.Handle
	started  []int
	done     []int
	admitted []bool
	finished []bool
	aq       admission.Queue
	checker  admission.Checker
	res      Result
	lateSum  float64
	running  []int
	// The data nodes' load as the simulated world sees it, kept apart from
	// the edf.Queue's bookkeeping so that the ground truth is not computed by
	// the scheduler under test: read[sl] is the read rate (MB/s) of the task
	// on slot sl, readSum their total over the nreading running tasks.
	read     []float64
	readSum  float64
	nReading int
}

// Run simulates the scenario under policy p. A scenario that fails Validate
// gives its error; so does an unknown policy.
func Run(s *Scenario, p Policy) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	if p < FIFO || p > MPACStrict {
		return Result{}, fmt.Errorf("hadoopsim: unknown policy %d", int(p))
	}
	c := s.Cluster
	q, err := edf.NewQueue(edf.Config{DataNodes: edf.DataNodes{Count: c.DataNodes, Capacity: c.NodeCapacity}})
	if err != nil {
		return Result{}, err
	}
	n, ns := len(s.Jobs), c.Slots()
	r := &run{s: s, p: p, q: q,
		slotR: make([]float64, ns), slotVM: make([]int, ns), busy: make([]bool, ns),
		task: make([]edf.Task, ns), dur: make([]float64, ns), read: make([]float64, ns),
		handle: make([]edf.Handle, n), started: make([]int, n), done: make([]int, n),
		admitted: make([]bool, n), finished: make([]bool, n), running: make([]int, n),
	}
	r.res = Result{Policy: p, Jobs: n, Outcomes: make([]Outcome, n), TasksOnHeavy: make([]int, len(s.Types)), TasksTotal: make([]int, len(s.Types))}
	web := make([]*rand.Rand, len(c.VMs))
	for v, k := range c.VMs {
		web[v] = rand.New(rand.NewPCG(s.WebSeed, uint64(v)+1))
		for k2 := range c.SlotsPerVM {
			i := v*c.SlotsPerVM + k2
			r.slotVM[i] = v
			r.slotR[i] = Residual(webLoad(k, web[v]))
		}
		if k.WebHigh > k.WebLow && c.WebPeriod > 0 {
			r.ev.Push(des.Event{Time: c.WebPeriod, Kind: evWeb, A: v})
		}
	}
	for i, j := range s.Jobs {
		r.handle[i] = edf.NoJob
		r.res.Outcomes[i].Finish = math.Inf(1)
		r.ev.Push(des.Event{Time: j.Arrival, Kind: evArrival, A: i})
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
				return Result{}, err
			}
		case evTaskDone:
			if err := r.taskDone(e.A, e.B, e.Time); err != nil {
				return Result{}, err
			}
		case evWeb:
			v := e.A
			for k2 := range c.SlotsPerVM {
				r.slotR[v*c.SlotsPerVM+k2] = Residual(webLoad(c.VMs[v], web[v]))
			}
			if arrivalsLeft > 0 || q.Len() > 0 {
				r.ev.Push(des.Event{Time: e.Time + c.WebPeriod, Kind: evWeb, A: v})
			}
		}
		if err := r.dispatch(e.Time); err != nil {
			return Result{}, err
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
	return r.res, nil
}

// arrive admits (or rejects) job i and queues it.
func (r *run) arrive(i int, now float64) error {
	j := &r.s.Jobs[i]
	jt := &r.s.Types[j.Type]
	if r.p == MPAC || r.p == MPACStrict {
		jct, err := admission.JCT(jt.Model, j.Maps, r.slotR)
		if err != nil {
			return err
		}
		aj := admission.Job{ID: int64(j.ID), Arrival: now, Deadline: j.Deadline, JCT: jct}
		mode := admission.ModePaper
		if r.p == MPACStrict {
			mode = admission.ModeStrict
		}
		d, err := r.checker.Decide(r.aq.Jobs(), aj, now, admission.Options{Mode: mode})
		if err != nil {
			return err
		}
		r.res.Outcomes[i].JCT = jct
		if d.NewIndex >= 0 {
			r.res.Outcomes[i].Prefix = d.Checked[d.NewIndex].Prefix
		}
		if !d.Admit {
			r.res.Rejected++
			return nil
		}
		if err := r.aq.Insert(aj); err != nil {
			return err
		}
	}
	h, err := r.q.Add(edf.Job{ID: int64(j.ID), Arrival: j.Arrival, Deadline: j.Deadline, Tasks: j.Maps, Model: jt.Model, Read90: jt.Read90})
	if err != nil {
		return err
	}
	r.handle[i], r.admitted[i] = h, true
	r.res.Outcomes[i].Admitted = true
	if j.Maps == 0 {
		return r.finish(i, now)
	}
	return nil
}

// dispatch offers every free slot to the policy.
func (r *run) dispatch(now float64) error {
	for sl := range r.busy {
		if r.busy[sl] {
			continue
		}
		var d edf.Decision
		switch r.p {
		case FIFO:
			d = r.q.FIFO()
		case EDF:
			d = r.q.EDF()
		default:
			var err error
			if d, err = r.q.MP(r.slotR[sl], now, edf.MPOptions{NoIOCheck: r.s.NoIOCheck}); err != nil {
				return err
			}
		}
		if d.Job == edf.NoJob {
			if r.p == FIFO || r.p == EDF {
				return nil // no pending task anywhere
			}
			continue
		}
		if err := r.start(int(d.ID), sl, now); err != nil {
			return err
		}
	}
	return nil
}

// start runs the next task of job i on slot sl.
func (r *run) start(i, sl int, now float64) error {
	j := &r.s.Jobs[i]
	jt := &r.s.Types[j.Type]
	rr := r.slotR[sl]
	t, err := r.q.Assign(r.handle[i], rr)
	if err != nil {
		return err
	}
	tct := jt.Model.TCT(rr)
	d := tct * j.Noise[r.started[i]]
	c := r.s.Cluster
	if jt.Read90 > 0 {
		// Eq. 5: the task reads at Read90 / NormTCT(r).
		r.read[sl] = jt.Read90 / (tct / jt.Model.TCT(1))
		r.readSum += r.read[sl]
		r.nReading++
		if c.DataNodes > 0 && c.NodeCapacity > 0 {
			if over := r.readSum / (float64(c.DataNodes) * c.NodeCapacity); over > 1 {
				d *= over
				r.res.OverloadedStarts++
			}
		}
	}
	r.started[i]++
	r.busy[sl], r.task[sl], r.dur[sl] = true, t, d
	r.running[i]++
	r.record(now, i)
	r.ev.Push(des.Event{Time: now + d, Kind: evTaskDone, A: i, B: sl})
	return nil
}

func (r *run) record(now float64, i int) {
	if now <= r.s.RecordUntil {
		r.res.Alloc = append(r.res.Alloc, AllocChange{Time: now, Job: i, Running: r.running[i]})
	}
}

// taskDone ends the task on slot sl of job i.
func (r *run) taskDone(i, sl int, now float64) error {
	if err := r.q.Release(r.task[sl], true); err != nil {
		return err
	}
	r.busy[sl] = false
	if r.read[sl] > 0 {
		r.nReading--
		r.readSum = math.Max(0, r.readSum-r.read[sl])
		if r.nReading == 0 {
			r.readSum = 0 // no rounding residue carried over an idle spell
		}
		r.read[sl] = 0
	}
	r.running[i]--
	r.done[i]++
	r.res.TaskHours += r.dur[sl] / 3600
	ty := r.s.Jobs[i].Type
	r.res.TasksTotal[ty]++
	if r.s.Cluster.VMs[r.slotVM[sl]] == Heavy {
		r.res.TasksOnHeavy[ty]++
	}
	r.record(now, i)
	j := &r.s.Jobs[i]
	if r.done[i] == j.Maps {
		return r.finish(i, now)
	}
	if r.p == MPAC || r.p == MPACStrict {
		jct, err := admission.JCT(r.s.Types[ty].Model, j.Maps-r.done[i], r.slotR)
		if err != nil {
			return err
		}
		return r.aq.SetJCT(int64(j.ID), jct)
	}
	return nil
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
	if r.p == MPAC || r.p == MPACStrict {
		r.aq.Remove(int64(j.ID))
	}
	return r.q.Remove(r.handle[i])
}
