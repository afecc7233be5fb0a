package perf

// A RunRecord is one line (JSON) of the benchmark's -schedkit-runs file:
// one workload run, from the harness's prepare hook (scheduler and API
// server started, no node created) to the end of the run (before the
// scheduler is stopped). CPU is the benchmark process's user and system
// time over the run: the in-process API server, the scheduler and the
// harness, not etcd (a process of its own).
type RunRecord struct {
	// Name is the run's benchmark name,
	// BenchmarkPerfScheduling/<workload>_<profile>[_<round>]/<size>.
	Name string `json:"name"`
	// LoadStart and LoadEnd are the machine's 1-minute load average at the
	// run's start and end.
	LoadStart float64 `json:"load1Start"`
	LoadEnd   float64 `json:"load1End"`
	// Wall and CPU are the run's wall-clock and process CPU seconds.
	Wall float64 `json:"wallSeconds"`
	CPU  float64 `json:"cpuSeconds"`
	// RunDelay is the seconds the process's threads spent ready to run
	// but waiting for a CPU over the run (the second field of each
	// thread's /proc schedstat), summed over the threads: a run slowed by
	// the machine's other jobs has a large one, a run that waits on
	// itself (a queue, a timer) a small one.
	RunDelay float64 `json:"runDelaySeconds"`
	// Batch counts the scheduler's opportunistic batching attempts over
	// the run (scheduler_batch_attempts_total, every pod and profile) by
	// result: hint_used is a pod placed on a node taken from the previous
	// pod's cached filter and score results, hint_not_used one whose hint
	// failed its filters, no_hint one scheduled by a full cycle. Nil when
	// the run made no attempt (the OpportunisticBatching gate off).
	Batch map[string]float64 `json:"batch,omitempty"`
	// BatchFlushes counts why the cached results were dropped
	// (scheduler_batch_cache_flushed_total) by reason: pod_not_batchable
	// is a pod that a plugin of its profile refused to sign.
	BatchFlushes map[string]float64 `json:"batchFlushes,omitempty"`
	// Pods is each namespace's Span, timed from the benchmark's own watch
	// of the run's pods; the harness's measured pods are those of the
	// namespace its SchedulingDuration item names (namespace-2 in every
	// workload of performance-config.yaml).
	Pods map[string]Span `json:"pods,omitempty"`
}
