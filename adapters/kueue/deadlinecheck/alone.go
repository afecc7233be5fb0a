package deadlinecheck

import "github.com/schedkit/schedkit/admission"

// aloneMemo keeps a workload's alone-test threshold
// (admission.AloneDeadline of its own samples) for one confidence, so
// that a waiting workload's test on each reconcile is one comparison
// instead of a pass over its samples.
type aloneMemo struct {
	set  bool
	p    float64
	need float64
	ok   bool // AloneDeadline took the samples
}

// meetsAlone reports whether the alone test (step 3 of Plan:
// admission.Workspace.Decide in confidence mode at p on an empty queue,
// the workload's own samples, its deadline d seconds after the decision)
// surely admits it without an error. False means the test must run:
// it may reject, or refuse the samples.
func (wk *work) meetsAlone(d, p float64) bool {
	need, ok := wk.aloneNeed(p)
	return ok && need <= d
}

// aloneNeed returns the alone test's threshold at p: the workload passes
// it with its deadline d seconds after the decision when need ≤ d. ok is
// false when admission.AloneDeadline refuses its samples.
func (wk *work) aloneNeed(p float64) (need float64, ok bool) {
	m := wk.alone
	if m == nil {
		m = &aloneMemo{}
		wk.alone = m
	}
	if !m.set || m.p != p {
		need, err := admission.AloneDeadline(wk.own, p)
		m.need, m.ok = need, err == nil
		m.set, m.p = true, p
	}
	return m.need, m.ok
}
