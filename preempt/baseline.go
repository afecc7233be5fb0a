package preempt

// Baseline is the per-job preemption of the Hadoop Fair Scheduler that GP
// §IV–V compares GP against: only overflowing tasks are victims, that is
// tasks of a job holding more than its share, most recently launched first
// within each job (see Job.Share for where the share line falls). Like HFS's
// preemptTasks, the overflowing tasks of all jobs are taken in recency order
// (newest first; ties by Job, then Task.ID, then index) until k slots are
// freed. Tasks of NoPreempt jobs are never victims.
//
// Exactness: a task holding more slots than are still needed is skipped, so
// the victims hold exactly k slots whenever the greedy pass reaches k (always
// when at least k one-slot overflowing tasks exist). Otherwise, if the
// overflowing tasks hold at least k slots, one more task — the one with the
// fewest slots — is added, so k ≤ Freed < k + its Slots; if they hold fewer
// than k slots, all of them are victims and Freed < k.
//
// A job at or under its share loses nothing. Every victim has Reason
// ReasonOverflow. Cost: a bounded heap per over-share job to find its overflowing
// tasks, then O(c·log k) over the c overflowing tasks (more only when a
// multi-slot task is skipped); no allocation once the Workspace has grown.
// k = 0 gives an empty decision. Bad input (see Cluster) gives an error
// matching ErrBadInput.
func Baseline(c Cluster, k int) (Decision, error) {
	var w Workspace
	return w.Baseline(c, k)
}

// Baseline is the package function Baseline using w's memory; the Decision
// aliases w until the next call. Once w has grown it allocates nothing.
func (w *Workspace) Baseline(c Cluster, k int) (Decision, error) {
	if err := validate(c, k); err != nil {
		return Decision{}, err
	}
	w.reset(c, k)
	if k == 0 {
		return w.decision(), nil
	}
	for j := range c.Jobs {
		if c.Jobs[j].NoPreempt {
			continue
		}
		w.cand = append(w.cand, w.overflowing(c, j)...)
	}
	w.fill(c, w.cand, k, ReasonOverflow, true)
	return w.decision(), nil
}
