package preempt

import (
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Task is one running task: it holds Slots slots of the cluster since
// Start (seconds of the caller's clock, the same clock as Cluster.Now).
type Task struct {
	ID    int64   // the caller's task ID; used only to break ties
	Job   int     // index of the task's job in Cluster.Jobs
	Start float64 // launch time in seconds; finite and ≤ Cluster.Now
	Slots int     // slots held, in [1, MaxSlots]; Hadoop map tasks hold 1
}

// A Job is one job as the fair-share scheduler sees it. Its running slots are
// not a field: they are counted from Cluster.Tasks, so the two cannot
// disagree.
type Job struct {
	// Share is the job's fair share in slots (GP §V: "the share of each
	// job"), finite and ≥ 0; it may be fractional. A job keeps ⌈Share⌉ slots
	// before any of its tasks counts as overflowing.
	Share float64
	// Queued is the number of slots requested by the job's tasks waiting to
	// be scheduled (its queued demand), ≥ 0. Starvation condition (3) and the
	// 90%-of-queue exception, judged for a long job, sum it over the other
	// jobs: a long job's own queued tasks (its killed tasks among them) are
	// not others starving.
	Queued int
	// Long marks a long job (GP §V leaves the classification to the caller,
	// e.g. Mantri-style estimates). Only long jobs can starve others.
	Long bool
	// NoPreempt protects the job: none of its tasks is ever a victim, under
	// either policy. Set it for the jobs the slots are being freed for.
	NoPreempt bool
	// StarvingFor is how long, in seconds, the caller has continuously seen
	// this long job starve others (Decision.Starving reports it each check);
	// 0 when it has just started. It drives the graduated kill
	// (GraduatedKill); ignored for jobs that do not starve others.
	StarvingFor float64
}

// A Cluster is the state a preemption decision reads: the time of the check,
// the running tasks and the jobs they belong to.
type Cluster struct {
	Now   float64 // time of the check in seconds, finite
	Tasks []Task  // the running tasks; Task.Job indexes Jobs
	Jobs  []Job   // the jobs; a task's Job is an index here
}

// MaxSlots is the largest Task.Slots accepted, so that sums of slots over any
// number of tasks a machine can hold never overflow an int.
const MaxSlots = 1 << 20

// A Reason says why a task was chosen as a victim.
type Reason uint8

const (
	// ReasonOverflow: the baseline chose one of the job's tasks beyond its share.
	ReasonOverflow Reason = iota + 1
	// ReasonStarvingLongJob: GP step 1, an overflowing task of a long job that
	// starves others (GP §V, three conditions).
	ReasonStarvingLongJob
	// ReasonMostRecent: GP step 2, among the most recently started tasks
	// cluster-wide (GP Algorithm 1 lines 8–9).
	ReasonMostRecent
)

// String returns "overflow", "starving-long-job" or "most-recent".
func (r Reason) String() string { return enumname.Of(r, "Reason", reasonNames[:]) }

var reasonNames = [...]string{
	ReasonOverflow:        "overflow",
	ReasonStarvingLongJob: "starving-long-job",
	ReasonMostRecent:      "most-recent",
}

// A Victim is one task to kill.
type Victim struct {
	Task     int     // index of the task in Cluster.Tasks
	ID       int64   // its Task.ID
	Job      int     // its Task.Job
	Slots    int     // slots it frees
	Reason   Reason  // why it was chosen
	WorkLost float64 // (Now − Start)·Slots, in slot·seconds (WorkLost)
}

// A Decision is the outcome of one preemption check.
type Decision struct {
	// Victims lists the tasks to kill in the order they were chosen:
	// starvation victims first (GP), then by recency. When the decision came
	// from a Workspace it aliases the workspace's memory and is valid until
	// the next call on it.
	Victims []Victim
	// Freed is the number of slots the victims hold (Σ Victim.Slots).
	Freed int
	// WorkLost is Σ Victim.WorkLost in slot·seconds.
	WorkLost float64
	// Starving lists, in increasing order, the long jobs found to starve
	// others at this check (GP only; aliases workspace memory like
	// Victims). The caller uses it to keep Job.StarvingFor.
	Starving []int
}

// WorkLost is the work a victim loses when it is killed: the slot·seconds it
// has run, (now − start)·slots (beyond GP: a victim cost model), in
// [0, 2·MaxTime·MaxSlots]. A task started at now loses 0. now and
// t.Start must be in [−MaxTime, MaxTime] with t.Start ≤ now, and t.Slots in
// [1, MaxSlots] (as Cluster requires); otherwise it returns 0 and an error
// matching ErrBadInput.
func WorkLost(now float64, t Task) (float64, error) {
	switch {
	case !(math.Abs(now) <= MaxTime):
		return 0, bad("now", now, "must be in [-MaxTime, MaxTime]")
	case !(math.Abs(t.Start) <= MaxTime) || t.Start > now:
		return 0, bad("Task.Start", t.Start, "must be in [-MaxTime, now]")
	case t.Slots < 1 || t.Slots > MaxSlots:
		return 0, bad("Task.Slots", t.Slots, "must be in [1, MaxSlots]")
	}
	return workLost(now, t), nil
}

func workLost(now float64, t Task) float64 { return (now - t.Start) * float64(t.Slots) }
