package progressshare

import (
	"errors"
	"fmt"
)

// ErrCalibrating is returned by ProgressShare for a job that is still in its
// calibration phase (§4.3.1.4): its computing rate on some node type is not
// measured, so its progress share is not defined yet. It is a state, not bad
// input, and does not match ErrBadInput.
var ErrCalibrating = errors.New("progressshare: job is calibrating")

// A Block is one input block of a job (Table 4.2). Replicas lists the nodes
// that store a replica of it; at least one is needed, each must be a node
// that has a slot in the cluster. Duplicates are allowed and ignored.
type Block struct {
	Replicas []int
}

// A Job is a MapReduce job as the pickers see it at one instant.
//
// A job is calibrating while Rates is unmeasured (zero, or missing because
// Rates is short) on some node type; it is calibrated once every node type has
// a measured rate.
type Job struct {
	// Weight scales the job's fair share, in [MinRate, MaxRate] (the same
	// bounds as a rate). Jobs are ordered by share/Weight.
	Weight float64

	// Rates is the computing rate CR(s, j) per node type of s: how many
	// blocks per second one slot of that type processes for this job, so
	// that Tp(s, j, b) = 1/CR (§4.3.1.2). Only ratios matter for the
	// progress share; the absolute value matters against Options.ReadTime.
	// 0 means "not measured yet"; a measured rate is in [MinRate, MaxRate].
	// len(Rates) must not exceed the number of node types.
	Rates []float64

	// Running is the number of the job's tasks running on slots of each
	// node type (|S_j| split by type). Each count must be in
	// [0, slots of that type]; len(Running) must not exceed the number of
	// node types; missing entries are 0.
	Running []int

	// Pending are the blocks not yet assigned (B̄_j). Indices into it are
	// what a Decision reports.
	Pending []Block

	// Index optionally summarises Pending by node and rack so that a picker
	// need not read every block (see PendingIndex). Nil: blocks are read.
	Index *PendingIndex

	// LastLaunch is the time, in seconds, when the job last launched a task
	// (or arrived). delay(j) = now − LastLaunch; it must be finite and not
	// after now. The caller sets LastLaunch = now on every launch, which is
	// the "delay reset on launch" of delay scheduling.
	LastLaunch float64
}

// Calibrating reports whether job j still lacks a measured computing rate for
// some node type that has slots in the cluster. It does not check j.
func (s *Scheduler) Calibrating(j Job) bool {
	for t := range s.numTypes {
		if rateOf(j, t) == 0 && s.typeSlots[t] > 0 {
			return true
		}
	}
	return false
}

func rateOf(j Job, t int) float64 {
	if t < len(j.Rates) {
		return j.Rates[t]
	}
	return 0
}

func runningOf(j Job, t int) int {
	if t < len(j.Running) {
		return j.Running[t]
	}
	return 0
}

// ProgressShare returns PS(j) of Eq. 4.1,
//
//	PS(j) = Σ_{s∈S_j} CR(s, j) / Σ_{s∈S} CR(s, j),
//
// computed per node type as Σ_t Running[t]·Rates[t] / Σ_t slots(t)·Rates[t].
// It lies in [0, 1]: 0 when the job runs nothing, 1 when it occupies every
// slot. It returns ErrCalibrating when some rate is unmeasured and an error
// matching ErrBadInput for a bad rate or running count.
func (s *Scheduler) ProgressShare(j Job) (float64, error) {
	if err := s.checkRatesRunning(j, -1); err != nil {
		return 0, err
	}
	if s.Calibrating(j) {
		return 0, ErrCalibrating
	}
	return s.progressShare(j), nil
}

// progressShare assumes a validated, calibrated job.
func (s *Scheduler) progressShare(j Job) float64 {
	var num, den float64
	for t := range s.numTypes {
		r := rateOf(j, t)
		num += float64(runningOf(j, t)) * r
		den += float64(s.typeSlots[t]) * r
	}
	return min(num/den, 1)
}

// SlotShare returns the slot share of job j, its running tasks divided by
// the number of slots: the share metric of Algorithm 1 (Hadoop Fair
// Scheduler). On a homogeneous cluster it equals ProgressShare. It returns an
// error matching ErrBadInput for a bad running count.
func (s *Scheduler) SlotShare(j Job) (float64, error) {
	if err := s.checkRunning(j, -1); err != nil {
		return 0, err
	}
	return s.slotShare(j), nil
}

func (s *Scheduler) slotShare(j Job) float64 {
	n := 0
	for t := range min(len(j.Running), s.numTypes) {
		n += j.Running[t]
	}
	return float64(n) / float64(len(s.slots))
}

func (s *Scheduler) checkRunning(j Job, idx int) error {
	if len(s.slots) == 0 { // a zero Scheduler: shares would be 0/0
		return &ValueError{Field: "Scheduler", Value: 0, Reason: "not made by NewScheduler"}
	}
	if len(j.Running) > s.numTypes {
		return &ValueError{Field: "len(" + jobName(idx) + ".Running)", Value: len(j.Running), Reason: "more entries than node types"}
	}
	for t, n := range j.Running {
		if n < 0 || n > s.typeSlots[t] {
			return &ValueError{Field: fmt.Sprintf("%s.Running[%d]", jobName(idx), t), Value: n,
				Reason: fmt.Sprintf("must be in [0, %d], the slots of that type", s.typeSlots[t])}
		}
	}
	return nil
}

func (s *Scheduler) checkRatesRunning(j Job, idx int) error {
	if len(j.Rates) > s.numTypes {
		return &ValueError{Field: "len(" + jobName(idx) + ".Rates)", Value: len(j.Rates), Reason: "more entries than node types"}
	}
	for t, r := range j.Rates {
		if r != 0 && !(r >= MinRate && r <= MaxRate) {
			return &ValueError{Field: fmt.Sprintf("%s.Rates[%d]", jobName(idx), t), Value: r,
				Reason: "must be 0 (unmeasured) or in [MinRate, MaxRate]"}
		}
	}
	return s.checkRunning(j, idx)
}

// checkJob validates everything of j except its pending blocks.
func (s *Scheduler) checkJob(j Job, idx int, now float64, rates bool) error {
	if len(j.Pending) > MaxPending {
		return &ValueError{Field: "len(" + jobName(idx) + ".Pending)", Value: len(j.Pending), Reason: "more than MaxPending = 2^20 blocks"}
	}
	if !(j.Weight >= MinRate && j.Weight <= MaxRate) {
		return &ValueError{Field: jobName(idx) + ".Weight", Value: j.Weight, Reason: "must be in [MinRate, MaxRate]"}
	}
	if !(j.LastLaunch <= now && j.LastLaunch-j.LastLaunch == 0) {
		return &ValueError{Field: jobName(idx) + ".LastLaunch", Value: j.LastLaunch, Reason: "must be finite and not after now"}
	}
	if rates {
		return s.checkRatesRunning(j, idx)
	}
	return s.checkRunning(j, idx)
}

// Validate checks every job completely, blocks included, and returns all
// problems joined (nil when the jobs are good input for both pickers at time
// now). The pickers check only what they read (see PickProgressShare), so
// call Validate once when jobs come from an untrusted source.
func (s *Scheduler) Validate(jobs []Job, now float64) error {
	if now-now != 0 {
		return &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	}
	if len(jobs) > MaxJobs {
		return &ValueError{Field: "len(jobs)", Value: len(jobs), Reason: "more than MaxJobs = 2^18 jobs"}
	}
	var errs []error
	for i, j := range jobs {
		if err := s.checkJob(j, i, now, true); err != nil {
			errs = append(errs, err)
		}
		for b, blk := range j.Pending {
			if err := s.checkBlock(blk, i, b); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (s *Scheduler) checkBlock(b Block, idx, i int) error {
	if len(b.Replicas) == 0 {
		return &ValueError{Field: fmt.Sprintf("%s.Pending[%d].Replicas", jobName(idx), i), Value: 0, Reason: "a block needs at least one replica"}
	}
	for k, n := range b.Replicas {
		if n < 0 || n >= len(s.nodeRack) || s.nodeRack[n] < 0 {
			return &ValueError{Field: fmt.Sprintf("%s.Pending[%d].Replicas[%d]", jobName(idx), i, k), Value: n, Reason: "not a node with a slot"}
		}
	}
	return nil
}

// jobName names job idx of the caller's slice in errors ("job" for -1).
// It is called only on error paths, so decisions do not format strings.
func jobName(idx int) string {
	if idx < 0 {
		return "job"
	}
	return fmt.Sprintf("jobs[%d]", idx)
}
