package tct

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestTrainExp2(t *testing.T) {
	// A Pi-like job: 50 s on a dedicated slot, 4× slower with no spare CPU.
	truth := Exp2{A: 150 / (1 - math.Exp(-4)), B: -4, C: 50 - 150*math.Exp(-4)/(1-math.Exp(-4)), D: 0}
	var tasks []TaskRecord
	for i := range 21 {
		r := float64(i) / 20
		tasks = append(tasks, TaskRecord{Residual: r, Duration: truth.TCT(r) * (1 + 0.03*math.Sin(float64(11*i)))})
	}
	tr, err := TrainExp2(tasks, 50, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinRel(tr.Model.TCT(1), 50, 0.05) || !scalar.EqualWithinRel(tr.Model.TCT(0), 200, 0.05) {
		t.Errorf("Model TCT(1) = %v, TCT(0) = %v; want ≈ 50, 200", tr.Model.TCT(1), tr.Model.TCT(0))
	}
	for _, r := range []float64{0, 0.3, 1} {
		if !scalar.EqualWithinRel(tr.Model.TCT(r), 50*tr.Normalised.TCT(r), 1e-12) {
			t.Errorf("Model and Normalised disagree at %v", r)
		}
	}
	// NRMSE is computed on the task's own data and is scale-free.
	obs := make([]float64, len(tasks))
	pred := make([]float64, len(tasks))
	for i, task := range tasks {
		obs[i], pred[i] = task.Duration, tr.Model.TCT(task.Residual)
	}
	n, _ := NRMSE(obs, pred)
	if !scalar.EqualWithinRel(n, tr.Report.NRMSE, 1e-9) || tr.Report.NRMSE > 0.03 {
		t.Errorf("NRMSE %v, report %v", n, tr.Report.NRMSE)
	}
}

func TestTrainExp2BadInput(t *testing.T) {
	ok := []TaskRecord{{0, 4}, {0.3, 3}, {0.6, 2}, {1, 1}}
	for _, tt := range []struct {
		name     string
		tasks    []TaskRecord
		baseline float64
		field    string
	}{
		{"zero baseline", ok, 0, "baseline"},
		{"NaN baseline", ok, math.NaN(), "baseline"},
		{"Inf baseline", ok, math.Inf(1), "baseline"},
		{"residual above 1", []TaskRecord{{0, 4}, {1.5, 3}, {0.6, 2}, {1, 1}}, 1, "tasks[1].Residual"},
		{"NaN residual", []TaskRecord{{0, 4}, {0.3, 3}, {math.NaN(), 2}, {1, 1}}, 1, "tasks[2].Residual"},
		{"zero duration", []TaskRecord{{0, 4}, {0.3, 3}, {0.6, 2}, {1, 0}}, 1, "tasks[3].Duration"},
		{"Inf duration", []TaskRecord{{0, math.Inf(1)}, {0.3, 3}, {0.6, 2}, {1, 1}}, 1, "tasks[0].Duration"},
		{"three residuals", []TaskRecord{{0, 4}, {0.3, 3}, {0.3, 2}, {1, 1}}, 1, "tasks"},
		{"no tasks", nil, 1, "tasks"},
		// Issue 19: a subnormal baseline made Duration/baseline +Inf, and
		// the error named FitExp2's internal y[0].
		{"subnormal baseline", ok, 5e-324, "baseline"},
		{"baseline 1e-300 over durations of seconds", ok, 1e-300, "baseline"},
		{"MaxFitPoints + 1 tasks", make([]TaskRecord, MaxFitPoints+1), 1, "len(tasks)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := TrainExp2(tt.tasks, tt.baseline, FitOptions{})
			wantField(t, err, tt.field)
		})
	}
}
