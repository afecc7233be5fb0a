package deadlinecheck

import (
	"math"
	"testing"
)

// TestMeetsAlone: the kept threshold is admission.AloneDeadline's (whose
// own tests hold it to admission's decision). Samples 5, 1, 3, 2, 4: at
// p = 0.6 three of five must meet the deadline, so 3 passes and 2.9 does
// not; at p = 0.9 all five, so 4.9 does not and 5 passes (the threshold
// is found again for the new confidence). Samples refused by admission
// never pass: the decision must run and report them.
func TestMeetsAlone(t *testing.T) {
	wk := &work{own: []float64{5, 1, 3, 2, 4}}
	bad := &work{own: []float64{1, math.NaN()}}
	for _, c := range []struct {
		wk   *work
		d, p float64
		want bool
	}{
		{wk, 3, 0.6, true}, {wk, 2.9, 0.6, false}, {wk, 3, 0.6, true},
		{wk, 4.9, 0.9, false}, {wk, 5, 0.9, true}, {wk, -1, 0, true},
		{bad, 100, 0.5, false}, {bad, 100, 0, false},
	} {
		if got := c.wk.meetsAlone(c.d, c.p); got != c.want {
			t.Errorf("meetsAlone(%v) of %v at p %v = %v, want %v", c.d, c.wk.own, c.p, got, c.want)
		}
	}
}
