package deadline

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
	"pgregory.net/rapid"
)

// rankQueue is the ranking as edf.Queue's picking loop: every app added,
// a Start at capacity 1 per container it holds, then the picker asked for
// one free container after another, each pick taking the next rank and
// leaving the queue; the apps never picked follow in EDF order. It is the
// oracle rank is checked against. byKey maps a schedkit job ID to its job.
func rankQueue(jobs []*job, byKey []*job, order string) ([]*job, error) {
	var q edf.Queue // dedicated capacity 1, margin 1: the zero Config
	for _, j := range jobs {
		if err := q.Add(j.desc); err != nil {
			return nil, err
		}
		for range j.running {
			if _, err := q.Start(j.key, 1); err != nil {
				return nil, err
			}
		}
	}
	for _, j := range jobs {
		r, ok := q.AtRisk(j.key, 0)
		if !ok {
			return nil, fmt.Errorf("%s: at-risk test failed", j.app.ID)
		}
		j.atRisk = r
		held := slices.Repeat([]float64{1}, j.running)
		c, err := edf.CompletableTasks(j.typ.TCT(), max(j.deadline, 0), held)
		if err != nil {
			return nil, err
		}
		j.view.Completable = c
	}
	var ranked []*job
	picked := map[int64]bool{}
	for {
		d := q.EDF()
		if order == OrderMP {
			var err error
			if d, err = q.MP(1, 0, edf.MPOptions{NoIOCheck: true}); err != nil {
				return nil, err
			}
		}
		if d.Reason == edf.ReasonIdle {
			break
		}
		ranked = append(ranked, byKey[d.ID])
		picked[d.ID] = true
		q.Remove(d.ID)
	}
	var rest []*job
	for _, j := range jobs {
		if !picked[j.key] {
			rest = append(rest, j)
		}
	}
	slices.SortFunc(rest, func(a, b *job) int { return edf.CompareEDF(a.desc, b.desc) })
	return append(ranked, rest...), nil
}

// genRankJobs draws up to 40 deadline apps of up to four job types
// (constant and exp2 models, one whose TCT(1) exceeds edf.MaxDuration),
// with deadlines and arrivals drawn from small sets so that they tie,
// deadlines on both sides of now, and any split of the remaining tasks
// into running and pending ones. It returns the apps twice, as separate
// values, with each copy's byKey.
func genRankJobs(t *rapid.T) (a, b, byKeyA, byKeyB []*job) {
	models := []tct.Exp2{{A: 10}, {A: 12, B: -0.5, C: 3, D: 0.1}, {A: 0.3, B: 1.1}, {A: 2 * edf.MaxDuration}}
	n := rapid.IntRange(0, 40).Draw(t, "n")
	byKeyA, byKeyB = make([]*job, n+1), make([]*job, n+1)
	for i := range n {
		m := rapid.IntRange(0, len(models)-1).Draw(t, "type")
		if m == len(models)-1 && rapid.IntRange(0, 9).Draw(t, "huge") > 0 {
			m = 0 // the model without a valid task time, rarely
		}
		typ := trace.JobType{Name: fmt.Sprintf("t%d", m), Exp2: &trace.Exp2Fit{Model: models[m]}}
		remaining := rapid.IntRange(0, 30).Draw(t, "remaining")
		running := rapid.IntRange(0, remaining).Draw(t, "running")
		j := job{app: &rm.App{ID: fmt.Sprintf("application_1_%04d", i+1)}, key: int64(i + 1), typ: typ,
			arrival:   -float64(rapid.IntRange(0, 4).Draw(t, "arrival")),
			deadline:  rapid.SampledFrom([]float64{-30, 0, 0.5, 10, 25, 60, 200, 1e6}).Draw(t, "deadline"),
			remaining: remaining, running: running}
		j.desc = edf.Job{ID: j.key, Arrival: j.arrival, Deadline: j.deadline, Tasks: j.remaining, Model: j.typ.TCT()}
		ja, jb := j, j
		a, b = append(a, &ja), append(b, &jb)
		byKeyA[j.key], byKeyB[j.key] = &ja, &jb
	}
	return a, b, byKeyA, byKeyB
}

// propRankQueue: rank gives edf.Queue's picking loop's order (rankQueue),
// and the same at-risk verdicts and Eq. 3 counts bit for bit, under MP
// and EDF; where the loop fails (a model with no valid task time on a
// container an app holds), rank fails too.
func propRankQueue(t *rapid.T) {
	a, b, _, byKeyB := genRankJobs(t)
	order := rapid.SampledFrom([]string{OrderMP, OrderEDF}).Draw(t, "order")
	var pl Planner
	got, err := pl.rank(a, order)
	want, werr := rankQueue(b, byKeyB, order)
	if (err != nil) != (werr != nil) {
		t.Fatalf("rank error %v, edf.Queue loop error %v", err, werr)
	}
	if err != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("rank has %d apps, the loop %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.key != w.key {
			t.Fatalf("rank %d: app %d, the edf.Queue loop picks %d", i, g.key, w.key)
		}
		if g.atRisk != w.atRisk || math.Float64bits(g.view.Completable) != math.Float64bits(w.view.Completable) {
			t.Fatalf("app %d: at risk %v with %v completable, the loop %v with %v", g.key, g.atRisk, g.view.Completable, w.atRisk, w.view.Completable)
		}
	}
}

func TestPropRankQueue(t *testing.T) { rapid.Check(t, propRankQueue) }
func FuzzRankQueue(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propRankQueue)) }
