package deadlinecheck

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
// again.
func newRejectionWriter(r *queueReconciler) *etaWriter {
	return newETAWriter(r, deactivationsPerSecond)
}

// deactivationsPerSecond bounds the rejection writer: each deactivation is
// two writes (the check's state, a patch) and an event.
const deactivationsPerSecond = 20
