package preempt

import (
	"fmt"
	"math"
)

// MaxTime bounds every time in seconds (about 32 million years), so that work
// lost, (now − start)·slots, and its sum over any decision stay finite.
const MaxTime = 1e15

func bad(field string, v float64, reason string) error {
	return &ValueError{Field: field, Value: v, Reason: reason}
}

// validate checks c and k. It reports the first problem found.
func validate(c Cluster, k int) error {
	if k < 0 {
		return bad("k", float64(k), "must be ≥ 0")
	}
	if len(c.Tasks) > math.MaxInt32 {
		return bad("Cluster.Tasks", float64(len(c.Tasks)), "more than 2³¹−1 tasks")
	}
	if !(math.Abs(c.Now) <= MaxTime) {
		return bad("Cluster.Now", c.Now, "must be in [-MaxTime, MaxTime]")
	}
	for i, j := range c.Jobs {
		if !(j.Share >= 0) || math.IsInf(j.Share, 1) {
			return bad(fmt.Sprintf("Jobs[%d].Share", i), j.Share, "must be finite and ≥ 0")
		}
		if j.Queued < 0 {
			return bad(fmt.Sprintf("Jobs[%d].Queued", i), float64(j.Queued), "must be ≥ 0")
		}
		if !(j.StarvingFor >= 0) || math.IsInf(j.StarvingFor, 1) {
			return bad(fmt.Sprintf("Jobs[%d].StarvingFor", i), j.StarvingFor, "must be finite and ≥ 0")
		}
	}
	for i, t := range c.Tasks {
		if t.Job < 0 || t.Job >= len(c.Jobs) {
			return bad(fmt.Sprintf("Tasks[%d].Job", i), float64(t.Job), "must index Jobs")
		}
		if !(math.Abs(t.Start) <= MaxTime) {
			return bad(fmt.Sprintf("Tasks[%d].Start", i), t.Start, "must be in [-MaxTime, MaxTime]")
		}
		if t.Start > c.Now {
			return bad(fmt.Sprintf("Tasks[%d].Start", i), t.Start, "must be ≤ Cluster.Now")
		}
		if t.Slots < 1 || t.Slots > MaxSlots {
			return bad(fmt.Sprintf("Tasks[%d].Slots", i), float64(t.Slots), "must be in [1, MaxSlots]")
		}
	}
	return nil
}
