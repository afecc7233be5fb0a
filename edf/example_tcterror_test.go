package edf_test

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/edf"
)

// ratios are observed/predicted task times, sorted: a distribution of the
// models' error (jct.Distribution is the full one).
type ratios []float64

func (s ratios) Mean() float64 {
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return sum / float64(len(s))
}

// Quantile is the nearest-rank p-quantile.
func (s ratios) Quantile(p float64) (float64, error) {
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)], nil
}

// inverse is a task model that slows as 1/r: 10 s on a dedicated slot,
// 40 s on a slot with residual capacity 0.25.
type inverse struct{}

func (inverse) TCT(r float64) float64 { return 10 / r }

// Ten tasks ran 0.8–2.5 times their predicted time: at confidence 0.9 a
// task is covered at 1.7 times its prediction. On a slow slot (40 s, 68 s
// covered) the job due at 50 s would likely be late, while a dedicated slot
// (17 s covered) would make it: MP with the error leaves it for a faster
// slot and serves the job due at 200 s; on a dedicated slot it serves the
// earlier one.
func ExampleErrorAt() {
	e, _ := edf.ErrorAt(ratios{0.8, 0.9, 1.0, 1.0, 1.1, 1.2, 1.3, 1.5, 1.7, 2.5}, 0.9)
	fmt.Printf("Mean %.2f, Spread %.2f\n", e.Mean, e.Spread)

	var q edf.Queue
	q.Add(edf.Job{ID: 1, Deadline: 50, Tasks: 1, Model: inverse{}})
	q.Add(edf.Job{ID: 2, Deadline: 200, Tasks: 1, Model: inverse{}})
	for _, r := range []float64{0.25, 1} {
		mimp, _ := q.MP(r, 0, edf.MPOptions{})
		with, _ := q.MP(r, 0, edf.MPOptions{TCTError: e})
		fmt.Printf("r = %.2f: MIMP's MP job %d, with the error job %d\n", r, mimp.ID, with.ID)
	}
	// Output:
	// Mean 1.30, Spread 0.40
	// r = 0.25: MIMP's MP job 1, with the error job 2
	// r = 1.00: MIMP's MP job 1, with the error job 1
}
