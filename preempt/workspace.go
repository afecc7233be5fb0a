package preempt

import "math"

// A Workspace holds the scratch memory of Baseline and GP so that repeated
// decisions allocate nothing once it has grown to the cluster's size. The
// zero value is ready to use. A Workspace is not safe for concurrent use;
// the Decision it returns aliases its memory until the next call.
type Workspace struct {
	held     []float64 // slots held per job
	count    []int32   // tasks per job, then bucket offsets
	byJob    []int32   // task indices bucketed by job
	chosen   []bool    // per task: already a victim
	cand     []int32   // candidate task indices
	victims  []Victim
	starving []int
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// reserve returns s[:0] with room for n elements, so that appends up to n
// allocate once (growing by appends allocates about five times the final
// size in total).
func reserve[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// reset sizes the scratch for c and k and buckets the tasks by job.
// Candidates and victims are distinct tasks, and victims number at most k+1
// unless starvation victims go beyond k (GPOptions.StarvationBeyondK).
func (w *Workspace) reset(c Cluster, k int) {
	nj, nt := len(c.Jobs), len(c.Tasks)
	w.held = grow(w.held, nj)
	w.count = grow(w.count, nj+1)
	w.byJob = grow(w.byJob, nt)
	w.chosen = grow(w.chosen, nt)
	w.cand = reserve(w.cand, nt)
	w.victims = reserve(w.victims, min(k, nt-1)+1)
	w.starving = w.starving[:0]
	for _, t := range c.Tasks {
		w.held[t.Job] += float64(t.Slots)
		w.count[t.Job+1]++
	}
	for j := 1; j <= nj; j++ {
		w.count[j] += w.count[j-1]
	}
	// count[j] is now the start of job j's bucket; fill, then shift back.
	for i, t := range c.Tasks {
		w.byJob[w.count[t.Job]] = int32(i)
		w.count[t.Job]++
	}
	for j := nj; j > 0; j-- {
		w.count[j] = w.count[j-1]
	}
	w.count[0] = 0
}

// bucket returns job j's task indices.
func (w *Workspace) bucket(j int) []int32 { return w.byJob[w.count[j]:w.count[j+1]] }

// overflowing moves job j's newest tasks to the front of its bucket, newest
// first, and returns the leading ones
// that lie beyond its share: walking newest first, a task overflows while the
// job would still hold at least ⌈Share⌉ slots without it. So killing any
// subset of them never takes the job below its share, and a job holding no
// more than ⌈Share⌉ slots has none.
func (w *Workspace) overflowing(c Cluster, j int) []int32 {
	keep := math.Ceil(c.Jobs[j].Share)
	h := w.held[j]
	if !(h > keep) {
		return nil
	}
	b := w.bucket(j)
	// Every task holds at least one slot, so at most ⌊h − keep⌋ tasks
	// overflow, and they are the newest: select those with a bounded heap.
	partialRecent(c.Tasks, b, int(min(h-keep, float64(len(b)))))
	n := 0
	for _, i := range b {
		s := float64(c.Tasks[i].Slots)
		if h-s < keep {
			break
		}
		h -= s
		n++
	}
	return b[:n]
}

// fill takes candidates in recency order while each fits in the slots still
// needed (a task holding more slots than are still needed is skipped, so
// need never goes below zero), recording them as victims with reason r.
// With overshoot, if slots are still needed after every candidate, it adds
// the unchosen candidate holding the fewest slots (the first such in recency
// order), which frees the least possible excess with one more task. It
// returns the slots still needed (negative after an overshoot). It reorders
// cand. Cost: O(len(cand)·log need) when the newest tasks fill the need,
// which is always the case when they hold one slot each; otherwise the rest
// is sorted too, O(len(cand)·log len(cand)).
func (w *Workspace) fill(c Cluster, cand []int32, need int, r Reason, overshoot bool) int {
	if need <= 0 || len(cand) == 0 {
		return need
	}
	m := min(need, len(cand))
	partialRecent(c.Tasks, cand, m)
	need = w.walk(c, cand[:m], need, r)
	if need > 0 && m < len(cand) {
		sortRecent(c.Tasks, cand[m:])
		need = w.walk(c, cand[m:], need, r)
	}
	if need > 0 && overshoot {
		best := int32(-1)
		for _, i := range cand {
			if !w.chosen[i] && (best < 0 || c.Tasks[i].Slots < c.Tasks[best].Slots) {
				best = i
			}
		}
		if best >= 0 {
			need -= w.take(c, best, r)
		}
	}
	return need
}

func (w *Workspace) walk(c Cluster, cand []int32, need int, r Reason) int {
	for _, i := range cand {
		if need == 0 {
			break
		}
		if w.chosen[i] || c.Tasks[i].Slots > need {
			continue
		}
		need -= w.take(c, i, r)
	}
	return need
}

func (w *Workspace) take(c Cluster, i int32, r Reason) int {
	t := c.Tasks[i]
	w.chosen[i] = true
	w.victims = append(w.victims, Victim{
		Task: int(i), ID: t.ID, Job: t.Job, Slots: t.Slots,
		Reason: r, WorkLost: workLost(c.Now, t),
	})
	return t.Slots
}

func (w *Workspace) decision() Decision {
	d := Decision{Victims: w.victims, Starving: w.starving}
	for _, v := range w.victims {
		d.Freed += v.Slots
		d.WorkLost += v.WorkLost
	}
	return d
}
