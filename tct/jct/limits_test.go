package jct

import (
	"errors"
	"testing"
)

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
