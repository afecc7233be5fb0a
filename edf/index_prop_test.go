package edf

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testkit"
)

// tagged is an exp2 model with a tag that takes no part in TCT: with a NaN
// tag it differs from itself, so each such job is its own type.
type tagged struct {
	exp2
	Tag float64
}

// funcModel is a model that cannot be compared with ==.
type funcModel func(float64) float64

func (f funcModel) TCT(r float64) float64 { return f(r) }

// modelPool draws the models of one test: a few exp2 types shared by many
// jobs (so types are exercised), pointers to them, NaN-tagged and func
// models (one type per job), and a model that is invalid on slow slots.
func modelPool(t *rapid.T) []Model {
	var pool []Model
	for i := range rapid.IntRange(1, 4).Draw(t, "types") {
		m := model().Draw(t, "poolModel")
		pool = append(pool, m)
		if i == 0 {
			e := m.(exp2)
			pool = append(pool, &e, tagged{e, math.NaN()}, tagged{e, 1},
				funcModel(func(r float64) float64 { return e.TCT(r) }))
		}
	}
	pool = append(pool, lin{A: 10, B: 20}) // TCT ≤ 0 for r ≥ 0.5: never offered there
	// TCT > MaxDuration for r < 2/3, a valid task time above: never offered there.
	pool = append(pool, lin{A: 2 * MaxDuration, B: 1.5 * MaxDuration})
	return pool
}

// oracleJob draws a job from the pool; deadlines, arrivals and read rates
// repeat, so every tie-break is exercised.
func oracleJob(t *rapid.T, pool []Model, id int64) Job {
	dl := NoDeadline()
	if rapid.IntRange(0, 4).Draw(t, "hasDeadline") > 0 {
		dl = float64(rapid.IntRange(0, 40).Draw(t, "deadline")) * 25
	}
	return Job{
		ID:       id,
		Arrival:  float64(rapid.IntRange(0, 5).Draw(t, "arrival")),
		Deadline: dl,
		Tasks:    rapid.IntRange(0, 12).Draw(t, "tasks"),
		Model:    rapid.SampledFrom(pool).Draw(t, "model"),
		Read90:   rapid.SampledFrom([]float64{0, 0.5, 1, 2, 5, rapid.Float64Range(0, 10).Draw(t, "read")}).Draw(t, "read90"),
	}
}

// propIndexMatchesOracle: after every step of a random sequence of adds,
// removals, task starts and ends, the indexed FIFO, EDF and MP decide
// exactly (every field, bit for bit) as the one-pass pickers do, for
// random slots, times, margins, TCTErrors and IO-check options; MP's times
// include each job's exact at-risk threshold and the times that put its
// deadline at an edge of the late-task band, with their float neighbours.
// The data nodes are tight, so the IO check passes jobs over and falls
// through to step 2.
func propIndexMatchesOracle(t *rapid.T) {
	dn := DataNodes{}
	if rapid.IntRange(0, 3).Draw(t, "io") > 0 {
		dn = DataNodes{Count: rapid.IntRange(1, 3).Draw(t, "nodes"), Capacity: rapid.Float64Range(0, 8).Draw(t, "cap")}
	}
	margins := []float64{0, 1, 1.5, 2, 2.17, 4}
	q, err := NewQueue(Config{DataNodes: dn, Margin: rapid.SampledFrom(append(margins, 1+rapid.Float64Range(0, 5).Draw(t, "anySlack"))).Draw(t, "margin")})
	if err != nil {
		t.Fatal(err)
	}
	pool := modelPool(t)
	var ids []int64
	var tasks []Task
	nextID := int64(0)
	compareMP := func(t *rapid.T, r, now float64, opt MPOptions) {
		got, err1 := q.MP(r, now, opt)
		want, err2 := q.mpScanChecked(r, now, opt)
		if got != want || (err1 == nil) != (err2 == nil) {
			t.Fatalf("MP(%v, %v, %+v) = %+v, %v; one pass %+v, %v", r, now, opt, got, err1, want, err2)
		}
		if err1 == nil { // MP may have scanned (many types): ask the index itself
			if got := q.mpIndexed(r, now, opt); got != want {
				t.Fatalf("indexed MP(%v, %v, %+v) = %+v; one pass %+v", r, now, opt, got, want)
			}
		}
	}
	t.Repeat(map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			id := nextID
			if len(ids) > 0 && rapid.IntRange(0, 5).Draw(t, "reuseID") == 0 {
				id = ids[rapid.IntRange(0, len(ids)-1).Draw(t, "dup")] // refused: already queued
			} else {
				nextID++
			}
			err := q.Add(oracleJob(t, pool, id))
			if err != nil {
				if !errors.Is(err, ErrBadInput) {
					t.Fatal(err)
				}
				return
			}
			ids = append(ids, id)
		},
		"remove": func(t *rapid.T) {
			var id int64
			var ok bool
			if ids, id, ok = testkit.RemoveDrawn(t, ids, q.Remove); !ok {
				return
			}
			tasks = slices.DeleteFunc(tasks, func(task Task) bool { return task.ID == id })
		},
		"start": func(t *rapid.T) { startTask(t, q, ids, fraction(false), &tasks) },
		"mpStart": func(t *rapid.T) { // as a scheduler would: pick, then start
			r := fraction(false).Draw(t, "r")
			now := float64(rapid.IntRange(0, 1000).Draw(t, "now"))
			opt := MPOptions{TCTError: tctError().Draw(t, "tctError")}
			compareMP(t, r, now, opt)
			d, _ := q.MP(r, now, opt)
			if d.Reason == ReasonIdle {
				return
			}
			task, err := q.Start(d.ID, r)
			if err != nil {
				t.Fatalf("Start of MP's pick %+v: %v", d, err)
			}
			tasks = append(tasks, task)
		},
		"end": func(t *rapid.T) { endTask(t, q, &tasks) },
		"mp": func(t *rapid.T) {
			r := fraction(false).Draw(t, "r")
			opt := MPOptions{
				NoIOCheck:       rapid.IntRange(0, 3).Draw(t, "noIO") == 0,
				NoIOCheckAtRisk: rapid.Bool().Draw(t, "noIOAtRisk"),
				TCTError:        tctError().Draw(t, "tctError"),
			}
			now := float64(rapid.IntRange(-100, 1100).Draw(t, "now"))
			if len(ids) > 0 {
				id := ids[rapid.IntRange(0, len(ids)-1).Draw(t, "which")]
				side := rapid.IntRange(-1, 1).Draw(t, "side")
				switch s := q.find(id); rapid.IntRange(0, 2).Draw(t, "at") {
				case 1: // exactly at a job's threshold, or one float either side
					q.MP(r, 0, opt) // the thresholds for this error
					now = nextTo(q.ix.nodes[s.handle].theta, side, now)
				case 2: // a job's deadline at an edge of the late-task band
					if tt := s.Model.TCT(r); opt.TCTError.on() && validTime(tt) {
						c := opt.TCTError.taskCover()
						edge := []float64{s.dedicated, tt}[rapid.IntRange(0, 1).Draw(t, "edge")]
						now = nextTo(s.Deadline-edge*c, side, now)
					}
				}
			}
			compareMP(t, r, now, opt)
		},
		"": func(t *rapid.T) {
			if got, want := q.EDF(), q.oracleEDF(); got != want {
				t.Fatalf("EDF %+v, one pass %+v", got, want)
			}
			if got, want := q.FIFO(), q.oracleFIFO(); got != want {
				t.Fatalf("FIFO %+v, one pass %+v", got, want)
			}
		},
	})
}

// nextTo returns x (side 0) or its float neighbour below (−1) or above
// (+1), or dflt when x is not finite.
func nextTo(x float64, side int, dflt float64) float64 {
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x):
		return dflt
	case side == 0:
		return x
	}
	return math.Nextafter(x, float64(side)*math.Inf(1))
}

func TestPropIndexMatchesOracle(t *testing.T) { rapid.Check(t, propIndexMatchesOracle) }
func FuzzIndexedPickers(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propIndexMatchesOracle)) }

// TestRiskFromIsExact: the threshold is the exact boundary of the at-risk
// test over float64, including where d − c/rate rounds badly.
func TestRiskFromIsExact(t *testing.T) {
	for _, c := range []struct{ d, rate, need float64 }{
		{100, 0.1, 3}, {1e15, 1e-300, 1}, {-5, 3, 0}, {1e308, 1e-308, 1e10}, {0.1, 0.7, 0.3},
		{1, math.MaxFloat64, 1}, {-1e308, 1, 1}, {1e300, 1e300, 1},
	} {
		th := riskFrom(c.d, c.rate, c.need)
		holds := func(now float64) bool { return (c.d-now)*c.rate < c.need }
		if !math.IsInf(th, 0) {
			if !holds(th) || holds(math.Nextafter(th, math.Inf(-1))) {
				t.Errorf("%+v: threshold %v is not the boundary", c, th)
			}
		} else if math.IsInf(th, -1) != holds(-math.MaxFloat64) || math.IsInf(th, 1) == holds(math.MaxFloat64) {
			t.Errorf("%+v: threshold %v", c, th)
		}
	}
}
