// Package job is the one description of a job that package admission and
// package edf both take: each declares its Job as an alias of Job and its
// Model as an alias of Model, so a caller describes a job once and passes
// the same value to both queues, and both check it with the same function
// (Check) on entry. It holds no decision: the EDF order, the entry contract
// and the nil-model test, nothing that needs either package.
package job

import (
	"cmp"
	"math"
	"reflect"
)

// A Model predicts a job's task completion time: TCT(r) is the time in
// seconds one task of the job takes on a slot with residual CPU capacity r
// in [0, 1] (1 = a whole dedicated slot; MIMP Eq. 1). tct.Exp2 satisfies
// it, so callers pass their models without the decision packages
// importing tct. A task time is valid when it is > 0 and at most
// MaxDuration.
type Model interface {
	TCT(r float64) float64
}

// MaxDuration is the largest duration, in seconds, either package accepts
// for a task time, Job.JCT and a planned end's distance from now (about
// 31.7 million years): with it every sum of planned times stays finite.
const MaxDuration = 1e15

// A Job is one job as both decision packages see it: a queued job or one
// arriving. Times are seconds on the caller's clock, the clock of the now
// arguments. The first five fields are the job's description every
// package reads; the others are read by one package and ignored by the
// other, as each says.
type Job struct {
	// ID identifies the job, unique within a queue; the last EDF (and
	// FIFO) tie-break. Both queues are addressed by it.
	ID int64
	// Arrival is the time the job was submitted, finite; the second EDF
	// tie-break and FIFO order. A new job normally arrives at now.
	Arrival float64
	// Deadline is the absolute time by which the job should complete, or
	// NoDeadline (+Inf) for a job without one; NaN and -Inf are bad input.
	// A deadline already in the past is allowed (the job has negative
	// slack). A job without a deadline sorts after every deadline job.
	Deadline float64
	// Tasks is the number of the job's tasks not yet started, >= 0. A
	// queue lowers it as tasks start (and raises it when a task ends
	// uncompleted).
	Tasks int
	// Model predicts one task's time (MIMP Eq. 1). Not nil when Tasks > 0:
	// neither a nil interface nor one holding a nil pointer, map, func or
	// channel. Its times are checked where a decision uses them, not when
	// the job enters a queue.
	Model Model

	// Read90 is the 90th percentile read rate of one task on a dedicated
	// worker, per data node (MIMP Eq. 5), finite and >= 0; 0 for a job that
	// reads nothing. Read by edf's MP IO check; admission ignores it.
	Read90 float64
	// JCT is the job's estimated completion time in seconds if it ran
	// alone on the whole cluster (MIMP Eq. 6), in [0, MaxDuration]; 0 when
	// unused. Read by admission's paper and strict modes; edf ignores it.
	JCT float64
	// Samples are draws of the job's completion time alone on the cluster
	// (seconds, each in [0, MaxDuration]). Read by admission's confidence
	// mode, which checks them where it uses them; edf ignores them.
	Samples []float64

	// Running is the number of the job's tasks started and not ended, and
	// RunningUntil the latest of their planned ends (absolute seconds,
	// read only when Running > 0). A queue keeps them from its task starts
	// and ends, so a job enters a queue, or arrives at a decision, with
	// Running 0; admission's Status reports both, edf's Status reports
	// Running (edf does not plan ends and leaves RunningUntil 0). A caller
	// that holds its own queue for admission's Workspace sets them for its
	// queued jobs.
	Running      int
	RunningUntil float64
}

// NoDeadline is the Deadline of a job without one, +Inf.
func NoDeadline() float64 { return math.Inf(1) }

// HasDeadline reports whether j has a deadline (Deadline is not +Inf).
func (j Job) HasDeadline() bool { return !math.IsInf(j.Deadline, 1) }

// CompareEDF orders two jobs earliest deadline first: by Deadline (a job
// without one, +Inf, after every job with one), then by Arrival, then by
// ID. It returns -1, 0 or +1 like cmp.Compare; two jobs compare equal only
// if all three keys are equal, which a valid queue never holds (IDs are
// unique). NaN keys compare as cmp.Compare says (before everything); Check
// rejects them first.
func CompareEDF(a, b *Job) int {
	if c := cmp.Compare(a.Deadline, b.Deadline); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Arrival, b.Arrival); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// A Fault is the first field of a job that breaks the entry contract:
// the field's name within Job ("Tasks"), its value as given and what is
// wrong. Each package turns it into its own ValueError, with the field
// named where its caller passed the job ("Job.Tasks", "NewJob.Tasks").
type Fault struct {
	Field  string
	Value  any
	Reason string
}

// Check checks the entry contract of a job entering either queue or
// arriving at a decision, in this order: Arrival finite; Deadline not NaN
// or -Inf; Tasks >= 0; Model not nil when Tasks > 0; Read90 finite and >=
// 0; JCT in [0, MaxDuration]; Running 0. It reports the first fault, or ok
// for a job every queue takes (but for its ID and the queue's size, which
// the queue checks). It does not read Samples or the model's times.
func Check(j *Job) (f Fault, ok bool) {
	switch {
	case !(j.Arrival-j.Arrival == 0):
		return Fault{"Arrival", j.Arrival, "must be finite"}, false
	case math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1):
		return Fault{"Deadline", j.Deadline, "must be finite, or NoDeadline() (+Inf)"}, false
	case j.Tasks < 0:
		return Fault{"Tasks", j.Tasks, "must be >= 0"}, false
	case j.Tasks > 0 && NilModel(j.Model):
		return Fault{"Model", nil, "nil model (a nil interface or a nil pointer, map, func or channel) for a job with pending tasks"}, false
	case !(j.Read90 >= 0 && j.Read90 <= math.MaxFloat64):
		return Fault{"Read90", j.Read90, "must be finite and >= 0"}, false
	case !(j.JCT >= 0 && j.JCT <= MaxDuration):
		return Fault{"JCT", j.JCT, "must be in [0, MaxDuration]"}, false
	case j.Running != 0:
		return Fault{"Running", j.Running, "must be 0: a job enters with nothing running, and a queue records its tasks as they start"}, false
	}
	return Fault{}, true
}

// NilModel reports whether m is a nil interface or holds a nil pointer,
// map, func or channel (directly or inside an interface): a model whose
// TCT would panic on its receiver, almost always a forgotten
// initialisation. Only those kinds are inspected and boxing a
// pointer-shaped value allocates nothing, so a concrete struct model such
// as tct.Exp2 costs a type check and no allocation.
func NilModel[M any](m M) bool {
	switch reflect.TypeFor[M]().Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		v := reflect.ValueOf(any(m)) // pointer-shaped or already an interface: no allocation
		if !v.IsValid() {
			return true
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return v.IsNil()
		}
	}
	return false
}
