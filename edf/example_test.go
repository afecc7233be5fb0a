package edf_test

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/edf"
)

// curve is a job type's TCT model: exp2 (MIMP Eq. 1), as tct.Exp2 would be.
type curve struct{ A, B, C, D float64 }

func (m curve) TCT(r float64) float64 { return m.A*math.Exp(m.B*r) + m.C*math.Exp(m.D*r) }

// A Pi job (steep: slow on busy slots) and a Sort job (flat) share the
// cluster. With both on track, MP gives a busy slot (r = 0.2) to Sort and a
// dedicated one to Pi, whose deadline is earlier.
func Example() {
	var q edf.Queue
	q.Add(edf.Job{ID: 1, Deadline: 600, Tasks: 20, Model: curve{200, -4, 20, 0}}) // Pi
	q.Add(edf.Job{ID: 2, Deadline: 900, Tasks: 20, Model: curve{30, -0.5, 0, 0}}) // Sort

	d, _ := q.MP(0.2, 0, edf.MPOptions{})
	fmt.Println("nothing running:", d.ID, d.Reason) // both at risk: closest deadline
	for range 4 {
		q.Start(1, 1)
		q.Start(2, 1)
	}
	d, _ = q.MP(0.2, 0, edf.MPOptions{})
	fmt.Printf("busy slot: job %d %v NormTCT %.2f\n", d.ID, d.Reason, d.NormTCT)
	d, _ = q.MP(1, 0, edf.MPOptions{})
	fmt.Printf("dedicated slot: job %d %v\n", d.ID, d.Reason)
	late, _ := q.AtRisk(1, 560)
	fmt.Println("Pi at risk at t=560:", late)
	// Output:
	// nothing running: 1 at-risk
	// busy slot: job 2 best-fit NormTCT 1.49
	// dedicated slot: job 1 best-fit
	// Pi at risk at t=560: true
}

// MinimumSlots sizes a job for its deadline (Rao–Reddy Eq. 10, rounded to the
// smallest integers that still meet it).
func ExampleMinimumSlots() {
	s, _ := edf.MinimumSlots(edf.SlotEstimate{
		MapTasks: 50, ReduceTasks: 10, CompletedMaps: 9, MeanMapTime: 20,
		CopyTime: 0.1, TimeLeft: 150, CompletedReduces: 1, MeanReduceTime: 25,
	})
	fmt.Println(s.Status, s.Map, s.Reduce)
	s, _ = edf.MinimumSlots(edf.SlotEstimate{MapTasks: 50, ReduceTasks: 10, CompletedMaps: 9, MeanMapTime: 20, CopyTime: 1, TimeLeft: 150})
	fmt.Println(s.Status, s.C)
	// Output:
	// feasible 15 8
	// infeasible -350
}
