package replay

import (
	"math"
	"testing"
	"time"
)

// TestSummarize works the metrics of four Jobs by hand: a met, one
// admitted that missed, one rejected, one never admitted.
func TestSummarize(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(seconds(s)) }
	run := func(s float64) Submission { return Submission{Run: seconds(s)} }
	outs := []Outcome{
		// Waited 2 s, the ETA (seen at 1 s) said finish 12 (p50) / 14
		// (p90); it finished at 13: error 1 / 12, covered.
		{Sub: run(10), Created: at(0), Deadline: at(20), Admitted: at(2), Finished: at(13),
			ETA: &ETA{Seen: at(1), StartP50: at(2), StartP90: at(3), FinishP50: at(12), FinishP90: at(14)}},
		// Waited 4 s, finished at 20 after its deadline 18; ETA finish
		// 15/16 seen at 0: error 5 / 20, not covered.
		{Sub: run(10), Created: at(0), Deadline: at(18), Admitted: at(4), Finished: at(20), Preempted: 1, WorkLost: 3,
			ETA: &ETA{Seen: at(0), StartP50: at(3), StartP90: at(3), FinishP50: at(15), FinishP90: at(16)}},
		{Sub: run(10), Created: at(0), Deadline: at(20), Rejected: true},
		{Sub: run(10), Created: at(0), Deadline: at(20)},
	}
	r := Summarize(Check, "1×", 1, outs, cpuReading{controller: 2, scheduler: 1}, time.Minute)
	if r.Met != 1 || r.Missed != 2 || r.Unfinished != 1 || r.Rejected != 1 || r.Admitted != 2 || r.AdmittedMissed != 1 || r.MissedShare != 0.5 {
		t.Errorf("outcomes %+v", r)
	}
	// Waits 2 and 4: p50 3, p90 3.8; overheads 1 and 6: p50 3.5, p90 5.5.
	if r.WaitP50 != 3 || math.Abs(r.WaitP90-3.8) > 1e-9 || r.OverheadP50 != 3.5 || math.Abs(r.OverheadP90-5.5) > 1e-9 {
		t.Errorf("waits %v/%v, overheads %v/%v", r.WaitP50, r.WaitP90, r.OverheadP50, r.OverheadP90)
	}
	e := r.ETA
	if e.N != 2 || e.FinishCover90 != 0.5 || e.StartCover90 != 0.5 || e.StartErrP50 != 0.5 ||
		math.Abs(e.FinishRelErrP50-(1.0/12+5.0/20)/2) > 1e-12 || r.Preempted != 1 || r.WorkLost != 3 {
		t.Errorf("ETA %+v, preempted %d, lost %v", e, r.Preempted, r.WorkLost)
	}
}

// TestPhases works the steps of one Job by hand: created at 0, quota at
// 1, the check Ready at 3, admitted at 4, its last pod created at 5,
// Running at 7, ended at 18 after a 10 s run, the Job complete at 19; a
// stock Job (no check) goes from quota straight to admission.
func TestPhases(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(seconds(s)) }
	checked := Outcome{Sub: Submission{Run: 10 * time.Second}, Created: at(0), QuotaReserved: at(1), CheckReady: at(3),
		Admitted: at(4), PodsCreated: at(5), PodsRunning: at(7), PodsEnded: at(18), Finished: at(19)}
	stock := checked
	stock.CheckReady = time.Time{}
	want := []float64{1, 2, 1, 1, 2, 1, 1, 6} // decision at 3, done at 19, run 10
	for _, c := range []struct {
		name string
		o    Outcome
	}{{"checked", checked}, {"stock", stock}} {
		ps := phases([]Outcome{c.o, {Created: at(0)}})
		for i, p := range ps {
			w := want[i]
			if c.name == "stock" && i == 2 {
				w = 3 // quota → admission
			}
			if c.name == "stock" && i == 7 {
				w = 8 // the decision is the quota reservation, at 1
			}
			if c.name == "stock" && i == 1 {
				if p.N != 0 {
					t.Errorf("stock: %s measured %d times, want none", p.Name, p.N)
				}
				continue
			}
			if p.N != 1 || math.Abs(p.P50-w) > 1e-9 || math.Abs(p.P90-w) > 1e-9 {
				t.Errorf("%s: %s = %+v, want %g s once", c.name, p.Name, p, w)
			}
		}
	}
}
