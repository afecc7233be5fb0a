package deadlinecheck

import (
	"math"
	"slices"

	"github.com/schedkit/schedkit/admission"
)

// aloneMemo keeps a workload's alone-test threshold (aloneNeed) for one
// confidence, so that a waiting workload's test on each reconcile is one
// comparison instead of a pass over its samples.
type aloneMemo struct {
	set  bool
	p    float64
	need float64
	ok   bool
}

// meetsAlone reports whether the alone test (step 3 of Plan:
// admission.Workspace.Decide in confidence mode at p on an empty queue,
// the workload's own samples, its deadline d seconds after the decision)
// surely admits it without an error. False means the test must run:
// it may reject, or refuse the samples.
func (wk *work) meetsAlone(d, p float64) bool {
	m := wk.alone
	if m == nil {
		m = &aloneMemo{}
		wk.alone = m
	}
	if !m.set || m.p != p {
		m.need, m.ok = aloneNeed(wk.own, p)
		m.set, m.p = true, p
	}
	return m.ok && m.need <= d
}

// aloneNeed returns the least deadline, in seconds after the decision, by
// which a share of at least p of the samples own finish as
// admission.Workspace.Decide counts it alone (sample s meets deadline d iff
// own[s] ≤ d; the decision admits iff meets/n ≥ p, in float64): the k-th
// smallest sample for the least k with k/n ≥ p; −Inf for k = 0, +Inf when
// no k ≤ n will do. ok is false when own is empty or longer than
// admission.MaxSamples, or a sample is outside [0, admission.MaxDuration]:
// the decision refuses those.
func aloneNeed(own []float64, p float64) (need float64, ok bool) {
	n := len(own)
	if n == 0 || n > admission.MaxSamples {
		return 0, false
	}
	for _, t := range own {
		if !(t >= 0 && t <= admission.MaxDuration) {
			return 0, false
		}
	}
	fn := float64(n)
	k := max(int(math.Ceil(p*fn))-1, 0)
	for k <= n && !(float64(k)/fn >= p) {
		k++
	}
	switch {
	case k == 0:
		return math.Inf(-1), true
	case k > n:
		return math.Inf(1), true
	}
	sorted := slices.Clone(own)
	slices.Sort(sorted)
	return sorted[k-1], true
}
