package admission

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// waveModel draws a task-time model for the Queue's wave plan: integer
// times per slot class, exp2 models (times that round), and now and then
// one a decision must refuse (NaN on some slots, beyond MaxDuration, nil).
func waveModel(t *rapid.T) Model {
	switch rapid.IntRange(0, 9).Draw(t, "modelKind") {
	case 0:
		return rapid.SampledFrom([]Model{nil, classModel{1, 2, math.NaN()}, flat(2 * MaxDuration), (*exp2)(nil)}).Draw(t, "badModel")
	case 1, 2, 3:
		return exp2{A: rapid.Float64Range(1, 30).Draw(t, "a"), B: rapid.Float64Range(-2, 0).Draw(t, "b"),
			C: rapid.Float64Range(0, 3).Draw(t, "c"), D: rapid.Float64Range(-1, 0).Draw(t, "d")}
	}
	return classModel{float64(rapid.IntRange(0, 9).Draw(t, "t1")), float64(rapid.IntRange(1, 12).Draw(t, "t05")),
		float64(rapid.IntRange(1, 20).Draw(t, "tlow"))}
}

// waveQueued draws a job for a Queue in wave mode, with ID id: about one in
// five without a deadline, deadlines tight enough that jobs are hurt.
func waveQueued(t *rapid.T, id int64) Job {
	j := Job{ID: id, Arrival: float64(rapid.IntRange(0, 6).Draw(t, "arr")), Deadline: math.Inf(1),
		Tasks: rapid.IntRange(0, 5).Draw(t, "tasks"), Model: waveModel(t),
		RunningUntil: rapid.SampledFrom([]float64{math.Inf(-1), 0, 3, 8, 1e3 + 2e15}).Draw(t, "running")}
	if rapid.IntRange(0, 4).Draw(t, "hasdl") > 0 {
		j.Deadline = rapid.OneOf(rapid.Float64Range(0, 60), rapid.SampledFrom([]float64{10, 20, -math.MaxFloat64})).Draw(t, "dl")
	}
	return j
}

// waveKey draws a decision time, cluster and margin from a few, valid or
// not, some alike but for one slot.
func waveKey(t *rapid.T) (float64, Options) {
	clusters := [][]Slot{
		{{R: 1}, {R: 0.5, FreeAt: 4}, {R: 0.25, FreeAt: 1}, {R: 1, FreeAt: 2}, {R: 0}},
		{{R: 1, FreeAt: 1}, {R: 1}},
		{{R: 0.5, FreeAt: 3}, {R: 0.3, FreeAt: 5}, {R: 0.5}, {R: 1, FreeAt: 9}, {R: 0.3}, {R: 1}},
		{{R: 0}},                      // no usable slot
		{{R: 1}, {R: math.NaN()}},     // bad input
		{{R: 1, FreeAt: 1e3 + 2e15}},  // FreeAt too far
		{{R: 1}, {R: 0.5, FreeAt: 4}}, // a prefix of the first
	}
	c := rapid.IntRange(0, len(clusters)-1).Draw(t, "cluster")
	if rapid.IntRange(0, 3).Draw(t, "usual") > 0 {
		c %= 3
	}
	now := rapid.SampledFrom([]float64{0, 1, 2.5}).Draw(t, "now")
	margin := rapid.SampledFrom([]float64{0, 1, 1.1, 0.75, -1}).Draw(t, "margin")
	return now, Options{Cluster: clusters[c], Margin: margin}
}

// propQueueWave drives a Queue through Insert, Remove, SetProgress, edits
// through Jobs and wave decisions, and checks every Queue.Decide in wave
// mode against Checker.Decide on the same jobs (three decisions in four
// keep the time, cluster and margin of the one before) — the planner that plans
// every job on every decision, kept as the reference: the same Decision,
// bit for bit, or the same error. Whenever the reference decides without
// error, the Queue's plan must have answered (not passed the decision on),
// with every queued deadline job planned.
func propQueueWave(t *rapid.T) {
	var q Queue
	var ref Checker
	model := map[int64]Job{}
	ordered := func() []Job {
		var jobs []Job
		for _, j := range model {
			jobs = append(jobs, j)
		}
		slices.SortFunc(jobs, CompareEDF)
		return jobs
	}
	pick := func(t *rapid.T) int64 { return rapid.Int64Range(1, 10).Draw(t, "id") }
	keyed := false
	var now float64
	var opt Options
	t.Repeat(map[string]func(*rapid.T){
		"insert": func(t *rapid.T) {
			j := waveQueued(t, pick(t))
			if err := q.Insert(j); err == nil {
				model[j.ID] = j
			}
		},
		"remove": func(t *rapid.T) {
			id := pick(t)
			q.Remove(id)
			delete(model, id)
		},
		"progress": func(t *rapid.T) {
			id := pick(t)
			j, ok := model[id]
			tasks, running := j.Tasks, j.RunningUntil
			if rapid.Bool().Draw(t, "change") {
				tasks = rapid.IntRange(-1, 5).Draw(t, "tasks")
				running = rapid.SampledFrom([]float64{math.Inf(-1), 1, 6, math.NaN()}).Draw(t, "running")
			}
			if q.SetProgress(id, tasks, running) == nil && ok {
				j.Tasks, j.RunningUntil = tasks, running
				model[id] = j
			}
		},
		"edit": func(t *rapid.T) {
			jobs := q.Jobs()
			if len(jobs) == 0 {
				t.Skip("empty")
			}
			k := rapid.IntRange(0, len(jobs)-1).Draw(t, "k")
			e := &jobs[k]
			switch rapid.IntRange(0, 3).Draw(t, "field") {
			case 0:
				e.Tasks = rapid.IntRange(-1, 5).Draw(t, "tasks")
			case 1:
				e.RunningUntil = rapid.SampledFrom([]float64{math.Inf(-1), 2, 7, math.Inf(1)}).Draw(t, "running")
			case 2:
				e.Model = waveModel(t)
			}
			model[e.ID] = *e
		},
		"decide": func(t *rapid.T) {
			if !keyed || rapid.IntRange(0, 3).Draw(t, "newKey") == 0 {
				now, opt = waveKey(t)
				keyed = true
			}
			j := waveQueued(t, rapid.SampledFrom([]int64{0, 0, 0, 3}).Draw(t, "newID"))
			j.Arrival = now
			want, wantErr := ref.Decide(ordered(), j, now, opt)
			got, err := q.Decide(j, now, opt)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("Queue.Decide error %v, Checker.Decide %v", err, wantErr)
			}
			if err == nil && !equalBits(got, want) {
				t.Fatalf("Queue.Decide\n%+v\nChecker.Decide\n%+v", got, want)
			}
			if wantErr == nil && j.HasDeadline() && (q.wave.failed || q.wave.built != q.ix.deadlineJobs()) {
				t.Fatalf("the Queue's plan did not answer: built %d of %d, failed %v", q.wave.built, q.ix.deadlineJobs(), q.wave.failed)
			}
		},
	})
}

func TestPropQueueWave(t *testing.T) { rapid.Check(t, propQueueWave) }
func FuzzQueueWave(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQueueWave)) }

// equalBits reports whether a and b are equal, every float bit for bit.
func equalBits(a, b Decision) bool {
	if a.Admit != b.Admit || a.Mode != b.Mode || a.Reason != b.Reason || a.NewIndex != b.NewIndex ||
		a.Blocking != b.Blocking || a.BlockingID != b.BlockingID || !sameBits(a.Probability, b.Probability) ||
		len(a.Checked) != len(b.Checked) {
		return false
	}
	for i, c := range a.Checked {
		d := b.Checked[i]
		if c.ID != d.ID || c.New != d.New || c.Protected != d.Protected || !sameBits(c.Deadline, d.Deadline) ||
			!sameBits(c.JCT, d.JCT) || !sameBits(c.Prefix, d.Prefix) || !sameBits(c.Slack, d.Slack) || !sameBits(c.PMeet, d.PMeet) {
			return false
		}
	}
	return true
}
