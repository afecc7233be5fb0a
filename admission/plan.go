package admission

import (
	"math"
	"slices"
)

// A layout is wave mode's view of the usable slots (R > 0) for one
// decision, shared by the plans with and without the new job: the slots
// grouped by residual capacity, since every slot of a group gives a job
// the same task time TCT_j(R). Groups are numbered in order of their lowest
// slot index in Options.Cluster, and group g's slots occupy
// heap[groups[g].lo:groups[g].hi] of every plan.
type layout struct {
	groups []group
	order  []int32   // scratch: usable slot indices sorted by (R, index)
	times  []float64 // times[g]: the task time, × margin, of the job being placed
}

// A group is the slots of one residual capacity.
type group struct {
	r      float64 // the residual capacity R
	first  int32   // the lowest slot index in Options.Cluster
	lo, hi int32   // its slots in a plan's heap
}

// A plan is wave mode's list schedule in progress. Per group of equal
// residual capacity, a 4-ary min-heap of its slots keyed by (free time,
// slot index) keeps the group's earliest-free slot on top. While a job is
// placed, a tournament tree over the groups, keyed by the end the job's
// next task would have on each group's top slot and then that slot's
// index, names the slot where the task ends first. Free times are seconds
// after now. Placing a task is one sift-down in its group, O(log slots),
// and one leaf-to-root update of the tournament, O(log groups).
type plan struct {
	l *layout
	// endFirst selects the placement: true puts each task on the slot where
	// it ends first, false on the slot that frees first.
	endFirst bool
	heap     []planSlot
	key      []float64 // key[g]: group g's top slot's free time, + times[g] if endFirst
	tree     []int32   // tournament: tree[1] is the winning group; leaves at [G, 2G)
	// rec, when set, receives the slot and end of every task placed: the
	// Queue keeps them to restore the plan as it was before any job.
	rec *planLog
}

// A planLog is the tasks a plan placed, in order: the slot (index in
// Options.Cluster) each went to and when it ends there.
type planLog struct {
	slot []int32
	end  []float64
}

// truncate keeps the first n tasks.
func (g *planLog) truncate(n int) { g.slot, g.end = g.slot[:n], g.end[:n] }

// A planSlot is one heap entry.
type planSlot struct {
	free float64 // when the slot is next free, seconds after now
	slot int32   // its index in Options.Cluster
}

// before orders heap entries by (free time, slot index).
func before(a, b *planSlot) bool {
	return a.free < b.free || a.free == b.free && a.slot < b.slot
}

// reset groups the usable slots of cluster by R into l and fills p with
// them, every slot free at max(0, FreeAt − now) if Busy, else at 0. The
// cluster was validated
// by the caller. O(S log S) for S slots; no allocation once the buffers
// fit.
func (p *plan) reset(l *layout, cluster []Slot, now float64) {
	p.l, p.endFirst = l, false
	l.order = l.order[:0]
	for i := range cluster {
		if cluster[i].R != 0 {
			l.order = append(l.order, int32(i))
		}
	}
	// R is in (0, 1] here: no NaN, so < and == are a total order.
	slices.SortFunc(l.order, func(a, b int32) int {
		if ra, rb := cluster[a].R, cluster[b].R; ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	// Runs of equal R are the groups; lo/hi index order for now.
	l.groups = l.groups[:0]
	for k, i := range l.order {
		if k == 0 || cluster[i].R != cluster[l.order[k-1]].R {
			l.groups = append(l.groups, group{r: cluster[i].R, first: i, lo: int32(k)})
		}
		l.groups[len(l.groups)-1].hi = int32(k + 1)
	}
	slices.SortFunc(l.groups, func(a, b group) int { return int(a.first - b.first) })
	p.heap = slices.Grow(p.heap[:0], len(l.order))[:len(l.order)]
	at := int32(0)
	for g := range l.groups {
		gr := &l.groups[g]
		lo := at
		for _, i := range l.order[gr.lo:gr.hi] {
			f := 0.0
			if s := &cluster[i]; s.Busy && s.FreeAt > now {
				f = s.FreeAt - now
			}
			p.heap[at] = planSlot{free: f, slot: i}
			at++
		}
		gr.lo, gr.hi = lo, at
	}
	p.heapify()
	n := len(l.groups)
	l.times = slices.Grow(l.times[:0], n)[:n]
	p.key = slices.Grow(p.key[:0], n)[:n]
	p.tree = slices.Grow(p.tree[:0], 2*n)[:2*n]
}

// heapify restores the heap order of every group's slots.
func (p *plan) heapify() {
	for g := range p.l.groups {
		gr := &p.l.groups[g]
		if n := gr.hi - gr.lo; n > 1 {
			for h := (n - 2) / 4; h >= 0; h-- {
				p.down(gr, h)
			}
		}
	}
}

// copyFrom makes p an independent copy of q, with q's slots and placement.
func (p *plan) copyFrom(q *plan) {
	p.l, p.endFirst = q.l, q.endFirst
	p.heap = append(p.heap[:0], q.heap...)
	p.key = append(p.key[:0], q.key...)
	p.tree = append(p.tree[:0], q.tree...)
}

// down restores the heap order of group gr's slots below position h
// (relative to gr.lo).
func (p *plan) down(gr *group, h int32) {
	heap := p.heap[gr.lo:gr.hi]
	n := int32(len(heap))
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

// wins reports whether the next task goes to group a's top slot rather
// than to group b's: by key (its end, or its free time), then by slot index
// (a unique key).
func (p *plan) wins(a, b int32) bool {
	if ka, kb := p.key[a], p.key[b]; ka != kb {
		return ka < kb
	}
	return p.heap[p.l.groups[a].lo].slot < p.heap[p.l.groups[b].lo].slot
}

// play returns the winner of tournament node v's two children.
func (p *plan) play(v int) int32 {
	a, b := p.tree[2*v], p.tree[2*v+1]
	if p.wins(b, a) {
		return b
	}
	return a
}

// place plans job j's pending tasks one after another, each on the slot
// where it ends first (endFirst: the least free time + TCT_j(R)·margin) or
// on the slot that frees first (the least free time), ties to the lowest
// slot index, taking TCT_j(R)·margin there. l.times holds TCT_j(R)·margin
// per group (the caller evaluated and checked them). It returns the job's
// planned completion (the end of its last task, or RunningUntil − now if
// tasks run and it is later; seconds after now) and its span from the earliest planned start
// of its pending tasks to that completion (0 without pending tasks). The
// plan is not empty when j.Tasks > 0.
func (p *plan) place(j *Job, now float64) (done, span float64) {
	if j.Running > 0 && j.RunningUntil > now {
		done = j.RunningUntil - now
	}
	if j.Tasks == 0 {
		return done, 0
	}
	groups, times := p.l.groups, p.l.times
	n := len(groups)
	for g := range n {
		p.key[g] = p.keyOf(int32(g))
		p.tree[n+g] = int32(g)
	}
	for v := n - 1; v >= 1; v-- {
		p.tree[v] = p.play(v)
	}
	first := math.Inf(1)
	for range j.Tasks {
		win := p.tree[1]
		gr := &groups[win]
		top := &p.heap[gr.lo]
		first = min(first, top.free)
		end := top.free + times[win]
		top.free = end
		if p.rec != nil {
			p.rec.slot, p.rec.end = append(p.rec.slot, top.slot), append(p.rec.end, end)
		}
		p.down(gr, 0)
		p.key[win] = p.keyOf(win)
		for v := (n + int(win)) / 2; v >= 1; v /= 2 {
			p.tree[v] = p.play(v)
		}
		done = max(done, end)
	}
	return done, done - first
}

// keyOf is group g's tournament key for the job being placed.
func (p *plan) keyOf(g int32) float64 {
	f := p.heap[p.l.groups[g].lo].free
	if p.endFirst {
		return f + p.l.times[g]
	}
	return f
}
