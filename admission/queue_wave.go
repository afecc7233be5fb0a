package admission

import (
	"math"
	"slices"
)

// A wavePlan is the Queue's wave-mode plan of its own deadline jobs, the
// plan without a new job, for one decision time, cluster and margin (its
// key). Queue.Decide plans a new job and the jobs after it from the state
// this plan had before the new job's EDF place, and reads the completions
// without the new job from it, so a decision plans the jobs before the new
// one not at all and those after it in two placements instead of four.
//
// It keeps, for the first built deadline jobs in EDF order, each job's
// evidence and completions and the log of every task placed (slot and
// end) in both placements, with the free time of every slot at
// checkpoints every couple of cluster sizes of tasks: the state before
// job k is the last checkpoint at or before it plus the log since. A plan's
// next placement depends only on each slot's free time (ties go to the
// lowest slot index, a unique key), so the restored state plans exactly as
// the planner that got there. An Insert, Remove, Start or End at EDF
// position r drops what it kept from job r on; a decision with another key
// (a task's start or end changes its slot's free time) starts over.
type wavePlan struct {
	keyed       bool
	now, margin float64
	cluster     []Slot // the Options.Cluster of the key (a copy)
	layout      layout
	ff, ef      plan // the plans being built, then a decision's plans with the new job
	// members[m] is the cluster index of member m (the slot at heap
	// position m after reset); pos maps a cluster index back to m.
	members []int32
	pos     []int32
	ffFree  []float64 // scratch: free time by member, first free
	efFree  []float64 // the same end first
	// The plan of the first built deadline jobs.
	built  int
	failed bool      // job built could not be planned: decisions go to Workspace.Decide
	checks []Check   // checks[k]: job k's evidence before any new job (first free)
	efDone []float64 // efDone[k]: job k's completion end first
	at     []int     // at[k]: tasks planned before job k (len built+1)
	ffLog  planLog
	efLog  planLog
	ckJob  []int     // ckJob[i]: the job checkpoint i precedes, ascending
	ckFree []float64 // checkpoint i: the ff then the ef free times by member
}

// drop forgets the plan from deadline job r on (an Insert, Remove, Start
// or End at EDF position r).
func (w *wavePlan) drop(r int) {
	if !w.keyed || r > w.built {
		return // the change is after what was planned, or after a job that failed
	}
	w.built, w.failed = r, false
	w.checks, w.efDone, w.at = w.checks[:r], w.efDone[:r], w.at[:r+1]
	w.ffLog.truncate(w.at[r])
	w.efLog.truncate(w.at[r])
	i, _ := slices.BinarySearch(w.ckJob, r+1) // keep the checkpoints at or before r
	w.ckJob = w.ckJob[:i]
	w.ckFree = w.ckFree[:2*len(w.members)*i]
}

// matches reports whether the plan's key is (cluster, now, margin), bit
// for bit.
func (w *wavePlan) matches(cluster []Slot, now, margin float64) bool {
	if !w.keyed || !sameBits(w.now, now) || !sameBits(w.margin, margin) || len(w.cluster) != len(cluster) {
		return false
	}
	for i := range cluster {
		if !sameBits(w.cluster[i].R, cluster[i].R) || w.cluster[i].Busy != cluster[i].Busy ||
			cluster[i].Busy && !sameBits(w.cluster[i].FreeAt, cluster[i].FreeAt) {
			return false
		}
	}
	return true
}

// sameBits reports whether a and b are the same float64, bit for bit.
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// rekey starts an empty plan for a validated cluster at now with margin.
func (w *wavePlan) rekey(cluster []Slot, now, margin float64) {
	w.keyed, w.now, w.margin = true, now, margin
	w.cluster = append(w.cluster[:0], cluster...)
	w.ff.reset(&w.layout, w.cluster, now)
	w.ef.copyFrom(&w.ff)
	w.ef.endFirst = true
	s := len(w.ff.heap)
	w.members = slices.Grow(w.members[:0], s)[:s]
	w.pos = slices.Grow(w.pos[:0], len(cluster))[:len(cluster)]
	w.ffFree = slices.Grow(w.ffFree[:0], s)[:s]
	w.efFree = slices.Grow(w.efFree[:0], s)[:s]
	for m, e := range w.ff.heap {
		w.members[m], w.pos[e.slot] = e.slot, int32(m)
	}
	w.built, w.failed = 0, false
	w.checks, w.efDone, w.at = w.checks[:0], w.efDone[:0], append(w.at[:0], 0)
	w.ffLog.truncate(0)
	w.efLog.truncate(0)
	w.ckJob, w.ckFree = w.ckJob[:0], w.ckFree[:0]
	w.checkpoint(0)
}

// checkpoint records the free times of both plans as the state before
// deadline job k.
func (w *wavePlan) checkpoint(k int) {
	s := len(w.members)
	n := len(w.ckFree)
	w.ckFree = slices.Grow(w.ckFree, 2*s)[:n+2*s]
	ff, ef := w.ckFree[n:n+s], w.ckFree[n+s:]
	for _, e := range w.ff.heap {
		ff[w.pos[e.slot]] = e.free
	}
	for _, e := range w.ef.heap {
		ef[w.pos[e.slot]] = e.free
	}
	w.ckJob = append(w.ckJob, k)
}

// restore sets both plans to their state before deadline job k ≤ built:
// the last checkpoint at or before k, then the tasks logged since.
// O(slots + tasks since that checkpoint).
func (w *wavePlan) restore(k int) {
	i, found := slices.BinarySearch(w.ckJob, k)
	if !found {
		i--
	}
	s := len(w.members)
	copy(w.ffFree, w.ckFree[2*s*i:])
	copy(w.efFree, w.ckFree[2*s*i+s:2*s*(i+1)])
	for e := w.at[w.ckJob[i]]; e < w.at[k]; e++ {
		w.ffFree[w.pos[w.ffLog.slot[e]]] = w.ffLog.end[e]
		w.efFree[w.pos[w.efLog.slot[e]]] = w.efLog.end[e]
	}
	w.ff.load(w.ffFree, w.members)
	w.ef.load(w.efFree, w.members)
}

// load sets every slot's free time (by member) and restores heap order.
func (p *plan) load(free []float64, members []int32) {
	for m := range p.heap {
		p.heap[m] = planSlot{free: free[m], slot: members[m]}
	}
	p.heapify()
}

// build plans the queue's deadline jobs from job built on, the first d jobs
// of x in EDF order, without a new job. It reports false, and keeps the
// jobs before the one it could not plan, when a job fails what
// Workspace.Decide checks of it against now, the cluster and the margin:
// its deadline − now, RunningUntil, model and task times, and the running
// total of planned tasks.
func (w *wavePlan) build(x *qindex, d int) bool {
	if w.failed {
		return false
	}
	if w.built == d {
		return true
	}
	w.restore(w.built)
	w.ff.rec, w.ef.rec = &w.ffLog, &w.efLog
	defer func() { w.ff.rec, w.ef.rec = nil, nil }()
	every := 2 * len(w.members) // tasks between checkpoints
	v := x.nodeAt(w.built)
	for k := w.built; k < d; k, v = k+1, x.next(v) {
		j := &x.nodes[v].job
		dk := j.Deadline - w.now
		planned, err := validatePlanned(j, k, w.now, w.at[k])
		if !(dk-dk == 0) || err != nil || w.layout.taskTimes(j, k, w.margin) != nil {
			w.failed = true
			return false
		}
		if w.at[k]-w.at[w.ckJob[len(w.ckJob)-1]] >= every {
			w.checkpoint(k)
		}
		done, span := w.ff.place(j, w.now)
		efDone, _ := w.ef.place(j, w.now)
		w.checks = append(w.checks, newCheck(j, span, done, dk, false, false))
		w.efDone = append(w.efDone, efDone)
		w.at = append(w.at, planned)
		w.built = k + 1
	}
	return true
}

// decideWave is Decide in ModeWave: Workspace.Decide's decision on the
// queue's jobs, from the queue's plan without the new job. Whatever that
// plan cannot answer, Workspace.Decide answers: bad input, a new job whose
// ID is queued, a cluster without a usable slot, a queued job that cannot
// be planned. Cost, with the plan kept: O(slots + tasks since a
// checkpoint) to restore the state at the new job's place, O(n) to copy
// the evidence of the jobs before it, and two placements of the tasks from
// the new job on; building the plan costs two placements of every task.
func (q *Queue) decideWave(newJob Job, now float64, opt Options) (Decision, error) {
	cluster, err := q.cluster(&opt)
	if err != nil {
		return Decision{}, err
	}
	opt.Cluster = cluster
	w := &q.wave
	margin, err := waveArgs(&newJob, now, opt)
	if err != nil {
		return q.ws.Decide(q.ordered(), newJob, now, opt)
	}
	if !w.matches(opt.Cluster, now, margin) {
		if validateCluster(opt.Cluster, now) != nil {
			return q.ws.Decide(q.ordered(), newJob, now, opt)
		}
		w.rekey(opt.Cluster, now, margin)
	}
	if _, dup := q.ix.byID[newJob.ID]; dup {
		return q.ws.Decide(q.ordered(), newJob, now, opt)
	}
	if !newJob.HasDeadline() {
		q.checks = q.checks[:0]
		return Decision{Admit: true, Mode: ModeWave, Reason: ReasonNoDeadline, NewIndex: -1, Blocking: -1, Probability: 1, Checked: q.checks}, nil
	}
	x := &q.ix
	d := x.deadlineJobs()
	dNew := newJob.Deadline - now
	if !(dNew-dNew == 0) || len(w.members) == 0 || !w.build(x, d) {
		return q.ws.Decide(q.ordered(), newJob, now, opt)
	}
	if _, err := validatePlanned(&newJob, -1, now, w.at[d]); err != nil || w.layout.taskTimes(&newJob, -1, margin) != nil {
		return q.ws.Decide(q.ordered(), newJob, now, opt)
	}
	_, p := x.prefix(&newJob)
	w.restore(p)
	dec := waveDecision()
	checks := append(q.checks[:0], w.checks[:p]...)
	checks = dec.placeNew(&w.ff, &w.ef, &newJob, now, dNew, checks)
	v := x.nodeAt(p)
	for k := p; k < d; k, v = k+1, x.next(v) {
		j := &x.nodes[v].job
		if w.layout.taskTimes(j, k, margin) != nil {
			// The model gave a valid time when the plan was built: it is not a function of r.
			return q.ws.Decide(q.ordered(), newJob, now, opt)
		}
		done, span := w.ff.place(j, now)
		efDone, efSpan := w.ef.place(j, now)
		checks = dec.judge(j, j.Deadline-now, done, span, efDone, efSpan, w.checks[k].Prefix, w.efDone[k], checks)
	}
	q.checks = checks
	dec.finish(checks)
	return dec, nil
}

// dropFrom forgets the wave plan from node v's EDF place on, if v has a
// deadline (jobs without one are not planned).
func (q *Queue) dropFrom(v int32) {
	if r, ok := q.deadlineRank(v); ok {
		q.wave.drop(r)
	}
}
