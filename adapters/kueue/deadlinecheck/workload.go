package deadlinecheck

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Phase is where a workload behind the check stands.
type Phase int

const (
	// Waiting: no quota reserved yet (or a decision other than Ready that
	// Kueue has not acted on): it gets an ETA, or a note that it will be
	// rejected once it holds quota (malformed input, or it cannot meet its
	// deadline even alone).
	Waiting Phase = iota
	// Deciding: Kueue reserved quota and the check is Pending: it gets a
	// decision.
	Deciding
	// Promised: the check is Ready and the workload holds quota (running
	// once Admitted): its deadline is protected.
	Promised
)

func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting"
	case Deciding:
		return "deciding"
	case Promised:
		return "promised"
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

	// Deadline is the absolute deadline; zero when the workload has none.
	Deadline time.Time

	Pods     int           // pods over all pod sets
	Done     int           // pods finished (status.reclaimablePods)
	Executed time.Duration // time run so far: accumulated past runs plus the current one
	// Pod is the mean pod request; Slots is the ClusterQueue's nominal
	// quota in units of it (0: a pod never fits).
	Pod   corev1.ResourceList
	Slots int

	// RunTime is the pod run-time model; nil when there is none (Problem
	// then says why: ErrNoEstimate or an *InputError).
	RunTime *RunTime
	// Problem is a reason to reject the workload whatever the queue: a
	// malformed deadline (an *InputError) or a bad or unknown model. A
	// missing model (ErrNoEstimate) counts only for a workload with a
	// deadline.
	Problem error
	// Blocked is why the check cannot read the workload's inputs (its
	// owner's annotations could not be read): it is not decided on and its
	// check stays Pending with this reason, until the controller can read
	// them (an operator's problem, not the user's input).
	Blocked error
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

// Map derives the check's view of wl: its phase, deadline, pods, work done,
// capacity in pod units and run-time model. owner is the metadata of wl's
// controlling owner (nil when none or unknown); its annotations apply when
// wl lacks them. quota is the ClusterQueue's (Quota). ok is false when wl
// is not the check's concern: it does not carry the check, is finished,
// deactivated, or its check is already Rejected.
//
// Map is pure: equal inputs give equal outputs.
func Map(wl *kueue.Workload, owner *metav1.ObjectMeta, check kueue.AdmissionCheckReference, quota corev1.ResourceList, models Models, now time.Time) (w Workload, ok bool) {
	state := CheckState(wl, check)
	if state == nil || state.State == kueue.CheckStateRejected ||
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) ||
		(wl.Spec.Active != nil && !*wl.Spec.Active) || wl.DeletionTimestamp != nil {
		return Workload{}, false
	}
	w = Workload{
		Key:     wl.Namespace + "/" + wl.Name,
		UID:     wl.UID,
		Created: wl.CreationTimestamp.Time,
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

	// Deadline and job type: the Workload's annotation, else its owner's.
	deadline, created, hasDeadline := annotation(wl, owner, DeadlineAnnotation)
	if hasDeadline {
		d, err := ParseDeadline(deadline, created)
		if err != nil {
			w.Problem = err
		} else {
			w.Deadline = d
		}
	}
	jobType, _, hasJobType := annotation(wl, owner, JobTypeAnnotation)

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
		if run := now.Sub(c.LastTransitionTime.Time); run > 0 {
			w.Executed += run
		}
	}

	rt, err := models.For(jobType, hasJobType, wl.Spec.MaximumExecutionTimeSeconds)
	switch {
	case err == nil:
		w.RunTime = &rt
	case w.Problem == nil && (err != ErrNoEstimate || w.HasDeadline()):
		w.Problem = err
	}
	return w, true
}

// annotation returns the value of key on wl, else on owner, with the
// creation time of the object that carries it.
func annotation(wl *kueue.Workload, owner *metav1.ObjectMeta, key string) (string, time.Time, bool) {
	if v, ok := wl.Annotations[key]; ok {
		return v, wl.CreationTimestamp.Time, true
	}
	if owner != nil {
		if v, ok := owner.Annotations[key]; ok {
			return v, owner.CreationTimestamp.Time, true
		}
	}
	return "", time.Time{}, false
}
