package admission

import (
	"math"
	"slices"

	"pgregory.net/rapid"
)

// Generators shared by the properties and fuzz targets. Valid values are
// small integers so that every sum is exact and properties can compare with
// == where the arithmetic is the same.

// validJobs draws up to max valid jobs with distinct IDs 1..n, in EDF order.
// About one in five has no deadline; deadlines repeat to exercise ties.
func validJobs(t *rapid.T, max int, label string) []Job {
	n := rapid.IntRange(0, max).Draw(t, label+"_n")
	jobs := make([]Job, n)
	for i := range jobs {
		deadline := math.Inf(1)
		if rapid.IntRange(0, 4).Draw(t, label+"_hasdl") > 0 {
			deadline = float64(rapid.IntRange(0, 400).Draw(t, label+"_dl"))
		}
		jobs[i] = Job{
			ID:       int64(i + 1),
			Arrival:  float64(rapid.IntRange(0, 50).Draw(t, label+"_arr")),
			Deadline: deadline,
			JCT:      float64(rapid.IntRange(0, 120).Draw(t, label+"_jct")),
		}
	}
	slices.SortFunc(jobs, CompareEDF)
	return jobs
}

// newDeadlineJob draws a valid arriving job with a deadline and ID 0.
func newDeadlineJob(t *rapid.T, now float64) Job {
	return Job{
		ID:       0,
		Arrival:  now,
		Deadline: now + float64(rapid.IntRange(-20, 400).Draw(t, "new_dl")),
		JCT:      float64(rapid.IntRange(0, 120).Draw(t, "new_jct")),
	}
}

// withSamples gives every deadline job n integer samples. When constant is
// true each sample equals the job's JCT (a degenerate distribution).
func withSamples(t *rapid.T, jobs []Job, n int, constant bool) {
	for i := range jobs {
		if !jobs[i].HasDeadline() {
			continue
		}
		s := make([]float64, n)
		for k := range s {
			if constant {
				s[k] = jobs[i].JCT
			} else {
				s[k] = float64(rapid.IntRange(0, 120).Draw(t, "sample"))
			}
		}
		jobs[i].Samples = s
	}
}

// anyFloat mixes valid numbers with the values that must be rejected, drawn
// on purpose: NaN, ±Inf, ±MaxFloat64, subnormals and the smallest normal,
// 1e±300, MaxDuration and MaxMargin and their float64 neighbours, and any
// float64 at all.
func anyFloat() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Float64Range(-10, 500),
		rapid.SampledFrom([]float64{0, 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
			5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
			MaxDuration, -MaxDuration, math.Nextafter(MaxDuration, math.Inf(1)), math.Nextafter(MaxDuration, 0), 1e300, -1e300,
			MaxMargin, math.Nextafter(MaxMargin, math.Inf(1)), math.Nextafter(1, 0), math.Nextafter(1, 2)}),
		rapid.Float64(),
	)
}

// anyTasks draws pending-task counts: small valid ones, and the invalid
// and beyond-limit ones (never a valid count large enough to be slow).
func anyTasks() *rapid.Generator[int] {
	return rapid.OneOf(rapid.IntRange(0, 6), rapid.SampledFrom([]int{-1, math.MinInt, math.MinInt32 - 1, MaxPlannedTasks + 1,
		math.MaxInt32 + 1, 1<<53 + 1, math.MaxInt - 1, math.MaxInt}))
}

// anyModel draws task-time models: nil, typed nils whose method would
// panic, and models giving any value (NaN, ±Inf, negative, beyond
// MaxDuration, subnormal).
func anyModel() *rapid.Generator[Model] {
	return rapid.OneOf(
		rapid.Just[Model](nil), rapid.Just[Model]((*exp2)(nil)), rapid.Just[Model](modelFunc(nil)),
		rapid.Custom(func(t *rapid.T) Model { return linear{A: anyFloat().Draw(t, "a"), B: anyFloat().Draw(t, "b")} }),
		rapid.Custom(func(t *rapid.T) Model { return flat(anyFloat().Draw(t, "t")) }),
	)
}

// anyCluster draws wave mode's slots, valid and not.
func anyCluster() *rapid.Generator[[]Slot] {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Slot {
		return Slot{R: rapid.OneOf(rapid.Float64Range(0, 1), anyFloat()).Draw(t, "r"), Busy: rapid.IntRange(0, 3).Draw(t, "busy") > 0, FreeAt: anyFloat().Draw(t, "freeAt")}
	}), 0, 5)
}

// anyJobs draws up to max jobs whose fields may be bad, sorted into EDF order
// unless the draw says otherwise, with IDs that may repeat.
func anyJobs(t *rapid.T, max int, withSamples bool) []Job {
	n := rapid.IntRange(0, max).Draw(t, "n")
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{
			ID:       rapid.OneOf(rapid.Int64Range(-2, int64(2*max)), rapid.SampledFrom([]int64{math.MinInt64, math.MaxInt64})).Draw(t, "id"),
			Arrival:  anyFloat().Draw(t, "arr"),
			Deadline: anyFloat().Draw(t, "dl"),
			JCT:      anyFloat().Draw(t, "jct"),
		}
		if withSamples {
			jobs[i].Samples = rapid.SliceOfN(anyFloat(), 0, 4).Draw(t, "samples")
		}
		jobs[i].Tasks = anyTasks().Draw(t, "tasks")
		jobs[i].Model = anyModel().Draw(t, "model")
		jobs[i].Running = rapid.IntRange(-1, 2).Draw(t, "running")
		jobs[i].RunningUntil = anyFloat().Draw(t, "until")
	}
	if rapid.IntRange(0, 9).Draw(t, "shuffle") > 0 {
		slices.SortFunc(jobs, CompareEDF)
	}
	return jobs
}

// rs is a cluster of free slots with residual capacities r.
func rs(r ...float64) []Slot {
	out := make([]Slot, len(r))
	for i, x := range r {
		out[i].R = x
	}
	return out
}

// decide decides once with a fresh Workspace.
func decide(queue []Job, newJob Job, now float64, opt Options) (Decision, error) {
	var w Workspace
	return w.Decide(queue, newJob, now, opt)
}
