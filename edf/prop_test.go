package edf

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// fraction draws residual capacities, including the edges and a few bad values.
func fraction(bad bool) *rapid.Generator[float64] {
	good := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.25, 0.5, 1}))
	if !bad {
		return good
	}
	return rapid.OneOf(good, rapid.SampledFrom([]float64{-0.1, 1.5, math.NaN(), math.Inf(1)}))
}

// model draws an exp2 model that rises as r falls (positive on [0,1]).
func model() *rapid.Generator[Model] {
	return rapid.Custom(func(t *rapid.T) Model {
		return exp2{
			A: rapid.Float64Range(1, 100).Draw(t, "a"),
			B: rapid.Float64Range(-5, 0).Draw(t, "b"),
			C: rapid.Float64Range(0, 50).Draw(t, "c"),
			D: rapid.Float64Range(-3, 0).Draw(t, "d"),
		}
	})
}

func jobGen(id int64) *rapid.Generator[Job] {
	return rapid.Custom(func(t *rapid.T) Job {
		dl := NoDeadline()
		if rapid.Bool().Draw(t, "hasDeadline") {
			dl = float64(rapid.IntRange(0, 50).Draw(t, "deadline")) * 20 // repeats force tie-breaks
		}
		return Job{
			ID:       id,
			Arrival:  float64(rapid.IntRange(0, 5).Draw(t, "arrival")),
			Deadline: dl,
			Tasks:    rapid.IntRange(0, 20).Draw(t, "tasks"),
			Model:    model().Draw(t, "model"),
			Read90:   rapid.Float64Range(0, 10).Draw(t, "read90"),
		}
	})
}

// randomQueue builds a queue of valid jobs and starts some of their tasks.
// It returns the jobs' IDs.
func randomQueue(t *rapid.T) (*Queue, []int64) {
	dn := DataNodes{}
	if rapid.Bool().Draw(t, "io") {
		dn = DataNodes{Count: rapid.IntRange(1, 4).Draw(t, "nodes"), Capacity: rapid.Float64Range(0, 20).Draw(t, "cap")}
	}
	q, err := NewQueue(Config{DataNodes: dn})
	if err != nil {
		t.Fatal(err)
	}
	n := rapid.IntRange(0, 12).Draw(t, "jobs")
	ids := make([]int64, 0, n)
	for i := range n {
		if err := q.Add(jobGen(int64(i)).Draw(t, "job")); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, int64(i))
	}
	for range rapid.IntRange(0, 20).Draw(t, "assigns") {
		if len(ids) == 0 {
			break
		}
		id := ids[rapid.IntRange(0, len(ids)-1).Draw(t, "which")]
		_, err := q.Start(id, fraction(false).Draw(t, "r"))
		if err != nil && !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
	}
	return q, ids
}

func TestPropEDF(t *testing.T) { rapid.Check(t, propEDF) }
func FuzzEDF(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propEDF)) }

// propEDF: EDF picks a job with the minimum deadline among jobs with a
// pending task, the first of them in CompareEDF's order, and is idle only
// when none has one.
func propEDF(t *rapid.T) {
	q, ids := randomQueue(t)
	d := q.EDF()
	minDL, any := math.Inf(1), false
	for _, id := range ids {
		st, _ := q.Status(id)
		if st.Tasks > 0 {
			any = true
			minDL = math.Min(minDL, st.Deadline)
		}
	}
	if !any {
		if d.Reason != ReasonIdle {
			t.Fatalf("EDF picked %+v with no pending task", d)
		}
		return
	}
	st, ok := q.Status(d.ID)
	if !ok || st.Tasks == 0 || st.Deadline != minDL {
		t.Fatalf("EDF picked %+v (deadline %v), min deadline %v", d, st.Deadline, minDL)
	}
	for _, id := range ids { // the pick comes first in CompareEDF's order
		if o, _ := q.Status(id); id != d.ID && o.Tasks > 0 && CompareEDF(st.Job, o.Job) >= 0 {
			t.Fatalf("EDF picked job %d, but CompareEDF puts job %d first", d.ID, id)
		}
	}
}

func TestPropMP(t *testing.T) { rapid.Check(t, propMP) }
func FuzzMP(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMP)) }

// propMP: with the IO check off, MP picks an at-risk job whenever one with
// a pending task exists (the earliest-deadline one); with it on, whenever an
// at-risk job exists that the check allows. Otherwise MP picks a job with
// the smallest NormTCT among those the check allows, and is idle only when
// there is none. The IO check never lets the data nodes exceed capacity; the
// pick does not depend on the order the jobs were added.
func propMP(t *rapid.T) {
	q, ids := randomQueue(t)
	r := fraction(false).Draw(t, "slot")
	now := float64(rapid.IntRange(0, 1000).Draw(t, "now"))
	opt := MPOptions{NoIOCheck: rapid.Bool().Draw(t, "noIOCheck"), NoIOCheckAtRisk: rapid.Bool().Draw(t, "noIOCheckAtRisk")}
	d, err := q.MP(r, now, opt)
	if err != nil {
		t.Fatal(err)
	}
	dn := q.cfg.DataNodes
	fits := func(io float64, atRisk bool) bool {
		if opt.NoIOCheck || (atRisk && opt.NoIOCheckAtRisk) || dn.Count == 0 {
			return true
		}
		return (q.IO()+io)/float64(dn.Count) <= dn.Capacity
	}
	var bestRisk *JobStatus
	bestNorm, anyFit := math.Inf(1), false
	for _, id := range ids {
		st, _ := q.Status(id)
		if st.Tasks == 0 {
			continue
		}
		risk, _ := q.AtRisk(id, now)
		norm := st.Model.TCT(r) / st.Model.TCT(1)
		io := st.Read90 / norm
		if risk && fits(io, true) && (bestRisk == nil || st.Deadline < bestRisk.Deadline) {
			bestRisk = &st
		}
		if fits(io, false) {
			anyFit, bestNorm = true, math.Min(bestNorm, norm)
		}
	}
	st, _ := q.Status(d.ID)
	switch {
	case bestRisk != nil:
		risk, _ := q.AtRisk(d.ID, now)
		if !d.AtRisk || !risk || st.Deadline != bestRisk.Deadline {
			t.Fatalf("at-risk job %d (deadline %v) allowed, MP chose %+v (deadline %v)", bestRisk.ID, bestRisk.Deadline, d, st.Deadline)
		}
	case !anyFit:
		if d.Reason != ReasonIdle {
			t.Fatalf("no job fits the data nodes, MP chose %+v", d)
		}
	default:
		if d.Reason == ReasonIdle || d.AtRisk || st.Tasks == 0 || d.NormTCT != bestNorm {
			t.Fatalf("best fit NormTCT %v, MP chose %+v", bestNorm, d)
		}
	}
	if d.Reason != ReasonIdle && !fits(d.IO, d.AtRisk) {
		t.Fatalf("MP pick %+v overloads data nodes: IO %v + %v over %v×%v", d, q.IO(), d.IO, dn.Count, dn.Capacity)
	}
	// Same jobs, reversed insertion order, same running state: same choice.
	q2, _ := NewQueue(q.cfg)
	for i := len(q.jobs) - 1; i >= 0; i-- {
		s := q.jobs[i]
		st, _ := q.Status(s.ID)
		st.Running = 0
		q2.Add(st.Job)
		s2 := q2.find(s.ID)
		s2.running, s2.rate = s.running, s.rate
	}
	q2.io, q2.nTasks = q.io, q.nTasks
	q2.setRisk(q2.ix.risk) // the running state was set by hand: recompute the thresholds
	d2, _ := q2.MP(r, now, opt)
	if d2.ID != d.ID || d2.Reason != d.Reason {
		t.Fatalf("order changed the pick: %+v vs %+v", d, d2)
	}
}

func TestPropIOCapacity(t *testing.T) { rapid.Check(t, propIOCapacity) }
func FuzzIOCapacity(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propIOCapacity)) }

// propIOCapacity: picking and assigning with MP until the slot goes idle
// never takes the data nodes over capacity.
func propIOCapacity(t *rapid.T) {
	dn := DataNodes{Count: rapid.IntRange(1, 4).Draw(t, "nodes"), Capacity: rapid.Float64Range(0, 20).Draw(t, "cap")}
	q, _ := NewQueue(Config{DataNodes: dn})
	for i := range rapid.IntRange(1, 8).Draw(t, "jobs") {
		if err := q.Add(jobGen(int64(i)).Draw(t, "job")); err != nil {
			t.Fatal(err)
		}
	}
	for range 60 {
		r := fraction(false).Draw(t, "r")
		d, err := q.MP(r, 0, MPOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Reason == ReasonIdle {
			return
		}
		if _, err := q.Start(d.ID, r); err != nil {
			t.Fatal(err)
		}
		if q.IO()/float64(dn.Count) > dn.Capacity*(1+1e-12) {
			t.Fatalf("data nodes at %v per node, capacity %v", q.IO()/float64(dn.Count), dn.Capacity)
		}
	}
}

func TestPropQueueModel(t *testing.T) { rapid.Check(t, propQueueModel) }
func FuzzQueue(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propQueueModel)) }

// startTask starts a task of a job drawn from ids (none when ids is empty:
// no t.Skip, fuzz bytes may never add a job) at a rate drawn from r, and
// appends it to tasks; Start may refuse only with ErrBadInput.
func startTask(t *rapid.T, q *Queue, ids []int64, r *rapid.Generator[float64], tasks *[]Task) {
	if len(ids) == 0 {
		return
	}
	id := ids[rapid.IntRange(0, len(ids)-1).Draw(t, "id")]
	task, err := q.Start(id, r.Draw(t, "r"))
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
		return
	}
	*tasks = append(*tasks, task)
}

// endTask ends a task drawn from tasks, completed or not, and takes it out
// of the list; End must accept it.
func endTask(t *rapid.T, q *Queue, tasks *[]Task) {
	if len(*tasks) == 0 {
		return
	}
	i := rapid.IntRange(0, len(*tasks)-1).Draw(t, "i")
	if err := q.End((*tasks)[i], rapid.Bool().Draw(t, "done")); err != nil {
		t.Fatal(err)
	}
	*tasks = append((*tasks)[:i], (*tasks)[i+1:]...)
}

// propQueueModel: the incremental per-job rate equals Σ 1/TCT over the
// tasks still running, and the total IO equals Σ IO, after any sequence of
// task starts and ends (including bad ones, which must fail cleanly).
func propQueueModel(t *rapid.T) {
	var q Queue
	var ids []int64
	var tasks []Task
	t.Repeat(map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			id := int64(len(ids))
			if err := q.Add(jobGen(id).Draw(t, "job")); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		},
		"start": func(t *rapid.T) { startTask(t, &q, ids, fraction(true), &tasks) },
		"end":   func(t *rapid.T) { endTask(t, &q, &tasks) },
		"": func(t *rapid.T) {
			io := 0.0
			for _, id := range ids {
				rate, n := 0.0, 0
				for _, task := range tasks {
					if task.ID == id {
						rate += task.inv
						io += task.io
						n++
					}
				}
				st, _ := q.Status(id)
				if st.Running != n || !near(st.Rate, rate) {
					t.Fatalf("job %d: running %d rate %v, want %d %v", id, st.Running, st.Rate, n, rate)
				}
			}
			if !near(q.IO(), io) || q.Running() != len(tasks) {
				t.Fatalf("IO %v running %d, want %v %d", q.IO(), q.Running(), io, len(tasks))
			}
		},
	})
}

func TestPropDeadlineForms(t *testing.T) { rapid.Check(t, propDeadlineForms) }
func FuzzDeadlineForms(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDeadlineForms)) }

// propDeadlineForms: Eq. 3 and the rate form agree (on track iff the rate
// form's completion time fits the time left), and Eq. 4 is never below the
// rate form (arithmetic vs harmonic mean). Bad inputs give ErrBadInput.
func propDeadlineForms(t *rapid.T) {
	m := model().Draw(t, "model")
	R := rapid.SliceOfN(fraction(true), 0, 8).Draw(t, "R")
	n := rapid.IntRange(-1, 50).Draw(t, "n")
	left := rapid.OneOf(rapid.Float64Range(-10, 1e4), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1)})).Draw(t, "left")
	ct, e1 := CompletableTasks(m, left, R)
	c4, e2 := CompletionTime(m, n, R)
	cr, e3 := CompletionTimeRate(m, n, R)
	for _, e := range []error{e1, e2, e3} {
		if e != nil && !errors.Is(e, ErrBadInput) {
			t.Fatal(e)
		}
	}
	if e2 == nil && e3 == nil && cr > c4*(1+1e-12) {
		t.Fatalf("rate form %v > Eq. 4 %v", cr, c4)
	}
	if e1 == nil && e3 == nil && left > 0 && n > 0 && !math.IsInf(cr, 1) {
		onTrack := ct >= float64(n)
		if onTrack != (cr <= left) && math.Abs(cr-left) > 1e-9*left {
			t.Fatalf("Eq. 3 says %v (%v ≥ %d), rate form %v vs %v", onTrack, ct, n, cr, left)
		}
	}
	if e1 == nil && (math.IsNaN(ct) || ct < 0) {
		t.Fatalf("CompletableTasks = %v", ct)
	}
}

func TestPropModelFuncs(t *testing.T) { rapid.Check(t, propModelFuncs) }
func FuzzModelFuncs(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propModelFuncs)) }

// propModelFuncs: NormTCT and IOLoad accept exactly the valid inputs and
// give finite positive (NormTCT) or non-negative (IOLoad) results; NewQueue
// rejects bad configurations with ErrBadInput; FIFO picks the earliest
// arrival.
func propModelFuncs(t *rapid.T) {
	m := model().Draw(t, "model")
	r, ded := fraction(true).Draw(t, "r"), fraction(true).Draw(t, "ded")
	n, err := NormTCT(m, r, ded)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
	} else if !validTime(n) {
		t.Fatalf("NormTCT = %v", n)
	}
	read := rapid.OneOf(rapid.Float64Range(-1, 100), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1)})).Draw(t, "read")
	io, err := IOLoad(read, n)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
	} else if !(io >= 0) || math.IsInf(io, 0) {
		t.Fatalf("IOLoad = %v", io)
	}
	cfg := Config{Dedicated: fraction(true).Draw(t, "cfgded"), DataNodes: DataNodes{
		Count: rapid.IntRange(-1, 3).Draw(t, "count"), Capacity: rapid.Float64Range(-1, 10).Draw(t, "capacity")},
		Margin: rapid.SampledFrom([]float64{0, 1, 1.5, -1, math.NaN(), 2 * MaxMargin}).Draw(t, "margin")}
	if _, err := NewQueue(cfg); err != nil && !errors.Is(err, ErrBadInput) {
		t.Fatal(err)
	}
	q, ids := randomQueue(t)
	d := q.FIFO()
	for _, id := range ids {
		st, _ := q.Status(id)
		if st.Tasks == 0 {
			continue
		}
		got, _ := q.Status(d.ID)
		if d.Reason == ReasonIdle || got.Arrival > st.Arrival {
			t.Fatalf("FIFO picked %+v, job %d arrived at %v", d, st.ID, st.Arrival)
		}
	}
}

// extremeJob draws jobs at the edges of float64: task times from subnormal
// to MaxFloat64 (rates 1/TCT that overflow), read rates up to MaxFloat64,
// deadlines and arrivals of ±1e308, and bad values.
func extremeJob(id int64) *rapid.Generator[Job] {
	edge := []float64{0, 5e-324, 1e-300, 1e-10, 1, 1e10, 1e300, math.MaxFloat64, -1, math.NaN(), math.Inf(1), math.Inf(-1)}
	return rapid.Custom(func(t *rapid.T) Job {
		return Job{
			ID:       id,
			Arrival:  rapid.SampledFrom([]float64{0, 1, -1e308, 1e308, math.NaN()}).Draw(t, "arrival"),
			Deadline: rapid.SampledFrom([]float64{0, 100, -1e308, 1.7e308, NoDeadline(), math.NaN()}).Draw(t, "deadline"),
			Tasks:    rapid.IntRange(-1, 3).Draw(t, "tasks"),
			Model: rapid.OneOf(rapid.Just[Model](nil), rapid.Just[Model]((*nilPtr)(nil)), rapid.Just[Model](nilFunc(nil)),
				rapid.Map(rapid.SampledFrom(edge), func(v float64) Model { return flat(v) }), model()).Draw(t, "model"),
			Read90: rapid.SampledFrom(edge).Draw(t, "read90"),
		}
	})
}

func TestPropQueueExtremes(t *testing.T) { rapid.Check(t, propQueueExtremes) }
func FuzzQueueExtremes(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQueueExtremes)) }

// propQueueExtremes: on extreme and bad jobs, data-node capacities and
// times, no Queue method panics, every error matches ErrBadInput, and no
// output is NaN: job rates and the data nodes' IO stay finite and ≥ 0, and
// MP's NormTCT and IO are finite.
func propQueueExtremes(t *rapid.T) {
	q, err := NewQueue(Config{DataNodes: DataNodes{Count: rapid.IntRange(0, 2).Draw(t, "nodes"),
		Capacity: rapid.SampledFrom([]float64{0, 1, 1e308, math.MaxFloat64}).Draw(t, "cap")},
		Margin: rapid.SampledFrom([]float64{0, 5e-324, 0.5, 1, 1.5, MaxMargin}).Draw(t, "margin")})
	if err != nil {
		t.Fatal(err)
	}
	badInput := func(err error) {
		if err != nil && !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
	}
	var ids []int64
	var tasks []Task
	now := rapid.SampledFrom([]float64{0, -1.7e308, 1.7e308, math.NaN()})
	frac := rapid.SampledFrom([]float64{0, 5e-324, 0.5, 1, math.NaN(), 2})
	for i := range rapid.IntRange(1, 12).Draw(t, "ops") {
		switch rapid.IntRange(0, 3).Draw(t, "op") {
		case 0:
			err := q.Add(extremeJob(int64(i)).Draw(t, "job"))
			badInput(err)
			if err == nil {
				ids = append(ids, int64(i))
			}
		case 1:
			if len(ids) > 0 {
				task, err := q.Start(ids[rapid.IntRange(0, len(ids)-1).Draw(t, "id")], frac.Draw(t, "r"))
				badInput(err)
				if err == nil {
					tasks = append(tasks, task)
				}
			}
		case 2:
			if len(tasks) > 0 {
				k := rapid.IntRange(0, len(tasks)-1).Draw(t, "task")
				badInput(q.End(tasks[k], rapid.Bool().Draw(t, "done")))
				tasks = append(tasks[:k], tasks[k+1:]...)
			}
		case 3:
			d, err := q.MP(frac.Draw(t, "slot"), now.Draw(t, "now"), MPOptions{NoIOCheck: rapid.Bool().Draw(t, "noio"),
				TCTError: rapid.SampledFrom([]TCTError{{}, {Mean: 1}, {Mean: 1e300, Spread: math.MaxFloat64}, {Mean: math.NaN()}}).Draw(t, "error")})
			badInput(err)
			if math.IsNaN(d.NormTCT) || math.IsInf(d.NormTCT, 0) || math.IsNaN(d.IO) || math.IsInf(d.IO, 0) {
				t.Fatalf("MP decision %+v", d)
			}
		}
		if io := q.IO(); !(io >= 0 && io <= math.MaxFloat64) {
			t.Fatalf("data-node IO = %v", io)
		}
		for _, id := range ids {
			if st, _ := q.Status(id); !(st.Rate >= 0 && st.Rate <= math.MaxFloat64) {
				t.Fatalf("job %d rate = %v", id, st.Rate)
			}
			q.AtRisk(id, now.Draw(t, "atRiskNow"))
		}
	}
}

func TestPropMPMargin(t *testing.T) { rapid.Check(t, propMPMargin) }
func FuzzMPMargin(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMPMargin)) }

// propMPMargin: a job at risk at margin m is at risk at any larger margin;
// margin 1 is MIMP's test; an at-risk pick at margin m is a job AtRisk
// calls at risk in a queue of that margin, and a job at risk at margin 1
// is still at risk at m, so MP with a margin never leaves step 1 when MP
// without one stays in it.
func propMPMargin(t *rapid.T) {
	q, ids := randomQueue(t)
	now := float64(rapid.IntRange(-100, 1000).Draw(t, "now"))
	m1 := 1 + rapid.Float64Range(0, 3).Draw(t, "s1")
	m2 := m1 + rapid.Float64Range(0, 3).Draw(t, "ds")
	for _, id := range ids {
		a0, ok0 := q.AtRisk(id, now)
		s := q.find(id)
		z, a1, a2 := s.atRisk(now, riskWith(1, TCTError{})), s.atRisk(now, riskWith(m1, TCTError{})), s.atRisk(now, riskWith(m2, TCTError{}))
		if !ok0 {
			t.Fatalf("job %d not valid", id)
		}
		if a0 != z || (a0 && !a1) || (a1 && !a2) {
			t.Fatalf("job %d: at risk %v (margin 1), %v (%v), %v (%v)", id, a0, a1, m1, a2, m2)
		}
	}
	r := fraction(false).Draw(t, "r")
	d0, err0 := q.MP(r, now, MPOptions{NoIOCheck: true})
	q.cfg.Margin = m1
	d1, err1 := q.MP(r, now, MPOptions{NoIOCheck: true})
	if err0 != nil || err1 != nil {
		t.Fatal(err0, err1)
	}
	if d1.AtRisk {
		if risk, _ := q.AtRisk(d1.ID, now); !risk {
			t.Fatalf("MP at margin %v picked %+v, not at risk", m1, d1)
		}
	}
	if d0.AtRisk && !d1.AtRisk {
		t.Fatalf("margin 1 picks at-risk %+v, margin %v picks %+v", d0, m1, d1)
	}
}
