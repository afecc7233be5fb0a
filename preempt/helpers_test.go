package preempt

import (
	"cmp"
	"math"
	"slices"

	"pgregory.net/rapid"
)

// genCluster draws a valid cluster. With oneSlot every task holds one slot.
func genCluster(t *rapid.T, oneSlot bool) Cluster {
	nj := rapid.IntRange(1, 6).Draw(t, "jobs")
	c := Cluster{Now: float64(rapid.IntRange(0, 100).Draw(t, "now"))}
	for j := 0; j < nj; j++ {
		c.Jobs = append(c.Jobs, Job{
			Share:       float64(rapid.IntRange(0, 20).Draw(t, "share2")) / 2,
			Queued:      rapid.IntRange(0, 30).Draw(t, "queued"),
			Long:        rapid.Bool().Draw(t, "long"),
			NoPreempt:   rapid.IntRange(0, 5).Draw(t, "protect") == 0,
			StarvingFor: float64(rapid.IntRange(0, 400).Draw(t, "starvingFor")),
		})
	}
	nt := rapid.IntRange(0, 40).Draw(t, "tasks")
	for i := 0; i < nt; i++ {
		s := 1
		if !oneSlot {
			s = rapid.IntRange(1, 3).Draw(t, "slots")
		}
		c.Tasks = append(c.Tasks, Task{
			ID:    rapid.Int64Range(0, 10).Draw(t, "id"), // duplicates allowed
			Job:   rapid.IntRange(0, nj-1).Draw(t, "job"),
			Start: c.Now - float64(rapid.IntRange(0, 12).Draw(t, "age")), // many ties
			Slots: s,
		})
	}
	return c
}

// recencyCmp is the documented tie order, written independently of newer.
func recencyCmp(ts []Task) func(a, b int) int {
	return func(a, b int) int {
		return cmp.Or(
			cmp.Compare(ts[b].Start, ts[a].Start),
			cmp.Compare(ts[a].Job, ts[b].Job),
			cmp.Compare(ts[a].ID, ts[b].ID),
			cmp.Compare(a, b),
		)
	}
}

// refOverflow is the brute-force set of overflowing tasks per job.
func refOverflow(c Cluster) map[int]bool {
	out := map[int]bool{}
	for j, job := range c.Jobs {
		var idx []int
		held := 0.0
		for i, t := range c.Tasks {
			if t.Job == j {
				idx = append(idx, i)
				held += float64(t.Slots)
			}
		}
		slices.SortFunc(idx, recencyCmp(c.Tasks))
		keep := math.Ceil(job.Share)
		for _, i := range idx {
			if held-float64(c.Tasks[i].Slots) < keep {
				break
			}
			held -= float64(c.Tasks[i].Slots)
			out[i] = true
		}
	}
	return out
}

// refFill is the reference greedy: sort fully, take what fits, then the
// fewest-slot overshoot. It returns the chosen indices in order.
func refFill(c Cluster, cand []int, need int, overshoot bool) ([]int, int) {
	cand = slices.Clone(cand)
	slices.SortFunc(cand, recencyCmp(c.Tasks))
	var out []int
	used := map[int]bool{}
	for _, i := range cand {
		if need == 0 {
			break
		}
		if c.Tasks[i].Slots <= need {
			out = append(out, i)
			used[i] = true
			need -= c.Tasks[i].Slots
		}
	}
	if need > 0 && overshoot {
		best := -1
		for _, i := range cand {
			if !used[i] && (best < 0 || c.Tasks[i].Slots < c.Tasks[best].Slots) {
				best = i
			}
		}
		if best >= 0 {
			out = append(out, best)
			need -= c.Tasks[best].Slots
		}
	}
	return out, need
}

func victimTasks(d Decision) []int {
	var out []int
	for _, v := range d.Victims {
		out = append(out, v.Task)
	}
	return out
}

func heldBy(c Cluster) []int {
	h := make([]int, len(c.Jobs))
	for _, t := range c.Tasks {
		h[t.Job] += t.Slots
	}
	return h
}
