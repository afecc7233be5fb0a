package embedding_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
	"github.com/schedkit/schedkit/tct/jct"
)

// slot is one map slot as the scheduler tracks it (its residual capacity
// is opt.Cluster's).
type slot struct {
	busy bool
	task edf.Task // the task running on it, for edf.Queue.End
	end  float64  // when that task really ends (the simulation's, not the scheduler's)
}

// scheduler keeps two queues of the same jobs under one ID: admission's
// (admitted jobs in EDF order, for the wave plan) and edf's (running tasks
// per job, for MP). Both take the same job fields with the same checks and
// record the same task starts and ends, so a job is in both or in neither,
// with the same pending count.
type scheduler struct {
	slots []slot
	aq    admission.Queue
	eq    *edf.Queue
	opt   admission.Options // wave mode (the default): the cluster and the margin
}

func newScheduler(r []float64, margin float64) (*scheduler, error) {
	// One margin: admission plans each task at TCT × margin, edf plans its
	// end there and keeps MP's deadline jobs ahead of that plan.
	eq, err := edf.NewQueue(edf.Config{Margin: margin})
	s := &scheduler{slots: make([]slot, len(r)), eq: eq, opt: admission.Options{Margin: margin}}
	for _, x := range r {
		s.opt.Cluster = append(s.opt.Cluster, admission.Slot{R: x})
	}
	return s, err
}

// arrive queues a new job in both queues if admission admits it.
func (s *scheduler) arrive(now float64, j admission.Job) error {
	d, err := s.aq.Decide(j, now, s.opt)
	if err != nil {
		return err
	}
	logDecision(now, j, d)
	if !d.Admit {
		return nil
	}
	return errors.Join(s.aq.Insert(j), s.eq.Add(j)) // one job, one check: both queues take it or neither
}

// offer gives each free slot to the job MP picks.
func (s *scheduler) offer(now float64) error {
	for i, c := range s.opt.Cluster {
		if s.slots[i].busy {
			continue
		}
		d, err := s.eq.MP(c.R, now, edf.MPOptions{})
		if err != nil {
			return err
		}
		if d.Reason == edf.ReasonIdle {
			continue // nothing to run on this slot
		}
		t, err := s.eq.Start(d.ID, c.R)
		if err != nil {
			return err
		}
		if err := s.aq.Start(d.ID, i, t.PlannedEnd(now)); err != nil {
			return err
		}
		s.slots[i] = slot{busy: true, task: t, end: now + t.TCT*1.1} // the simulation: tasks run 10% over the model
		fmt.Printf("%5.1f slot %d (r=%.2f) -> job %d (%v)\n", now, i, c.R, d.ID, d.Reason)
	}
	return nil
}

// taskEnd records the end of the task on slot i and retires a finished job.
func (s *scheduler) taskEnd(now float64, i int) error {
	t := s.slots[i].task
	s.slots[i].busy = false
	err := errors.Join(s.eq.End(t, true), s.aq.End(i, true))
	if st, _ := s.eq.Status(t.ID); err == nil && st.Tasks == 0 && st.Running == 0 {
		logDone(now, st.Job)
		s.aq.Remove(t.ID)
		s.eq.Remove(t.ID)
	}
	return err
}

// logDecision logs an admission decision with its reason and evidence.
func logDecision(now float64, j admission.Job, d admission.Decision) {
	switch {
	case !d.Admit:
		b := d.Checked[d.Blocking]
		fmt.Printf("%5.1f job %d rejected (%v): job %d would end %.1f s late\n", now, j.ID, d.Reason, b.ID, -b.Slack)
	case d.NewIndex >= 0:
		fmt.Printf("%5.1f job %d admitted (%v): planned end %.1f, deadline %g\n",
			now, j.ID, d.Reason, now+d.Checked[d.NewIndex].Prefix, j.Deadline)
	default:
		fmt.Printf("%5.1f job %d admitted (%v)\n", now, j.ID, d.Reason)
	}
}

// logDone logs a finished job against its deadline.
func logDone(now float64, j edf.Job) {
	switch {
	case !j.HasDeadline():
		fmt.Printf("%5.1f job %d done (no deadline)\n", now, j.ID)
	case now <= j.Deadline:
		fmt.Printf("%5.1f job %d done, %.1f s before its deadline\n", now, j.ID, j.Deadline-now)
	default:
		fmt.Printf("%5.1f job %d done, %.1f s after its deadline\n", now, j.ID, now-j.Deadline)
	}
}

// A scheduler of four map slots, two of them shared with web servers
// (residual capacity 0.5), admits deadline jobs with wave-mode admission
// and gives each free slot to the job MP picks. The batch job 1 has no
// deadline and gets the slots no deadline job needs (best-fit). Job 4 is
// rejected because it would make the admitted job 3 late, job 5 because it
// would itself be late. Job 2 ends at 33.0, later than the 22.6 planned on
// its arrival and before its deadline: job 3, with an earlier deadline, went
// first, and MP left the shared slots to job 1 while job 2 was on track.
func Example() {
	// The task-time models are unbiased with a 10% relative error (an
	// assumption of this example): plan each task to be covered with
	// probability 0.9.
	ratio, err := jct.LognormalFromMoments(1, 0.1*0.1)
	if err != nil {
		panic(err)
	}
	margin, err := admission.MarginAt(ratio, 0.9)
	if err != nil {
		panic(err)
	}
	fmt.Printf("margin %.3f\n", margin)
	s, err := newScheduler([]float64{1, 1, 0.5, 0.5}, margin)
	if err != nil {
		panic(err)
	}
	pi := tct.Exp2{A: 40, B: -3, C: 8} // CPU-bound: 10.0 s dedicated, 16.9 s at r = 0.5
	sort := tct.Exp2{A: 12, B: -0.3}   // IO-bound: 8.9 s dedicated, 10.3 s at r = 0.5
	arrivals := []struct {
		at       float64
		id       int64
		deadline float64
		tasks    int
		model    tct.Exp2
	}{
		{0, 1, edf.NoDeadline(), 6, sort},
		{0, 2, 40, 6, pi},
		{5, 3, 25, 2, pi},
		{8, 4, 24, 2, pi},
		{8, 5, 30, 6, pi},
		{10, 6, 80, 4, pi},
	}
	now, next := 0.0, 0
	for {
		for i, sl := range s.slots {
			if sl.busy && sl.end <= now {
				if err := s.taskEnd(now, i); err != nil {
					panic(err)
				}
			}
		}
		for ; next < len(arrivals) && arrivals[next].at <= now; next++ {
			a := arrivals[next]
			j := admission.Job{ID: a.id, Arrival: now, Deadline: a.deadline, Tasks: a.tasks, Model: a.model}
			if err := s.arrive(now, j); err != nil {
				panic(err)
			}
		}
		if err := s.offer(now); err != nil {
			panic(err)
		}
		// Advance to the next event: a task end or an arrival.
		now = math.Inf(1)
		if next < len(arrivals) {
			now = arrivals[next].at
		}
		for _, sl := range s.slots {
			if sl.busy {
				now = min(now, sl.end)
			}
		}
		if math.IsInf(now, 1) {
			break
		}
	}
	// Output:
	// margin 1.131
	//   0.0 job 1 admitted (no-deadline)
	//   0.0 job 2 admitted (fits): planned end 22.6, deadline 40
	//   0.0 slot 0 (r=1.00) -> job 2 (at-risk)
	//   0.0 slot 1 (r=1.00) -> job 2 (at-risk)
	//   0.0 slot 2 (r=0.50) -> job 1 (best-fit)
	//   0.0 slot 3 (r=0.50) -> job 1 (best-fit)
	//   5.0 job 3 admitted (fits): planned end 22.6, deadline 25
	//   8.0 job 4 rejected (queued-job-hurt): job 3 would end 5.8 s late
	//   8.0 job 5 rejected (new-job-late): job 5 would end 20.0 s late
	//  10.0 job 6 admitted (fits): planned end 50.0, deadline 80
	//  11.0 slot 0 (r=1.00) -> job 3 (at-risk)
	//  11.0 slot 1 (r=1.00) -> job 3 (at-risk)
	//  11.4 slot 2 (r=0.50) -> job 2 (at-risk)
	//  11.4 slot 3 (r=0.50) -> job 2 (at-risk)
	//  22.0 job 3 done, 3.0 s before its deadline
	//  22.0 slot 0 (r=1.00) -> job 2 (at-risk)
	//  22.0 slot 1 (r=1.00) -> job 2 (at-risk)
	//  30.0 slot 2 (r=0.50) -> job 6 (at-risk)
	//  30.0 slot 3 (r=0.50) -> job 6 (at-risk)
	//  33.0 job 2 done, 7.0 s before its deadline
	//  33.0 slot 0 (r=1.00) -> job 6 (best-fit)
	//  33.0 slot 1 (r=1.00) -> job 6 (best-fit)
	//  44.0 slot 0 (r=1.00) -> job 1 (best-fit)
	//  44.0 slot 1 (r=1.00) -> job 1 (best-fit)
	//  48.6 job 6 done, 31.4 s before its deadline
	//  48.6 slot 2 (r=0.50) -> job 1 (best-fit)
	//  48.6 slot 3 (r=0.50) -> job 1 (best-fit)
	//  60.0 job 1 done (no deadline)
}
