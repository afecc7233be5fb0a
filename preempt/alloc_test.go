package preempt

import "testing"

// A warmed Workspace decides without allocating, as does a full window.
func TestAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	c := bigCluster(5000, true)
	var w Workspace
	opt := GPOptions{Busy: true, NTask: 100, Timeout: 360}
	w.GP(c, 250, opt)
	w.Baseline(c, 250)
	if n := testing.AllocsPerRun(20, func() { w.GP(c, 250, opt) }); n != 0 {
		t.Errorf("GP: %v allocs per decision, want 0", n)
	}
	if n := testing.AllocsPerRun(20, func() { w.Baseline(c, 250) }); n != 0 {
		t.Errorf("Baseline: %v allocs per decision, want 0", n)
	}
	ideal, actual := []float64{1, 2, 3}, []float64{2, 2, 6}
	if n := testing.AllocsPerRun(20, func() { Evaluate(ideal, actual) }); n != 0 {
		t.Errorf("Evaluate: %v allocs, want 0", n)
	}
	ow, _ := NewOccupancyWindow(100, 0.9)
	tm := 0.0
	for range 1000 {
		tm++
		ow.Add(tm, 1, 2)
	}
	if n := testing.AllocsPerRun(100, func() { tm++; ow.Add(tm, 1, 2) }); n != 0 {
		t.Errorf("OccupancyWindow.Add: %v allocs, want 0", n)
	}
	dst := make([]int, 0, 4)
	if n := testing.AllocsPerRun(20, func() { DeficiencyOrder([]float64{1, 2, 3}, []int{0, 0, 0}, dst) }); n != 0 {
		t.Errorf("DeficiencyOrder: %v allocs, want 0", n)
	}
}
