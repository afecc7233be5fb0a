package admission

// A plan is wave mode's list schedule in progress: the usable slots (R > 0)
// in a 4-ary min-heap keyed by (free time, slot index), so the next task
// always goes to the slot that becomes free first, ties to the lowest index
// in Options.Cluster. Free times are seconds after now. Placing a task is
// one sift-down, O(log slots); the 4-ary layout keeps a node's four
// children in about one cache line.
type plan struct {
	heap []planSlot
}

// A planSlot is one heap entry.
type planSlot struct {
	free float64 // when the slot is next free, seconds after now
	slot int32   // its index in Options.Cluster
}

// before orders heap entries by (free time, slot index).
func before(a, b *planSlot) bool {
	return a.free < b.free || a.free == b.free && a.slot < b.slot
}

// reset fills the plan from the cluster, every slot free at max(0,
// FreeAt − now). The cluster was validated by the caller.
func (p *plan) reset(cluster []Slot, now float64) {
	p.heap = p.heap[:0]
	for i := range cluster {
		s := &cluster[i]
		if s.R == 0 {
			continue
		}
		f := 0.0
		if s.FreeAt > now {
			f = s.FreeAt - now
		}
		p.heap = append(p.heap, planSlot{free: f, slot: int32(i)})
	}
	if n := len(p.heap); n > 1 {
		for h := (n - 2) / 4; h >= 0; h-- {
			p.down(h)
		}
	}
}

// copyFrom makes p an independent copy of q.
func (p *plan) copyFrom(q *plan) { p.heap = append(p.heap[:0], q.heap...) }

// down restores the heap order below position h.
func (p *plan) down(h int) {
	heap := p.heap
	n := len(heap)
	e := heap[h]
	for {
		c := 4*h + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < c+4 && k < n; k++ {
			if before(&heap[k], &heap[best]) {
				best = k
			}
		}
		if !before(&heap[best], &e) {
			break
		}
		heap[h] = heap[best]
		h = best
	}
	heap[h] = e
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
	top := &p.heap[0]
	first := top.free
	for range j.Tasks {
		i := top.slot
		t := j.Model.TCT(cluster[i].R)
		if !(t >= 0 && t <= MaxDuration) {
			return 0, 0, taskTimeError(k, int(i), t)
		}
		end := top.free + t*margin
		top.free = end
		p.down(0)
		done = max(done, end)
	}
	return done, done - first, nil
}
