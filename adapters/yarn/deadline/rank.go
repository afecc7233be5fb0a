package deadline

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/edf"
)

// rank orders the apps for priorities by schedkit's edf pickers. Each app
// is an edf.Job (its not-started plus running map tasks, its model, its
// deadline) and each container it holds a task started at residual
// capacity 1: YARN containers are dedicated slots. The order is the one
// edf.Queue gives when it is asked which app a free container should go
// to, that app takes the next rank and leaves the queue, and so on until
// no app has a task left to start (the loop TestPropRankQueue runs
// against this function). With OrderMP, edf.Queue.MP (IO check off: YARN
// gives no data-node read model) picks an at-risk app (Eq. 3 on its
// containers) with the closest deadline first; with every container
// dedicated its best-fit step ties on NormTCT = TCT(1)/TCT(1) = 1 and
// falls to EDF order. With OrderEDF, edf.Queue.EDF. Apps with no task left
// to start are never picked; they follow in EDF order (edf.CompareEDF), as
// do, under MP, apps whose model gives no valid task time on a container
// (MP never offers them one).
//
// No task starts or ends while the ranking runs, so each app's Eq. 3 test
// is fixed for the whole ranking and the pick sequence is a sort: under
// MP, the at-risk apps with a task to start, then the other apps with one,
// then the rest, each group in EDF order; under EDF, the apps with a task
// to start, then the rest. An app's atRisk is the Eq. 3 test
// edf.Queue.AtRisk makes with margin 1 — edf.CompletableTasks on its
// containers (the same sum of 1/TCT(1), in the same order) below its
// pending plus running tasks — and its view's Completable that count.
func (pl *Planner) rank(jobs []*job, order string) ([]*job, error) {
	most := 0
	for _, j := range jobs {
		most = max(most, j.running)
	}
	for len(pl.held) < most {
		pl.held = append(pl.held, 1) // the containers an app holds, each at capacity 1
	}
	held := pl.held
	for _, j := range jobs {
		m := j.desc.Model // the job type's, as the Queue would hold it
		t := m.TCT(1)
		usable := t > 0 && t <= edf.MaxDuration // a valid task time on a container
		if !usable && j.running > 0 {
			return nil, fmt.Errorf("deadline: %s: job type %s: TCT(1) = %v is no valid task time (in (0, %g] s)", j.app.ID, j.typ.Name, t, float64(edf.MaxDuration))
		}
		c, err := edf.CompletableTasks(m, max(j.deadline, 0), held[:j.running])
		if err != nil {
			return nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
		}
		j.view.Completable = c
		j.atRisk = c < float64(j.remaining)
		switch {
		case j.pending() == 0 || (order == OrderMP && !usable):
			j.group = groupRest
		case order == OrderMP && j.atRisk:
			j.group = groupAtRisk
		default:
			j.group = groupPending
		}
	}
	// Sorted as compact keys: the group, then edf.CompareEDF's keys
	// (deadline, arrival, ID) beside the job.
	keys := pl.keys[:0]
	for _, j := range jobs {
		keys = append(keys, rankKey{j.group, j.desc.Deadline, j.desc.Arrival, j.desc.ID, j})
	}
	pl.keys = keys
	slices.SortFunc(keys, func(a, b rankKey) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.deadline, b.deadline),
			cmp.Compare(a.arrival, b.arrival), cmp.Compare(a.id, b.id))
	})
	ranked := make([]*job, len(keys))
	for i, k := range keys {
		ranked[i] = k.j
	}
	return ranked, nil
}

// A rankKey is one app in the ranking's sort.
type rankKey struct {
	group             int
	deadline, arrival float64
	id                int64
	j                 *job
}

// Groups of the ranking, in rank order.
const (
	groupAtRisk  = iota // MP step 1: at risk, a task to start
	groupPending        // a task to start
	groupRest           // nothing to start (or, under MP, no valid task time)
)
