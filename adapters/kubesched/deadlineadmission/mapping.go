package deadlineadmission

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// A RunningJob is a job with at least one pod assigned to a node (bound, or
// assumed by the scheduler): a job that was admitted and is running.
type RunningJob struct {
	Job podjob.Job
	// Started is the earliest start of its assigned pods (podjob.Started).
	Started time.Time
}

// Estimate returns a job's run-time estimate and where it came from, in the
// contract's order (package annotation): the schedkit.io/runtime
// annotation, else the args row of its schedkit.io/job-type, else
// args.DefaultRuntime. A job with none, or with a job type the args do not
// list, gets an error saying so; a malformed annotation gets its
// *podjob.AnnotationError.
func Estimate(j podjob.Job, args *Args) (time.Duration, string, error) {
	est, row, err := estimate(j, args)
	if err != nil {
		return 0, "", err
	}
	return est, args.source(row), nil
}

// The sources of an estimate besides a row of args.JobTypes.
const (
	fromRuntime = -1 // the schedkit.io/runtime annotation
	fromDefault = -2 // args.DefaultRuntime
)

// estimate is Estimate with the source as the index of the args.JobTypes
// row, fromRuntime or fromDefault (it allocates only for an error).
func estimate(j podjob.Job, args *Args) (time.Duration, int, error) {
	for _, key := range [...]string{annotation.Runtime, annotation.JobType} {
		if err := j.Err(key); err != nil {
			return 0, 0, err
		}
	}
	if j.HasRuntime {
		return j.Runtime, fromRuntime, nil
	}
	if j.JobType != "" {
		for i, c := range args.JobTypes {
			if c.Name == j.JobType {
				return c.Runtime.Duration, i, nil
			}
		}
		return 0, 0, fmt.Errorf("%s has %s=%q, which the %s args do not list", j.Ref, annotation.JobType, j.JobType, Name)
	}
	if args.DefaultRuntime.Duration > 0 {
		return args.DefaultRuntime.Duration, fromDefault, nil
	}
	return 0, 0, fmt.Errorf("%s has a deadline but no run-time estimate: set %s or %s", j.Ref, annotation.Runtime, annotation.JobType)
}

// source names an estimate's source for Estimate and the logs.
func (args *Args) source(row int) string {
	switch row {
	case fromRuntime:
		return annotation.Runtime
	case fromDefault:
		return "defaultRuntime"
	}
	return "job type " + args.JobTypes[row].Name
}

// Remaining is a running job's estimated time left at now: its run-time
// estimate less the time since it started, never below zero. A running job
// without a usable estimate has 0 left: admission cannot protect what it
// cannot predict.
func Remaining(r RunningJob, args *Args, now time.Time) time.Duration {
	est, _, err := estimate(r.Job, args)
	if err != nil {
		return 0
	}
	left := est - now.Sub(r.Started)
	if left < 0 {
		return 0
	}
	return left
}

// Input is what admission.Workspace.Decide reads, in seconds since the Unix epoch.
type Input struct {
	Queue []admission.Job // running deadline jobs, in EDF order (CompareEDF)
	New   admission.Job
	Now   float64
	// Refs names each job ID for messages.
	Refs map[int64]string
}

// MakeInput maps the arriving job (with its estimate) and the running jobs
// to admission's input: each job's Eq. 6 completion time (JCT) is its
// remaining run time, its arrival its creation, its deadline the
// annotation's. Running jobs without a deadline are left out (admission
// never sums them). Two jobs with one ID (a hash collision) are an error.
func MakeInput(newJob podjob.Job, estimate time.Duration, running []RunningJob, args *Args, now time.Time) (Input, error) {
	var in Input
	if err := in.fill(newJob, estimate, running, args, now); err != nil {
		return Input{}, err
	}
	return in, nil
}

// fill is MakeInput into in, reusing its Queue and Refs: once they have
// grown, it allocates nothing (but for an error).
func (in *Input) fill(newJob podjob.Job, estimate time.Duration, running []RunningJob, args *Args, now time.Time) error {
	in.Now = podjob.Seconds(now)
	in.New = admissionJob(newJob, estimate)
	in.Queue = in.Queue[:0]
	for i := range running {
		r := &running[i]
		if r.Job.HasDeadline {
			in.Queue = append(in.Queue, admissionJob(r.Job, Remaining(*r, args, now)))
		}
	}
	slices.SortFunc(in.Queue, admission.CompareEDF)
	if in.Refs == nil {
		in.Refs = make(map[int64]string, len(in.Queue)+1)
	}
	clear(in.Refs)
	in.Refs[newJob.ID] = newJob.Ref
	for i := range running {
		r := &running[i]
		if !r.Job.HasDeadline {
			continue
		}
		if prev, dup := in.Refs[r.Job.ID]; dup {
			a, b := min(prev, r.Job.Ref), max(prev, r.Job.Ref)
			return fmt.Errorf("%s and %s have the same job ID %d", a, b, r.Job.ID)
		}
		in.Refs[r.Job.ID] = r.Job.Ref
	}
	return nil
}

func admissionJob(j podjob.Job, jct time.Duration) admission.Job {
	d := admission.Job{ID: j.ID, Arrival: podjob.Seconds(j.Created), Deadline: podjob.Seconds(j.Deadline), JCT: jct.Seconds()}
	if !j.HasDeadline {
		d.Deadline = math.Inf(1)
	}
	return d
}
