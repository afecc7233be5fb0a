package deadlinecheck

import (
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/tct/jct"
)

// Phase is where a workload behind the check stands.
type Phase int

const (
	// Waiting: no quota reserved yet (or a decision other than Ready that
	// Kueue has not acted on): it gets an ETA, and is deactivated at once
	// when the check already knows it will reject it.
	Waiting Phase = iota
	// Deciding: Kueue reserved quota and the check is Pending: it gets a
	// decision.
	Deciding
	// Promised: the check is Ready and the workload holds quota (running
	// once Admitted): its deadline is protected.
	Promised
	// Deactivated: spec.active is false and the check is Pending. The
	// check only keeps its rejection message on it (Workload.Rejection).
	Deactivated
)

func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting"
	case Deciding:
		return "deciding"
	case Promised:
		return "promised"
	case Deactivated:
		return "deactivated"
	}
	return "phase?"
}

// A Workload is one Kueue Workload as the check sees it: the schedkit
// inputs Map derives from the Workload, its owner and its ClusterQueue.
type Workload struct {
	Key     string // namespace/name
	UID     types.UID
	Created time.Time
	Phase   Phase

	// Priority and QueueTime place the workload in Kueue's queue: higher
	// priority first, then earlier QueueTime, then UID (KueueOrder).
	// Priority is Kueue's effective priority: spec.priority plus Boost.
	Priority  int64
	QueueTime time.Time
	// Boost is the priority boost the check writes on the workload
	// (Options.EDFPriorityBoost, priorityboost.go; 0: none), in Priority.
	Boost int32
	// NotBefore is when Kueue requeues a workload in backoff
	// (status.requeueState.requeueAt); zero: now.
	NotBefore time.Time

	// Deadline is the absolute deadline; zero when the workload has none.
	// DeadlineFrom names where it was read, for messages:
	// `annotation schedkit.io/deadline = "90m" on Job ns/train`.
	Deadline     time.Time
	DeadlineFrom string

	Pods     int           // pods over all pod sets
	Done     int           // pods finished (status.reclaimablePods)
	Executed time.Duration // time run so far: accumulated past runs plus the current one
	// Pod is the mean pod request; Slots is the ClusterQueue's nominal
	// quota in units of it (0: a pod never fits).
	Pod   corev1.ResourceList
	Slots int

	// Runtime is the schedkit.io/runtime annotation (0: none) and JobType
	// the schedkit.io/job-type annotation ("": none), as read.
	Runtime time.Duration
	JobType string
	// RunTime is the pod run-time model; nil when there is none
	// (NoRunTime then says why: ErrNoEstimate or an *InputError).
	RunTime   *RunTime
	NoRunTime error
	// Problem is a reason to reject the workload whatever the queue: a
	// malformed deadline (an *InputError), or a deadline with no usable
	// run-time model (NoRunTime). A workload without a deadline is never
	// rejected for its model: it only gets no finish in its ETA.
	Problem error
	// Blocked is why the check cannot read the workload's inputs (its
	// owner's annotations could not be read): it is not decided on and its
	// check stays Pending with this reason, until the controller can read
	// them (an operator's problem, not the user's input).
	Blocked error

	// Rejection is the check's last rejection message
	// (RejectionAnnotation), and CheckMessage the check's current message.
	Rejection    string
	CheckMessage string
}

// HasDeadline reports whether w has a deadline.
func (w Workload) HasDeadline() bool { return !w.Deadline.IsZero() }

// usable reports whether samples of w's remaining run time exist.
func (w Workload) usable() bool { return w.RunTime != nil && w.Slots > 0 }

// CheckState returns the state of the named check on wl, or nil.
func CheckState(wl *kueue.Workload, check kueue.AdmissionCheckReference) *kueue.AdmissionCheckState {
	for i := range wl.Status.AdmissionChecks {
		if wl.Status.AdmissionChecks[i].Name == check {
			return &wl.Status.AdmissionChecks[i]
		}
	}
	return nil
}

// Map derives the check's view of wl: its phase, place in Kueue's queue,
// deadline, pods, work done, capacity in pod units and run-time model.
// owner is the metadata of wl's controlling owner (nil when none or
// unknown). quota is the ClusterQueue's (Quota). ok is false when wl is not
// the check's concern: it does not carry the check, is finished or being
// deleted, its check is Rejected (Kueue is acting on it), or it is
// deactivated with a check that is not Pending.
//
// The annotations follow the contract of every schedkit adapter (package
// adapters/internal/annotation): a value in the pod template (the first pod
// set carrying the key) wins over the Workload's, which wins over its
// owner's; a relative deadline counts from the job's creation, the owner's
// creationTimestamp when the owner is known, else the Workload's. The run
// time is schedkit.io/runtime, else the model of schedkit.io/job-type, else
// the check's default job type, else spec.maximumExecutionTimeSeconds.
//
// Map is pure: equal inputs give equal outputs.
func Map(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, quota corev1.ResourceList, models Models, now time.Time) (w Workload, ok bool) {
	s, ok := mapStill(wl, owner, check, quota, models)
	return s.at(now), ok
}

// A stillView is Map's view without the time run in the current
// admission: all of it but Executed's part since admittedAt depends on
// wl, owner, check, quota and models only, so it holds for as long as
// they do (viewCache).
type stillView struct {
	w          Workload
	admitted   bool      // Kueue's Admitted condition is true
	admittedAt time.Time // its last transition
}

// at is the view at now: Executed plus the time run since admission.
func (s stillView) at(now time.Time) Workload {
	w := s.w
	if s.admitted {
		if run := now.Sub(s.admittedAt); run > 0 {
			w.Executed += run
		}
	}
	return w
}

// mapStill is Map but for the time run in the current admission.
func mapStill(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, quota corev1.ResourceList, models Models) (s stillView, ok bool) {
	state := CheckState(wl, check)
	if state == nil || state.State == kueue.CheckStateRejected ||
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) || wl.DeletionTimestamp != nil {
		return stillView{}, false
	}
	w := Workload{
		Key:          wl.Namespace + "/" + wl.Name,
		UID:          wl.UID,
		Created:      wl.CreationTimestamp.Time,
		Rejection:    wl.Annotations[RejectionAnnotation],
		CheckMessage: state.Message,
	}
	if wl.Spec.Active != nil && !*wl.Spec.Active {
		w.Phase = Deactivated
		return stillView{w: w}, state.State == kueue.CheckStatePending
	}
	// An evicted workload is losing its quota (Kueue resets its checks to
	// Pending and requeues it): it is waiting again, never decided on.
	reserved := apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) &&
		!apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadEvicted)
	switch {
	case reserved && state.State == kueue.CheckStateReady:
		w.Phase = Promised
	case reserved && state.State == kueue.CheckStatePending:
		w.Phase = Deciding
	default:
		w.Phase = Waiting
	}
	var base int32
	base, w.QueueTime = QueuePlace(wl)
	w.Priority = int64(base)
	if rs := wl.Status.RequeueState; rs != nil && rs.RequeueAt != nil {
		w.NotBefore = rs.RequeueAt.Time
	}

	in := readAnnotations(wl, owner)
	if in.deadline.found {
		d, err := ParseDeadline(in.deadline.value, in.origin)
		if err != nil {
			w.Problem = err
		} else {
			w.Deadline = d
			w.DeadlineFrom = fmt.Sprintf("annotation %s = %q on %s", DeadlineAnnotation, in.deadline.value, in.deadline.from)
		}
	}

	w.Pod, w.Pods = PodRequest(wl)
	for _, r := range wl.Status.ReclaimablePods {
		w.Done += int(r.Count)
	}
	w.Done = min(max(w.Done, 0), w.Pods)
	if w.Pods > 0 {
		w.Slots = PodUnits(quota, w.Pod)
		if reserved {
			// It holds quota for all its pods, borrowed or not.
			w.Slots = max(w.Slots, w.Pods)
		}
	}

	if acc := wl.Status.AccumulatedPastExecutionTimeSeconds; acc != nil && *acc > 0 {
		w.Executed = time.Duration(*acc) * time.Second
	}
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadAdmitted); c != nil && c.Status == metav1.ConditionTrue {
		s.admitted, s.admittedAt = true, c.LastTransitionTime.Time
	}

	rt, err := runTime(in, models, wl.Spec.MaximumExecutionTimeSeconds, &w)
	if err != nil {
		w.NoRunTime = err
	} else {
		w.RunTime = &rt
	}
	if w.Problem == nil && w.HasDeadline() && w.NoRunTime != nil {
		w.Problem = w.NoRunTime
	}
	s.w = w
	return s, true
}

// runTime is the contract's run-time estimate: schedkit.io/runtime (every
// pod runs that long), else the job type's model (the annotation's, else
// the default job type's), else spec.maximumExecutionTimeSeconds.
func runTime(in annotations, models Models, maxExecSeconds *int32, w *Workload) (RunTime, error) {
	if v := in.jobType; v.found {
		if jt, err := annotation.ParseJobType(v.value); err == nil {
			w.JobType = jt
		}
	}
	if v := in.runtime; v.found {
		d, err := annotation.ParseRuntime(v.value)
		if err != nil {
			return RunTime{}, syntaxError(RuntimeAnnotation, v.value, err)
		}
		w.Runtime = d
		if v := in.jobType; v.found && w.JobType == "" {
			// A malformed job type is reported even when the run time wins.
			_, err := annotation.ParseJobType(v.value)
			return RunTime{}, syntaxError(JobTypeAnnotation, v.value, err)
		}
		return RunTime{
			Pod:    jct.Lognormal{Mu: math.Log(d.Seconds()), Sigma: 0},
			Exact:  d.Seconds(),
			Source: fmt.Sprintf("%s %v", RuntimeAnnotation, d),
		}, nil
	}
	if v := in.jobType; v.found {
		jt, err := annotation.ParseJobType(v.value)
		if err != nil {
			return RunTime{}, syntaxError(JobTypeAnnotation, v.value, err)
		}
		return models.For(jt, true, maxExecSeconds)
	}
	return models.For("", false, maxExecSeconds)
}

// A found annotation value and the object it came from, for messages.
type found struct {
	value string
	from  string // "pod template of pod set main", "Workload ns/w", "Job ns/j"
	found bool
}

type annotations struct {
	deadline, runtime, jobType found
	origin                     time.Time // the job's creation
}

// readAnnotations looks the contract's keys up in wl's pod templates, wl
// and owner, in that order.
func readAnnotations(wl *kueue.Workload, owner *metav1.ObjectMeta) annotations {
	in := annotations{origin: wl.CreationTimestamp.Time}
	var ownerAnn map[string]string
	ownerName := ""
	if owner != nil {
		ownerAnn = owner.Annotations
		in.origin = owner.CreationTimestamp.Time
		if ref := metav1.GetControllerOfNoCopy(wl); ref != nil {
			ownerName = fmt.Sprintf("%s %s/%s", ref.Kind, wl.Namespace, ref.Name)
		}
	}
	get := func(key string) found {
		// The pod template: the first pod set that carries the key.
		for _, ps := range wl.Spec.PodSets {
			if v, ok := ps.Template.Annotations[key]; ok {
				return found{value: v, from: "pod template of pod set " + string(ps.Name), found: true}
			}
		}
		v, layer, ok := annotation.Lookup(key, wl.Annotations, ownerAnn)
		switch {
		case !ok:
			return found{}
		case layer == 0:
			return found{value: v, from: "Workload " + wl.Namespace + "/" + wl.Name, found: true}
		default:
			return found{value: v, from: ownerName, found: true}
		}
	}
	in.deadline, in.runtime, in.jobType = get(DeadlineAnnotation), get(RuntimeAnnotation), get(JobTypeAnnotation)
	return in
}

// NeedsOwner reports whether Map needs wl's owner: some key of the contract
// is missing from its pod templates and its own annotations, or its
// deadline is relative (counted from the owner's creation).
func NeedsOwner(wl *kueue.Workload) bool {
	in := readAnnotations(wl, nil)
	return !in.deadline.found || !in.runtime.found || !in.jobType.found || annotation.IsRelative(in.deadline.value)
}

// QueuePlace returns what places wl in its ClusterQueue's queue, as Kueue
// v0.19's queue orders it with its default configuration and feature
// gates: its priority (spec.priority; 0 when unset), then its queue-order
// timestamp: when it was last evicted by an admission check or by the
// PodsReady timeout (requeuingTimestamp: Eviction, the default), else its
// creation.
func QueuePlace(wl *kueue.Workload) (priority int32, queueTime time.Time) {
	if wl.Spec.Priority != nil {
		priority = *wl.Spec.Priority
	}
	queueTime = wl.CreationTimestamp.Time
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted); c != nil && c.Status == metav1.ConditionTrue &&
		(c.Reason == kueue.WorkloadEvictedByAdmissionCheck || c.Reason == kueue.WorkloadEvictedByPodsReadyTimeout) {
		queueTime = c.LastTransitionTime.Time
	}
	return priority, queueTime
}
