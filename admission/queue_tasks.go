package admission

import "fmt"

// Start records that one pending task of the job with the given ID started
// on slot (its index in Options.Cluster) and is planned to end at
// plannedEnd (absolute seconds: the start plus TCT_j(R) × the margin, as
// edf.Task.PlannedEnd gives it). The job has one pending task fewer and one
// running more, RunningUntil is the latest planned end of its running
// tasks, and wave mode plans the slot busy until plannedEnd. Errors, each a
// *ValueError matching ErrBadInput, and the queue unchanged: no such job
// ("ID", ErrUnknownJob); slot negative or at least MaxSlots, or already
// running a task the queue recorded ("slot"); plannedEnd NaN or infinite
// ("plannedEnd"); no pending task ("Job.Tasks", ErrNoPendingTask). O(1)
// besides the lookup; no allocation once the slots are known.
func (q *Queue) Start(id int64, slot int, plannedEnd float64) error {
	v, ok := q.ix.byID[id]
	if !ok {
		return unknown(id)
	}
	if slot < 0 || slot >= MaxSlots {
		return &ValueError{Field: "slot", Value: slot, Reason: "must be in [0, MaxSlots)"}
	}
	for len(q.slots) <= slot {
		q.slots = append(q.slots, slotTask{v: -1, prev: -1, next: -1})
	}
	if s := &q.slots[slot]; s.v >= 0 {
		return &ValueError{Field: "slot", Value: slot, Reason: fmt.Sprintf("already runs a task of job %d", q.ix.nodes[s.v].job.ID)}
	}
	if !(plannedEnd-plannedEnd == 0) {
		return &ValueError{Field: "plannedEnd", Value: plannedEnd, Reason: "must be finite"}
	}
	n := &q.ix.nodes[v]
	j := &n.job
	if j.Tasks == 0 {
		return &ValueError{Field: "Job.Tasks", Value: 0, Reason: "job has no pending task", Err: ErrNoPendingTask}
	}
	q.slots[slot] = slotTask{v: v, end: plannedEnd, prev: -1, next: n.first}
	if n.first >= 0 {
		q.slots[n.first].prev = int32(slot)
	}
	n.first = int32(slot)
	q.busy++
	if j.Running == 0 || plannedEnd > j.RunningUntil {
		j.RunningUntil = plannedEnd
	}
	j.Tasks--
	j.Running++
	q.progressed(v)
	return nil
}

// End records that the task Start recorded on slot ended: completed, or
// (completed false: it failed or was killed) back to its job's pending
// tasks. The slot is free; the job's RunningUntil is the latest planned end
// of its tasks still running. It returns a *ValueError matching
// ErrBadInput ("slot"), and changes nothing, when no task is recorded on
// slot. O(1), or O(the job's running tasks) when the task that ended was
// planned to end last.
func (q *Queue) End(slot int, completed bool) error {
	if slot < 0 || slot >= len(q.slots) || q.slots[slot].v < 0 {
		return &ValueError{Field: "slot", Value: slot, Reason: "runs no task this queue recorded"}
	}
	s := q.slots[slot]
	n := &q.ix.nodes[s.v]
	if s.prev >= 0 {
		q.slots[s.prev].next = s.next
	} else {
		n.first = s.next
	}
	if s.next >= 0 {
		q.slots[s.next].prev = s.prev
	}
	q.slots[slot] = slotTask{v: -1, prev: -1, next: -1}
	q.busy--
	j := &n.job
	j.Running--
	if !completed {
		j.Tasks++
	}
	switch {
	case j.Running == 0:
		j.RunningUntil = 0
	case s.end == j.RunningUntil:
		until := q.slots[n.first].end
		for t := n.first; t >= 0; t = q.slots[t].next {
			until = max(until, q.slots[t].end)
		}
		j.RunningUntil = until
	}
	q.progressed(s.v)
	return nil
}

// progressed takes a change of node v's Tasks, Running or RunningUntil in:
// the wave plan from its place on, and the ordered jobs.
func (q *Queue) progressed(v int32) {
	q.dropFrom(v)
	if k := q.slot(v); k >= 0 {
		j := &q.ix.nodes[v].job
		o := &q.jobs[k]
		o.Tasks, o.Running, o.RunningUntil = j.Tasks, j.Running, j.RunningUntil
	}
}

// cluster returns opt.Cluster with every slot on which the queue recorded a
// task busy until that task's planned end, in a buffer the queue reuses
// (opt.Cluster itself when no task is recorded), or an error when a
// recorded task's slot is not in opt.Cluster.
func (q *Queue) cluster(opt *Options) ([]Slot, error) {
	if q.busy == 0 {
		return opt.Cluster, nil
	}
	q.eff = append(q.eff[:0], opt.Cluster...)
	for i := range q.slots {
		if s := &q.slots[i]; s.v >= 0 {
			if i >= len(q.eff) {
				return nil, &ValueError{Field: "Options.Cluster", Value: len(opt.Cluster),
					Reason: fmt.Sprintf("has no slot %d, on which the queue records a task of job %d", i, q.ix.nodes[s.v].job.ID)}
			}
			q.eff[i].Busy, q.eff[i].FreeAt = true, s.end
		}
	}
	return q.eff, nil
}
