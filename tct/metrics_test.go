package tct

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestRMSEAndNRMSETable(t *testing.T) {
	for _, tt := range []struct {
		name        string
		obs, pred   []float64
		rmse, nrmse float64
	}{
		// Residuals 1, −1, 1, −1: RMSE 1; range 6 − 1 = 5.
		{"unit residuals", []float64{1, 2, 4, 6}, []float64{0, 3, 3, 7}, 1, 0.2},
		// Residuals 3, 4: √((9+16)/2) = √12.5; range 10.
		{"3-4", []float64{10, 20}, []float64{7, 16}, math.Sqrt(12.5), math.Sqrt(12.5) / 10},
		{"exact", []float64{1, 5, 9}, []float64{1, 5, 9}, 0, 0},
		{"constant obs, exact", []float64{4, 4}, []float64{4, 4}, 0, 0},
		// Large values: squares would overflow without scaling.
		{"huge", []float64{1e200, -1e200}, []float64{0, 0}, 1e200, 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := RMSE(tt.obs, tt.pred)
			if err != nil || !scalar.EqualWithinAbsOrRel(r, tt.rmse, 1e-15, 1e-14) {
				t.Errorf("RMSE = %v, %v; want %v", r, err, tt.rmse)
			}
			n, err := NRMSE(tt.obs, tt.pred)
			if err != nil || !scalar.EqualWithinAbsOrRel(n, tt.nrmse, 1e-15, 1e-14) {
				t.Errorf("NRMSE = %v, %v; want %v", n, err, tt.nrmse)
			}
		})
	}
}

func TestRMSEBadInput(t *testing.T) {
	nan := math.NaN()
	for _, tt := range []struct {
		name      string
		obs, pred []float64
		field     string
		nrmseOnly bool
	}{
		{"nil", nil, nil, "len(obs)", false},
		{"mismatch", []float64{1, 2}, []float64{1}, "len(pred)", false},
		{"NaN obs", []float64{1, nan}, []float64{1, 2}, "obs[1]", false},
		{"Inf pred", []float64{1, 2}, []float64{math.Inf(-1), 2}, "pred[0]", false},
		{"difference overflows", []float64{1.5e308, 0}, []float64{-1.5e308, 0}, "obs−pred", false},
		{"constant obs, inexact", []float64{3, 3, 3}, []float64{3, 2, 3}, "obs", true},
		{"range overflows", []float64{1.5e308, -1.5e308}, []float64{1.5e308, -1.5e308}, "max(obs)−min(obs)", true},
		{"quotient overflows", []float64{0, 5e-324}, []float64{1e10, 0}, "NRMSE", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ve *ValueError
			if !tt.nrmseOnly {
				if _, err := RMSE(tt.obs, tt.pred); !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field {
					t.Errorf("RMSE err = %v, want field %s", err, tt.field)
				}
			}
			if _, err := NRMSE(tt.obs, tt.pred); !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field {
				t.Errorf("NRMSE err = %v, want field %s", err, tt.field)
			}
		})
	}
}

func TestFitReportMatchesMetrics(t *testing.T) {
	x, y := fitTestData(Exp2{A: 1, B: -2, C: 0.5, D: 1}, 0, 1, 30)
	for i := range y {
		y[i] += 0.05 * math.Sin(float64(5*i))
	}
	m, rep, err := FitExp2(x, y, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, len(x))
	for i := range x {
		pred[i] = m.TCT(x[i])
	}
	r, _ := RMSE(y, pred)
	n, _ := NRMSE(y, pred)
	if !scalar.EqualWithinRel(r, rep.RMSE, 1e-12) || !scalar.EqualWithinRel(n, rep.NRMSE, 1e-12) ||
		!scalar.EqualWithinRel(rep.SSE, r*r*float64(len(x)), 1e-12) {
		t.Errorf("report %+v vs RMSE %v NRMSE %v", rep, r, n)
	}
}
