package edf

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// rankPicks is Rank's definition run on a Queue: every job added with its
// pending plus running tasks, a Start at each running task's capacity,
// then picker p asked for one free slot of capacity r after another, the
// chosen job removed each time, until idle; the jobs never chosen follow
// in EDF order. It returns the indices, each job's Decision (Reason idle
// for the never chosen), and the Queue's at-risk verdict of each job.
func rankPicks(jobs []Job, running [][]float64, r, now float64, p Picker) (order []int, dec []Decision, atRisk []bool, err error) {
	var q Queue // the zero Config: dedicated capacity 1, margin 1
	at := map[int64]int{}
	for i, j := range jobs {
		j.Tasks += len(running[i])
		if err := q.Add(j); err != nil {
			return nil, nil, nil, err
		}
		at[j.ID] = i
		for _, c := range running[i] {
			if _, err := q.Start(j.ID, c); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	atRisk = make([]bool, len(jobs))
	for i, j := range jobs {
		atRisk[i], _ = q.AtRisk(j.ID, now)
	}
	dec = make([]Decision, len(jobs))
	chosen := make([]bool, len(jobs))
	for {
		d := q.EDF()
		if p == PickerMP {
			if d, err = q.MP(r, now, MPOptions{NoIOCheck: true}); err != nil {
				return nil, nil, nil, err
			}
		}
		if d.Reason == ReasonIdle {
			break
		}
		i := at[d.ID]
		order, dec[i], chosen[i] = append(order, i), d, true
		q.Remove(d.ID)
	}
	var rest []int
	for i := range jobs {
		if !chosen[i] {
			rest = append(rest, i)
		}
	}
	slices.SortFunc(rest, func(a, b int) int { return CompareEDF(jobs[a], jobs[b]) })
	return append(order, rest...), dec, atRisk, nil
}

// rankModels are the propRankPicks job types: flat, exp2 (NormTCT varies
// with r), linear with no valid time at r = 1 (so no NormTCT), and one
// whose time exceeds MaxDuration below r = 0.5.
var rankModels = []Model{flat(10), exp2{12, -0.5, 3, 0.1}, lin{1, 1}, lin{3 * MaxDuration, 4 * MaxDuration}}

// genRank draws up to 30 jobs of the four rankModels with deadlines,
// arrivals and IDs' order drawn so that they tie, deadlines on both sides
// of now and NoDeadline, pending and running tasks (running on slots of
// capacities in (0, 1]), a free slot's capacity in [0, 1] and a picker.
func genRank(t *rapid.T) (jobs []Job, running [][]float64, r, now float64, p Picker) {
	n := rapid.IntRange(0, 30).Draw(t, "n")
	ids := rand.New(rand.NewPCG(uint64(n), 1)).Perm(n) // unique IDs, not in index order
	caps := []float64{1, 1, 0.5, 0.25, 0.8}
	for i := range n {
		m := rapid.IntRange(0, len(rankModels)-1).Draw(t, "type")
		if m >= 2 && rapid.IntRange(0, 3).Draw(t, "odd") > 0 {
			m = 0 // the models with invalid times, rarely
		}
		jobs = append(jobs, Job{
			ID:       int64(ids[i] + 1),
			Arrival:  float64(rapid.IntRange(0, 3).Draw(t, "arrival")),
			Deadline: rapid.SampledFrom([]float64{-30, 0, 0.5, 10, 25, 60, 200, 1e6, NoDeadline()}).Draw(t, "deadline"),
			Tasks:    rapid.IntRange(0, 12).Draw(t, "pending"),
			Model:    rankModels[m],
		})
		var held []float64
		for range rapid.IntRange(0, 6).Draw(t, "running") {
			held = append(held, rapid.SampledFrom(caps).Draw(t, "capacity"))
		}
		running = append(running, held)
	}
	r = rapid.SampledFrom([]float64{1, 1, 0.5, 0.3, 0}).Draw(t, "r")
	now = rapid.SampledFrom([]float64{0, 5, -3}).Draw(t, "now")
	p = rapid.SampledFrom([]Picker{PickerEDF, PickerMP}).Draw(t, "picker")
	return jobs, running, r, now, p
}

// propRankPicks: Rank is the Queue's repeated picks (rankPicks) bit for
// bit — the order, each pick's Reason and NormTCT, each job's at-risk
// verdict, and Completable as CompletableTasks gives it — and fails
// exactly where the Queue refuses a job or a running task. A reused dst
// gives the same answer.
func propRankPicks(t *rapid.T) {
	jobs, running, r, now, p := genRank(t)
	got, err := Rank(nil, jobs, running, r, now, p)
	want, dec, atRisk, werr := rankPicks(jobs, running, r, now, p)
	if (err != nil) != (werr != nil) {
		t.Fatalf("Rank error %v, the Queue's %v", err, werr)
	}
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("Rank error %v does not match ErrBadInput", err)
		}
		return
	}
	if len(got) != len(want) {
		t.Fatalf("Rank has %d jobs, the Queue %d", len(got), len(want))
	}
	for k, g := range got {
		i := want[k]
		if g.Index != i {
			t.Fatalf("rank %d: job %d, the Queue picks %d", k, g.Index, i)
		}
		d := dec[i]
		if g.Reason != d.Reason || g.AtRisk != atRisk[i] || math.Float64bits(g.NormTCT) != math.Float64bits(d.NormTCT) {
			t.Fatalf("job %d: %v, at risk %v, NormTCT %v; the Queue %v, %v, %v", i, g.Reason, g.AtRisk, g.NormTCT, d.Reason, atRisk[i], d.NormTCT)
		}
		if left := jobs[i].Deadline - now; left <= math.MaxFloat64 {
			c, err := CompletableTasks(jobs[i].Model, left, running[i])
			if err != nil || math.Float64bits(c) != math.Float64bits(g.Completable) {
				t.Fatalf("job %d: Completable %v, CompletableTasks %v (%v)", i, g.Completable, c, err)
			}
		}
	}
	again, err := Rank(got, jobs, running, r, now, p)
	if err != nil || !slices.Equal(again, got) {
		t.Fatalf("Rank into a reused dst: %v, %v", again, err)
	}
}

func TestPropRankPicks(t *testing.T) { rapid.Check(t, propRankPicks) }
func FuzzRank(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propRankPicks)) }

// TestRankWorked: five jobs at now 0 worked by hand. B holds two slots of
// flat(10) (rate 0.2, Eq. 3: 50 · 0.2 = 10 < 12 remaining: at risk); E
// holds none (at risk: a deadline and a task); A holds one (100 · 0.1 =
// 10 ≥ 6: on track); C has nothing pending; D has no deadline. A's model
// lin{20, 10} has TCT(1) = 10 and TCT(0.5) = 15, NormTCT(0.5) = 1.5; D's
// flat(10) has NormTCT 1 everywhere.
func TestRankWorked(t *testing.T) {
	jobs := []Job{
		{ID: 1, Deadline: 100, Tasks: 5, Model: lin{20, 10}}, // A
		{ID: 2, Deadline: 50, Tasks: 10, Model: flat(10)},    // B
		{ID: 3, Deadline: 20, Tasks: 0, Model: flat(10)},     // C
		{ID: 4, Deadline: NoDeadline(), Tasks: 3, Model: flat(10)},
		{ID: 5, Deadline: 200, Arrival: 1, Tasks: 2, Model: flat(10)}, // E
	}
	running := [][]float64{{1}, {1, 1}, {1}, nil, nil}
	A, B, C, D, E := 0, 1, 2, 3, 4
	for _, c := range []struct {
		name    string
		r       float64
		p       Picker
		order   []int
		reasons []Reason
		norm    []float64
	}{
		// Step 1 (B, E by deadline), step 2 at NormTCT 1 (EDF: A, D), C never.
		{"MP dedicated", 1, PickerMP, []int{B, E, A, D, C},
			[]Reason{ReasonAtRisk, ReasonAtRisk, ReasonBestFit, ReasonBestFit, ReasonIdle}, []float64{1, 1, 1, 1, 0}},
		// Step 2 by NormTCT(0.5): D (1) before A (1.5).
		{"MP half slot", 0.5, PickerMP, []int{B, E, D, A, C},
			[]Reason{ReasonAtRisk, ReasonAtRisk, ReasonBestFit, ReasonBestFit, ReasonIdle}, []float64{1, 1, 1, 1.5, 0}},
		{"EDF", 1, PickerEDF, []int{B, A, E, D, C},
			[]Reason{ReasonOrder, ReasonOrder, ReasonOrder, ReasonOrder, ReasonIdle}, []float64{0, 0, 0, 0, 0}},
	} {
		got, err := Rank(make([]Ranked, 0, len(jobs)), jobs, running, c.r, 0, c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k, g := range got {
			if g.Index != c.order[k] || g.Reason != c.reasons[k] || g.NormTCT != c.norm[k] {
				t.Errorf("%s: rank %d is job %d (%v, NormTCT %v), want %d (%v, %v)", c.name, k, g.Index, g.Reason, g.NormTCT, c.order[k], c.reasons[k], c.norm[k])
			}
		}
		risk := map[int]bool{B: true, E: true}
		completable := map[int]float64{A: 10, B: 10, C: 2}
		for _, g := range got {
			if g.AtRisk != risk[g.Index] || g.Completable != completable[g.Index] {
				t.Errorf("%s: job %d at risk %v with %v completable, want %v, %v", c.name, g.Index, g.AtRisk, g.Completable, risk[g.Index], completable[g.Index])
			}
		}
	}
}

// TestRankBadInput: each bad input is an error matching ErrBadInput that
// names the field.
func TestRankBadInput(t *testing.T) {
	ok := Job{ID: 1, Deadline: 10, Tasks: 1, Model: flat(10)}
	with := func(f func(*Job)) []Job { j := ok; f(&j); return []Job{ok, j} }
	var nilLin *lin
	for _, c := range []struct {
		name    string
		jobs    []Job
		running [][]float64
		r, now  float64
		p       Picker
		field   string
	}{
		{"NaN deadline", with(func(j *Job) { j.Deadline = math.NaN() }), nil, 1, 0, PickerMP, "jobs[1].Deadline"},
		{"infinite arrival", with(func(j *Job) { j.Arrival = math.Inf(-1) }), nil, 1, 0, PickerMP, "jobs[1].Arrival"},
		{"negative tasks", with(func(j *Job) { j.Tasks = -1 }), nil, 1, 0, PickerEDF, "jobs[1].Tasks"},
		{"nil model, pending", with(func(j *Job) { j.Model = nil }), nil, 1, 0, PickerMP, "jobs[1].Model"},
		{"typed nil model, running", with(func(j *Job) { j.Tasks, j.Model = 0, nilLin }), [][]float64{nil, {1}}, 1, 0, PickerMP, "jobs[1].Model"},
		{"running kept", with(func(j *Job) { j.Running = 2 }), nil, 1, 0, PickerMP, "jobs[1].Running"},
		{"running length", []Job{ok}, [][]float64{nil, nil}, 1, 0, PickerMP, "len(running)"},
		{"capacity 0", []Job{ok}, [][]float64{{0}}, 1, 0, PickerMP, "running[0][0]"},
		{"capacity above 1", []Job{ok}, [][]float64{{1, 1.5}}, 1, 0, PickerMP, "running[0][1]"},
		{"capacity NaN", []Job{ok}, [][]float64{{math.NaN()}}, 1, 0, PickerEDF, "running[0][0]"},
		{"no valid time on a held slot", with(func(j *Job) { j.Model = bad{} }), [][]float64{nil, {1}}, 1, 0, PickerEDF, "jobs[1].Model.TCT(running[1][0])"},
		{"no valid time at 1", with(func(j *Job) { j.Model = lin{1, 1} }), [][]float64{nil, {0.5}}, 1, 0, PickerMP, "jobs[1].Model.TCT(running[1][0])"},
		{"r above 1", []Job{ok}, nil, 1.5, 0, PickerMP, "r"},
		{"r NaN", []Job{ok}, nil, math.NaN(), 0, PickerMP, "r"},
		{"now infinite", []Job{ok}, nil, 1, math.Inf(1), PickerMP, "now"},
		{"now NaN", []Job{ok}, nil, 1, math.NaN(), PickerEDF, "now"},
		{"unknown picker", []Job{ok}, nil, 1, 0, Picker(7), "p"},
		{"too many jobs", make([]Job, MaxJobs+1), nil, 1, 0, PickerMP, "len(jobs)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Rank(make([]Ranked, 3), c.jobs, c.running, c.r, c.now, c.p)
			wantField(t, err, c.field)
			if len(got) != 0 {
				t.Errorf("Rank returned %d jobs with its error", len(got))
			}
		})
	}
	if _, err := Rank(nil, with(func(j *Job) { j.Model = nil }), nil, 1, 0, PickerMP); !errors.Is(err, ErrNilModel) {
		t.Errorf("nil model: %v does not match ErrNilModel", err)
	}
}

func TestPickerString(t *testing.T) {
	for p, want := range map[Picker]string{PickerEDF: "edf", PickerMP: "mp", 9: "Picker(9)"} {
		if got := p.String(); got != want {
			t.Errorf("Picker(%d).String() = %q, want %q", p, got, want)
		}
	}
}

// rankJobs is n jobs of six types, deadlines spread over [0, 2n) s from
// now 0, each holding one to four dedicated slots and with zero to nine
// tasks pending.
func rankJobs(n int) ([]Job, [][]float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	types := []Model{flat(10), exp2{20, -2, 5, -0.5}, exp2{12, -0.5, 3, 0.1}, lin{30, 10}, flat(4), exp2{8, -1, 2, 0}}
	jobs, running := make([]Job, n), make([][]float64, n)
	ones := []float64{1, 1, 1, 1}
	for i := range jobs {
		jobs[i] = Job{ID: int64(i + 1), Arrival: float64(rng.IntN(n)), Deadline: float64(rng.IntN(2 * n)),
			Tasks: rng.IntN(10), Model: types[rng.IntN(len(types))]}
		running[i] = ones[:1+rng.IntN(4)]
	}
	return jobs, running
}

// BenchmarkRank ranks 10,000 jobs (rankJobs) into a reused dst: no
// allocation. On 2 shared AMD EPYC cores, -cpu 1, three runs at load
// average 6–12 from other work (which inflates the times):
//
//	go test -run '^$' -bench Rank -count 3 -cpu 1 ./edf
//
//	MP, r = 1 (every NormTCT 1)   6.9–7.6 ms   0 B/op   0 allocs/op
//	MP, r = 0.4                   7.1–7.6 ms   0 B/op   0 allocs/op
//	EDF                           6.7–7.3 ms   0 B/op   0 allocs/op
//
// In the YARN adapter's 10,000-app plan pass the ranking is about 10% of
// the CPU (adapters/yarn/deadline's doc).
func BenchmarkRank(b *testing.B) {
	jobs, running := rankJobs(10000)
	for _, c := range []struct {
		r float64
		p Picker
	}{{1, PickerMP}, {0.4, PickerMP}, {1, PickerEDF}} {
		b.Run(fmt.Sprintf("jobs=10000/%v/r=%g", c.p, c.r), func(b *testing.B) {
			dst := make([]Ranked, 0, len(jobs))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, err = Rank(dst, jobs, running, c.r, 0, c.p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRankAllocatesNothing pins BenchmarkRank's 0 allocs/op.
func TestRankAllocatesNothing(t *testing.T) {
	jobs, running := rankJobs(500)
	dst := make([]Ranked, 0, len(jobs))
	if n := testing.AllocsPerRun(20, func() { dst, _ = Rank(dst, jobs, running, 0.4, 0, PickerMP) }); n != 0 {
		t.Errorf("Rank allocates %v per call", n)
	}
}
