package deadline

import (
	"fmt"

	"github.com/schedkit/schedkit/edf"
)

// rank orders the apps for priorities by edf.Rank: the order in which
// edf's picker (edf.PickerMP for OrderMP, with no IO check: YARN gives no
// data-node read model; edf.PickerEDF for OrderEDF) gives one free
// dedicated container (residual capacity 1) after another, each chosen
// app leaving the queue, then the apps the picker never chooses in EDF
// order. Each app is an edf.Job (its job type's model, its deadline, its
// pending map tasks) and each container it holds a running task at
// capacity 1: YARN containers are dedicated slots. edf.Rank's answer also
// gives each app's at-risk verdict (Eq. 3 with margin 1) and its view's
// Completable (Eq. 3's count on its containers). A ranking edf refuses (a
// model with no valid task time on a container an app holds) is an error
// naming the app and its job type.
func (pl *Planner) rank(jobs []*job, order string) ([]*job, error) {
	picker := edf.PickerEDF
	if order == OrderMP {
		picker = edf.PickerMP
	}
	most := 0
	for _, j := range jobs {
		most = max(most, j.running)
	}
	for len(pl.held) < most {
		pl.held = append(pl.held, 1) // the containers an app holds, each at capacity 1
	}
	descs, running := pl.descs[:0], pl.running[:0]
	for _, j := range jobs {
		d := j.desc
		d.Tasks = j.pending() // edf.Rank counts the running tasks in running
		descs, running = append(descs, d), append(running, pl.held[:j.running])
	}
	pl.descs, pl.running = descs, running
	ranks, err := edf.Rank(pl.ranks, descs, running, 1, 0, picker)
	pl.ranks = ranks
	if err != nil {
		for i, j := range jobs { // name the app edf refuses
			if _, e := edf.Rank(pl.ranks, descs[i:i+1], running[i:i+1], 1, 0, picker); e != nil {
				return nil, fmt.Errorf("deadline: %s: job type %s: %w", j.app.ID, j.typ.Name, e)
			}
		}
		return nil, fmt.Errorf("deadline: ranking: %w", err)
	}
	ranked := make([]*job, len(ranks))
	for i, rk := range ranks {
		j := jobs[rk.Index]
		j.atRisk, j.view.Completable = rk.AtRisk, rk.Completable
		ranked[i] = j
	}
	return ranked, nil
}
