package admission

import "strconv"

// Mode selects the acceptance rule.
type Mode int

const (
	// ModeStrict (the zero value, the default) admits the new job only if it
	// meets its own deadline under Eq. 7 AND no queued deadline job that now
	// meets its deadline would miss it: in EDF order with the new job
	// inserted, every such job k keeps Σ_{i≤k} JCT_i ≤ deadline_k − now.
	// It is the default because it keeps the promise an admission controller
	// makes to the jobs it already accepted; the paper rule breaks that
	// promise whenever a job with an earlier deadline arrives (000 §5.3
	// "assumes the jobs J_new+1 … J_N will meet their deadlines").
	ModeStrict Mode = iota
	// ModePaper is 000 Eq. 7 as printed: take the queued jobs that come
	// before the new one in EDF order, plus the new job, and admit iff
	// Σ JCT_i ≤ deadline_new − now (the paper's "Deadline_new" is the time
	// left). The prose also asks that the earlier jobs "complete
	// successfully"; under EDF the new job cannot delay them, so Eq. 7 checks
	// the new job's deadline only, and so do we. Later jobs are assumed to
	// stay feasible.
	ModePaper
	// ModeConfidence (beyond the paper) admits iff the probability that every
	// protected deadline is met is at least Options.Confidence, estimated from
	// each job's completion-time samples (Job.Samples). Decide with this mode
	// calls DecideConfidence.
	ModeConfidence
)

// String returns "strict", "paper", "confidence" or "Mode(n)".
func (m Mode) String() string {
	switch m {
	case ModeStrict:
		return "strict"
	case ModePaper:
		return "paper"
	case ModeConfidence:
		return "confidence"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Options tunes Decide. The zero value is ready to use: strict mode.
type Options struct {
	// Mode is the acceptance rule; zero is ModeStrict.
	Mode Mode
	// Confidence is the probability p in [0, 1] that ModeConfidence requires.
	// Ignored by the other modes. Zero admits every valid job.
	Confidence float64
}

// Reason says why a Decision came out as it did.
type Reason int

const (
	// ReasonFits: admitted; every protected job meets its deadline (strict,
	// paper) or the probability reaches the confidence (confidence).
	ReasonFits Reason = iota
	// ReasonNoDeadline: admitted without a check, the new job has no deadline.
	ReasonNoDeadline
	// ReasonNewJobLate: rejected; the new job itself would miss its deadline
	// (Eq. 7 fails). Decision.Blocking is the new job.
	ReasonNewJobLate
	// ReasonQueuedJobHurt: rejected in strict mode; a queued job that meets
	// its deadline without the new job would miss it with it.
	// Decision.Blocking is the first such job in EDF order.
	ReasonQueuedJobHurt
	// ReasonLowConfidence: rejected in confidence mode; P(every protected
	// deadline met) < Options.Confidence. Decision.Blocking is the protected
	// job least likely to meet its deadline (the new job or a queued one).
	ReasonLowConfidence
)

// String returns the reason as a short lower-case phrase.
func (r Reason) String() string {
	switch r {
	case ReasonFits:
		return "fits"
	case ReasonNoDeadline:
		return "no deadline"
	case ReasonNewJobLate:
		return "new job late"
	case ReasonQueuedJobHurt:
		return "queued job hurt"
	case ReasonLowConfidence:
		return "low confidence"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// A Check is the evidence for one deadline job in the checked set, in EDF
// order. Times are seconds.
type Check struct {
	ID       int64   // the job's ID
	Deadline float64 // absolute deadline
	// JCT is the job's Eq. 6 estimate (confidence mode: the mean of its
	// samples).
	JCT float64
	// Prefix is Σ_{i≤k} JCT_i over the checked jobs up to and including this
	// one, with the new job counted where it falls in EDF order: the
	// job's predicted completion time from now if jobs run one after another
	// in EDF order (Eq. 7's right-hand side). Confidence mode: the mean of
	// the sampled prefix sums.
	Prefix float64
	// Slack is Deadline − now − Prefix; >= 0 means the job meets its
	// deadline. Without the new job a later job's slack would be
	// Slack + the new job's JCT.
	Slack float64
	// PMeet is the probability the job meets its deadline with the new job
	// admitted: the fraction of samples in confidence mode, 1 (Slack >= 0)
	// or 0 otherwise.
	PMeet float64
	// New marks the arriving job.
	New bool
	// Protected marks the jobs whose deadlines the decision depends on.
	// Paper: only the new job. Strict: the new job and every later job that
	// meets its deadline without it (a job already late without the new job
	// is reported but not protected: the new job cannot be blamed for it, and
	// protecting it would block every admission until it finished).
	// Confidence: the new job and every later job whose probability of
	// meeting its deadline without the new job is >= Options.Confidence.
	// Jobs before the new one are never protected: admitting it does not
	// change their completion.
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
	// including the new one (Eq. 7's set); strict and confidence modes list
	// every deadline job. Empty when the new job has no deadline. It aliases
	// the Checker's buffer and is valid until the next call on that Checker;
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
	// from samples in confidence mode, 1 or 0 in the deterministic modes. 1
	// when the new job has no deadline.
	Probability float64
}
