package edf

import (
	"errors"
	"fmt"
	"math"
)

// ErrUnknownJob is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError returned for a job ID that is not queued.
var ErrUnknownJob = errors.New("edf: unknown job")

// ErrNoPendingTask is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError Queue.Start returns for a job whose tasks have all been
// started.
var ErrNoPendingTask = errors.New("edf: job has no pending task")

// handle names a job inside one Queue: a small integer, reused after
// Remove; noJob is never a job.
type handle int32

const noJob handle = -1

// A Task is a started task as Queue.Start returns it; give it back to
// Queue.End. It records the allocation the task added to its job's
// resource vector so that End removes exactly that.
type Task struct {
	ID  int64   // the job's ID
	R   float64 // the residual capacity the task started at
	TCT float64 // the job's model at R, TCT_j(R): the task's predicted time in seconds
	h   handle  // the job's handle
	gen uint64  // the job's Add, so a Task of a job removed and queued again is refused
	inv float64 // 1/TCT_j(R), the task's rate (Eq. 3 term / tRemaining)
	io  float64 // IO_j(R), Eq. 5
	m   float64 // the queue's margin when the task started
}

// PlannedEnd returns when the task is planned to end if it started at
// start: start + TCT × Config.Margin, the time a wave plan reserves its
// slot for (admission.Queue.Start takes it).
func (t Task) PlannedEnd(start float64) float64 { return start + t.TCT*t.m }

// IO returns the read load the task puts on the data nodes (Eq. 5).
func (t Task) IO() float64 { return t.io }

// jobState is a queued job plus the incremental sums the pickers read.
type jobState struct {
	kept
	handle    handle
	gen       uint64  // the number of the Add that queued it
	dedicated float64 // TCT_j(rDedicated), NaN when no valid time there
	running   int     // tasks started and not ended
	rate      float64 // Σ over running tasks of 1/TCT_j(R_i)
	io        float64 // Σ over running tasks of IO_j(R_i)
}

// kept is the part of a Job the queue reads and keeps: the description
// and Read90 (admission's fields are not held, so a job costs edf no more
// than it reads).
type kept struct {
	ID                int64
	Arrival, Deadline float64
	Tasks             int
	Model             Model
	Read90            float64
}

// DataNodes is the data-node model of the Eq. 5 IO check: Count data nodes,
// each able to serve Capacity read-rate units; running tasks' IO loads spread
// evenly, so starting a task with load x overloads them iff
// (Σ running IO + x) / Count > Capacity. Count = 0 switches the model off
// (the IO check always passes).
type DataNodes struct {
	Count    int
	Capacity float64
}

// Config sets up a Queue. The zero value is ready to use: dedicated
// capacity 1, no data-node model, margin 1.
type Config struct {
	// Dedicated is r_dedicated of Eq. 2, in (0, 1]; zero means 1.
	Dedicated float64
	// DataNodes is the IO model; the zero value switches the IO check off.
	DataNodes DataNodes
	// Margin m is the safety factor the scheduler plans task times with,
	// in (0, MaxMargin]; zero means 1 (the models taken as exact). It is
	// one option with two effects (beyond MIMP): a task is planned to end
	// at its start + TCT × m (Task.PlannedEnd, the end admission's wave
	// plan reserves its slot until: admission.Options.Margin is the same
	// m), and MP's step 1 keeps every deadline job ahead of that plan — a
	// job is at risk while CompletableTasks < m · remaining, that is while
	// its current slots would not finish its pending plus running tasks
	// within 1/m of the time left. m = 1 is MIMP's Eq. 3 test.
	//
	// What it trades: MIMP's MP stops serving a job the moment its fluid
	// Eq. 3 estimate says "just on track", so the job is planned to finish
	// at its deadline and any task noise, a slower-than-predicted slot or a
	// task that must wait for a whole wave pushes it over. With m > 1 a
	// deadline job keeps taking slots until it is planned to finish a
	// fraction (m − 1)/m of its remaining time early. The price is
	// efficiency: slots that would have gone to the best-fit job (step 2)
	// go to at-risk jobs in deadline order, so more tasks run on slots that
	// suit them badly; at large m nearly every deadline job is always at
	// risk and MP degenerates to EDF with an IO check. Jobs without a
	// deadline are never at risk, whatever m.
	Margin float64
}

// dedicated returns r_dedicated, 1 for the zero Config.
func (c *Config) dedicated() float64 {
	if c.Dedicated == 0 {
		return 1
	}
	return c.Dedicated
}

// margin returns the margin, 1 for the zero Config.
func (c *Config) margin() float64 {
	if c.Margin == 0 {
		return 1
	}
	return c.Margin
}

// validate checks c as NewQueue does.
func (c *Config) validate() error {
	if d := c.dedicated(); !(d > 0 && d <= 1) {
		return &ValueError{Field: "Config.Dedicated", Value: c.Dedicated, Reason: "must be 0 (meaning 1) or in (0, 1]"}
	}
	if c.DataNodes.Count < 0 {
		return &ValueError{Field: "Config.DataNodes.Count", Value: c.DataNodes.Count, Reason: "must be >= 0"}
	}
	if v := c.DataNodes.Capacity; !(v >= 0 && v <= math.MaxFloat64) {
		return &ValueError{Field: "Config.DataNodes.Capacity", Value: v, Reason: "must be finite and >= 0"}
	}
	if m := c.margin(); !(m > 0 && m <= MaxMargin) {
		return &ValueError{Field: "Config.Margin", Value: c.Margin, Reason: "must be 0 (meaning 1) or in (0, MaxMargin]"}
	}
	return nil
}

// Queue is the scheduler's view of the cluster's job queue: the queued jobs
// and, per job, the running tasks and Σ 1/TCT_j(R_i) over them (the job's
// resource vector R in the form Eq. 3 needs), plus the total data-node IO.
// Jobs are addressed by their ID. The caller reports every task start
// (Start) and end (End); a picker then decides without looking at any
// slot, and through the queue's index without a pass over the jobs (the
// package doc's "Decisions at scale").
//
// The zero Queue is an empty queue with the zero Config; NewQueue makes
// one with another. A Queue is a value owned by one goroutine; it starts
// no goroutine and holds no global state.
type Queue struct {
	cfg    Config
	jobs   []jobState // dense; order is irrelevant to every decision
	pos    []int32    // pos[handle] = index in jobs, or -1
	free   []handle   // handles free for reuse
	byID   map[int64]handle
	adds   uint64  // Adds so far: jobState.gen
	io     float64 // Σ IO of running tasks
	nTasks int     // running tasks over all jobs
	ix     index   // the pickers' search structures (index.go)
}

// NewQueue returns an empty queue with cfg. Errors (matching ErrBadInput):
// Dedicated outside (0, 1] (0 means 1), DataNodes.Count < 0,
// DataNodes.Capacity NaN, infinite or < 0, Margin outside (0, MaxMargin]
// (0 means 1).
func NewQueue(cfg Config) (*Queue, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Queue{cfg: cfg}, nil
}

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.jobs) }

// IO returns the total read load of the running tasks (Σ Eq. 5).
func (q *Queue) IO() float64 { return q.io }

// Running returns the number of running tasks over all jobs.
func (q *Queue) Running() int { return q.nTasks }

// Add queues j. It checks the fields the package doc's "Jobs" lists, as
// admission.Queue.Insert does, and Read90; errors (matching ErrBadInput)
// name the field: Arrival not finite, Deadline NaN or -Inf, Tasks < 0, a
// nil model for a job with pending tasks ("Job.Model", also ErrNilModel: a
// nil interface, or a nil pointer, map, func or channel in it — detected,
// never called), Read90 NaN, infinite or < 0, an ID already queued
// ("Job.ID"), a queue of MaxJobs jobs ("Queue.Len"). The model's times are
// not checked here: a job is never offered a slot where its model gives no
// valid task time, and Start there is an error.
func (q *Queue) Add(j Job) error {
	if err := validateJob(&j); err != nil {
		return err
	}
	if _, dup := q.byID[j.ID]; dup {
		return &ValueError{Field: "Job.ID", Value: j.ID, Reason: "already queued"}
	}
	var h handle
	if n := len(q.free); n > 0 {
		h = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		if len(q.pos) >= MaxJobs {
			return &ValueError{Field: "Queue.Len", Value: len(q.pos), Reason: "the queue holds MaxJobs jobs"}
		}
		h = handle(len(q.pos))
		q.pos = append(q.pos, -1)
	}
	if q.byID == nil {
		q.byID = map[int64]handle{}
		q.ix.risk = q.baseRisk()
	}
	d := math.NaN()
	if !nilModel(j.Model) {
		if t := j.Model.TCT(q.cfg.dedicated()); validTime(t) {
			d = t
		}
	}
	q.adds++
	q.byID[j.ID] = h
	q.pos[h] = int32(len(q.jobs))
	q.jobs = append(q.jobs, jobState{kept: kept{j.ID, j.Arrival, j.Deadline, j.Tasks, j.Model, j.Read90}, handle: h, gen: q.adds, dedicated: d})
	q.indexAdd(h)
	return nil
}

// find returns the queued job with the given ID, or nil.
func (q *Queue) find(id int64) *jobState {
	h, ok := q.byID[id]
	if !ok {
		return nil
	}
	return &q.jobs[q.pos[h]]
}

// unknown is the error for an ID that is not queued.
func unknown(field string, id int64) error {
	return &ValueError{Field: field, Value: id, Reason: "not queued", Err: ErrUnknownJob}
}

// Remove takes the job with the given ID out of the queue (finished,
// failed or killed) and reports whether it was queued. Its running tasks,
// if any, stop counting towards the data-node IO and their Task values
// become invalid for End.
func (q *Queue) Remove(id int64) bool {
	s := q.find(id)
	if s == nil {
		return false
	}
	h := s.handle
	if s.running > 0 {
		q.nTasks -= s.running
		q.io = math.Max(0, q.io-s.io)
		if q.nTasks == 0 {
			q.io = 0
		}
	}
	q.indexRemove(h)
	delete(q.byID, id)
	i := q.pos[h]
	last := len(q.jobs) - 1
	if int(i) != last {
		q.jobs[i] = q.jobs[last]
		q.pos[q.jobs[i].handle] = i
	}
	q.jobs[last] = jobState{} // drop its Model for the collector
	q.jobs = q.jobs[:last]
	q.pos[h] = -1
	q.free = append(q.free, h)
	return true
}

// Start records that one pending task of the job with the given ID starts
// on a slot with residual capacity r ∈ [0, 1]: the job's R gains the entry
// r, its pending count drops by one, and the data nodes carry IO_j(r) more
// (Eq. 5). It returns the Task to pass to End, with the task's predicted
// time (Task.TCT) and planned end (Task.PlannedEnd). Errors (matching
// ErrBadInput), each naming the field at fault: an unknown ID ("ID",
// ErrUnknownJob); r outside [0, 1] ("r"); no pending task ("Job.Tasks",
// ErrNoPendingTask); a model that predicts no valid task time at r or at
// the dedicated capacity, or whose task rate 1/TCT(r) would overflow the
// job's rate sum, or whose NormTCT TCT(r)/TCT(Dedicated) overflows
// ("Job.Model.TCT(r)", the task time); a task whose IO load
// Read90/NormTCT (Eq. 5) would overflow the data nodes' IO sum
// ("Job.Read90", the read rate). MP never offers such a task. Start
// allocates nothing.
func (q *Queue) Start(id int64, r float64) (Task, error) {
	s := q.find(id)
	if s == nil {
		return Task{}, unknown("ID", id)
	}
	if !(r >= 0 && r <= 1) {
		return Task{}, checkFraction("r", r)
	}
	if s.Tasks <= 0 {
		return Task{}, &ValueError{Field: "Job.Tasks", Value: 0, Reason: "job has no pending task", Err: ErrNoPendingTask}
	}
	t, inv, _, io, fault := q.taskLoad(s, r)
	switch fault {
	case loadOK:
	case loadIO:
		return Task{}, &ValueError{Field: "Job.Read90", Value: s.Read90,
			Reason: fmt.Sprintf("the task's IO load Read90/NormTCT(r) = %v (Eq. 5) would overflow the data nodes' IO sum %v", io, q.io)}
	default:
		return Task{}, loadError("Job.Model.TCT(r)", fault, t, s.dedicated)
	}
	task := Task{ID: s.ID, R: r, TCT: t, h: s.handle, gen: s.gen, inv: inv, io: io, m: q.cfg.margin()}
	s.Tasks--
	s.running++
	s.rate += task.inv
	s.io += task.io
	q.nTasks++
	q.io += task.io
	q.indexRefresh(s)
	return task, nil
}

// A loadFault says why taskLoad refused a task.
type loadFault uint8

const (
	loadOK        loadFault = iota
	loadTime                // TCT(r) not a valid task time
	loadDedicated           // no valid task time at the dedicated capacity
	loadNorm                // NormTCT overflows
	loadRate                // the job's Σ 1/TCT would overflow
	loadIO                  // the data nodes' Σ IO would overflow
)

// taskLoad returns what a new task of job s on a slot with residual
// capacity r would take and add: its time t = TCT_j(r), its rate
// 1/TCT_j(r) (one term of Eq. 3 divided by t_remaining), NormTCT_j(r)
// (Eq. 2) and IO_j(r) = Read90/NormTCT_j(r) (Eq. 5). fault is not loadOK
// when the model predicts no valid task time at r or at the dedicated
// capacity, or when a value or the job's rate sum or the data nodes' IO
// sum would not be finite: such a task is never offered (MP) nor started
// (Start), so no running sum can become +Inf or, on End, NaN. MP and
// Start share it, so the IO that MP checks is exactly the IO that Start
// records; io is set whenever it was computed, for Start's error message.
func (q *Queue) taskLoad(s *jobState, r float64) (t, inv, norm, io float64, fault loadFault) {
	t, inv, norm, fault = slotLoad(s.Model, r, s.dedicated, s.rate)
	if fault != loadOK {
		return t, 0, 0, 0, fault
	}
	io = s.Read90 / norm
	if !(q.io+io <= math.MaxFloat64) {
		return t, 0, 0, io, loadIO
	}
	return t, inv, norm, io, loadOK
}

// slotLoad is taskLoad without the IO sum: a task of a job with model m,
// TCT(dedicated capacity) = dedicated (NaN when not a valid time) and
// rate sum rate, on a slot with residual capacity r.
func slotLoad(m Model, r, dedicated, rate float64) (t, inv, norm float64, fault loadFault) {
	return timeLoad(m.TCT(r), dedicated, rate)
}

// timeLoad is slotLoad for a task time t the model gave.
func timeLoad(t, dedicated, rate float64) (_, inv, norm float64, fault loadFault) {
	if !validTaskTime(t) {
		return t, 0, 0, loadTime
	}
	if !validTime(dedicated) {
		return t, 0, 0, loadDedicated
	}
	inv, norm = 1/t, t/dedicated
	if !validTime(norm) {
		return t, 0, 0, loadNorm
	}
	if !(rate+inv <= math.MaxFloat64) {
		return t, 0, 0, loadRate
	}
	return t, inv, norm, loadOK
}

// loadError is the error for a task slotLoad refused with fault (not
// loadOK or loadIO): field names the task time t, dedicated is
// TCT(dedicated capacity).
func loadError(field string, fault loadFault, t, dedicated float64) error {
	switch fault {
	case loadNorm:
		return &ValueError{Field: field, Value: t,
			Reason: fmt.Sprintf("NormTCT = TCT(r)/TCT(Dedicated) with TCT(Dedicated) = %v overflows", dedicated)}
	case loadDedicated:
		return &ValueError{Field: field, Value: t,
			Reason: "the model predicts no valid task time at the dedicated capacity, so NormTCT (Eq. 2) is undefined"}
	case loadRate:
		return &ValueError{Field: field, Value: t,
			Reason: "the task's rate 1/TCT(r) would overflow the job's rate sum (Eq. 3)"}
	}
	return &ValueError{Field: field, Value: t, Reason: "model predicts no valid task time (> 0 and at most MaxDuration)"}
}

// End records that task t ended. With completed false (the task failed or
// was killed) its job gets the task back as pending. Errors (matching
// ErrBadInput): the job is not queued ("Task.ID", ErrUnknownJob); the Task
// is not a running task of the job with its ID — its job was removed (and
// perhaps queued again), or the Task was not returned by Start (a zero or
// hand-built Task) ("Task"); the job has no running task ("Task.ID").
// Sums are reset to exactly 0 when their last task leaves, so rounding does
// not accumulate over a long run. End allocates nothing.
func (q *Queue) End(t Task, completed bool) error {
	s := q.find(t.ID)
	if s == nil {
		return unknown("Task.ID", t.ID)
	}
	if s.handle != t.h || s.gen != t.gen {
		// Start's tasks carry the number of their job's Add (from 1): a
		// zero Task (or one built by hand) fails even for a job whose ID
		// is 0 at handle 0, and so does a Task of an earlier job with the
		// same ID.
		return &ValueError{Field: "Task", Value: t.ID,
			Reason: "not a task Start returned for the job now queued with this ID (its job was removed, or the Task was built by hand)"}
	}
	if s.running <= 0 || q.nTasks <= 0 {
		return &ValueError{Field: "Task.ID", Value: t.ID, Reason: "job has no running task"}
	}
	s.running--
	q.nTasks--
	if s.running == 0 {
		s.rate, s.io = 0, 0
	} else {
		s.rate = math.Max(0, s.rate-t.inv)
		s.io = math.Max(0, s.io-t.io)
	}
	if q.nTasks == 0 {
		q.io = 0
	} else {
		q.io = math.Max(0, q.io-t.io)
	}
	if !completed {
		s.Tasks++
	}
	q.indexRefresh(s)
	return nil
}

// A JobStatus is a snapshot of one queued job: Tasks is its pending count
// and Running its tasks started and not ended, as package admission's
// Queue.Status reports them.
type JobStatus struct {
	Job
	Rate float64 // Σ 1/TCT_j(R_i) over running tasks, tasks per second
}

// Status returns the snapshot of the job with the given ID; ok is false
// when it is not queued.
func (q *Queue) Status(id int64) (st JobStatus, ok bool) {
	s := q.find(id)
	if s == nil {
		return JobStatus{}, false
	}
	k := &s.kept
	j := Job{ID: k.ID, Arrival: k.Arrival, Deadline: k.Deadline, Tasks: k.Tasks, Model: k.Model, Read90: k.Read90, Running: s.running}
	return JobStatus{Job: j, Rate: s.rate}, true
}
