package admission

// Limits on what a caller controls, checked up front so that every sum a
// decision forms stays finite and every decision's cost is bounded.
const (
	// MaxDuration is the largest duration, in seconds, a decision accepts:
	// Job.JCT, each of Job.Samples, a model's task time TCT(r), a slot's
	// FreeAt − now and a job's RunningUntil − now (about 31.7 million
	// years). With it every prefix sum, sample mean and planned completion
	// is finite, so evidence never carries ±Inf. JCT (the function)
	// returns an error rather than a larger estimate.
	MaxDuration = 1e15
	// MaxMargin is the largest wave-mode safety margin (Options.Margin,
	// MarginAt's result).
	MaxMargin = 1e3
	// MaxSlots is the largest cluster (len(Options.Cluster)) wave mode
	// accepts.
	MaxSlots = 1 << 24
	// MaxPlannedTasks bounds the work of one wave-mode decision: the
	// pending tasks (Job.Tasks) of the deadline jobs in the queue plus the
	// new job's. Each is placed once, or twice for jobs after the new one
	// in EDF order, at O(log slots) each; 2^22 tasks take a few hundred
	// milliseconds. A decision over more is an error naming the job at
	// which the total passes the limit.
	MaxPlannedTasks = 1 << 22
)
