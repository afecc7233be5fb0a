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
// order (edf.CompareEDF). Each job's atRisk is edf.Queue.AtRisk before
// any job was removed, its view's Completable edf.CompletableTasks. byKey
// maps a schedkit job ID to its job.
func rank(jobs []*job, byKey []*job, order string) (ranked []*job, err error) {
	var q edf.Queue // dedicated capacity 1, margin 1: the zero Config
	most := 0
	for _, j := range jobs {
		if err := q.Add(j.desc); err != nil {
			return nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
		}
		for range j.running {
			if _, err := q.Start(j.key, 1); err != nil {
				return nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
			}
		}
		most = max(most, j.running)
	}
	held := make([]float64, most) // the containers an app holds, each at capacity 1
	for i := range held {
		held[i] = 1
	}
	for _, j := range jobs {
		r, ok := q.AtRisk(j.key, 0)
		if !ok {
			return nil, fmt.Errorf("deadline: %s: at-risk test failed", j.app.ID)
		}
		j.atRisk = r
		if j.view.Completable, err = edf.CompletableTasks(j.typ.TCT(), max(j.deadline, 0), held[:j.running]); err != nil {
			return nil, fmt.Errorf("deadline: %s: %w", j.app.ID, err)
		}
	}
	ranked = make([]*job, 0, len(jobs))
	for {
		var d edf.Decision
		if order == OrderMP {
			if d, err = q.MP(1, 0, edf.MPOptions{NoIOCheck: true}); err != nil {
				return nil, err
			}
		} else {
			d = q.EDF()
		}
		if d.Reason == edf.ReasonIdle {
			break
		}
		j := byKey[d.ID]
		ranked = append(ranked, j)
		j.picked = true
		q.Remove(d.ID)
	}
	rest := ranked[len(ranked):]
	for _, j := range jobs {
		if !j.picked {
			rest = append(rest, j)
		}
	}
	slices.SortFunc(rest, func(a, b *job) int {
		return edf.CompareEDF(a.desc, b.desc)
	})
	return ranked[:len(ranked)+len(rest)], nil
}
