// Package deadlineadmission is the DeadlineAdmission PreFilter plugin: a pod
// whose job cannot meet its deadline, given the deadline jobs already
// running, is rejected with UnschedulableAndUnresolvable and a one-line
// reason (predicted finish against the deadline, and the job the rejection
// protects). The decision is schedkit's admission.Workspace.Decide (MIMP §5.3,
// Eq. 7) in the mode the args name, Strict by default.
//
// # Model
//
// A job is the set of pods with one controller owner (package podjob). A
// job is running once any of its pods is assigned to a node; the pods of a
// running job are never re-checked, so a job is never left half started.
// For a pod of a job that is not running yet, with a deadline
// (schedkit.io/deadline on the pod or its owning Job), DeadlineAdmission
// asks admission.Workspace.Decide whether to admit the job against the running
// deadline jobs:
//
//   - each job's completion time if it ran alone (admission's JCT, MIMP Eq.
//     6) is its run-time estimate: schedkit.io/runtime, else the args row
//     of its schedkit.io/job-type, else args.defaultRuntime; a running job
//     has its estimate less the time since its first pod started left;
//   - Eq. 7 runs the deadline jobs one after another in EDF order (deadline,
//     creation, job ID), so a job is predicted to finish at now + the sum of
//     the JCTs up to and including its own. Jobs that in fact run side by
//     side on a large cluster finish sooner: the check is conservative.
//
// A deadline job without an estimate, with an unknown job type or with a
// malformed annotation is rejected with a message naming what is missing.
// Pods without a deadline pass untouched, and so do the pods of a workload
// Kueue admitted (they carry Kueue's kueue.x-k8s.io/podset label, which
// Kueue writes into the pod template only when it admits): Kueue is then
// the admission layer — with the schedkit.io/deadline AdmissionCheck
// (adapters/kueue) it has already checked the deadlines — and holding a pod
// whose quota Kueue has reserved would only waste that quota. A rejected pod is retried when an
// assigned pod is deleted or finishes (its job may have been the obstacle),
// and in any case when the scheduler flushes its unschedulable pods (every
// 5 minutes by default), which picks up an edited annotation.
//
// # Why PreFilter and not PreEnqueue
//
// A pod rejected at PreEnqueue is only marked gated: the scheduler writes no
// PodScheduled condition and no event, so the user never sees why. A
// PreFilter rejection becomes the pod's PodScheduled=False condition and a
// FailedScheduling event carrying the plugin's message. PreFilter also sees
// the running jobs including the pods the scheduler has assumed on a node
// but not yet bound, so two deadline jobs admitted back to back see each
// other.
//
// # Cost
//
// The running jobs are kept from the scheduler's informer events and the
// plugin's own Reserve and Unreserve in the profile's tally (package
// tally, one per profile, shared with ProgressShare; each plugin reads the
// tally's changes through its own tally.Reader). The running deadline jobs
// are kept, from those changes, in an admission.RunningSet in EDF order,
// each by its end: its first pod's start plus its estimate, or not started
// (its whole estimate left) while no pod has a start time. A PreFilter
// therefore reads no running job, maps no estimate and sorts nothing: it
// costs admission.RunningSet.Decide, one pass writing each job's time left
// at now and Eq. 7's sums, the decision the per-cycle computation
// (MakeInput, then admission.Workspace.Decide) makes, bit for bit
// (TestPropHeld compares the statuses and messages through random pod
// events and times). While two running jobs share a job ID, a cycle
// decides the per-cycle way, which reports the collision. A pod without a
// deadline is passed after reading its deadline annotation. An admitting
// PreFilter allocates nothing (TestPreFilterAllocs); a pod the tally does
// not hold yet is mapped, one allocation.
//
// BenchmarkPreFilterHeld, a deadline pod held by the tally beside n
// running deadline jobs of one pod each (2 cores, -cpu 1, load average
// 19, 0 allocations in every row):
//
//	running jobs   RunningSet (held)   per cycle (MakeInput + Decide)
//	100            4.7 µs              0.18 ms
//	1,000          0.17 ms             8.8 ms
//	10,000         1.0 ms              79 ms
//
//	go test -run '^$' -bench PreFilterHeld -benchtime 300x -cpu 1 ./deadlineadmission
//
// In scheduler_perf's DeadlineRates ci slice (100 nodes, 2 cores; the
// perf module's slice.sh, DeadlineRates workloads only), the plugin's
// PreFilter, with the per-cycle computation and with the RunningSet, one
// run each, back to back (per cycle, RunningSet, per cycle), on a machine
// loaded by other work:
//
//	                       p50 / p90 / p99 (ms)     average    schedkit ÷ default   load average
//	per cycle              0.008 / 0.663 / 22.2     10.2 ms    0.43                 24–26
//	RunningSet             0.009 / 0.167 / 22.2     7.9 ms     0.46                 12–25
//	per cycle              0.008 / 0.431 / 0.562    0.097 ms   2.79                 12–21
//
// At that load the p99 of 22 ms (the histogram's top bucket), the
// averages and the throughput ratio are the machine's, not the plugin's
// (the third run's default profile stalled): they say nothing either way.
//
// A pod assumed by another profile's cycle counts once it is bound.
// Enable the plugin under multiPoint, so that its Reserve runs.
package deadlineadmission

import (
	"context"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// Name is the plugin's name in the registry and in configurations.
const Name = "DeadlineAdmission"

// DeadlineAdmission is the DeadlineAdmission PreFilter plugin.
type DeadlineAdmission struct {
	args  *Args
	mode  admission.Mode
	jobs  owner.Resolver
	clock clock.PassiveClock
	// tally holds the pods and their jobs (shared with the profile's other
	// schedkit plugins).
	tally *tally.Tally

	// mu guards what a PreFilter keeps between calls, so that a cycle
	// allocates nothing once they have grown: runningJobs, the running
	// deadline jobs kept from the tally's changes (written under the
	// tally's lock too), and the buffers of one decision.
	mu          sync.Mutex
	runningJobs runningJobs
	running     []RunningJob
	in          Input
	ws          admission.Workspace
}

var (
	_ fwk.PreFilterPlugin   = (*DeadlineAdmission)(nil)
	_ fwk.ReservePlugin     = (*DeadlineAdmission)(nil)
	_ fwk.EnqueueExtensions = (*DeadlineAdmission)(nil)
	_ fwk.SignPlugin        = (*DeadlineAdmission)(nil)
)

// Build makes the plugin on the scheduler's handle (the factory.Build of
// the registry), on the profile's shared tally.
func Build(ctx context.Context, args *Args, h fwk.Handle, env factory.Env) (fwk.Plugin, error) {
	t, err := env.Tallies.For(ctx, h, "")
	if err != nil {
		return nil, err
	}
	return NewOn(args, owner.NewResolver(h).Jobs, env.Clock, t), nil
}

// New returns the plugin for args (decoded and validated by DecodeArgs),
// finding pods' owning Jobs with jobs (nil: the pods' own annotations
// only) and reading the time from c, on a tally of its own. It knows no
// pods until they come through PodHandler.
func New(args *Args, jobs batchlisters.JobLister, c clock.PassiveClock) *DeadlineAdmission {
	return NewOn(args, jobs, c, tally.New("", "", owner.Resolver{Jobs: jobs}.Job))
}

// NewOn is New on the tally t, which another plugin may share and which
// must map jobs as owner.Resolver{Jobs: jobs}.Job does.
func NewOn(args *Args, jobs batchlisters.JobLister, c clock.PassiveClock, t *tally.Tally) *DeadlineAdmission {
	mode := admission.ModeStrict
	if args.Mode == ModePaper {
		mode = admission.ModePaper
	}
	return &DeadlineAdmission{args: args, mode: mode, jobs: owner.Resolver{Jobs: jobs}, clock: c, tally: t, runningJobs: newRunningJobs(t.NewReader())}
}

// PodHandler returns the pod informer's event handler that keeps the
// plugin's view of running jobs.
func (pl *DeadlineAdmission) PodHandler() cache.ResourceEventHandler { return pl.tally.PodHandler() }

// Name returns Name.
func (pl *DeadlineAdmission) Name() string { return Name }

// PreFilter admits or rejects the pod's job (see the package doc).
func (pl *DeadlineAdmission) PreFilter(ctx context.Context, _ fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	if podjob.AdmittedByKueue(pod) {
		if logger := klog.FromContext(ctx).V(4); logger.Enabled() {
			logger.Info("Pod of a workload Kueue admitted passes", "pod", klog.KObj(pod))
		}
		return nil, nil
	}
	if _, has, err := pl.jobs.Deadline(pod); err != nil {
		return nil, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, err.Error())
	} else if !has {
		return nil, nil
	}

	pl.mu.Lock()
	defer pl.mu.Unlock()
	now := pl.clock.Now()
	job, admitted, exact := pl.readRunning(pod, now)
	if admitted {
		return nil, nil
	}
	est, row, err := estimate(job, pl.args)
	if err != nil {
		return nil, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, err.Error())
	}
	in := &pl.in
	var d admission.Decision
	held := &pl.runningJobs
	if exact && !held.set.Has(job.ID) {
		d, err = pl.decideHeld(job, est, now)
	} else { // a shared job ID, reported by fill, or more jobs than the set holds
		if err = in.fill(job, est, pl.running, pl.args, now); err == nil {
			d, err = pl.ws.Decide(in.Queue, in.New, in.Now, admission.Options{Mode: pl.mode})
		}
	}
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	if d.Admit {
		if logger := klog.FromContext(ctx).V(4); logger.Enabled() {
			logger.Info("Deadline job admitted", "pod", klog.KObj(pod), "job", job.Ref, "runtime", est, "estimate", pl.args.source(row), "runningDeadlineJobs", held.set.Len())
		}
		return nil, nil
	}
	msg := Message(d, *in)
	klog.FromContext(ctx).V(2).Info("Deadline job rejected", "pod", klog.KObj(pod), "job", job.Ref, "reason", d.Reason.String(), "message", msg)
	return nil, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, msg)
}

// decideHeld decides the job (with its estimate) against the running
// deadline jobs the set holds, and writes into pl.in what Message reads:
// the time, the new job and the names of the new and the blocking job.
func (pl *DeadlineAdmission) decideHeld(job podjob.Job, est time.Duration, now time.Time) (admission.Decision, error) {
	held := &pl.runningJobs
	in := &pl.in
	in.Now, in.New, in.Queue = podjob.Seconds(now), admissionJob(job, est), in.Queue[:0]
	d, err := held.set.Decide(in.New, now.UnixNano(), admission.Options{Mode: pl.mode})
	if err != nil || d.Admit {
		return d, err
	}
	if in.Refs == nil {
		in.Refs = map[int64]string{}
	}
	clear(in.Refs)
	in.Refs[job.ID] = job.Ref
	if b := d.BlockingID; b != job.ID {
		in.Refs[b] = held.ref(b)
	}
	return d, nil
}

// PreFilterExtensions returns nil: admission does not depend on which node
// the pods of other jobs are on.
func (pl *DeadlineAdmission) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Reserve counts the pod as running on the node from now on (the scheduler
// has assumed it there), before the informer reports it bound.
func (pl *DeadlineAdmission) Reserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	pl.tally.Assume(pod.UID, node)
	return nil
}

// Unreserve forgets Reserve's assumption (the binding failed).
func (pl *DeadlineAdmission) Unreserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) {
	pl.tally.Forget(pod.UID)
}

// EventsToRegister asks for a retry when an assigned pod is deleted (or
// finishes, which removes it from the scheduler's view).
func (pl *DeadlineAdmission) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		{Event: fwk.ClusterEvent{Resource: fwk.AssignedPod, ActionType: fwk.Delete}},
	}, nil
}

// SignPod refuses to sign pods of deadline jobs (their admission depends on
// the running jobs and the time, so one pod's result cannot be reused for
// another) and signs the others with no fragment (the plugin passes them).
func (pl *DeadlineAdmission) SignPod(_ context.Context, pod *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	if _, has, err := pl.jobs.Deadline(pod); has || err != nil {
		return nil, fwk.NewStatus(fwk.Unschedulable, "deadline admission depends on the running jobs")
	}
	return nil, nil
}
