package preempt

import "math/bits"

// queueTotals is the queued demand of a cluster's jobs, kept so that the
// demand of the jobs other than one job (starvation condition (3) and the
// 90%-of-queue exception, judged for each long job over the others' queue)
// costs O(1) per job: the exact sum of Job.Queued in 128 bits (up to MaxJobs
// values below 2⁶³), and the largest and second-largest Job.Queued.
type queueTotals struct {
	hi, lo        uint64 // Σ Job.Queued
	first, second int    // the largest Job.Queued and the largest of the rest
	firstJob      int    // the job holding first (the lowest such index)
}

func sumQueued(jobs []Job) queueTotals {
	q := queueTotals{firstJob: -1}
	for j, job := range jobs {
		var carry uint64
		q.lo, carry = bits.Add64(q.lo, uint64(job.Queued), 0)
		q.hi += carry
		switch {
		case q.firstJob < 0 || job.Queued > q.first:
			q.second, q.first, q.firstJob = q.first, job.Queued, j
		case job.Queued > q.second:
			q.second = job.Queued
		}
	}
	return q
}

// others returns the slots queued by the jobs other than job j (which queues
// queued slots), in float64, and the largest queue among them.
func (q queueTotals) others(j, queued int) (total, most float64) {
	lo, borrow := bits.Sub64(q.lo, uint64(queued), 0)
	hi := q.hi - borrow
	total = float64(hi)*(1<<64) + float64(lo)
	if j == q.firstJob {
		return total, float64(q.second)
	}
	return total, float64(q.first)
}
