package hadoopsim

import "github.com/schedkit/schedkit/admission"

// admit decides whether job i, arriving now, is admitted: always for a
// policy without admission control; otherwise by package admission on the
// job's Eq. 6 JCT over every slot's current residual capacity, computed from
// the scheduler's Model. A rejected job is counted here.
func (r *run) admit(i int, now float64) (bool, error) {
	opt, ok := r.p.admission()
	if !ok {
		return true, nil
	}
	j := &r.s.Jobs[i]
	jct, err := admission.JCT(r.s.Types[j.Type].Model, j.Maps, r.slotR)
	if err != nil {
		return false, err
	}
	aj := admission.Job{ID: int64(j.ID), Arrival: now, Deadline: j.Deadline, JCT: jct}
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

// refreshJCT updates an admitted job's Eq. 6 JCT in the admission queue
// after one of its tasks finished (its remaining tasks over the current
// residual capacities).
func (r *run) refreshJCT(i int) error {
	if _, ok := r.p.admission(); !ok {
		return nil
	}
	j := &r.s.Jobs[i]
	jct, err := admission.JCT(r.s.Types[j.Type].Model, j.Maps-r.done[i], r.slotR)
	if err != nil {
		return err
	}
	return r.aq.SetJCT(int64(j.ID), jct)
}

// forget drops a finished job from the admission queue.
func (r *run) forget(i int) {
	if _, ok := r.p.admission(); ok {
		r.aq.Remove(int64(r.s.Jobs[i].ID))
	}
}
