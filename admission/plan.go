package admission

// A plan is wave mode's list schedule in progress: the usable slots (R > 0)
// in a binary min-heap keyed by (free time, slot index), so the next task
// always goes to the slot that becomes free first, ties to the lowest index
// in Options.Cluster. Free times are seconds after now.
type plan struct {
	free []float64 // free[h]: free time of the slot at heap position h
	slot []int32   // slot[h]: its index in Options.Cluster
}

// reset fills the plan from the cluster, every slot free at max(0,
// FreeAt − now). The cluster was validated by the caller.
func (p *plan) reset(cluster []Slot, now float64) {
	p.free, p.slot = p.free[:0], p.slot[:0]
	for i := range cluster {
		s := &cluster[i]
		if s.R == 0 {
			continue
		}
		f := 0.0
		if s.FreeAt > now {
			f = s.FreeAt - now
		}
		p.free = append(p.free, f)
		p.slot = append(p.slot, int32(i))
	}
	for h := len(p.free)/2 - 1; h >= 0; h-- {
		p.down(h)
	}
}

// copyFrom makes p an independent copy of q.
func (p *plan) copyFrom(q *plan) {
	p.free = append(p.free[:0], q.free...)
	p.slot = append(p.slot[:0], q.slot...)
}

// before orders heap positions a and b by (free time, slot index).
func (p *plan) before(a, b int) bool {
	return p.free[a] < p.free[b] || p.free[a] == p.free[b] && p.slot[a] < p.slot[b]
}

// down restores the heap order below position h.
func (p *plan) down(h int) {
	n := len(p.free)
	for {
		c := 2*h + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && p.before(r, c) {
			c = r
		}
		if !p.before(c, h) {
			return
		}
		p.free[h], p.free[c] = p.free[c], p.free[h]
		p.slot[h], p.slot[c] = p.slot[c], p.slot[h]
		h = c
	}
}

// place plans job j's pending tasks one after another, each on the slot
// that becomes free first, taking TCT_j(R of that slot) × margin there. It
// returns the job's planned completion (the end of its last task, or
// RunningUntil − now if later; seconds after now) and its span from the
// start of its first pending task to that completion (0 without pending
// tasks). k names the job in errors (-1: the new job). The plan is not
// empty and j.Model is not nil when j.Tasks > 0 (the caller checked).
func (p *plan) place(j *Job, k int, now, margin float64, cluster []Slot) (done, span float64, err error) {
	if j.RunningUntil > now {
		done = j.RunningUntil - now
	}
	if j.Tasks == 0 {
		return done, 0, nil
	}
	first := p.free[0]
	for range j.Tasks {
		i := p.slot[0]
		t := j.Model.TCT(cluster[i].R)
		if !(t >= 0 && t <= MaxDuration) {
			return 0, 0, taskTimeError(k, int(i), t)
		}
		end := p.free[0] + t*margin
		p.free[0] = end
		p.down(0)
		done = max(done, end)
	}
	return done, done - first, nil
}
