package edf

import "github.com/schedkit/schedkit/internal/job"

// Limits on what a caller controls, checked up front (the package doc's
// "Limits").
const (
	// MaxJobs bounds the jobs a Queue holds at once (Queue.Add refuses one
	// more) and len(jobs) of Algorithm2: 2¹⁸, 26 times YARN's default cap
	// on applications (yarn.scheduler.capacity.maximum-applications,
	// 10,000). A full Queue holds about 300 bytes a job.
	MaxJobs = 1 << 18
	// MaxDuration is the largest task time, in seconds, a queued job's
	// model may predict (about 31.7 million years): package admission's
	// bound, so that a job one package can plan the other can too.
	MaxDuration = job.MaxDuration
	// MaxMargin is the largest Config.Margin, admission's MaxMargin.
	MaxMargin = 1e3
	// MaxPhaseSlots bounds the map and the reduce slot counts MinimumSlots
	// returns; a job that would need more of either is reported
	// infeasible.
	MaxPhaseSlots = 1 << 30
)
