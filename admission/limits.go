package admission

import "github.com/schedkit/schedkit/internal/job"

// Limits on what a caller controls, checked up front so that every sum a
// decision forms stays finite and every decision's cost is bounded.
const (
	// MaxDuration is the largest duration, in seconds, a decision accepts:
	// Job.JCT, each of Job.Samples, a model's task time TCT(r), a slot's
	// FreeAt − now and a job's RunningUntil − now (about 31.7 million
	// years). With it every prefix sum, sample mean and planned completion
	// is finite, so evidence never carries ±Inf. JCT (the function)
	// returns an error rather than a larger estimate.
	MaxDuration = job.MaxDuration
	// MaxMargin is the largest wave-mode safety margin (Options.Margin,
	// MarginAt's result).
	MaxMargin = 1e3
	// MaxSlots is the largest cluster (len(Options.Cluster)) wave mode
	// accepts: 2^20 slots, seven times the pods Kubernetes supports in one
	// cluster. A wave decision keeps about 80 bytes per slot of scratch
	// (2^24 slots, the bound before, took 1.4 GiB and 20 s a decision).
	MaxSlots = 1 << 20
	// MaxPlannedTasks bounds the work of one wave-mode decision: the
	// pending tasks (Job.Tasks) of the deadline jobs in the queue plus the
	// new job's. Each is placed once, or twice for jobs after the new one
	// in EDF order, at O(log slots) each; 2^22 tasks take a few hundred
	// milliseconds. A decision over more is an error naming the job at
	// which the total passes the limit.
	MaxPlannedTasks = 1 << 22
	// MaxJobs bounds the queue of a decision (len(queue) of
	// Workspace.Decide) and the jobs a Queue holds (Insert refuses one
	// more, as edf.Queue.Add does): 2^18, 26 times YARN's default cap on applications. A decision
	// keeps one Check of evidence per job.
	MaxJobs = 1 << 18
	// MaxSamples bounds len(Job.Samples) in confidence mode: the Workspace
	// keeps 17 bytes per sample of scratch (17 MiB at the bound).
	MaxSamples = 1 << 20
)

// checkQueueLen refuses a queue of more than MaxJobs jobs.
func checkQueueLen(n int) error {
	if n > MaxJobs {
		return &ValueError{Field: "len(queue)", Value: n, Reason: "more than MaxJobs = 2^18 jobs"}
	}
	return nil
}
