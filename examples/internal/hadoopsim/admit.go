package hadoopsim

import (
	"github.com/schedkit/schedkit/admission"
)

// admit decides whether job i, arriving now and described by job (which it
// gives its Eq. 6 JCT), is admitted: always for a
// policy without admission control; otherwise by package admission's Queue
// from the scheduler's estimates only. Paper and strict mode get the job's
// Eq. 6 JCT over every slot's current residual capacity; wave mode (MP+AC)
// plans the job's tasks with its Model on the cluster as the scheduler
// sees it: each slot's current residual capacity and, for a busy slot, the
// planned end the queue recorded when its task started (the scheduler does
// not know the task's real time). A rejected job is counted here.
func (r *run) admit(i int, job *admission.Job, now float64) (bool, error) {
	opt, ok := r.p.admission(r.margin())
	if !ok {
		return true, nil
	}
	j := &r.s.Jobs[i]
	jct, err := admission.JCT(&r.s.Types[j.Type].Model, j.Maps, r.cluster)
	if err != nil {
		return false, err
	}
	job.JCT = jct
	opt.Cluster = r.cluster
	d, err := r.aq.Decide(*job, now, opt)
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
	return true, r.aq.Insert(*job)
}

// refreshJCT updates an admitted job's Eq. 6 JCT over its remaining tasks
// and the current residual capacities after one of its tasks finished
// (paper and strict mode; wave mode plans from the tasks the queue records).
func (r *run) refreshJCT(i int) error {
	opt, ok := r.p.admission(r.margin())
	if !ok || opt.Mode == admission.ModeWave {
		return nil
	}
	j := &r.s.Jobs[i]
	jct, err := admission.JCT(&r.s.Types[j.Type].Model, j.Maps-r.done[i], r.cluster)
	if err != nil {
		return err
	}
	return r.aq.SetJCT(int64(j.ID), jct)
}

// admits reports whether the policy has admission control, whose queue
// then records every admitted job's tasks.
func (r *run) admits() bool {
	_, ok := r.p.admission(r.margin())
	return ok
}

// margin is the scenario's Margin, 0 read as 1.
func (r *run) margin() float64 {
	if r.s.Margin == 0 {
		return 1
	}
	return r.s.Margin
}
