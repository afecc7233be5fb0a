package hadoopsim

import (
	"math"

	"github.com/schedkit/schedkit/admission"
)

// admit decides whether job i, arriving now, is admitted: always for a
// policy without admission control; otherwise by package admission from
// the scheduler's estimates only. Paper and strict mode get the job's Eq. 6
// JCT over every slot's current residual capacity; wave mode (MP+AC) gets
// the job's tasks and Model and the cluster as the scheduler sees it: each
// slot's current residual capacity and, for a busy slot, when its task is
// planned to end (start + Model.TCT(r at start) × Margin; the scheduler
// does not know the task's real time). A rejected job is counted here.
func (r *run) admit(i int, now float64) (bool, error) {
	opt, ok := r.p.admission(r.margin())
	if !ok {
		return true, nil
	}
	j := &r.s.Jobs[i]
	model := r.s.Types[j.Type].Model
	jct, err := admission.JCT(model, j.Maps, r.slotR)
	if err != nil {
		return false, err
	}
	aj := admission.Job{ID: int64(j.ID), Arrival: now, Deadline: j.Deadline, JCT: jct}
	if opt.Mode == admission.ModeWave {
		// A pointer to the type's model: boxing it allocates nothing.
		aj.Tasks, aj.Model, aj.RunningUntil = j.Maps, &r.s.Types[j.Type].Model, math.Inf(-1)
		for sl := range r.cluster {
			r.cluster[sl] = admission.Slot{R: r.slotR[sl], FreeAt: math.Inf(-1)}
			if r.busy[sl] {
				r.cluster[sl].FreeAt = r.planEnd[sl]
			}
		}
		opt.Cluster = r.cluster
	}
	d, err := r.checker.Decide(r.aq.Jobs(), aj, now, opt)
	if err != nil {
		return false, err
	}
	r.res.Outcomes[i].JCT = jct
	if d.NewIndex >= 0 {
		r.res.Outcomes[i].Prefix = d.Checked[d.NewIndex].Prefix
	}
	if !d.Admit {
		r.res.Rejected++
		return false, nil
	}
	return true, r.aq.Insert(aj)
}

// noteStart tells wave-mode admission that one of job i's tasks started on
// slot sl at now: the slot is planned to be busy until now +
// Model.TCT(r) × Margin, and the job has one pending task fewer. (Eq. 6's
// view, for paper and strict mode, counts unfinished tasks and does not
// change.)
func (r *run) noteStart(i, sl int, now float64) error {
	opt, ok := r.p.admission(r.margin())
	if !ok || opt.Mode != admission.ModeWave {
		return nil
	}
	r.planEnd[sl] = now + r.s.Types[r.s.Jobs[i].Type].Model.TCT(r.slotR[sl])*opt.Margin
	return r.progress(i)
}

// refreshJCT updates an admitted job's admission view after one of its
// tasks finished: its Eq. 6 JCT over its remaining tasks and the current
// residual capacities (paper, strict), or when its running tasks end
// (wave).
func (r *run) refreshJCT(i int) error {
	opt, ok := r.p.admission(r.margin())
	if !ok {
		return nil
	}
	if opt.Mode == admission.ModeWave {
		return r.progress(i)
	}
	j := &r.s.Jobs[i]
	jct, err := admission.JCT(r.s.Types[j.Type].Model, j.Maps-r.done[i], r.slotR)
	if err != nil {
		return err
	}
	return r.aq.SetJCT(int64(j.ID), jct)
}

// progress records job i's pending tasks and the planned end of its
// running ones in the wave-mode admission queue.
func (r *run) progress(i int) error {
	until := math.Inf(-1)
	for sl, busy := range r.busy {
		if busy && r.slotJob[sl] == i {
			until = max(until, r.planEnd[sl])
		}
	}
	j := &r.s.Jobs[i]
	return r.aq.SetProgress(int64(j.ID), j.Maps-r.started[i], until)
}

// forget drops a finished job from the admission queue.
func (r *run) forget(i int) {
	if _, ok := r.p.admission(r.margin()); ok {
		r.aq.Remove(int64(r.s.Jobs[i].ID))
	}
}

// margin is the scenario's Margin, 0 read as 1.
func (r *run) margin() float64 {
	if r.s.Margin == 0 {
		return 1
	}
	return r.s.Margin
}
