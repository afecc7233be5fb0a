package replay

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// The annotations the replay writes and reads: the contract of schedkit's
// Kubernetes adapters (adapters/internal/annotation), the check's ETA
// (adapters/kueue/deadlinecheck) and kwok's pod run time
// (adapters/cluster/kwok/stages.yaml).
const (
	annDeadline  = "schedkit.io/deadline"
	annRuntime   = "schedkit.io/runtime"
	annStartP50  = "schedkit.io/predicted-start-p50"
	annStartP90  = "schedkit.io/predicted-start-p90"
	annFinishP50 = "schedkit.io/predicted-finish-p50"
	annFinishP90 = "schedkit.io/predicted-finish-p90"
	annKwokDelay = "pod-complete.stage.kwok.x-k8s.io/delay"
	annRejection = "schedkit.io/rejection"
	checkName    = "deadline"
)

// An ETA is the check's first prediction for a workload, read from its
// annotations.
type ETA struct {
	Seen                                     time.Time
	StartP50, StartP90, FinishP50, FinishP90 time.Time
}

// An Outcome is what happened to one submitted Job.
type Outcome struct {
	Sub Submission
	// Created is the Job's creationTimestamp; Deadline Created plus the
	// relative deadline (as the check and the plugins read it).
	Created, Deadline time.Time
	// Admitted is when Kueue first admitted its Workload (zero: never);
	// Finished the Job's completion time (zero: not complete).
	Admitted, Finished time.Time
	Failed             bool
	// Rejected: the check rejected it (Rejected state, or deactivated
	// while it waited).
	Rejected bool
	// Rejection is the check's message on a rejected Job (its
	// schedkit.io/rejection annotation): the reason and its numbers.
	Rejection string `json:",omitempty"`
	ETA       *ETA
	// Preempted counts its pods evicted by preemption; WorkLost their run
	// time until then, in seconds.
	Preempted int
	WorkLost  float64
	// Where the time between creation and completion went: Kueue reserved
	// quota (QuotaReserved), the check said Ready (CheckReady; zero in
	// stock), the last of its pods was created (PodsCreated), was Running
	// (PodsRunning: kwok's startTime) and ended (PodsEnded: its
	// container's finishedAt).
	QuotaReserved, CheckReady           time.Time
	PodsCreated, PodsRunning, PodsEnded time.Time
}

// Met reports whether the Job completed by its deadline.
func (o *Outcome) Met() bool { return !o.Finished.IsZero() && !o.Finished.After(o.Deadline) }

// Run options of one configuration at one load.
type RunOptions struct {
	CPUs int
	// Grace is how long after the last deadline the replay waits for jobs
	// still running before it counts them missed. It stops earlier, at
	// the last submission plus Grace plus twice the time the cluster takes
	// to run all the work (pod-seconds over CPUs) plus the longest run
	// time: a Job still unfinished then is counted missed, and Unfinished.
	Grace time.Duration
	// Progress, when set, gets a line every ProgressEvery.
	Progress      func(string)
	ProgressEvery time.Duration
}

// The CPU-time readings of one run, seconds.
type cpuReading struct{ controller, scheduler float64 }

func (cl *Cluster) cpu() cpuReading {
	sched := "kube-scheduler"
	if cl.Config == Schedkit {
		sched = "schedkit-scheduler"
	}
	return cpuReading{controller: cl.CPUSeconds("kueue") + cl.CPUSeconds("schedkit-deadline"), scheduler: cl.CPUSeconds(sched)}
}

// Run sets up the replay's queue on the fresh cluster, submits the plan's
// Jobs at their times and follows them until each has completed, failed
// or been rejected, or the last deadline is Grace behind; it returns one
// outcome per submission and the CPU the controllers and the scheduler
// used meanwhile.
func Run(ctx context.Context, cl *Cluster, subs []Submission, o RunOptions) ([]Outcome, cpuReading, time.Duration, error) {
	if err := cl.Apply(queueYAML(o.CPUs, cl.Config)); err != nil {
		return nil, cpuReading{}, 0, err
	}
	if cl.Config == Instant {
		if err := activateInstant(ctx, cl); err != nil {
			return nil, cpuReading{}, 0, err
		}
		ictx, stop := context.WithCancel(ctx)
		answered := make(chan struct{})
		go func() { answerInstant(ictx, cl); close(answered) }()
		defer func() { stop(); <-answered }()
	}
	if err := waitActive(ctx, cl); err != nil {
		return nil, cpuReading{}, 0, err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	etas := watchETAs(wctx, cl.C, Namespace)
	cpu0 := cl.cpu()
	t0 := time.Now()
	outs := make([]Outcome, len(subs))
	uids := map[types.UID]int{}
	var lastDeadline, lastAt, longest time.Duration
	var work float64
	for i, s := range subs {
		outs[i].Sub = s
		lastDeadline = max(lastDeadline, s.At+s.Deadline)
		lastAt, longest = max(lastAt, s.At), max(longest, s.Run)
		work += float64(s.Pods) * s.Run.Seconds()
	}
	limit := min(lastDeadline, lastAt+longest+seconds(2*work/float64(o.CPUs))) + o.Grace
	// The submissions run on their own clock, so that slow reads of the
	// API server under load do not delay them.
	type created struct {
		i   int
		job *batchv1.Job
		err error
	}
	ch := make(chan created, len(subs))
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for i, s := range subs {
			select {
			case <-sctx.Done():
				return
			case <-time.After(time.Until(t0.Add(s.At))):
			}
			job := jobFor(s, cl.Config.scheduler())
			err := cl.C.Create(sctx, job)
			ch <- created{i, job, err}
			if err != nil {
				return
			}
		}
	}()
	next := 0
	nextProgress := t0
	for {
		now := time.Since(t0)
	drain:
		for {
			select {
			case c := <-ch:
				if c.err != nil {
					return nil, cpuReading{}, 0, fmt.Errorf("creating Job %s: %w", c.job.Name, c.err)
				}
				outs[c.i].Created = c.job.CreationTimestamp.Time
				outs[c.i].Deadline = outs[c.i].Created.Add(subs[c.i].Deadline)
				uids[c.job.UID] = c.i
				next++
			default:
				break drain
			}
		}
		done, err := observe(ctx, cl, outs, uids, etas)
		if err != nil {
			return nil, cpuReading{}, 0, err
		}
		if o.Progress != nil && time.Now().After(nextProgress) {
			o.Progress(progressLine(outs[:next], len(subs), now))
			nextProgress = time.Now().Add(o.ProgressEvery)
		}
		if next == len(subs) && (done == len(subs) || now > limit) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, cpuReading{}, 0, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	wall := time.Since(t0)
	cpu1 := cl.cpu()
	if err := podTimes(ctx, cl, outs, uids); err != nil {
		return nil, cpuReading{}, 0, err
	}
	return outs, cpuReading{controller: cpu1.controller - cpu0.controller, scheduler: cpu1.scheduler - cpu0.scheduler}, wall, nil
}

func waitActive(ctx context.Context, cl *Cluster) error {
	for range 120 {
		cq := &kueue.ClusterQueue{}
		if err := cl.C.Get(ctx, client.ObjectKey{Name: queueName}, cq); err == nil &&
			apimeta.IsStatusConditionTrue(cq.Status.Conditions, kueue.ClusterQueueActive) {
			_, err := cl.CS.CoreV1().ServiceAccounts(Namespace).Get(ctx, "default", metav1.GetOptions{})
			if err == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return fmt.Errorf("ClusterQueue %s not active (or namespace %s without its default ServiceAccount) within 60 s", queueName, Namespace)
}

// jobFor is the batch/v1 Job of a submission: suspended in Kueue's
// LocalQueue, pods of one CPU that kwok runs for Run, the deadline and run
// time annotations; a pod evicted by preemption is replaced without
// counting as a failure.
func jobFor(s Submission, scheduler string) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: s.Name,
			Labels: map[string]string{"kueue.x-k8s.io/queue-name": LocalQueue},
			Annotations: map[string]string{annDeadline: s.Deadline.String(), annRuntime: s.Run.String(),
				"schedkit.io/trace-job": s.TraceID}},
		Spec: batchv1.JobSpec{
			Parallelism:  ptr.To(int32(s.Pods)),
			Completions:  ptr.To(int32(s.Pods)),
			BackoffLimit: ptr.To[int32](0),
			Suspend:      ptr.To(true),
			PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
				Action:          batchv1.PodFailurePolicyActionIgnore,
				OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}},
			}}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{annKwokDelay: s.Run.String()}},
				Spec: corev1.PodSpec{
					SchedulerName: scheduler,
					RestartPolicy: corev1.RestartPolicyNever,
					NodeSelector:  map[string]string{"type": "kwok"},
					Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36", Command: []string{"sleep", "infinity"},
						Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
							corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")}}}},
				},
			},
		},
	}
}

// observe reads every Job and Workload of the replay and records what
// changed, a Job's first ETA as etas saw it when it did (else as read
// now); it returns how many outcomes are final.
func observe(ctx context.Context, cl *Cluster, outs []Outcome, uids map[types.UID]int, etas *etaWatch) (int, error) {
	jobs := &batchv1.JobList{}
	if err := cl.C.List(ctx, jobs, client.InNamespace(Namespace)); err != nil {
		return 0, err
	}
	for _, j := range jobs.Items {
		i, ok := uids[j.UID]
		if !ok {
			continue
		}
		if j.Status.CompletionTime != nil && outs[i].Finished.IsZero() {
			outs[i].Finished = j.Status.CompletionTime.Time
		}
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue {
				outs[i].Failed = true
			}
		}
	}
	wls := &kueue.WorkloadList{}
	if err := cl.C.List(ctx, wls, client.InNamespace(Namespace)); err != nil {
		return 0, err
	}
	for k := range wls.Items {
		wl := &wls.Items[k]
		i := -1
		var owner types.UID
		for _, ref := range wl.OwnerReferences {
			if j, ok := uids[ref.UID]; ok {
				i, owner = j, ref.UID
			}
		}
		if i < 0 {
			continue
		}
		o := &outs[i]
		if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadAdmitted); c != nil &&
			c.Status == metav1.ConditionTrue && o.Admitted.IsZero() {
			o.Admitted = c.LastTransitionTime.Time
		}
		if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil &&
			c.Status == metav1.ConditionTrue && o.QuotaReserved.IsZero() {
			o.QuotaReserved = c.LastTransitionTime.Time
		}
		for _, ac := range wl.Status.AdmissionChecks {
			if string(ac.Name) == checkName && ac.State == kueue.CheckStateRejected {
				o.Rejected = true
			}
			if string(ac.Name) == checkName && ac.State == kueue.CheckStateReady && o.CheckReady.IsZero() {
				o.CheckReady = ac.LastTransitionTime.Time
			}
		}
		if wl.Spec.Active != nil && !*wl.Spec.Active {
			o.Rejected = true
		}
		if m := wl.Annotations[annRejection]; m != "" && o.Rejection == "" {
			o.Rejection = m
		}
		if o.ETA == nil {
			o.ETA = etas.of(owner)
		}
		if o.ETA == nil {
			o.ETA = readETA(wl.Annotations)
		}
	}
	done := 0
	for i := range outs {
		if !outs[i].Finished.IsZero() || outs[i].Failed || outs[i].Rejected {
			done++
		}
	}
	return done, nil
}

// readETA reads the check's ETA annotations, nil when any is missing or
// malformed.
func readETA(ann map[string]string) *ETA {
	e := &ETA{Seen: time.Now()}
	for key, t := range map[string]*time.Time{annStartP50: &e.StartP50, annStartP90: &e.StartP90,
		annFinishP50: &e.FinishP50, annFinishP90: &e.FinishP90} {
		v, ok := ann[key]
		if !ok {
			return nil
		}
		x, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return nil
		}
		*t = x
	}
	return e
}

// podTimes records, per Job, its pods evicted by preemption (condition
// DisruptionTarget) and their run time until then, and when the last of
// its pods was created, Running and ended.
func podTimes(ctx context.Context, cl *Cluster, outs []Outcome, uids map[types.UID]int) error {
	pods, err := cl.CS.CoreV1().Pods(Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, p := range pods.Items {
		owner := metav1.GetControllerOf(&p)
		if owner == nil {
			continue
		}
		i, ok := uids[owner.UID]
		if !ok {
			continue
		}
		o := &outs[i]
		o.PodsCreated = latest(o.PodsCreated, p.CreationTimestamp.Time)
		if p.Status.StartTime != nil {
			o.PodsRunning = latest(o.PodsRunning, p.Status.StartTime.Time)
		}
		for _, cs := range p.Status.ContainerStatuses {
			if t := cs.State.Terminated; t != nil {
				o.PodsEnded = latest(o.PodsEnded, t.FinishedAt.Time)
			}
		}
		for _, c := range p.Status.Conditions {
			if c.Type != corev1.DisruptionTarget || c.Status != corev1.ConditionTrue {
				continue
			}
			outs[i].Preempted++
			if p.Status.StartTime != nil {
				outs[i].WorkLost += max(0, c.LastTransitionTime.Sub(p.Status.StartTime.Time).Seconds())
			}
		}
	}
	return nil
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func progressLine(outs []Outcome, total int, now time.Duration) string {
	var adm, fin, rej int
	for _, o := range outs {
		if !o.Admitted.IsZero() {
			adm++
		}
		if !o.Finished.IsZero() {
			fin++
		}
		if o.Rejected {
			rej++
		}
	}
	return fmt.Sprintf("%4.0f s: submitted %d/%d, admitted %d, complete %d, rejected %d", now.Seconds(), len(outs), total, adm, fin, rej)
}
