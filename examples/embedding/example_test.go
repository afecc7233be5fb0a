package embedding_test

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

// slot is one map slot as the scheduler tracks it.
type slot struct {
	r       float64  // residual capacity in [0, 1]
	busy    bool     // a task runs on it
	task    edf.Task // that task, for edf.Queue.Release
	planEnd float64  // when admission expects it free: start + TCT(r)·margin
	end     float64  // when the task really ends (the simulation's, not the scheduler's)
}

// scheduler keeps the two views of the same jobs in step, keyed by one ID:
// admission's (admitted jobs in EDF order, for the wave plan) and edf's
// (running tasks per job, for MP). A job is in both queues or in neither.
type scheduler struct {
	slots   []slot
	cluster []admission.Slot // scratch: the slots as admission sees them
	aq      admission.Queue
	checker admission.Checker
	opt     admission.Options
	eq      *edf.Queue
	mp      edf.MPOptions
}

func newScheduler(r []float64, margin float64) (*scheduler, error) {
	eq, err := edf.NewQueue(edf.Config{})
	if err != nil {
		return nil, err
	}
	s := &scheduler{
		slots:   make([]slot, len(r)),
		cluster: make([]admission.Slot, len(r)),
		opt:     admission.Options{Margin: margin}, // wave mode, the default
		eq:      eq,
		mp:      edf.MPOptions{Slack: max(0, margin-1)}, // keep ahead of the plan
	}
	for i := range r {
		s.slots[i] = slot{r: r[i], planEnd: math.Inf(-1)}
	}
	return s, nil
}

// arrive runs admission control on a new job and queues it if admitted.
func (s *scheduler) arrive(now float64, id int64, deadline float64, tasks int, m tct.Exp2) error {
	for i, sl := range s.slots {
		s.cluster[i] = admission.Slot{R: sl.r, FreeAt: sl.planEnd}
	}
	s.opt.Cluster = s.cluster
	aj := admission.Job{ID: id, Arrival: now, Deadline: deadline,
		Tasks: tasks, Model: m, RunningUntil: math.Inf(-1)}
	d, err := s.checker.Decide(s.aq.Jobs(), aj, now, s.opt)
	if err != nil {
		return err
	}
	if !d.Admit {
		b := d.Checked[d.Blocking]
		fmt.Printf("%5.1f job %d rejected (%v): job %d would end %.1f s late\n",
			now, id, d.Reason, b.ID, -b.Slack)
		return nil
	}
	h, err := s.eq.Add(edf.Job{ID: id, Arrival: now, Deadline: deadline, Tasks: tasks, Model: m})
	if err != nil {
		return err
	}
	if err := s.aq.Insert(aj); err != nil {
		s.eq.Remove(h) // keep the queues in step
		return err
	}
	if d.NewIndex >= 0 {
		fmt.Printf("%5.1f job %d admitted (%v): planned end %.1f, deadline %g\n",
			now, id, d.Reason, now+d.Checked[d.NewIndex].Prefix, deadline)
	} else {
		fmt.Printf("%5.1f job %d admitted (%v)\n", now, id, d.Reason)
	}
	return nil
}

// offer gives each free slot to the job MP picks.
func (s *scheduler) offer(now float64) error {
	for i := range s.slots {
		sl := &s.slots[i]
		if sl.busy {
			continue
		}
		d, err := s.eq.MP(sl.r, now, s.mp)
		if err != nil {
			return err
		}
		if d.Job == edf.NoJob {
			continue // idle: nothing to run
		}
		t, err := s.eq.Assign(d.Job, sl.r)
		if err != nil {
			return err
		}
		st, _ := s.eq.Status(d.Job)
		dur := st.Model.TCT(sl.r)
		sl.busy, sl.task = true, t
		sl.planEnd = now + dur*s.opt.Margin
		sl.end = now + dur*1.1 // the simulation: tasks run 10% over the model
		fmt.Printf("%5.1f slot %d (r=%.2f) -> job %d (%v)\n", now, i, sl.r, d.ID, d.Reason)
		if err := s.progress(d.Job); err != nil {
			return err
		}
	}
	return nil
}

// taskEnd releases the task on slot i and retires its job when it is done.
func (s *scheduler) taskEnd(now float64, i int) error {
	sl := &s.slots[i]
	h := sl.task.Job
	if err := s.eq.Release(sl.task, true); err != nil {
		return err
	}
	sl.busy, sl.planEnd = false, math.Inf(-1)
	st, _ := s.eq.Status(h)
	if st.Tasks > 0 || st.Running > 0 {
		return s.progress(h)
	}
	switch {
	case st.Deadline == edf.NoDeadline:
		fmt.Printf("%5.1f job %d done (no deadline)\n", now, st.ID)
	case now <= st.Deadline:
		fmt.Printf("%5.1f job %d done, %.1f s before its deadline\n", now, st.ID, st.Deadline-now)
	default:
		fmt.Printf("%5.1f job %d done, %.1f s after its deadline\n", now, st.ID, now-st.Deadline)
	}
	s.aq.Remove(st.ID)
	return s.eq.Remove(h)
}

// progress tells admission job h's pending tasks and when its running tasks
// are planned to end.
func (s *scheduler) progress(h edf.Handle) error {
	until := math.Inf(-1)
	for _, sl := range s.slots {
		if sl.busy && sl.task.Job == h {
			until = max(until, sl.planEnd)
		}
	}
	st, _ := s.eq.Status(h)
	return s.aq.SetProgress(st.ID, st.Tasks, until)
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
	ratio, err := tct.LognormalFromMoments(1, 0.1*0.1)
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
		{0, 1, edf.NoDeadline, 6, sort},
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
			if err := s.arrive(now, a.id, a.deadline, a.tasks, a.model); err != nil {
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
	//   0.0 job 1 admitted (no deadline)
	//   0.0 job 2 admitted (fits): planned end 22.6, deadline 40
	//   0.0 slot 0 (r=1.00) -> job 2 (at-risk)
	//   0.0 slot 1 (r=1.00) -> job 2 (at-risk)
	//   0.0 slot 2 (r=0.50) -> job 1 (best-fit)
	//   0.0 slot 3 (r=0.50) -> job 1 (best-fit)
	//   5.0 job 3 admitted (fits): planned end 22.6, deadline 25
	//   8.0 job 4 rejected (queued job hurt): job 3 would end 5.8 s late
	//   8.0 job 5 rejected (new job late): job 5 would end 20.0 s late
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
