package tct

import (
	"errors"
	"math"
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// limitFitData is n noisy points of a two-term exp2 on [0, 1].
func limitFitData(n int) (x, y []float64) {
	x, y = make([]float64, n), make([]float64, n)
	m := Exp2{A: 30, B: -2, C: 5, D: -0.3}
	for i := range x {
		x[i] = float64(i) / float64(n-1)
		y[i] = m.TCT(x[i]) * (1 + 0.01*math.Sin(float64(i)))
	}
	return x, y
}

// TestLimitsFit fits MaxFitPoints points and refuses one more, naming
// len(x) (and len(tasks) for TrainExp2). The fit at the limit takes about
// a second of CPU; under the race detector only the refusals run (CI runs
// this test without it too).
func TestLimitsFit(t *testing.T) {
	x, y := limitFitData(MaxFitPoints + 1)
	var ve *ValueError
	if _, _, err := FitExp2(x, y, FitOptions{}); !errors.As(err, &ve) || ve.Field != "len(x)" {
		t.Fatalf("MaxFitPoints+1 points: %v", err)
	}
	if exp2RaceEnabled {
		return
	}
	var m Exp2
	var rep FitReport
	var err error
	got := testkit.Allocated(func() { m, rep, err = FitExp2(x[:MaxFitPoints], y[:MaxFitPoints], FitOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	fitCheckFinite(t, m, rep)
	t.Logf("FitExp2 at MaxFitPoints: %.1f MiB, NRMSE %.3g", float64(got)/(1<<20), rep.NRMSE)
	if got > 256<<20 {
		t.Errorf("FitExp2 at MaxFitPoints allocated %d B, over 256 MiB", got)
	}
}

// TestLimitsMonteCarloWork refuses, before any work, Monte-Carlo calls whose
// runs × draws per run exceed MaxDraws, naming the count the caller set; the
// bound itself is accepted (checked on mcWork: a call there takes minutes).
func TestLimitsMonteCarloWork(t *testing.T) {
	l := Lognormal{Mu: 1, Sigma: 0.5}
	big := JobModel{Arrival: l, Map: l, Shuffle1: l, Shuffle2: l, Reduce: l, Workers: 10, Maps: MaxMaps, Reduces: 10}
	mid := big
	mid.Maps = 1_000_000 // 1,000 runs fit; the search's default 32,000 do not
	_, errPredict := Predict(big, Options{})
	_, errRemaining := PredictRemaining(big, Start(), 0, Options{})
	_, errSearch := SearchWorkers(mid, 100, []float64{0.9}, 10, SearchOptions{Options: Options{Runs: 1000}})
	_, errFor := WorkersFor(mid, 100, 0.9, 10, Options{Runs: 1000})
	cands := make([]int, 5000)
	for i := range cands {
		cands[i] = 1
	}
	_, errReward := AllocateByReward(mid, func(float64) float64 { return 0 }, 0, cands, Options{Runs: 1})
	for _, c := range []struct {
		name, field string
		err         error
	}{
		{"Predict", "Options.Runs", errPredict},
		{"PredictRemaining", "Options.Runs", errRemaining},
		{"SearchWorkers", "SearchOptions.RunLimit", errSearch},
		{"WorkersFor", "SearchOptions.RunLimit", errFor},
		{"AllocateByReward", "candidates", errReward},
	} {
		var ve *ValueError
		if !errors.As(c.err, &ve) || ve.Field != c.field {
			t.Errorf("%s: err = %v, want a *ValueError on %s", c.name, c.err, c.field)
		}
	}
	// 2²⁴ runs of 256 draws is exactly 2³².
	at := JobModel{Maps: 255}
	if err := mcWork("Options.Runs", MaxRuns, &at, 1); err != nil {
		t.Errorf("at MaxDraws: %v", err)
	}
	at.Maps = 256
	if err := mcWork("Options.Runs", MaxRuns, &at, 1); err == nil {
		t.Error("one run of 257 draws over MaxDraws accepted")
	}
	// Within the bound the calls still work.
	mid.Maps = 100
	if _, err := Predict(mid, Options{Runs: 10}); err != nil {
		t.Errorf("small Predict: %v", err)
	}
}
