package main

import (
	"fmt"
	"math"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
	"github.com/schedkit/schedkit/preempt"
)

// Config is one replay's cluster and policy.
type Config struct {
	Slots     int     // map slots
	Admission string  // "advise" or "enforce"
	Mode      string  // admission rule: "strict" or "paper"
	Slack     float64 // MP's at-risk slack: edf.Config.Margin is 1 + Slack
	// GPInterval is the time between two preemption checks (s).
	GPInterval float64
	// Drain is how long the replay goes on after the last arrival (s).
	Drain float64
}

// Event kinds of the replay.
const (
	evArrival = iota
	evTaskEnd
	evPreempt
)

// A slot of the cluster (its residual capacity is replay.cluster's).
type slot struct {
	busy  bool
	unit  int
	task  edf.Task
	start float64
	gen   int // bumped when its task is killed: a stale end event is ignored
}

// replay is one run's state.
type replay struct {
	cfg     Config
	w       *workload
	slots   []slot
	cluster []admission.Slot // each slot's residual capacity R
	free    []int            // free slots, used as a stack
	eq      *edf.Queue
	aq      admission.Queue
	started []int
	done    []int
	running []int
	queued  []bool // in the scheduler's queues
	ev      des.Queue
	aqOpt   admission.Options
	jctUnit []float64 // per type: Eq. 6 of one task on this cluster (s)
	pending int       // Σ tasks not yet started of queued units
	inQueue int
	ws      preempt.Workspace
	gpJobs  []preempt.Job
	gpTasks []preempt.Task
	gpIndex []int     // unit → index in gpJobs at this check, stamp-checked
	gpStamp []int     // unit → check number of gpIndex
	gpUnits []int     // gpJobs index → unit
	starve  []float64 // unit → time it was first seen starving others, or NaN
	checks  int
	lat     [numKinds]latencies
	res     Result
	mem     memPeak
	tick    func()
}

// run replays w on cfg's cluster. tick, if not nil, is called after each
// arrival (progress).
func run(w *workload, cfg Config, tick func()) (Result, error) {
	r := &replay{cfg: cfg, w: w, tick: tick}
	if err := r.setup(); err != nil {
		return Result{}, err
	}
	wall := time.Now()
	last := w.Units[len(w.Units)-1].Arrival + cfg.Drain
	for {
		e, ok := r.ev.Pop()
		if !ok || e.Time > last {
			break
		}
		switch e.Kind {
		case evArrival:
			if err := r.arrive(e.A, e.Time); err != nil {
				return Result{}, fmt.Errorf("unit %d at %v s: %w", e.A, e.Time, err)
			}
			if r.tick != nil {
				r.tick()
			}
		case evTaskEnd:
			if r.slots[e.A].gen != e.B || !r.slots[e.A].busy {
				continue // the task was killed
			}
			if err := r.taskEnd(e.A, e.Time); err != nil {
				return Result{}, fmt.Errorf("slot %d at %v s: %w", e.A, e.Time, err)
			}
		case evPreempt:
			if err := r.preempt(e.Time); err != nil {
				return Result{}, fmt.Errorf("preemption check at %v s: %w", e.Time, err)
			}
			if err := r.ev.Push(des.Event{Time: e.Time + cfg.GPInterval, Kind: evPreempt}); err != nil {
				return Result{}, err
			}
		}
		if err := r.dispatch(e.Time); err != nil {
			return Result{}, fmt.Errorf("dispatch at %v s: %w", e.Time, err)
		}
		r.res.Events++
		if r.res.Events&0xffff == 0 {
			r.mem.sample()
		}
	}
	r.res.WallSeconds = time.Since(wall).Seconds()
	r.res.SimSeconds = last
	r.mem.sample()
	r.res.finish(r)
	return r.res, nil
}

// setup builds the cluster, the queues and the event list.
func (r *replay) setup() error {
	cfg, w := r.cfg, r.w
	// Slots in the MIMP case study's mix of residual capacities: 30%
	// dedicated, 30% light, 30% medium, 10% heavy web load (band mid-points).
	mix := []float64{0, 0, 0, 27.5, 27.5, 27.5, 90, 90, 90, 150}
	r.slots = make([]slot, cfg.Slots)
	r.cluster = make([]admission.Slot, cfg.Slots)
	for i := range r.slots {
		r.cluster[i].R = hadoopsim.Residual(mix[i%len(mix)])
		r.free = append(r.free, cfg.Slots-1-i)
	}
	// Data nodes as in the case study: 6 of 60 MB/s per 40 slots.
	dn := edf.DataNodes{Count: max(1, 6*cfg.Slots/40), Capacity: 60}
	eq, err := edf.NewQueue(edf.Config{DataNodes: dn, Margin: 1 + cfg.Slack})
	if err != nil {
		return err
	}
	r.eq = eq
	r.aqOpt = admission.Options{Mode: admission.ModeStrict}
	if cfg.Mode == "paper" {
		r.aqOpt.Mode = admission.ModePaper
	}
	for _, t := range w.Types {
		jct, err := admission.JCT(t.Model, 1, r.cluster)
		if err != nil {
			return err
		}
		r.jctUnit = append(r.jctUnit, jct)
	}
	n := len(w.Units)
	r.started, r.done, r.running = make([]int, n), make([]int, n), make([]int, n)
	r.queued, r.gpIndex, r.gpStamp, r.starve = make([]bool, n), make([]int, n), make([]int, n), make([]float64, n)
	for i, u := range w.Units {
		r.starve[i] = math.NaN()
		if err := r.ev.Push(des.Event{Time: u.Arrival, Kind: evArrival, A: i}); err != nil {
			return err
		}
	}
	if cfg.GPInterval > 0 {
		if err := r.ev.Push(des.Event{Time: cfg.GPInterval, Kind: evPreempt}); err != nil {
			return err
		}
	}
	r.res = Result{Trace: w.Name, Source: w.Source, Units: n, Slots: cfg.Slots, Admission: cfg.Admission + " " + cfg.Mode, Note: w.Note}
	for _, u := range w.Units {
		r.res.Tasks += u.Tasks
	}
	return nil
}

// jct is Eq. 6 of n remaining tasks of unit i on the cluster.
func (r *replay) jct(i, n int) float64 { return float64(n) * r.jctUnit[r.w.Units[i].Type] }

// arrive runs admission control on unit i and queues it.
func (r *replay) arrive(i int, now float64) error {
	u := &r.w.Units[i]
	t := &r.w.Types[u.Type]
	// One description for both queues.
	job := admission.Job{ID: int64(i), Arrival: now, Deadline: u.Deadline, Tasks: u.Tasks, Model: t.Model, Read90: t.Read90, JCT: r.jct(i, u.Tasks)}
	t0 := time.Now()
	d, err := r.aq.Decide(job, now, r.aqOpt)
	r.lat[kindAdmission].add(time.Since(t0))
	if err != nil {
		return err
	}
	if d.Admit {
		r.res.Admitted++
	} else {
		r.res.Rejected++
		if r.cfg.Admission == "enforce" {
			return nil
		}
	}
	if err := r.aq.Insert(job); err != nil {
		return err
	}
	if err := r.eq.Add(job); err != nil {
		return err
	}
	r.queued[i] = true
	r.pending += u.Tasks
	r.inQueue++
	r.res.PeakQueue = max(r.res.PeakQueue, r.inQueue)
	r.res.PeakPending = max(r.res.PeakPending, r.pending)
	return nil
}

// dispatch offers the free slots to MP while some job has a pending task.
// When MP leaves a slot idle (the IO check refuses every job), the other
// free slots wait for the next event.
func (r *replay) dispatch(now float64) error {
	for len(r.free) > 0 && r.pending > 0 {
		s := r.free[len(r.free)-1]
		sl, res := &r.slots[s], r.cluster[s].R
		t0 := time.Now()
		d, err := r.eq.MP(res, now, edf.MPOptions{})
		r.lat[kindMP].add(time.Since(t0))
		if err != nil {
			return err
		}
		r.res.Reasons[d.Reason]++
		if d.Reason == edf.ReasonIdle {
			return nil
		}
		i := int(d.ID)
		task, err := r.eq.Start(d.ID, res)
		if err != nil {
			return err
		}
		if err := r.aq.Start(d.ID, s, task.PlannedEnd(now)); err != nil {
			return err
		}
		r.free = r.free[:len(r.free)-1]
		u := &r.w.Units[i]
		dur := u.Scale[r.started[i]%len(u.Scale)] * r.w.Types[u.Type].World.TCT(res)
		sl.busy, sl.unit, sl.task, sl.start = true, i, task, now
		r.started[i]++
		r.running[i]++
		r.pending--
		r.res.TaskStarts++
		if err := r.ev.Push(des.Event{Time: now + dur, Kind: evTaskEnd, A: s, B: sl.gen}); err != nil {
			return err
		}
	}
	return nil
}

// taskEnd ends the task on slot s.
func (r *replay) taskEnd(s int, now float64) error {
	sl := &r.slots[s]
	i := sl.unit
	if err := r.eq.End(sl.task, true); err != nil {
		return err
	}
	if err := r.aq.End(s, true); err != nil {
		return err
	}
	sl.busy = false
	r.free = append(r.free, s)
	r.running[i]--
	r.done[i]++
	r.res.TaskEnds++
	u := &r.w.Units[i]
	if r.done[i] < u.Tasks {
		return r.aq.SetJCT(int64(i), r.jct(i, u.Tasks-r.done[i]))
	}
	// The unit is done.
	r.aq.Remove(int64(i))
	r.eq.Remove(int64(i))
	r.queued[i] = false
	r.inQueue--
	r.res.Finished++
	if now <= u.Deadline {
		r.res.Met++
	} else if !math.IsInf(u.Deadline, 1) {
		r.res.Missed++
	}
	return nil
}

// preempt runs one Global Preemption check (package preempt, GP
// Algorithm 1) as a fair scheduler would every GPInterval: the running
// tasks and their jobs, each job's fair share (slots / queued jobs), the
// jobs with more than 1,000 tasks marked long, and the queued demand of the
// jobs that hold no slot as one protected entry. When some queued job holds
// no slot, it frees k = min(those jobs, slots/50) slots; the victims' tasks
// go back to pending and their slots to MP.
func (r *replay) preempt(now float64) error {
	r.checks++
	waiting, waitingTasks := 0, 0
	r.gpJobs, r.gpTasks, r.gpUnits = r.gpJobs[:0], r.gpTasks[:0], r.gpUnits[:0]
	share := float64(len(r.slots)) / float64(max(1, r.inQueue))
	for s := range r.slots {
		sl := &r.slots[s]
		if !sl.busy {
			continue
		}
		i := sl.unit
		if r.gpStamp[i] != r.checks {
			r.gpStamp[i], r.gpIndex[i] = r.checks, len(r.gpJobs)
			starving := 0.0
			if !math.IsNaN(r.starve[i]) {
				starving = now - r.starve[i]
			}
			r.gpJobs = append(r.gpJobs, preempt.Job{Share: share, Queued: r.w.Units[i].Tasks - r.started[i],
				Long: r.w.Units[i].Tasks > 1000, StarvingFor: starving})
			r.gpUnits = append(r.gpUnits, i)
		}
		r.gpTasks = append(r.gpTasks, preempt.Task{ID: int64(s), Job: r.gpIndex[i], Start: sl.start, Slots: 1})
	}
	for i, q := range r.queued {
		if q && r.running[i] == 0 && r.started[i] < r.w.Units[i].Tasks {
			waiting++
			waitingTasks += r.w.Units[i].Tasks - r.started[i]
		}
	}
	if waiting == 0 || len(r.gpTasks) == 0 {
		return nil
	}
	r.gpJobs = append(r.gpJobs, preempt.Job{Queued: waitingTasks, NoPreempt: true})
	k := min(waiting, max(1, len(r.slots)/50))
	opt := preempt.GPOptions{Busy: len(r.free) == 0, NTask: float64(len(r.slots)), Timeout: 60}
	c := preempt.Cluster{Now: now, Tasks: r.gpTasks, Jobs: r.gpJobs}
	t0 := time.Now()
	d, err := r.ws.GP(c, k, opt)
	r.lat[kindGP].add(time.Since(t0))
	if err != nil {
		return err
	}
	// A job keeps the time it was first seen starving others while it does.
	k0 := 0
	for j, i := range r.gpUnits {
		if k0 < len(d.Starving) && d.Starving[k0] == j {
			k0++
			if math.IsNaN(r.starve[i]) {
				r.starve[i] = now
			}
			continue
		}
		r.starve[i] = math.NaN()
	}
	for _, v := range d.Victims {
		s := int(v.ID)
		sl := &r.slots[s]
		if err := r.eq.End(sl.task, false); err != nil {
			return err
		}
		if err := r.aq.End(s, false); err != nil {
			return err
		}
		i := sl.unit
		sl.busy = false
		sl.gen++
		r.free = append(r.free, s)
		r.running[i]--
		r.started[i]--
		r.pending++
		r.res.Killed++
	}
	return nil
}
