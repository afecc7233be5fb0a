package deadlinecheck

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// newRejectionWriter returns the writer of the check's deactivations: the
// workloads still waiting for quota that the check already knows it will
// reject (a malformed annotation or model, a deadline already past or
// missed even alone, a pod bigger than the nominal quota). It is a writer
// of its own, apart from the reconcile's verdicts and from the ETAs, so
// that a burst of such workloads never holds up a decision: a reconcile
// writes the verdicts Kueue waits on (workloads holding quota), hands the
// deactivations over and returns, and the next reconcile decides the
// workloads that got quota meanwhile. The deactivations go out
// parallelWrites at a time, each workload's once, in the order they came,
// at most deactivationsPerSecond over all queues: enough that Kueue's
// queue soon reaches the workloads behind a burst, bounded so that a burst
// of thousands puts a bounded load on the API server. Each carries
// the resourceVersion it was computed from; one that Kueue reserved quota
// for meanwhile fails, and the next reconcile rejects it on its check
// instead. Deactivations the cache has not seen yet are not handed over
// again, and one whose workload the cache already shows changed since it
// was computed is not sent at all (it could only fail; the change brings
// a reconcile that decides the workload again).
func newRejectionWriter(r *queueReconciler) *etaWriter {
	e := newETAWriter(r, deactivationsPerSecond)
	e.write, e.first, e.failed, e.inFlight = r.deactivate, nil, nil, parallelWrites
	return e
}

// deactivationsPerSecond bounds the rejection writer: each deactivation is
// two writes (the check's state, a patch) and an event. With writes taking
// a second or more on a loaded API server, parallelWrites in flight bound
// it lower still.
const deactivationsPerSecond = 20

// deactivate writes one deactivation unless the cache shows the workload
// changed (or gone) since the task was computed from it.
func (r *queueReconciler) deactivate(ctx context.Context, t etaTask, wait func(context.Context) bool) (bool, error) {
	cur := &kueue.Workload{}
	if err := r.client.Get(ctx, client.ObjectKeyFromObject(t.wl), cur); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	if cur.ResourceVersion != t.wl.ResourceVersion {
		return false, nil
	}
	return r.actETA(ctx, t, wait)
}
