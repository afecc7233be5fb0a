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
// len(x) (and len(tasks) for TrainExp2). The fit at the limit takes 248 MiB
// in its two allocations and a few seconds of CPU; under the race detector only the refusals run (CI runs
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
