package admission

import (
	"github.com/schedkit/schedkit/internal/enumname"
)

// Mode selects the acceptance rule.
type Mode int

const (
	// ModeWave (the zero value, the default; beyond the paper) plans the
	// work: on each arrival it list-schedules the pending tasks of the
	// deadline jobs in the queue plus the new job's, in EDF order, onto the
	// cluster's slots (Options.Cluster). Each slot becomes free when its
	// running task is expected to end (Slot.FreeAt), each task takes
	// TCT_j(r) × Options.Margin on the slot it lands on, and nothing running
	// is pre-empted. It admits the new job iff it completes by its deadline
	// in that plan and every queued job that completes by its deadline in
	// the plan without the new job still does with it. Tasks go to the slot
	// that frees first; a second plan, each task on the slot where it ends
	// first, also protects a queued job that is on time only if it waits for
	// a fast slot (the package doc has the exact rule).
	//
	// It is the default because Eq. 6 under-estimates real jobs: it treats
	// work as divisible, so 26 tasks on 40 slots cost 26/40 of a task time
	// instead of a whole one; it averages TCT over slots instead of placing
	// tasks on slow ones; and it ignores that running tasks hold their
	// slots. In the MIMP case-study simulation (examples/mimp -sweep) every
	// job the paper rule admitted at load 1 took longer than its Eq. 7 sum
	// (1.98× at the median), and at 3× overload 584 of the 658 it admitted
	// missed; wave mode let 6 of 542 miss. The package doc has the numbers.
	ModeWave Mode = iota
	// ModeStrict admits the new job only if it meets its own deadline under
	// Eq. 7 AND no queued deadline job that now meets its deadline would
	// miss it: in EDF order with the new job inserted, every such job k
	// keeps Σ_{i≤k} JCT_i ≤ deadline_k − now. Unlike the paper rule it keeps
	// the promise made to the jobs already admitted; like it, it trusts
	// Eq. 6, so it admits jobs that then miss (467 of 551 at 3× overload in
	// examples/mimp -sweep).
	ModeStrict
	// ModePaper is MIMP Eq. 7 as printed: take the queued jobs that come
	// before the new one in EDF order, plus the new job, and admit iff
	// Σ JCT_i ≤ deadline_new − now (the paper's "Deadline_new" is the time
	// left). The prose also asks that the earlier jobs "complete
	// successfully"; under EDF the new job cannot delay them, so Eq. 7 checks
	// the new job's deadline only, and so do we. Later jobs are assumed to
	// stay feasible (MIMP §5.3 "assumes the jobs J_new+1 … J_N will meet their
	// deadlines"), which breaks the promise made to them whenever a job with
	// an earlier deadline arrives.
	ModePaper
	// ModeConfidence (beyond the paper) admits iff the probability that
	// every protected deadline is met is at least p = Options.Confidence,
	// estimated from each job's completion-time samples (Job.Samples).
	//
	// The model is Eq. 7's sequential one with random completion times:
	// jobs run one after another in EDF order (CompareEDF, new job
	// inserted), so job k completes at now + Σ_{i≤k} T_i, where T_i is job
	// i's completion time alone on the cluster. Each deadline job carries N
	// draws of T in Job.Samples (from a Monte-Carlo or lognormal model,
	// e.g. package tct; admission does not import it). Draw s of the whole
	// set uses draw s of every job (a common index): the estimate assumes
	// the jobs' completion times are independent and that the caller's
	// draws are independent across jobs (or deliberately correlated through
	// the common index, for common random numbers). Then
	//
	//	P = #{s : Σ_{i≤k} T_i[s] ≤ deadline_k − now for every protected k} / N.
	//
	// Protected jobs are the new job and every later deadline job whose
	// probability of meeting its deadline without the new job is >= p (a
	// job already below the target is reported, not protected, just as
	// strict mode does not protect a job already late). Earlier jobs are
	// unaffected by the new one and not protected. With p = 0 every valid
	// job is admitted; with constant samples equal to each job's JCT and p
	// > 0 the decision equals strict mode's.
	//
	// The evidence per job (Decision.Checked, in EDF order, every deadline
	// job): JCT and Prefix are sample means, Slack = deadline − now −
	// Prefix, PMeet is the marginal probability of meeting the deadline
	// with the new job admitted. Decision.Probability is P. On rejection
	// (ReasonLowConfidence) Blocking is the protected job with the smallest
	// PMeet (the earliest in EDF order on ties). A new job without a
	// deadline is admitted with no evidence, and then samples are not
	// needed. Cost O((len(queue)+1)·N).
	//
	// Errors besides Decide's common ones: p outside [0, 1] or NaN
	// ("Options.Confidence"); the new job's Samples empty or longer than
	// MaxSamples; a deadline job's Samples of a different length than the
	// new job's; a sample that is NaN, infinite or outside [0,
	// MaxDuration] ("Queue[k].Samples[s]").
	ModeConfidence
)

// String returns "wave", "strict", "paper", "confidence" or "Mode(n)".
func (m Mode) String() string { return enumname.Of(m, "Mode", modeNames[:]) }

var modeNames = [...]string{
	ModeWave:       "wave",
	ModeStrict:     "strict",
	ModePaper:      "paper",
	ModeConfidence: "confidence",
}

// Options selects the rule and carries its parameters. The zero value is
// wave mode with margin 1, which needs Cluster.
type Options struct {
	// Mode is the acceptance rule; zero is ModeWave.
	Mode Mode
	// Confidence is the probability p in [0, 1] that ModeConfidence requires.
	// Ignored by the other modes. Zero admits every valid job.
	Confidence float64
	// Cluster is every map slot of the cluster at now, in a fixed order
	// (the index is the plan's last tie-break, and the slot a Queue's Start
	// names). Wave mode needs at least one slot with R > 0 when the new job
	// has a deadline; the other modes ignore it. At most MaxSlots. In
	// Queue.Decide a slot on which the queue records a running task is busy
	// until that task's planned end, whatever its Busy and FreeAt here.
	Cluster []Slot
	// Margin is wave mode's safety factor on task times: a task is planned
	// to take TCT_j(r) × Margin. Zero means 1 (the models are taken as
	// exact); otherwise in (0, MaxMargin]. MarginAt derives it from the
	// spread of the models' errors at a confidence level. It is not applied
	// to Slot.FreeAt and Job.RunningUntil, which are planned ends already:
	// a scheduler computes them with the same margin (start + TCT(r)·Margin,
	// edf.Task.PlannedEnd with edf.Config.Margin the same number).
	Margin float64
}

// A Slot is one map slot, as every call of this package takes the cluster
// (a []Slot in a fixed order): JCT and NewCapacities read R, wave mode R,
// Busy and FreeAt at the decision time now.
type Slot struct {
	// R is the slot's residual capacity in [0, 1] (1 = a free dedicated
	// slot, the web VM's leftover for a shared one). A task of job j takes
	// TCT_j(R) on it. R = 0 means the slot cannot run a task: it gets none.
	R float64
	// Busy says a task runs on the slot, planned to end at FreeAt (absolute
	// seconds; at or before now, the slot is free now). FreeAt is read only
	// when Busy: then NaN and +Inf are bad input, as is FreeAt − now >
	// MaxDuration. The zero Slot is free.
	Busy   bool
	FreeAt float64
}

// Reason says why a Decision came out as it did.
type Reason int

const (
	// ReasonFits: admitted; every protected job meets its deadline (wave,
	// strict, paper) or the probability reaches the confidence
	// (confidence).
	ReasonFits Reason = iota
	// ReasonNoDeadline: admitted without a check, the new job has no deadline.
	ReasonNoDeadline
	// ReasonNewJobLate: rejected; the new job itself would miss its deadline
	// (Eq. 7 fails, or wave mode's plan completes it late).
	// Decision.Blocking is the new job, and its Slack (negative) says by how
	// much.
	ReasonNewJobLate
	// ReasonQueuedJobHurt: rejected in wave or strict mode; a queued job
	// that meets its deadline without the new job would miss it with it.
	// Decision.Blocking is the first such job in EDF order, and its Slack
	// (negative) says by how much it would be late.
	ReasonQueuedJobHurt
	// ReasonLowConfidence: rejected in confidence mode; P(every protected
	// deadline met) < Options.Confidence. Decision.Blocking is the protected
	// job least likely to meet its deadline (the new job or a queued one).
	ReasonLowConfidence
)

// String returns "fits", "no-deadline", "new-job-late", "queued-job-hurt",
// "low-confidence", or "Reason(n)" for any other value.
func (r Reason) String() string { return enumname.Of(r, "Reason", reasonNames[:]) }

var reasonNames = [...]string{
	ReasonFits:          "fits",
	ReasonNoDeadline:    "no-deadline",
	ReasonNewJobLate:    "new-job-late",
	ReasonQueuedJobHurt: "queued-job-hurt",
	ReasonLowConfidence: "low-confidence",
}

// A Check is the evidence for one deadline job in the checked set, in EDF
// order. Times are seconds; every value is finite.
type Check struct {
	ID       int64   // the job's ID
	Deadline float64 // absolute deadline
	// JCT is the job's Eq. 6 estimate (confidence mode: the mean of its
	// samples). Wave mode: the job's planned span, from the earliest
	// planned start of its pending tasks to its planned completion, in the
	// plan Prefix comes from (0 when it has no pending task).
	JCT float64
	// Prefix is the job's predicted completion time from now with the new
	// job admitted. Paper and strict: Σ_{i≤k} JCT_i over the checked jobs up
	// to and including this one, with the new job counted where it falls in
	// EDF order (Eq. 7's right-hand side: jobs run one after another).
	// Confidence: the mean of the sampled prefix sums. Wave: the planned
	// completion − now (the end of its last planned task, or RunningUntil −
	// now if later; 0 for a job with nothing left) in the first-free plan,
	// or for a protected job the later of its completions in the plans in
	// which it meets its deadline without the new job.
	Prefix float64
	// Slack is Deadline − now − Prefix; >= 0 means the job meets its
	// deadline, and a negative Slack is how late it would be. In paper and
	// strict mode a later job's slack without the new job is Slack + the
	// new job's JCT.
	Slack float64
	// PMeet is the probability the job meets its deadline with the new job
	// admitted: the fraction of samples in confidence mode, 1 (Slack >= 0)
	// or 0 otherwise.
	PMeet float64
	// New marks the arriving job.
	New bool
	// Protected marks the jobs whose deadlines the decision depends on.
	// Paper: only the new job. Strict: the new job and every later job that
	// meets its deadline without it under Eq. 7. Wave: the new job and every
	// later job that meets its deadline without it in the first-free or the
	// end-first plan (see the package doc). A job
	// already late without the new job is reported but not protected: the
	// new job cannot be blamed for it, and protecting it would block every
	// admission until it finished. Confidence: the new job and every later
	// job whose probability of meeting its deadline without the new job is
	// >= Options.Confidence. Jobs before the new one are never protected:
	// admitting it does not change their completion.
	Protected bool
}

// A Decision is the outcome of an admission check: a rejection is a result,
// not an error.
type Decision struct {
	Admit  bool   // the new job is accepted
	Mode   Mode   // the rule that decided (Options.Mode)
	Reason Reason // why: ReasonFits or ReasonNoDeadline when admitted
	// Checked is the evidence, one Check per deadline job considered, in EDF
	// order with the new job inserted. Paper mode lists the jobs up to and
	// including the new one (Eq. 7's set); wave, strict and confidence modes
	// list every deadline job. Empty when the new job has no deadline. It aliases
	// the Workspace's buffer and is valid until the next call on that Workspace;
	// copy it (slices.Clone) to keep it.
	Checked []Check
	// NewIndex is the new job's index in Checked, or -1 when it has no
	// deadline.
	NewIndex int
	// Blocking is the index in Checked of the job the rejection protects
	// (the new job itself or the queued job it would hurt), or -1 when
	// admitted. BlockingID is that job's ID (0 when admitted).
	Blocking   int
	BlockingID int64
	// Probability is P(every protected job meets its deadline): estimated
	// from samples in confidence mode, 1 or 0 in the other modes. 1 when the
	// new job has no deadline.
	Probability float64
}
