package deadlinecheck

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedkit/schedkit/admission"
)

// What a plan keeps of the last plan of its queue, so that a plan whose
// queue barely changed does not sort or rebuild what did not change. Each
// kept piece is taken only after a check that it is what the full
// computation would give, bit for bit (TestPropKeptPlan): an order kept
// is strictly sorted under the current inputs (then it is the only
// sorted order), a promised queue kept holds exactly the current jobs.

// creationOrder returns the indexes of ws in creation order, then key.
// The last plan's order is kept when ws has as many workloads and it is
// still strictly sorted: O(n) comparisons instead of a sort.
func (sc *decideScratch) creationOrder(ws []Workload) []int {
	before := func(a, b int) int {
		if c := ws[a].Created.Compare(ws[b].Created); c != 0 {
			return c // the keys are compared only on a tie
		}
		return cmp.Compare(ws[a].Key, ws[b].Key)
	}
	if len(sc.order) == len(ws) && strictlySorted(sc.order, before) {
		return sc.order
	}
	sc.order = resize(sc.order, len(ws))
	for i := range sc.order {
		sc.order[i] = i
	}
	slices.SortFunc(sc.order, before)
	return sc.order
}

// edfOrder returns the pending workloads, listed in creation order in
// pending, in EDF order of their jobs. The last plan's EDF order is kept
// when the same workloads are pending and it is still strictly sorted.
func (sc *decideScratch) edfOrder(pending []int, jobs []admission.Job) []int {
	sc.pending = pending
	edf := func(a, b int) int { return admission.CompareEDF(jobs[a], jobs[b]) }
	if slices.Equal(pending, sc.pendingRaw) && len(sc.pendingEDF) == len(pending) && strictlySorted(sc.pendingEDF, edf) {
		return sc.pendingEDF
	}
	sc.pendingRaw = append(sc.pendingRaw[:0], pending...)
	sc.pendingEDF = append(sc.pendingEDF[:0], pending...)
	slices.SortFunc(sc.pendingEDF, edf)
	return sc.pendingEDF
}

func strictlySorted(xs []int, c func(a, b int) int) bool {
	for k := 1; k < len(xs); k++ {
		if c(xs[k-1], xs[k]) >= 0 {
			return false
		}
	}
	return true
}

// keepQueue reports whether the promised queue q0 holds exactly the jobs
// of the workloads want (with their fluid samples, the same slices): then
// its decisions are those of a queue built from them, and the sums it
// keeps between decisions hold.
// The jobs the last plan inserted (its Ready verdicts) leave it first
// unless they are wanted as they are: a reconcile's next plan finds them
// promised, a plan of the same state again (say, after a refused write)
// finds them still to decide.
func (sc *decideScratch) keepQueue(ws []Workload, order []int, jobs []admission.Job, works []*work, want []int) bool {
	q := &sc.q0
	for _, id := range sc.inserted {
		if k := int(id - 1); k >= 0 && k < len(order) {
			i := order[k]
			if j, ok := q.Status(id); ok && ws[i].Phase == Promised && ws[i].HasDeadline() && works[i] != nil && sameJob(j, withSamples(jobs[i], works[i].fluid)) {
				continue
			}
		}
		q.Remove(id)
	}
	sc.inserted = sc.inserted[:0]
	if q.Len() != len(want) {
		return false
	}
	for _, i := range want {
		j, ok := q.Status(jobs[i].ID)
		if !ok || !sameJob(j, withSamples(jobs[i], works[i].fluid)) {
			return false
		}
	}
	return true
}

// sameJob reports whether a queued job is b: the fields the plan sets,
// bit for bit, and the same samples slice.
func sameJob(a, b admission.Job) bool {
	bits := math.Float64bits
	return a.ID == b.ID && bits(a.Arrival) == bits(b.Arrival) && bits(a.Deadline) == bits(b.Deadline) &&
		a.Tasks == b.Tasks && a.Model == nil && b.Model == nil && bits(a.Read90) == bits(b.Read90) &&
		bits(a.JCT) == bits(b.JCT) && a.Running == b.Running && bits(a.RunningUntil) == bits(b.RunningUntil) &&
		len(a.Samples) == len(b.Samples) && (len(a.Samples) == 0 || &a.Samples[0] == &b.Samples[0])
}
