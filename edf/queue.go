package edf

import (
	"errors"
	"fmt"
	"math"
)

// NoDeadline is the Deadline of a job without one (KMeans in MIMP §6.6).
// Such a job is never at risk, sorts after every job with a deadline under
// EDF, and competes only in MP's best-fit step.
var NoDeadline = math.Inf(1)

// ErrUnknownJob is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError returned for a Handle that is not in the queue.
var ErrUnknownJob = errors.New("edf: unknown job handle")

// ErrNoPendingTask is matched (with errors.Is, besides ErrBadInput) by the
// *ValueError Queue.Assign returns for a job whose tasks have all been
// started.
var ErrNoPendingTask = errors.New("edf: job has no pending task")

// A Job is one queued MapReduce job as the pickers see it (MIMP §5.1).
type Job struct {
	// ID is the caller's unique job identifier, the last tie-break key.
	ID int64
	// Arrival is the submission time in seconds (finite); FIFO order.
	Arrival float64
	// Deadline is the absolute deadline in seconds, or NoDeadline (+Inf).
	// NaN and -Inf are errors.
	Deadline float64
	// Tasks is the number of map tasks not yet started, ≥ 0.
	Tasks int
	// Model predicts this job's task completion time (Eq. 1); it must give a
	// finite positive time at the queue's dedicated capacity.
	Model Model
	// Read90 is the 90th percentile read rate of one task on a dedicated
	// worker, per data node (Eq. 5), finite and ≥ 0; 0 for a job that reads
	// nothing (Pi).
	Read90 float64
}

// A Handle names a job inside one Queue. Handles are small integers, reused
// after Remove. The zero Handle is valid; NoJob is never a job.
type Handle int32

// NoJob is the Handle of an idle Decision.
const NoJob Handle = -1

// A Task is a started task as Queue.Assign returns it; give it back to
// Queue.Release. It records the allocation the task added to its job's
// resource vector so that release removes exactly that.
type Task struct {
	Job Handle
	R   float64 // the residual capacity the task was assigned at
	id  int64   // the job's ID, so a reused handle is not mistaken
	inv float64 // 1/TCT_j(R), the task's rate (Eq. 3 term / tRemaining)
	io  float64 // IO_j(R), Eq. 5
}

// IO returns the read load the task puts on the data nodes (Eq. 5).
func (t Task) IO() float64 { return t.io }

// jobState is a queued job plus the incremental sums the pickers read.
type jobState struct {
	Job
	handle    Handle
	dedicated float64 // TCT_j(rDedicated)
	running   int     // tasks started and not released
	rate      float64 // Σ over running tasks of 1/TCT_j(R_i)
	io        float64 // Σ over running tasks of IO_j(R_i)
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

// Config sets up a Queue. The zero value is ready to use: dedicated capacity
// 1 and no data-node model.
type Config struct {
	// Dedicated is r_dedicated of Eq. 2, in (0, 1]; zero means 1.
	Dedicated float64
	// DataNodes is the IO model; the zero value switches the IO check off.
	DataNodes DataNodes
}

// Queue is the scheduler's view of the cluster's job queue: the queued jobs
// and, per job, the running tasks and Σ 1/TCT_j(R_i) over them (the job's
// resource vector R in the form Eq. 3 needs), plus the total data-node IO.
// The caller reports every task start (Assign) and end (Release); a picker
// then decides without looking at any slot, and through the queue's index
// without a pass over the jobs (the package doc's "Decisions at scale").
//
// A Queue is a value owned by one goroutine; it starts no goroutine and
// holds no global state. The zero Queue is not usable: call NewQueue.
type Queue struct {
	cfg    Config
	jobs   []jobState // dense; order is irrelevant to every decision
	pos    []int32    // pos[handle] = index in jobs, or -1
	free   []Handle   // handles free for reuse
	io     float64    // Σ IO of running tasks
	nTasks int        // running tasks over all jobs
	ix     index      // the pickers' search structures (index.go)
}

// NewQueue returns an empty queue. Errors (matching ErrBadInput): Dedicated
// outside [0, 1] (0 means 1), DataNodes.Count < 0, DataNodes.Capacity NaN,
// infinite or < 0.
func NewQueue(cfg Config) (*Queue, error) {
	if cfg.Dedicated == 0 {
		cfg.Dedicated = 1
	}
	if !(cfg.Dedicated > 0 && cfg.Dedicated <= 1) {
		return nil, &ValueError{Field: "Config.Dedicated", Value: cfg.Dedicated, Reason: "must be in (0, 1]"}
	}
	if cfg.DataNodes.Count < 0 {
		return nil, &ValueError{Field: "Config.DataNodes.Count", Value: float64(cfg.DataNodes.Count), Reason: "must be >= 0"}
	}
	if c := cfg.DataNodes.Capacity; !(c >= 0 && c <= math.MaxFloat64) {
		return nil, &ValueError{Field: "Config.DataNodes.Capacity", Value: c, Reason: "must be finite and >= 0"}
	}
	return &Queue{cfg: cfg, ix: index{risk: risk{need: 1}, fifo: handleHeap{fifo: true}}}, nil
}

// Len returns the number of queued jobs.
func (q *Queue) Len() int { return len(q.jobs) }

// IO returns the total read load of the running tasks (Σ Eq. 5).
func (q *Queue) IO() float64 { return q.io }

// Running returns the number of running tasks over all jobs.
func (q *Queue) Running() int { return q.nTasks }

// Add queues j and returns its handle. Errors (matching ErrBadInput): a nil
// model (also ErrNilModel: a nil interface, or a nil pointer, map, func or
// channel in it — detected, never called), Arrival or Read90 not finite,
// Read90 < 0, Deadline NaN or -Inf, Tasks < 0, or a model whose TCT at the dedicated capacity is not finite
// and > 0. IDs are not checked for uniqueness; equal IDs make tie-breaks
// depend on insertion history.
func (q *Queue) Add(j Job) (Handle, error) {
	if nilModel(j.Model) {
		return NoJob, nilModelError("Job.Model")
	}
	if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) {
		return NoJob, &ValueError{Field: "Job.Arrival", Value: j.Arrival, Reason: "must be finite"}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1) {
		return NoJob, &ValueError{Field: "Job.Deadline", Value: j.Deadline, Reason: "must be finite or NoDeadline"}
	}
	if err := checkTasks("Job.Tasks", j.Tasks); err != nil {
		return NoJob, err
	}
	if !(j.Read90 >= 0 && j.Read90 <= math.MaxFloat64) {
		return NoJob, &ValueError{Field: "Job.Read90", Value: j.Read90, Reason: "must be finite and >= 0"}
	}
	d, err := modelTCT("Job.Model.TCT(Dedicated)", j.Model, q.cfg.Dedicated)
	if err != nil {
		return NoJob, err
	}
	var h Handle
	if n := len(q.free); n > 0 {
		h = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		if len(q.pos) >= MaxJobs {
			return NoJob, &ValueError{Field: "Queue.Len", Value: float64(len(q.pos)), Reason: "the queue holds MaxJobs jobs"}
		}
		h = Handle(len(q.pos))
		q.pos = append(q.pos, -1)
	}
	q.pos[h] = int32(len(q.jobs))
	q.jobs = append(q.jobs, jobState{Job: j, handle: h, dedicated: d})
	q.indexAdd(h)
	return h, nil
}

// state returns the job of h or an error.
func (q *Queue) state(field string, h Handle) (*jobState, error) {
	if h < 0 || int(h) >= len(q.pos) || q.pos[h] < 0 {
		return nil, &ValueError{Field: field, Value: float64(h), Reason: "unknown job handle", kind: ErrUnknownJob}
	}
	return &q.jobs[q.pos[h]], nil
}

// Remove takes job h out of the queue (finished, failed or killed). Its
// running tasks, if any, stop counting towards the data-node IO and their
// Task values become invalid for Release. Errors: an
// unknown handle (matches ErrBadInput).
func (q *Queue) Remove(h Handle) error {
	s, err := q.state("Handle", h)
	if err != nil {
		return err
	}
	if s.running > 0 {
		q.nTasks -= s.running
		q.io = math.Max(0, q.io-s.io)
		if q.nTasks == 0 {
			q.io = 0
		}
	}
	q.indexRemove(h)
	i := q.pos[h]
	last := len(q.jobs) - 1
	if int(i) != last {
		q.jobs[i] = q.jobs[last]
		q.pos[q.jobs[i].handle] = i
	}
	q.jobs = q.jobs[:last]
	q.pos[h] = -1
	q.free = append(q.free, h)
	return nil
}

// Assign records that one pending task of job h starts on a slot with
// residual capacity r ∈ [0, 1]: the job's R gains the entry r, its pending
// count drops by one, and the data nodes carry IO_j(r) more (Eq. 5). It
// returns the Task to pass to Release. Errors (matching ErrBadInput), each
// naming the field at fault: an unknown handle ("Handle", ErrUnknownJob); r
// outside [0, 1] ("r"); no pending task ("Job.Tasks", ErrNoPendingTask); a
// model that predicts no finite positive time at r, or whose task rate
// 1/TCT(r) would overflow the job's rate sum, or whose NormTCT
// TCT(r)/TCT(Dedicated) overflows ("Job.Model.TCT(r)", the task time); a
// task whose IO load Read90/NormTCT (Eq. 5) would overflow the data nodes'
// IO sum ("Job.Read90", the read rate). MP never offers such a task. Assign
// allocates nothing.
func (q *Queue) Assign(h Handle, r float64) (Task, error) {
	s, err := q.state("Handle", h)
	if err != nil {
		return Task{}, err
	}
	if !(r >= 0 && r <= 1) {
		return Task{}, checkFraction("r", r)
	}
	if s.Tasks <= 0 {
		return Task{}, &ValueError{Field: "Job.Tasks", Value: 0, Reason: "job has no pending task", kind: ErrNoPendingTask}
	}
	t, inv, _, io, fault := q.taskLoad(s, r)
	switch fault {
	case loadOK:
	case loadIO:
		return Task{}, &ValueError{Field: "Job.Read90", Value: s.Read90,
			Reason: fmt.Sprintf("the task's IO load Read90/NormTCT(r) = %v (Eq. 5) would overflow the data nodes' IO sum %v", io, q.io)}
	case loadNorm:
		return Task{}, &ValueError{Field: "Job.Model.TCT(r)", Value: t,
			Reason: fmt.Sprintf("NormTCT = TCT(r)/TCT(Dedicated) with TCT(Dedicated) = %v overflows", s.dedicated)}
	case loadRate:
		return Task{}, &ValueError{Field: "Job.Model.TCT(r)", Value: t,
			Reason: "the task's rate 1/TCT(r) would overflow the job's rate sum (Eq. 3)"}
	default:
		return Task{}, &ValueError{Field: "Job.Model.TCT(r)", Value: t, Reason: "model predicts a non-finite or non-positive task time"}
	}
	task := Task{Job: h, R: r, id: s.ID, inv: inv, io: io}
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
	loadOK   loadFault = iota
	loadTime           // TCT(r) not finite and > 0
	loadNorm           // NormTCT overflows
	loadRate           // the job's Σ 1/TCT would overflow
	loadIO             // the data nodes' Σ IO would overflow
)

// taskLoad returns what a new task of job s on a slot with residual
// capacity r would take and add: its time t = TCT_j(r), its rate 1/TCT_j(r)
// (one term of Eq. 3 divided by
// t_remaining), NormTCT_j(r) (Eq. 2) and IO_j(r) = Read90/NormTCT_j(r)
// (Eq. 5). fault is not loadOK when the model predicts no finite positive
// time at r, or when a value or the job's rate sum or the data nodes' IO sum
// would not be finite: such a task is never offered (MP) nor started
// (Assign), so no running sum can become +Inf or, on release, NaN. MP and
// Assign share it, so the IO that MP checks is exactly the IO that Assign
// records; io is set whenever it was computed, for Assign's error message.
func (q *Queue) taskLoad(s *jobState, r float64) (t, inv, norm, io float64, fault loadFault) {
	t = s.Model.TCT(r)
	if !validTime(t) {
		return t, 0, 0, 0, loadTime
	}
	inv, norm = 1/t, t/s.dedicated
	if !validTime(norm) {
		return t, 0, 0, 0, loadNorm
	}
	if !(s.rate+inv <= math.MaxFloat64) {
		return t, 0, 0, 0, loadRate
	}
	io = s.Read90 / norm
	if !(q.io+io <= math.MaxFloat64) {
		return t, 0, 0, io, loadIO
	}
	return t, inv, norm, io, loadOK
}

// Release records that task t ended. With completed false (the task failed
// or was killed) its job gets the task back as pending. Errors (matching
// ErrBadInput): the handle is not queued ("Task.Job", ErrUnknownJob); the
// Task is not a running task of the job now at that handle — its job was
// removed and the handle reused, or the Task was not returned by Assign (a
// zero or hand-built Task) ("Task"); the job has no running task
// ("Task.Job").
// Sums are reset to exactly 0 when their last task leaves, so rounding does
// not accumulate over a long run.
func (q *Queue) Release(t Task, completed bool) error {
	s, err := q.state("Task.Job", t.Job)
	if err != nil {
		return err
	}
	if s.ID != t.id || !(t.inv > 0) {
		// Assign's tasks carry their job's ID and a rate 1/TCT > 0; a zero
		// Task (or one built by hand) fails one of the two even for a job
		// whose ID is 0.
		return &ValueError{Field: "Task", Value: float64(t.Job),
			Reason: "not a task Assign returned for the job now at this handle (its job was removed, or the Task was built by hand)"}
	}
	if s.running <= 0 || q.nTasks <= 0 {
		return &ValueError{Field: "Task.Job", Value: float64(t.Job), Reason: "job has no running task"}
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

// A JobStatus is a snapshot of one queued job.
type JobStatus struct {
	Job
	Running int     // tasks started and not released
	Rate    float64 // Σ 1/TCT_j(R_i) over running tasks, tasks per second
}

// Status returns job h's snapshot; ok is false for an unknown handle.
func (q *Queue) Status(h Handle) (st JobStatus, ok bool) {
	s, err := q.state("Handle", h)
	if err != nil {
		return JobStatus{}, false
	}
	return JobStatus{Job: s.Job, Running: s.running, Rate: s.rate}, true
}

// atRisk is the Eq. 3 test with the incremental rate: the job's remaining
// tasks (pending plus running), covered for k's TCTError and times k's
// need = 1 + slack, exceed what its current slots finish by the deadline.
// Jobs without a deadline are never at risk.
func (s *jobState) atRisk(now float64, k risk) bool {
	remaining := float64(s.Tasks + s.running)
	if s.rate == 0 {
		// No slot: 0 completable tasks (and no ∞·0 = NaN when the
		// time left overflows to +Inf); a job without deadline is not at
		// risk.
		return remaining > 0 && s.Deadline <= math.MaxFloat64
	}
	// A job without deadline has +Inf time left: +Inf < k.of(·) is false,
	// whatever the cover.
	return (s.Deadline-now)*s.rate < k.of(remaining)
}

// AtRisk reports whether job h is predicted to miss its deadline with its
// current slots (Eq. 3: CompletableTasks < pending + running tasks), the
// test of MP's step 1 with zero Slack and no TCTError. ok is false for an
// unknown handle or a NaN/infinite now.
func (q *Queue) AtRisk(h Handle, now float64) (atRisk, ok bool) {
	return q.AtRiskSlack(h, now, 0)
}

// AtRiskSlack is AtRisk with MP's slack s (MPOptions.Slack): job h is at
// risk while CompletableTasks < (1 + s) · (pending + running tasks). ok is
// false for an unknown handle, a NaN/infinite now, or s NaN, infinite or
// negative.
func (q *Queue) AtRiskSlack(h Handle, now, s float64) (atRisk, ok bool) {
	st, err := q.state("Handle", h)
	if err != nil || math.IsNaN(now) || math.IsInf(now, 0) || !(s >= 0 && s <= math.MaxFloat64) {
		return false, false
	}
	return st.atRisk(now, newRisk(MPOptions{Slack: s})), true
}

// threshold returns job s's at-risk threshold for the index's risk: MP's
// step-1 test s.atRisk(now, risk) holds iff now >= threshold, for every
// finite now (+Inf: never at risk; -Inf: always).
func (q *Queue) threshold(s *jobState) float64 {
	if math.IsInf(s.Deadline, 1) {
		return math.Inf(1)
	}
	remaining := float64(s.Tasks + s.running)
	if s.rate == 0 {
		if remaining > 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return riskFrom(s.Deadline, s.rate, q.ix.risk.of(remaining))
}

// indexAdd puts the job at handle h into the index.
func (q *Queue) indexAdd(h Handle) {
	s := &q.jobs[q.pos[h]]
	x := &q.ix
	for int(h) >= len(x.nodes) {
		x.nodes = append(x.nodes, node{})
	}
	x.edf.grow(h)
	x.fifo.grow(h)
	x.nodes[h] = node{typ: x.typeFor(s.Model, s.dedicated), deadline: s.Deadline, arrival: s.Arrival,
		id: s.ID, read: s.Read90, active: s.Tasks > 0, theta: q.threshold(s)}
	x.insert(h)
	if s.Tasks > 0 {
		x.heapPush(&x.edf, h)
		x.heapPush(&x.fifo, h)
	}
}

// indexRemove takes the job at handle h out of the index.
func (q *Queue) indexRemove(h Handle) {
	x := &q.ix
	x.unlink(h)
	x.heapRemove(&x.edf, h)
	x.heapRemove(&x.fifo, h)
	if t := x.nodes[h].typ; x.types[t].size == 0 {
		x.dropType(t)
	}
}

// indexRefresh updates job s's threshold and pending state after one of its
// tasks started or ended: O(log n).
func (q *Queue) indexRefresh(s *jobState) {
	x := &q.ix
	h := s.handle
	n := &x.nodes[h]
	was := n.active
	n.active, n.theta = s.Tasks > 0, q.threshold(s)
	x.fixUp(h)
	switch {
	case n.active && !was:
		x.heapPush(&x.edf, h)
		x.heapPush(&x.fifo, h)
	case !n.active && was:
		x.heapRemove(&x.edf, h)
		x.heapRemove(&x.fifo, h)
	}
}

// setRisk recomputes every job's at-risk threshold for MP's need = 1 +
// Slack and TCTError, and the trees' minima: O(n).
func (q *Queue) setRisk(k risk) {
	x := &q.ix
	x.risk = k
	for i := range q.jobs {
		s := &q.jobs[i]
		x.nodes[s.handle].theta = q.threshold(s)
	}
	for _, t := range x.live {
		x.rebuild(x.types[t].root)
	}
}
