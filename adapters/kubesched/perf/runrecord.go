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
}
