package admission

import (
	"math"
	"slices"
)

// confStride is the number of deadline jobs between two kept running-sum
// vectors of confidence mode: a decision before the kept frontier starts
// from the kept vector at or before its place and adds at most
// confStride − 1 jobs' samples.
const confStride = 32

// confSums is what Queue.Decide keeps of confidence mode between
// decisions: per deadline job, in EDF order, whether its Samples are valid
// (checked once), and, for one decision time and one sample count, the
// Checks of the queued jobs without a new job and, every confStride jobs,
// the running sums of their samples. Those are the values
// Workspace.Decide's pass forms before it meets the new job, one addition
// after another in the same order, so a decision reuses them bit for bit.
type confSums struct {
	on     bool    // laid out: a confidence decision has used it
	stride int     // jobs between kept running sums (confStride unless set)
	valid  []int32 // per deadline job: its sample count once checked, 0 unchecked, −1 invalid
	// For now (compared bit for bit) and n samples: checks[k] for k < upTo
	// and run[(c−1)·n : c·n], the running sums after deadline job c·stride − 1,
	// for 1 ≤ c ≤ upTo / stride.
	now    uint64
	n      int
	upTo   int
	checks []Check
	run    []float64
	// Scratch of one decision.
	cur, wo []float64
	ok      []bool
}

// start lays out the deadline jobs, the first d of jobs.
func (c *confSums) start(d int) {
	c.on, c.upTo = true, 0
	if c.stride == 0 {
		c.stride = confStride
	}
	c.valid = append(c.valid[:0], make([]int32, d)...)
}

// insert and remove record a change of deadline job r.
func (c *confSums) insert(r int) {
	if c.on {
		c.valid = slices.Insert(c.valid, r, 0)
		c.upTo = min(c.upTo, r)
	}
}

func (c *confSums) remove(r int) {
	if c.on {
		c.valid = slices.Delete(c.valid, r, r+1)
		c.upTo = min(c.upTo, r)
	}
}

// decideConfidence is Queue.Decide in ModeConfidence: Workspace.Decide's
// decision over q.ordered(), bit for bit. A decision whose inputs
// Workspace.Decide refuses, or whose new job has no deadline, is left to
// it; the others reuse the kept sums up to the new job's place and form
// the rest as its pass does.
func (q *Queue) decideConfidence(newJob Job, now float64, opt Options) (Decision, error) {
	jobs := q.ordered()
	p := opt.Confidence
	d := q.ix.deadlineJobs()
	n := len(newJob.Samples)
	c := &q.conf
	if !c.on {
		c.start(d)
	}
	if !q.confidenceInputsOK(jobs[:d], &newJob, now, p) {
		return q.ws.Decide(jobs, newJob, now, opt)
	}
	if c.n != n || c.now != math.Float64bits(now) {
		c.n, c.now, c.upTo = n, math.Float64bits(now), 0
	}
	_, at := q.ix.prefix(&newJob) // the new job's place: at ≤ d jobs before it
	c.extend(jobs, at, now)

	checks := append(q.checks[:0], c.checks[:at]...)
	run, runWO, ok := c.cur, c.wo, c.ok
	dec := Decision{Admit: true, Mode: ModeConfidence, Reason: ReasonFits, NewIndex: at, Blocking: -1, Probability: 1}
	checks = append(checks, sampledNew(&newJob, run, runWO, ok, newJob.Deadline-now))
	for k := at; k < d; k++ {
		j := &jobs[k]
		checks = append(checks, sampledAfterNew(j, run, runWO, ok, j.Deadline-now, p))
	}
	confidenceVerdict(&dec, checks, ok, p)
	q.checks = checks
	return dec, nil
}

// confidenceInputsOK reports whether Workspace.Decide in confidence mode
// takes these inputs without an error and newJob has a deadline: the
// checks its pass makes, in its order, with the queued deadline jobs'
// Samples checked once and remembered (the queue itself keeps the order,
// the arrivals and the deadlines valid).
func (q *Queue) confidenceInputsOK(dl []Job, newJob *Job, now, p float64) bool {
	n := len(newJob.Samples)
	if !(p >= 0 && p <= 1) || validateNow(now) != nil || validateNew(newJob, atNew) != nil || !newJob.HasDeadline() ||
		math.IsInf(newJob.Deadline-now, 0) || n == 0 || n > MaxSamples || validateSamples(newJob.Samples, -1, n) != nil {
		return false
	}
	if _, dup := q.ix.byID[newJob.ID]; dup {
		return false
	}
	c := &q.conf
	for k := range dl {
		if c.valid[k] == 0 {
			c.valid[k] = -1
			if m := len(dl[k].Samples); m > 0 && validateSamples(dl[k].Samples, k, m) == nil {
				c.valid[k] = int32(m)
			}
		}
		if c.valid[k] != int32(n) || math.IsInf(dl[k].Deadline-now, 0) {
			return false
		}
	}
	return true
}

// extend leaves in c.cur the running sums of the samples of deadline jobs
// 0 … at − 1 (jobs in EDF order), formed as Workspace.Decide's pass forms
// them, and keeps the Checks and running sums of the jobs it adds beyond
// the kept frontier.
func (c *confSums) extend(jobs []Job, at int, now float64) {
	n := c.n
	if cap(c.cur) < n {
		c.cur, c.wo, c.ok = make([]float64, n), make([]float64, n), make([]bool, n)
	}
	c.cur, c.wo, c.ok = c.cur[:n], c.wo[:n], c.ok[:n]
	b := c.stride
	from := min(at, c.upTo) / b * b
	if from == 0 {
		clear(c.cur)
	} else {
		copy(c.cur, c.run[(from/b-1)*n:])
	}
	run := c.cur
	for k := from; k < at; k++ {
		j := &jobs[k]
		if k < c.upTo {
			for s, t := range j.Samples {
				run[s] += t
			}
			continue
		}
		c.checks = append(c.checks[:k], sampledBeforeNew(j, run, j.Deadline-now))
		if (k+1)%b == 0 {
			c.run = append(c.run[:k/b*n], run...)
		}
		c.upTo = k + 1
	}
}
