package deadlinecheck

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
)

// propETAPassMatchesOracle checks the ETA pass against etasOracle, bit for
// bit: every outcome's ETA and note and the error, over random queues
// decided by decide, both strategies, with and without the control
// plane's delay draws, one scratch reused over several passes of
// different queues (so that each pass starts from another's leftovers).
func propETAPassMatchesOracle(t *rapid.T) {
	var sc etaScratch
	for pass := range rapid.IntRange(1, 3).Draw(t, "passes") {
		in := etaInputsGen(t)
		q, ws, works, outs, now, cfg, delay := in.q, in.ws, in.works, in.outs, in.now, in.cfg, in.delay
		want := slices.Clone(outs)
		got := slices.Clone(outs)
		werr := etasOracle(q, ws, works, want, now, cfg.Samples, cfg.Confidence, delay, in.arr)
		gerr := etas(q, ws, works, got, now, cfg.Samples, cfg.Confidence, delay, in.arr, &sc)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("pass %d: error %v, the oracle's %v", pass, gerr, werr)
		}
		sameOutcomes(t, pass, ws, got, want)
	}
}

// etaInputs are an ETA pass's inputs.
type etaInputs struct {
	q     Queue
	ws    []Workload
	works []*work
	outs  []Outcome
	now   time.Time
	cfg   Config
	delay etaDelay
	arr   arrivalInput
}

// etaInputsGen draws an ETA pass's inputs: a random queue decided by
// decide, either strategy, with or without the control plane's delay
// draws, with or without arrivals (records of random creation times,
// shares, priorities and run times; sometimes too few, sometimes one of
// samples not the pass's).
func etaInputsGen(t *rapid.T) etaInputs {
	ws := workloadsGen(rapid.Bool().Draw(t, "fixed")).Draw(t, "workloads")
	cfg := propConfig(t)
	q := Queue{Name: "cq", StrictFIFO: rapid.Bool().Draw(t, "strict FIFO")}
	now := t0.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "now")) * time.Second)
	outs, works, err := decide(q, ws, now, cfg, nil, false)
	if err != nil {
		t.Fatalf("decide: %v", err)
	}
	delay := etaDelay{decided: float64(rapid.IntRange(0, 60).Draw(t, "D"))}
	if rapid.Bool().Draw(t, "delay draws?") {
		obs := make([]DelayObservation, rapid.IntRange(MinDelayObservations, 12).Draw(t, "observations"))
		for i := range obs {
			ms := func(label string) time.Duration {
				return time.Duration(rapid.IntRange(0, 120_000).Draw(t, label)) * time.Millisecond
			}
			obs[i] = DelayObservation{Finished: time.Unix(int64(i), 0), Delay: ms("delay"), Decide: ms("decide"), Admit: ms("admit")}
		}
		if delay, err = delayDraws(obs, nil, rapid.IntRange(1, cfg.Samples).Draw(t, "draws"), delay.decided); err != nil {
			t.Fatalf("delayDraws: %v", err)
		}
	}
	if rapid.Bool().Draw(t, "skips?") {
		delay.pace = walkPace{skip: float64(rapid.IntRange(0, 3000).Draw(t, "skip ms")) / 1000,
			requeue: float64(rapid.IntRange(0, 2000).Draw(t, "requeue ms")) / 1000}
	}
	var arr arrivalInput
	if rapid.Bool().Draw(t, "arrivals?") {
		arr.seed = rapid.Uint64().Draw(t, "seed")
		for r := range rapid.IntRange(MinArrivalObservations-1, MinArrivalObservations+4).Draw(t, "records") {
			n := cfg.Samples
			if rapid.IntRange(0, 20).Draw(t, "other samples?") == 0 {
				n++
			}
			own := make([]float64, n)
			for s := range own {
				own[s] = float64(rapid.IntRange(0, 300).Draw(t, "own"))
			}
			arr.recs = append(arr.recs, arrivalRecord{arrivalMark: arrivalMark{uid: types.UID(fmt.Sprint(r)), created: now.Add(-time.Duration(rapid.IntRange(0, 600).Draw(t, "age")) * time.Second)},
				priority: int64(rapid.IntRange(-1, 3).Draw(t, "priority")), share: float64(rapid.IntRange(1, 8).Draw(t, "share")) / 8, own: own})
		}
		slices.SortFunc(arr.recs, func(a, b arrivalRecord) int { return a.created.Compare(b.created) })
		if rapid.Bool().Draw(t, "marks?") { // the records' and older arrivals'
			for _, r := range arr.recs {
				arr.marks = append(arr.marks, r.created)
			}
			for range rapid.IntRange(0, 20).Draw(t, "older") {
				arr.marks = append(arr.marks, now.Add(-time.Duration(rapid.IntRange(0, 1200).Draw(t, "older age"))*time.Second))
			}
			slices.SortFunc(arr.marks, time.Time.Compare)
		}
	}
	return etaInputs{q: q, ws: ws, works: works, outs: outs, now: now, cfg: cfg, delay: delay, arr: arr}
}

// sameOutcomes fails t unless got and want hold the same ETAs and notes,
// bit for bit.
func sameOutcomes(t *rapid.T, pass int, ws []Workload, got, want []Outcome) {
	for i := range want {
		g, w := got[i], want[i]
		if (g.ETA == nil) != (w.ETA == nil) || (g.ETA != nil && !sameETA(*g.ETA, *w.ETA)) || g.Note != w.Note {
			t.Fatalf("pass %d, %s: ETA %+v note %q, the oracle's %+v note %q", pass, ws[i].Key, g.ETA, g.Note, w.ETA, w.Note)
		}
	}
}

// sameETA: every time equal to the nanosecond, in the same location.
func sameETA(a, b ETA) bool {
	same := func(x, y time.Time) bool { return x.Equal(y) && x.Location() == y.Location() }
	return same(a.StartP50, b.StartP50) && same(a.StartP90, b.StartP90) && same(a.FinishP50, b.FinishP50) &&
		same(a.FinishP90, b.FinishP90) && same(a.Deadline, b.Deadline)
}

func TestPropETAPassMatchesOracle(t *testing.T) { rapid.Check(t, propETAPassMatchesOracle) }

// propQuantilesBySelection checks etaScratch.quantiles against quantiles
// (jct's sorted copy): the same values (a zero's sign aside, which at()
// does not keep), the same errors; samples of few distinct values (many
// ties), of any values, negative, NaN and +Inf ones (the same error), one
// working copy reused.
func propQuantilesBySelection(t *rapid.T) {
	var sc etaScratch
	for range rapid.IntRange(1, 3).Draw(t, "calls") {
		xs := make([]float64, rapid.IntRange(0, 300).Draw(t, "n"))
		few := rapid.Bool().Draw(t, "few values?")
		for i := range xs {
			switch {
			case rapid.IntRange(0, 200).Draw(t, "odd?") == 0:
				xs[i] = rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), math.Copysign(0, -1)}).Draw(t, "odd")
			case few:
				xs[i] = float64(rapid.IntRange(0, 3).Draw(t, "few"))
			default:
				xs[i] = rapid.Float64Range(0, 1e6).Draw(t, "x")
			}
		}
		in := slices.Clone(xs)
		g50, g90, gerr := sc.quantiles(xs)
		w50, w90, werr := quantiles(xs)
		if !slices.EqualFunc(xs, in, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Fatalf("quantiles changed its input")
		}
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Fatalf("error %v, want %v", gerr, werr)
		}
		if gerr == nil && (g50 != w50 || g90 != w90) {
			t.Fatalf("p50 %v p90 %v, by sorting %v %v (of %v)", g50, g90, w50, w90, xs)
		}
	}
}

func TestPropQuantilesBySelection(t *testing.T) { rapid.Check(t, propQuantilesBySelection) }
