package tct_test

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/tct"
)

// Fit the exp2 model to task completion times measured at several residual
// capacities, then ask how much slower a task runs on a busy slot and how
// much read load it puts on the data nodes (Eq. 1, 2, 5, 9).
func Example() {
	// A CPU-bound job: 50 s on a dedicated slot, 200 s with no spare CPU.
	truth := tct.Exp2{A: 150 / (1 - math.Exp(-4)), B: -4, C: 50 - 150*math.Exp(-4)/(1-math.Exp(-4))}
	var r, secs []float64
	for i := range 11 {
		x := float64(i) / 10
		r = append(r, x)
		secs = append(secs, truth.TCT(x))
	}
	m, rep, err := tct.FitExp2(r, secs, tct.FitOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("TCT(0.2) = %.1f s, NormTCT(0.2) = %.2f\n", m.TCT(0.2), m.NormTCT(0.2))
	io, _ := m.IO(0.2, 40) // read90 = 40 requests/s on a dedicated worker
	fmt.Printf("IO(0.2) = %.1f requests/s\n", io)
	fmt.Printf("exact fit: %v, converged %v\n", rep.NRMSE < 1e-12, rep.Converged)
	// Output:
	// TCT(0.2) = 115.9 s, NormTCT(0.2) = 2.32
	// IO(0.2) = 17.3 requests/s
	// exact fit: true, converged true
}

// Train a job type's model from task records and its dedicated baseline and
// read the NRMSE that MIMP Table 2 reports.
func ExampleTrainExp2() {
	tasks := []tct.TaskRecord{
		{Residual: 0.0, Duration: 205}, {Residual: 0.1, Duration: 160},
		{Residual: 0.2, Duration: 125}, {Residual: 0.3, Duration: 101},
		{Residual: 0.5, Duration: 76}, {Residual: 0.7, Duration: 60},
		{Residual: 0.9, Duration: 53}, {Residual: 1.0, Duration: 49},
	}
	tr, err := tct.TrainExp2(tasks, 50, tct.FitOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("slowdown at r=0: %.2f×, NRMSE %.1f%%\n", tr.Normalised.TCT(0)/tr.Normalised.TCT(1), 100*tr.Report.NRMSE)
	// Output:
	// slowdown at r=0: 4.15×, NRMSE 0.6%
}

func ExamplePercentile() {
	reads := []float64{12, 30, 18, 25, 40, 22, 19, 35, 28, 21}
	p90, _ := tct.Percentile(reads, 90)
	fmt.Printf("read90 = %.1f\n", p90)
	// Output:
	// read90 = 35.5
}
