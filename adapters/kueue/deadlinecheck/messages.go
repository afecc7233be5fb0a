package deadlinecheck

import (
	"fmt"
	"strings"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// The messages a user reads on the Workload's admission check (kubectl
// describe workload) and in its events. Each is one line: what was decided,
// the numbers behind it, what it protects. Times are RFC 3339 UTC;
// probabilities have two decimals.

func rejectInput(r Reason, err error, w Workload) *Verdict {
	msg := "Rejected: " + err.Error()
	if r == ReasonNoEstimate {
		msg = fmt.Sprintf("Rejected: deadline %s but %s", formatTime(w.Deadline), err)
	}
	return &Verdict{State: kueue.CheckStateRejected, Reason: r, Message: msg}
}

func readyNoDeadline() string {
	return "Ready: no " + DeadlineAnnotation + " annotation, so no deadline to protect"
}

func rejectNeverFits(cq string, w Workload) *Verdict {
	return &Verdict{State: kueue.CheckStateRejected, Reason: ReasonNeverFits, Message: fmt.Sprintf(
		"Rejected: its pod (%s) does not fit ClusterQueue %s's nominal quota even once, so it can never meet its deadline %s",
		formatResources(w.Pod), cq, formatTime(w.Deadline))}
}

func pendingNeverFits(cq string, w Workload) string {
	return fmt.Sprintf("Pending: no ETA, its pod (%s) does not fit ClusterQueue %s's nominal quota", formatResources(w.Pod), cq)
}

// finishes formats the p50 and p90 of run-time samples counted from now.
func finishes(now time.Time, xs []float64) string {
	p50, p90, err := quantiles(xs)
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%s (p50) / %s (p90)", formatTime(at(now, p50)), formatTime(atUp(now, p90)))
}

func rejectDeadlinePassed(w Workload) *Verdict {
	return &Verdict{State: kueue.CheckStateRejected, Reason: ReasonDeadlinePassed, Message: fmt.Sprintf(
		"Rejected: its deadline %s has already passed (%s)", formatTime(w.Deadline), w.DeadlineFrom)}
}

func rejectLateAlone(w Workload, wk *work, now time.Time, prob, p float64) *Verdict {
	return &Verdict{State: kueue.CheckStateRejected, Reason: ReasonLateAlone, Message: fmt.Sprintf(
		"Rejected: even started now with the quota to itself it would finish %s, after its deadline %s: P(on time) = %.2f < %.2f (%s, %s)",
		finishes(now, wk.own), formatTime(w.Deadline), prob, p, w.RunTime.Source, podsLeft(w))}
}

func ready(cq string, w Workload, wk *work, now time.Time, prob, p float64, protected int) *Verdict {
	whose := "its deadline holds"
	switch {
	case protected == 1:
		whose = fmt.Sprintf("it and the 1 later admitted deadline in ClusterQueue %s hold", cq)
	case protected > 1:
		whose = fmt.Sprintf("it and the %d later admitted deadlines in ClusterQueue %s hold", protected, cq)
	}
	return &Verdict{State: kueue.CheckStateReady, Reason: ReasonFits, Message: fmt.Sprintf(
		"Ready: predicted finish %s, deadline %s; P(%s) = %.2f >= %.2f",
		finishes(now, wk.own), formatTime(w.Deadline), whose, prob, p)}
}

func retryLate(w Workload, finish []float64, now time.Time, pmeet, p float64, after time.Duration) *Verdict {
	return &Verdict{State: kueue.CheckStateRetry, Reason: ReasonLateInQueue, RequeueAfter: after, Message: fmt.Sprintf(
		"Retry in %v: behind the admitted workloads with earlier deadlines it would finish %s, deadline %s: P(on time) = %.2f < %.2f",
		after, finishes(now, finish), formatTime(w.Deadline), pmeet, p)}
}

func retryHurts(w Workload, wk *work, b Workload, now time.Time, pmeet, p float64, after time.Duration) *Verdict {
	return &Verdict{State: kueue.CheckStateRetry, Reason: ReasonHurts, RequeueAfter: after, Protects: b.Key, Message: fmt.Sprintf(
		"Retry in %v: admitting it now would push admitted %s past its deadline %s: P(%s on time) = %.2f < %.2f; alone it would finish %s, deadline %s",
		after, b.Key, formatTime(b.Deadline), b.Key, pmeet, p, finishes(now, wk.own), formatTime(w.Deadline))}
}

func pendingETA(e ETA) string { return string(appendPendingETA(nil, e)) }

// appendPendingETA appends pendingETA(e) to b.
func appendPendingETA(b []byte, e ETA) []byte {
	b = append(b, "Pending: predicted start "...)
	b = appendTime(b, e.StartP50)
	b = append(b, " (p50) / "...)
	b = appendTime(b, e.StartP90)
	b = append(b, " (p90)"...)
	if e.HasFinish() {
		b = append(b, ", finish "...)
		b = appendTime(b, e.FinishP50)
		b = append(b, " (p50) / "...)
		b = appendTime(b, e.FinishP90)
		b = append(b, " (p90)"...)
	} else {
		b = append(b, ", no run-time estimate for its finish"...)
	}
	switch {
	case e.Deadline.IsZero():
	case e.HasFinish() && e.FinishP50.After(e.Deadline):
		b = append(b, ", after its deadline "...)
		b = appendTime(b, e.Deadline)
		b = append(b, " at this place in the queue"...)
	default:
		b = append(b, ", deadline "...)
		b = appendTime(b, e.Deadline)
	}
	return b
}

func podsLeft(w Workload) string {
	left := w.Pods - w.Done
	if left == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", left)
}

// rejectionNotePrefix starts the check message of every deactivated
// workload the check rejected.
const rejectionNotePrefix = "Rejected and deactivated "

func isRejectionNote(msg string) bool { return strings.HasPrefix(msg, rejectionNotePrefix) }

// deactivatedNote is the check message of a waiting workload the check
// deactivates: its rejection, said to be final for this submission.
func deactivatedNote(rejection string) string {
	return rejectionNotePrefix + "while waiting for quota: " + strings.TrimPrefix(rejection, "Rejected: ")
}

// restoredNote is the check message the check puts back on a workload
// Kueue deactivated after the check rejected it (Kueue's eviction resets
// the message to "Reset to Pending after eviction. Previously: Rejected").
func restoredNote(rejection string) string {
	return rejectionNotePrefix + "by Kueue: " + strings.TrimPrefix(rejection, "Rejected: ")
}
