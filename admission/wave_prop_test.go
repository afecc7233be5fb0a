package admission

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// classModel gives integer task times per slot class, so every plan and
// replay below is exact arithmetic: T[0] on r = 1, T[1] on r = 0.5, T[2]
// on any other r.
type classModel [3]float64

func (m classModel) TCT(r float64) float64 {
	switch r {
	case 1:
		return m[0]
	case 0.5:
		return m[1]
	}
	return m[2]
}

// replayJob is one admitted job in the replay.
type replayJob struct {
	job     Job // ID, Arrival, Deadline, Model; Tasks is unused here
	pending int
	end     float64 // latest end of its started tasks, -Inf if none
}

// replay is an EDF list schedule played out with exact task times, written
// independently of the plan (linear scans, no heap): the pending tasks are
// listed job by job in EDF order (CompareEDF, jobs without deadline last),
// each on the slot that frees first or, with endFirst, on the slot where it
// ends first (ties: lowest index), and held there for TCT(R) seconds. The
// world the property plays is the first-free schedule, which is what a
// scheduler does that hands every free slot to the earliest-deadline job;
// the end-first schedule is replayed only to predict.
type replay struct {
	endFirst bool
	chaos    *rand.Rand // if set, each task goes to a random usable slot instead
	r        []float64
	busy     []float64 // busy[i]: when slot i's task ends
	jobs     []*replayJob
	now      float64 // the last arrival: idle slots are free from here
}

func (w *replay) clone() *replay {
	c := &replay{endFirst: w.endFirst, chaos: w.chaos, r: w.r, busy: slices.Clone(w.busy), now: w.now}
	for _, j := range w.jobs {
		jj := *j
		c.jobs = append(c.jobs, &jj)
	}
	return c
}

// run plays the schedule up to until: it lists every pending task and
// starts those whose start is before until. In the end-first schedule a task
// listed later may start earlier than one listed before it (on a slow slot
// the earlier one passed over), so the whole list is planned before anything
// starts; the tasks left pending are listed again, from the slots' new
// state, by the next call.
func (w *replay) run(until float64) {
	jobs := slices.Clone(w.jobs)
	slices.SortFunc(jobs, func(a, b *replayJob) int { return CompareEDF(a.job, b.job) })
	free := make([]float64, len(w.busy))
	for i, b := range w.busy {
		free[i] = max(b, w.now)
	}
	for _, j := range jobs {
		for range j.pending {
			slot, end := -1, 0.0
			for i, f := range free {
				if w.r[i] == 0 {
					continue
				}
				e := f + j.job.Model.TCT(w.r[i])
				if slot < 0 || w.endFirst && e < end || !w.endFirst && f < free[slot] {
					slot, end = i, e
				}
			}
			if w.chaos != nil {
				slot = w.chaos.IntN(len(free))
				for w.r[slot] == 0 {
					slot = (slot + 1) % len(free)
				}
				end = free[slot] + j.job.Model.TCT(w.r[slot])
			}
			if slot < 0 {
				return
			}
			if free[slot] < until { // starts: the slot's later tasks start later still
				w.busy[slot] = end
				j.pending--
				j.end = max(j.end, end)
			}
			free[slot] = end
		}
	}
}

// finish returns job j's completion once run(+Inf) has placed all its
// tasks: its last task's end, and no earlier than its admission.
func (j *replayJob) finish() float64 { return max(j.end, j.job.Arrival) }

// state returns the check's inputs at w.now: the unfinished jobs in EDF
// order and the cluster.
func (w *replay) state() ([]Job, []Slot) {
	var q []Job
	for _, j := range w.jobs {
		if j.pending > 0 || j.end > w.now {
			job := j.job
			job.Tasks, job.RunningUntil = j.pending, j.end
			if j.end > w.now {
				job.Running = 1 // the plan reads RunningUntil only while tasks run
			}
			q = append(q, job)
		}
	}
	slices.SortFunc(q, CompareEDF)
	cl := make([]Slot, len(w.r))
	for i := range cl {
		cl[i] = Slot{R: w.r[i], Busy: true, FreeAt: w.busy[i]}
	}
	return q, cl
}

func TestPropWaveReplay(t *testing.T) { rapid.Check(t, propWaveReplay) }
func FuzzWaveReplay(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propWaveReplay)) }

// propWaveReplay is wave mode's promise as a property. Jobs arrive over time
// at integer times with integer task times; the check (margin 1) decides
// each; between arrivals the admitted jobs run as the first-free EDF list
// schedule with exact task times. Every job admitted with a deadline meets
// it. At every decision the evidence equals the replays: a job after the new
// one in EDF order is Protected iff it meets its deadline without the new
// job in the first-free or the end-first replay, and its Prefix is its
// completion with the new job in the later of the replays it was on time
// in (first free if none); every other job's Prefix is its first-free
// completion with the new job.
func propWaveReplay(t *rapid.T) {
	// The scenario comes from a PCG stream seeded by rapid rather than from
	// rapid's own draws: rapid favours small values, and with them no
	// arrival ever displaced a queued job (0 of 30,000 decisions), so the
	// property never tested protection. From the stream about 7% of the
	// decisions reject to protect a queued job.
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 14))
	n := 1 + rng.IntN(6)
	w := &replay{r: make([]float64, n), busy: make([]float64, n)}
	for i := range w.r {
		w.r[i] = []float64{1, 1, 0.5, 0.25, 0}[rng.IntN(5)]
	}
	w.r[0] = 1 // at least one usable slot
	// One world in three is not the first-free schedule but a scheduler
	// that puts each task on a random slot: its jobs run late of their plans,
	// so the queue holds jobs late in one placement and on time in the
	// other, and the evidence is checked against the replays (the promise
	// is made for the first-free world only).
	chaotic := rng.IntN(3) == 0
	if chaotic {
		w.chaos = rand.New(rand.NewPCG(rng.Uint64(), 15))
	}
	margin := float64(rng.IntN(2)) // 0 means 1
	var c Workspace
	steps := 1 + rng.IntN(25)
	for id := 1; id <= steps; id++ {
		now := w.now + float64(rng.IntN(13))
		w.run(now)
		w.now = now
		job := Job{ID: int64(id), Arrival: now, Deadline: math.Inf(1), Tasks: rng.IntN(11),
			Model: classModel{float64(1 + rng.IntN(15)), float64(1 + rng.IntN(25)), float64(1 + rng.IntN(35))}}
		if rng.IntN(5) > 0 {
			job.Deadline = now + float64(rng.IntN(81)) + 5*float64(job.Tasks)
		}
		queue, cluster := w.state()
		d, err := c.Decide(queue, job, now, Options{Cluster: cluster, Margin: margin})
		if err != nil {
			t.Fatal(err)
		}
		entry := &replayJob{job: job, pending: job.Tasks, end: math.Inf(-1)}
		if job.HasDeadline() {
			// The four plans: first free and end first, with and without
			// the new job.
			var plans [2][2]*replay
			for ef := range 2 {
				for with := range 2 {
					r := w.clone()
					r.endFirst, r.chaos = ef == 1, nil
					if with == 1 {
						copied := *entry // run changes the job it plays
						r.jobs = append(r.jobs, &copied)
					}
					r.run(math.Inf(1))
					plans[ef][with] = r
				}
			}
			finish := func(ef, with int, id int64) float64 {
				for _, j := range plans[ef][with].jobs {
					if j.job.ID == id {
						return j.finish()
					}
				}
				t.Fatalf("job %d not in the replay", id)
				return 0
			}
			for k, ch := range d.Checked {
				want := finish(0, 1, ch.ID)
				if k > d.NewIndex { // after the new job in EDF order
					ffOK, efOK := finish(0, 0, ch.ID) <= ch.Deadline, finish(1, 0, ch.ID) <= ch.Deadline
					if ch.Protected != (ffOK || efOK) {
						t.Fatalf("t=%v job %d: Protected %v; on time without the new job: first free %v, end first %v", now, ch.ID, ch.Protected, ffOK, efOK)
					}
					if ef := finish(1, 1, ch.ID); efOK && (!ffOK || ef > want) {
						want = ef
					}
				}
				if ch.Prefix != want-now {
					t.Fatalf("t=%v job %d: Prefix %v, replay %v", now, ch.ID, ch.Prefix, want-now)
				}
			}
		}
		if d.Admit {
			w.jobs = append(w.jobs, entry)
		}
	}
	if chaotic {
		return
	}
	w.run(math.Inf(1))
	for _, j := range w.jobs {
		if j.job.HasDeadline() && !(j.finish() <= j.job.Deadline) {
			t.Fatalf("admitted job %d finishes at %v after its deadline %v", j.job.ID, j.finish(), j.job.Deadline)
		}
	}
}

func TestPropWaveVersusEq7(t *testing.T) { rapid.Check(t, propWaveVersusEq7) }
func FuzzWaveVersusEq7(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propWaveVersusEq7)) }

// propWaveVersusEq7 states how wave mode relates to Eq. 7 where that
// relation can be proved: identical slots (every task of a job takes the
// same time on every slot), margin ≥ 1, and JCT_i = Eq. 6 of job i's
// pending tasks. Then the first k jobs of the EDF order need their total
// work W_k on n slots that start no earlier than now, so the latest of
// their planned completions is at least W_k/n ≥ Σ_{i≤k} JCT_i, Eq. 7's
// prefix. Hence, job by job: if every deadline job up to k meets its
// deadline in the plan, it meets it under Eq. 7. And so when wave mode
// admits with every job on time in its plan, strict mode admits, and the
// paper rule (which checks less) admits too: on a feasible queue wave mode
// is the most conservative of the three. It can admit more only when the
// queue already holds a job its plan finds late (that job is not
// protected, while Eq. 7 charges its whole JCT to everyone after it), or,
// outside these conditions, on heterogeneous slots where Eq. 6's average
// hides a fast free slot (TestDecideWaveHandWorked has both directions).
func propWaveVersusEq7(t *rapid.T) {
	n := rapid.SampledFrom([]int{1, 2, 4, 8}).Draw(t, "slots") // powers of 2: Eq. 6 is exact
	cluster := make([]Slot, n)
	for i := range cluster {
		cluster[i] = Slot{R: 1, Busy: true, FreeAt: float64(rapid.IntRange(-10, 30).Draw(t, "freeAt"))}
	}
	now := 0.0
	draw := func(id int64, label string) Job {
		j := Job{ID: id, Arrival: float64(rapid.IntRange(0, 3).Draw(t, label+"arr")), Deadline: math.Inf(1),
			Tasks: rapid.IntRange(0, 12).Draw(t, label+"tasks"), Model: flat(rapid.IntRange(1, 40).Draw(t, label+"tct")),
			Running: 1, RunningUntil: float64(rapid.IntRange(-5, 30).Draw(t, label+"running"))}
		if rapid.IntRange(0, 5).Draw(t, label+"hasdl") > 0 {
			j.Deadline = float64(rapid.IntRange(0, 200).Draw(t, label+"dl"))
		}
		var err error
		if j.JCT, err = JCT(j.Model, j.Tasks, cluster); err != nil {
			t.Fatal(err)
		}
		return j
	}
	var queue []Job
	for i := range rapid.IntRange(0, 8).Draw(t, "jobs") {
		queue = append(queue, draw(int64(i+1), "q"))
	}
	slices.SortFunc(queue, CompareEDF)
	job := draw(0, "new")
	job.Running, job.RunningUntil = 0, 0 // a new job has nothing running
	if !job.HasDeadline() {
		job.Deadline = 100
	}
	margin := rapid.SampledFrom([]float64{1, 1.5, 2}).Draw(t, "margin")
	var cw, cs, cp Workspace
	dw, err1 := cw.Decide(queue, job, now, Options{Cluster: cluster, Margin: margin})
	ds, err2 := cs.Decide(queue, job, now, Options{Mode: ModeStrict})
	dp, err3 := cp.Decide(queue, job, now, Options{Mode: ModePaper})
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if len(dw.Checked) != len(ds.Checked) {
		t.Fatalf("wave lists %d jobs, strict %d", len(dw.Checked), len(ds.Checked))
	}
	onTime := true
	for k := range dw.Checked {
		if dw.Checked[k].ID != ds.Checked[k].ID {
			t.Fatalf("Checked[%d]: wave job %d, strict job %d", k, dw.Checked[k].ID, ds.Checked[k].ID)
		}
		onTime = onTime && dw.Checked[k].Slack >= 0
		if onTime && ds.Checked[k].Slack < 0 {
			t.Fatalf("job %d: every job up to it on time in the plan (%+v) but late under Eq. 7 (%+v)", dw.Checked[k].ID, dw.Checked[k], ds.Checked[k])
		}
	}
	if dw.Admit && onTime && !(ds.Admit && dp.Admit) {
		t.Fatalf("wave admits a feasible set, strict %v, paper %v", ds.Admit, dp.Admit)
	}
}
