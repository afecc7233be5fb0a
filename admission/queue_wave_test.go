package admission

import (
	"errors"
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
		Tasks: rapid.IntRange(0, 5).Draw(t, "tasks"), Model: waveModel(t)}
	if rapid.IntRange(0, 4).Draw(t, "hasdl") > 0 {
		j.Deadline = rapid.OneOf(rapid.Float64Range(0, 60), rapid.SampledFrom([]float64{10, 20, -math.MaxFloat64})).Draw(t, "dl")
	}
	return j
}

// waveKey draws a decision time, cluster and margin from a few, valid or
// not, some alike but for one slot.
func waveKey(t *rapid.T) (float64, Options) {
	clusters := [][]Slot{
		{{R: 1}, {R: 0.5, Busy: true, FreeAt: 4}, {R: 0.25, Busy: true, FreeAt: 1}, {R: 1, Busy: true, FreeAt: 2}, {R: 0}},
		{{R: 1, Busy: true, FreeAt: 1}, {R: 1}},
		{{R: 0.5, Busy: true, FreeAt: 3}, {R: 0.3, Busy: true, FreeAt: 5}, {R: 0.5}, {R: 1, Busy: true, FreeAt: 9}, {R: 0.3}, {R: 1}},
		{{R: 0}},                                  // no usable slot
		{{R: 1}, {R: math.NaN()}},                 // bad input
		{{R: 1, Busy: true, FreeAt: 1e3 + 2e15}},  // FreeAt too far
		{{R: 1}, {R: 0.5, Busy: true, FreeAt: 4}}, // a prefix of the first
	}
	c := rapid.IntRange(0, len(clusters)-1).Draw(t, "cluster")
	if rapid.IntRange(0, 3).Draw(t, "usual") > 0 {
		c %= 3
	}
	now := rapid.SampledFrom([]float64{0, 1, 2.5}).Draw(t, "now")
	margin := rapid.SampledFrom([]float64{0, 1, 1.1, 0.75, -1}).Draw(t, "margin")
	return now, Options{Cluster: clusters[c], Margin: margin}
}

// propQueueWave drives a Queue through Insert, Remove, task starts and
// ends and wave decisions, and checks every Queue.Decide in wave mode
// against Workspace.Decide on the same jobs and cluster, kept by a model
// here (each job's pending and running tasks and their latest planned end,
// each slot busy until its task's planned end), three decisions in four
// keeping the time, cluster and margin of the one before: the planner that
// plans every job on every decision is the reference, and the Queue must
// give the same Decision, bit for bit, or the same error. Whenever the
// reference decides without error, the Queue's plan must have answered
// (not passed the decision on), with every queued deadline job planned.
// Start and End must succeed exactly when the model says they may.
func propQueueWave(t *rapid.T) {
	var q Queue
	var ref Workspace
	type task struct {
		id  int64
		end float64
	}
	model := map[int64]Job{}
	slots := map[int]task{}
	ordered := func() []Job {
		var jobs []Job
		for _, j := range model {
			j.Running, j.RunningUntil = 0, 0
			for _, s := range slots {
				if s.id == j.ID {
					if j.Running == 0 || s.end > j.RunningUntil {
						j.RunningUntil = s.end
					}
					j.Running++
				}
			}
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
			if q.Remove(id) != hasJob(model, id) {
				t.Fatalf("Remove(%d) disagrees with the model", id)
			}
			delete(model, id)
			for k, s := range slots {
				if s.id == id {
					delete(slots, k)
				}
			}
		},
		"start": func(t *rapid.T) {
			id, slot := pick(t), rapid.IntRange(0, 6).Draw(t, "slot")
			end := rapid.SampledFrom([]float64{1, 3, 6, 8, 1e3 + 2e15, math.NaN()}).Draw(t, "end")
			j, ok := model[id]
			_, busy := slots[slot]
			may := ok && !busy && j.Tasks > 0 && !math.IsNaN(end)
			if err := q.Start(id, slot, end); (err == nil) != may {
				t.Fatalf("Start(%d, %d, %v) = %v; the model says %v", id, slot, end, err, may)
			}
			if may {
				j.Tasks--
				model[id] = j
				slots[slot] = task{id, end}
			}
		},
		"end": func(t *rapid.T) {
			slot, done := rapid.IntRange(0, 6).Draw(t, "slot"), rapid.Bool().Draw(t, "done")
			s, busy := slots[slot]
			if err := q.End(slot, done); (err == nil) != busy {
				t.Fatalf("End(%d) = %v; the model says %v", slot, err, busy)
			}
			if busy {
				delete(slots, slot)
				if j := model[s.id]; !done {
					j.Tasks++
					model[s.id] = j
				}
			}
		},
		"decide": func(t *rapid.T) {
			if !keyed || rapid.IntRange(0, 3).Draw(t, "newKey") == 0 {
				now, opt = waveKey(t)
				keyed = true
			}
			j := waveQueued(t, rapid.SampledFrom([]int64{0, 0, 0, 3}).Draw(t, "newID"))
			j.Arrival = now
			cluster := slices.Clone(opt.Cluster)
			outside := false
			for k, s := range slots {
				if k >= len(cluster) {
					outside = true
					continue
				}
				cluster[k].Busy, cluster[k].FreeAt = true, s.end
			}
			got, err := q.Decide(j, now, opt)
			if outside {
				var ve *ValueError
				if !errors.As(err, &ve) || ve.Field != "Options.Cluster" {
					t.Fatalf("a task on a slot beyond the cluster: Queue.Decide %v", err)
				}
				return
			}
			want, wantErr := ref.Decide(ordered(), j, now, Options{Cluster: cluster, Margin: opt.Margin})
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("Queue.Decide error %v, Workspace.Decide %v", err, wantErr)
			}
			if err == nil && !equalBits(got, want) {
				t.Fatalf("Queue.Decide\n%+v\nWorkspace.Decide\n%+v", got, want)
			}
			if wantErr == nil && j.HasDeadline() && (q.wave.failed || q.wave.built != q.ix.deadlineJobs()) {
				t.Fatalf("the Queue's plan did not answer: built %d of %d, failed %v", q.wave.built, q.ix.deadlineJobs(), q.wave.failed)
			}
		},
	})
}

// hasJob reports whether the model holds a job with the given ID.
func hasJob(model map[int64]Job, id int64) bool {
	_, ok := model[id]
	return ok
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
