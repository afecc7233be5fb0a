package deadline

import (
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/edf"
)

// rank orders the apps for priorities with schedkit's edf pickers, never
// re-implementing them. Each app is an edf.Job (its not-started plus
// running map tasks, its model, its deadline) and each container it holds
// a Start at residual capacity 1: YARN containers are dedicated slots.
// The picker is asked which app a free container should go to; that app
// takes the next rank and leaves the queue; repeat. With OrderMP,
// edf.Queue.MP (IO check off: YARN gives no data-node read model) picks
// an at-risk app (Eq. 3 on its containers) with the closest deadline
// first; with every container dedicated, its best-fit step ties on NormTCT
// and falls to deadline, arrival, ID — EDF. With OrderEDF, edf.Queue.EDF.
// Apps with no task left to start are never picked; they follow in EDF
// order (edf.CompareEDF). atRisk reports edf.Queue.AtRisk for every
// app before any was removed, and views get edf.CompletableTasks.
func rank(jobs []*job, order string, views map[int64]*AppPlan) (ranked []*job, atRisk map[int64]bool, err error) {
	var q edf.Queue // dedicated capacity 1, margin 1: the zero Config
	byID := make(map[int64]*job, len(jobs))
	for _, j := range jobs {
		if err := q.Add(edf.Job{ID: j.key, Arrival: j.arrival, Deadline: j.deadline, Tasks: j.remaining, Model: j.typ.TCT()}); err != nil {
			return nil, nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
		}
		for range j.running {
			if _, err := q.Start(j.key, 1); err != nil {
				return nil, nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
			}
		}
		byID[j.key] = j
	}
	atRisk = make(map[int64]bool, len(jobs))
	for _, j := range jobs {
		r, ok := q.AtRisk(j.key, 0)
		if !ok {
			return nil, nil, fmt.Errorf("deadline: %s: at-risk test failed", j.app.ID)
		}
		atRisk[j.key] = r
		held := make([]float64, j.running)
		for i := range held {
			held[i] = 1
		}
		if views[j.key].Completable, err = edf.CompletableTasks(j.typ.TCT(), max(j.deadline, 0), held); err != nil {
			return nil, nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
		}
	}
	picked := map[int64]bool{}
	for {
		var d edf.Decision
		if order == OrderMP {
			if d, err = q.MP(1, 0, edf.MPOptions{NoIOCheck: true}); err != nil {
				return nil, nil, err
			}
		} else {
			d = q.EDF()
		}
		if d.Reason == edf.ReasonIdle {
			break
		}
		j := byID[d.ID]
		ranked = append(ranked, j)
		picked[j.key] = true
		q.Remove(d.ID)
	}
	var rest []*job
	for _, j := range jobs {
		if !picked[j.key] {
			rest = append(rest, j)
		}
	}
	slices.SortFunc(rest, func(a, b *job) int {
		return edf.CompareEDF(edf.Job{ID: a.key, Arrival: a.arrival, Deadline: a.deadline},
			edf.Job{ID: b.key, Arrival: b.arrival, Deadline: b.deadline})
	})
	return append(ranked, rest...), atRisk, nil
}
