package edf

// indexAdd puts the job at handle h into the index.
func (q *Queue) indexAdd(h handle) {
	s := &q.jobs[q.pos[h]]
	x := &q.ix
	for int(h) >= len(x.nodes) {
		x.nodes = append(x.nodes, node{})
	}
	x.edf.grow(h)
	x.fifo.grow(h)
	x.nodes[h] = node{typ: x.typeFor(s.Model, s.dedicated), deadline: s.Deadline, arrival: s.Arrival,
		id: s.ID, read: s.Read90, active: s.Tasks > 0, theta: q.threshold(s)}
	x.insert(h)
	if s.Tasks > 0 {
		x.heapPush(&x.edf, h)
		x.heapPush(&x.fifo, h)
	}
}

// indexRemove takes the job at handle h out of the index.
func (q *Queue) indexRemove(h handle) {
	x := &q.ix
	x.unlink(h)
	x.heapRemove(&x.edf, h)
	x.heapRemove(&x.fifo, h)
	if t := x.nodes[h].typ; x.types[t].size == 0 {
		x.dropType(t)
	}
}

// indexRefresh updates job s's threshold and pending state after one of its
// tasks started or ended: O(log n).
func (q *Queue) indexRefresh(s *jobState) {
	x := &q.ix
	h := s.handle
	n := &x.nodes[h]
	was := n.active
	n.active, n.theta = s.Tasks > 0, q.threshold(s)
	x.fixUp(h)
	switch {
	case n.active && !was:
		x.heapPush(&x.edf, h)
		x.heapPush(&x.fifo, h)
	case !n.active && was:
		x.heapRemove(&x.edf, h)
		x.heapRemove(&x.fifo, h)
	}
}

// setRisk recomputes every job's at-risk threshold for MP's need (the
// margin) and TCTError, and the trees' minima: O(n).
func (q *Queue) setRisk(k risk) {
	x := &q.ix
	x.risk = k
	for i := range q.jobs {
		s := &q.jobs[i]
		x.nodes[s.handle].theta = q.threshold(s)
	}
	for _, t := range x.live {
		x.rebuild(x.types[t].root)
	}
}
