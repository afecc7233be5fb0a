package preempt

import (
	"fmt"
	"math"
)

// MaxTime bounds every time in seconds (about 32 million years), so that work
// lost, (now − start)·slots, and its sum over any decision stay finite.
const MaxTime = 1e15

// MaxTasks bounds len(Cluster.Tasks), and MaxJobs len(Cluster.Jobs) and
// every per-job slice (Evaluate, DeficiencyOrder, QueueDominated): 2²⁰, seven
// times the 150,000 pods Kubernetes supports in one cluster. A decision at
// both limits takes about half a second of CPU and 77 MiB of Workspace (see
// Limits in the package doc).
const (
	MaxTasks = 1 << 20
	MaxJobs  = 1 << 20
)

// checkLen reports a slice longer than limit, naming the field and its length.
func checkLen(field string, n, limit int, name string) error {
	if n > limit {
		return bad(field, n, fmt.Sprintf("length must be at most %s = %d", name, limit))
	}
	return nil
}

func bad(field string, v any, reason string) error {
	return &ValueError{Field: field, Value: v, Reason: reason}
}

// validate checks c and k. It reports the first problem found.
func validate(c Cluster, k int) error {
	if k < 0 {
		return bad("k", k, "must be ≥ 0")
	}
	if err := checkLen("Cluster.Tasks", len(c.Tasks), MaxTasks, "MaxTasks"); err != nil {
		return err
	}
	if err := checkLen("Cluster.Jobs", len(c.Jobs), MaxJobs, "MaxJobs"); err != nil {
		return err
	}
	if !(math.Abs(c.Now) <= MaxTime) {
		return bad("Cluster.Now", c.Now, "must be in [-MaxTime, MaxTime]")
	}
	for i, j := range c.Jobs {
		if !(j.Share >= 0) || math.IsInf(j.Share, 1) {
			return bad(fmt.Sprintf("Jobs[%d].Share", i), j.Share, "must be finite and ≥ 0")
		}
		if j.Queued < 0 {
			return bad(fmt.Sprintf("Jobs[%d].Queued", i), j.Queued, "must be ≥ 0")
		}
		if !(j.StarvingFor >= 0) || math.IsInf(j.StarvingFor, 1) {
			return bad(fmt.Sprintf("Jobs[%d].StarvingFor", i), j.StarvingFor, "must be finite and ≥ 0")
		}
	}
	for i, t := range c.Tasks {
		if t.Job < 0 || t.Job >= len(c.Jobs) {
			return bad(fmt.Sprintf("Tasks[%d].Job", i), t.Job, "must index Jobs")
		}
		if !(math.Abs(t.Start) <= MaxTime) {
			return bad(fmt.Sprintf("Tasks[%d].Start", i), t.Start, "must be in [-MaxTime, MaxTime]")
		}
		if t.Start > c.Now {
			return bad(fmt.Sprintf("Tasks[%d].Start", i), t.Start, "must be ≤ Cluster.Now")
		}
		if t.Slots < 1 || t.Slots > MaxSlots {
			return bad(fmt.Sprintf("Tasks[%d].Slots", i), t.Slots, "must be in [1, MaxSlots]")
		}
	}
	return nil
}
