package embedding_test

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

// badAt is a task-time model that gives no valid time at r = 0.5 (NaN)
// and 10 s elsewhere: edf refuses to start its tasks there.
type badAt struct{}

func (badAt) TCT(r float64) float64 {
	if r == 0.5 {
		return math.NaN()
	}
	return 10
}

// anyJob draws a job for both queues: mostly valid, with IDs that repeat,
// and now and then a field the shared entry check refuses (a NaN or -Inf
// deadline, an infinite arrival, negative tasks, a nil or typed-nil model
// for a job with tasks, a bad Read90 that only edf reads, a bad JCT that
// only admission reads, Running not 0) or a model some slots cannot run.
func anyJob(t *rapid.T) admission.Job {
	j := admission.Job{
		ID:       rapid.Int64Range(1, 6).Draw(t, "id"),
		Arrival:  float64(rapid.IntRange(0, 20).Draw(t, "arrival")),
		Deadline: edf.NoDeadline(),
		Tasks:    rapid.IntRange(0, 4).Draw(t, "tasks"),
		Model:    tct.Exp2{A: rapid.Float64Range(1, 30).Draw(t, "a"), B: rapid.Float64Range(-2, 0).Draw(t, "b")},
		Read90:   float64(rapid.IntRange(0, 3).Draw(t, "read90")),
		JCT:      float64(rapid.IntRange(0, 100).Draw(t, "jct")),
	}
	if rapid.IntRange(0, 3).Draw(t, "hasDeadline") > 0 {
		j.Deadline = float64(rapid.IntRange(0, 200).Draw(t, "deadline"))
	}
	switch rapid.IntRange(0, 9).Draw(t, "flaw") {
	case 0:
		j.Deadline = rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1)}).Draw(t, "badDeadline")
	case 1:
		j.Arrival = math.Inf(1)
	case 2:
		j.Tasks = -1
	case 3:
		j.Model = rapid.SampledFrom([]admission.Model{nil, (*tct.Exp2)(nil)}).Draw(t, "nilModel")
	case 4:
		j.Model = badAt{}
	case 5:
		j.Read90 = rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1)}).Draw(t, "badRead90")
	case 6:
		j.JCT = rapid.SampledFrom([]float64{-1, math.NaN(), 2 * admission.MaxDuration}).Draw(t, "badJCT")
	case 7:
		j.Running = 1
	}
	return j
}

// propBothQueues drives random events through admission.Queue and
// edf.Queue as the embedding example's scheduler does, but with the calls
// of each event in a random order and with jobs and events either queue
// may refuse: arrivals (Decide, then Insert and Add in either order, each
// only if the other succeeded), task starts (edf's Start first: it gives
// the planned end), task ends completed or failed, and job removals. After
// every event a job is in both queues or in neither, with the same pending
// and running counts and the same description (one Job value was given to
// both): neither queue ever refuses what the other took, so
// the scheduler never has to undo a call. A job a decision does not refuse
// as bad input, both queues take (unless its ID is queued).
func propBothQueues(t *rapid.T) {
	var aq admission.Queue
	eq, err := edf.NewQueue(edf.Config{Margin: rapid.SampledFrom([]float64{0, 1, 1.131}).Draw(t, "margin")})
	if err != nil {
		t.Fatal(err)
	}
	cluster := []admission.Slot{{R: 1}, {R: 0.5}, {R: 1}, {R: 0.25}}
	running := map[int]edf.Task{} // slot → its task
	now := 0.0
	t.Repeat(map[string]func(*rapid.T){
		"arrive": func(t *rapid.T) {
			j := anyJob(t)
			_, queued := aq.Status(j.ID)
			d, decErr := aq.Decide(j, now, admission.Options{Cluster: cluster, Mode: rapid.SampledFrom(
				[]admission.Mode{admission.ModeWave, admission.ModeStrict, admission.ModePaper}).Draw(t, "mode")})
			if decErr == nil && !d.Admit && !rapid.Bool().Draw(t, "queueRejected") {
				return
			}
			insert := func() error { return aq.Insert(j) }
			add := func() error { return eq.Add(j) }
			first, second := insert, add
			if rapid.Bool().Draw(t, "edfFirst") {
				first, second = add, insert
			}
			err := first()
			if err == nil {
				if err2 := second(); err2 != nil {
					t.Fatalf("job %+v: one queue took it, the other refused: %v", j, err2)
				}
			}
			if decErr == nil && !queued && err != nil {
				t.Fatalf("job %+v: Decide found no bad input, the queues refused it: %v", j, err)
			}
		},
		"start": func(t *rapid.T) {
			slot := rapid.IntRange(0, len(cluster)-1).Draw(t, "slot")
			if _, busy := running[slot]; busy {
				return
			}
			id := rapid.Int64Range(1, 6).Draw(t, "id")
			task, err := eq.Start(id, cluster[slot].R)
			if err != nil { // the scheduler makes no admission.Start: check why
				j, queued := aq.Status(id)
				switch {
				case errors.Is(err, edf.ErrUnknownJob) && queued:
					t.Fatalf("edf does not know job %d, admission does", id)
				case errors.Is(err, edf.ErrNoPendingTask) && j.Tasks != 0:
					t.Fatalf("job %d: no pending task in edf, %d in admission", id, j.Tasks)
				}
				return
			}
			if err := aq.Start(id, slot, task.PlannedEnd(now)); err != nil {
				t.Fatalf("edf started a task of job %d, admission refused: %v", id, err)
			}
			running[slot] = task
		},
		"end": func(t *rapid.T) {
			slot := rapid.IntRange(0, len(cluster)-1).Draw(t, "slot")
			task, busy := running[slot]
			if !busy {
				return
			}
			done := rapid.Bool().Draw(t, "completed")
			if err := errors.Join(eq.End(task, done), aq.End(slot, done)); err != nil {
				t.Fatal(err)
			}
			delete(running, slot)
		},
		"remove": func(t *rapid.T) {
			id := rapid.Int64Range(1, 6).Draw(t, "id")
			if a, e := aq.Remove(id), eq.Remove(id); a != e {
				t.Fatalf("Remove(%d): admission %v, edf %v", id, a, e)
			}
			for slot, task := range running {
				if task.ID == id {
					delete(running, slot)
				}
			}
		},
		"tick": func(t *rapid.T) { now += float64(rapid.IntRange(1, 10).Draw(t, "dt")) },
		"": func(t *rapid.T) {
			if aq.Len() != eq.Len() {
				t.Fatalf("admission holds %d jobs, edf %d", aq.Len(), eq.Len())
			}
			for id := range int64(7) {
				a, inA := aq.Status(id)
				e, inE := eq.Status(id)
				if inA != inE || a.Tasks != e.Tasks || a.Running != e.Running {
					t.Fatalf("job %d: admission %v (%d pending, %d running), edf %v (%d pending, %d running)",
						id, inA, a.Tasks, a.Running, inE, e.Tasks, e.Running)
				}
				if inA && (a.Arrival != e.Arrival || a.Deadline != e.Deadline || a.Read90 != e.Read90) {
					t.Fatalf("job %d described apart: admission %+v, edf %+v", id, a, e.Job)
				}
			}
		},
	})
}

func TestPropBothQueues(t *testing.T) { rapid.Check(t, propBothQueues) }
func FuzzBothQueues(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propBothQueues)) }
