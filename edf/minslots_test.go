package edf

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestMinimumSlotsByHand(t *testing.T) {
	cases := []struct {
		name   string
		e      SlotEstimate
		status SlotStatus
		nm, nr int
	}{
		// A = 10·20 = 200, B = 5·20 = 100 (t_r = t_m), C = 325 − 10·5·0.5 = 300.
		// Eq. 10: n_m = √200(√200+10)/300 = 1.14 → 2, n_r = 0.80 → 1; but 200/1 + 100/1 = 300 ≤ 300,
		// so the refined answer is (1, 1).
		{"refined below Lagrange", SlotEstimate{MapTasks: 10, ReduceTasks: 5, CompletedMaps: 3, MeanMapTime: 20, CopyTime: 0.5, TimeLeft: 325}, SlotsFeasible, 1, 1},
		// A = 50·20 = 1000, B = 10·25 = 250 (observed t_r), C = 150 − 50 = 100. Eq. 10: 15, 7.5 → (15, 8);
		// (14, 8): 71.4 + 31.25 > 100; (15, 7): 66.7 + 35.7 > 100.
		{"observed reduce time", SlotEstimate{MapTasks: 50, ReduceTasks: 10, CompletedMaps: 9, MeanMapTime: 20, CompletedReduces: 1, MeanReduceTime: 25, CopyTime: 0.1, TimeLeft: 150}, SlotsFeasible, 15, 8},
		// Map-only: n_m = ⌈A/C⌉ = ⌈400/90⌉ = 5.
		{"map only", SlotEstimate{MapTasks: 20, CompletedMaps: 1, MeanMapTime: 20, TimeLeft: 90}, SlotsFeasible, 5, 0},
		{"shuffle overruns (C = 0)", SlotEstimate{MapTasks: 10, ReduceTasks: 5, CompletedMaps: 1, MeanMapTime: 1, CopyTime: 0.5, TimeLeft: 25}, SlotsInfeasible, 0, 0},
		{"deadline passed", SlotEstimate{MapTasks: 1, CompletedMaps: 1, MeanMapTime: 1, TimeLeft: -5}, SlotsInfeasible, 0, 0},
		{"no estimate", SlotEstimate{MapTasks: 10, ReduceTasks: 2, TimeLeft: 100}, SlotsNoEstimate, 0, 0},
		{"nothing left", SlotEstimate{TimeLeft: -1}, SlotsFeasible, 0, 0},
		{"needs too many slots", SlotEstimate{MapTasks: 1 << 40, CompletedMaps: 1, MeanMapTime: 1e6, TimeLeft: 1}, SlotsInfeasible, 0, 0},
		// Shrunk from rapid (-rapid.checks=10000): A = 49.45, B = 34.47,
		// C = 8.443e-8. Eq. 10's n_m = √A(√A+√B)/C = 1.0747e9 exceeds
		// MaxPhaseSlots = 2^30 = 1.0737e9, yet MaxPhaseSlots of each meet the deadline
		// (84/2^30 = 7.8e-8 ≤ C); it was reported infeasible. Capped: n_m =
		// MaxPhaseSlots, n_r = ⌈B/(C − A/2^30)⌉ = 898,107,786.
		{"Eq. 10 beyond MaxPhaseSlots on one side", SlotEstimate{MapTasks: 198, ReduceTasks: 138, CompletedMaps: 1, MeanMapTime: 0.249755859375,
			CopyTime: 4.547473508864641e-13, TimeLeft: 9.685754776000977e-08}, SlotsFeasible, MaxPhaseSlots, 898107786},
		// Shrunk from propMinimumSlotsEdges: A = 5e-324, B = C = 1.8e308.
		// C − B = 0, so the estimate A/(C − B) said no map count meets, yet
		// A/n + B rounds to B ≤ C for every n ≥ 1: it was reported
		// feasible with 0 map slots for 1 map task.
		{"subnormal map work beside huge reduce work", SlotEstimate{MapTasks: 1, ReduceTasks: 1, CompletedMaps: 1, MeanMapTime: 5e-324,
			CompletedReduces: 1, MeanReduceTime: 1.7976931348623155e+308, TimeLeft: 1.7976931348623155e+308}, SlotsFeasible, 1, 1},
		// A tiny map phase beside a reduce phase that fills the deadline:
		// one map slot meets (1e-10/1 + 1e10 rounds to 1e10 ≤ C), though
		// C − B = 2e-6 puts the estimate at 1 too; with C − B a rounding
		// away the old ±1 stepping could walk 2^30 steps.
		{"tiny map work beside a full reduce phase", SlotEstimate{MapTasks: 1, ReduceTasks: 1, CompletedMaps: 1, MeanMapTime: 1e-10,
			CompletedReduces: 1, MeanReduceTime: 1e10, TimeLeft: 1e10}, SlotsFeasible, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := MinimumSlots(c.e)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != c.status || got.Map != c.nm || got.Reduce != c.nr {
				t.Fatalf("got %+v (%v), want %v (%d, %d)", got, got.Status, c.status, c.nm, c.nr)
			}
		})
	}
}

func TestMinimumSlotsBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for name, e := range map[string]SlotEstimate{
		"MapTasks -1":          {MapTasks: -1},
		"ReduceTasks -1":       {ReduceTasks: -1},
		"CompletedMaps -1":     {CompletedMaps: -1},
		"CompletedReduces -1":  {CompletedReduces: -1},
		"MeanMapTime 0":        {CompletedMaps: 1, MeanMapTime: 0},
		"MeanMapTime NaN":      {CompletedMaps: 1, MeanMapTime: nan},
		"MeanReduceTime Inf":   {CompletedMaps: 1, MeanMapTime: 1, CompletedReduces: 1, MeanReduceTime: inf},
		"CopyTime -1":          {CopyTime: -1},
		"CopyTime NaN":         {CopyTime: nan},
		"TimeLeft NaN":         {TimeLeft: nan},
		"TimeLeft -Inf":        {TimeLeft: -inf},
		"MeanReduceTime -1":    {CompletedReduces: 2, MeanReduceTime: -1},
		"MeanMapTime Inf used": {CompletedMaps: 1, MeanMapTime: inf},
	} {
		if _, err := MinimumSlots(e); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err = %v, want ErrBadInput", name, err)
		}
	}
}

// propMinimumSlots: a feasible answer meets the deadline under its own
// model, and one slot fewer on either side (where that side has work) does
// not; an infeasible answer has C ≤ 0 or needs more than MaxPhaseSlots.
func propMinimumSlots(t *rapid.T) {
	e := SlotEstimate{
		MapTasks:         rapid.IntRange(-1, 5000).Draw(t, "u"),
		ReduceTasks:      rapid.IntRange(0, 500).Draw(t, "v"),
		CompletedMaps:    rapid.IntRange(0, 10).Draw(t, "cm"),
		MeanMapTime:      rapid.Float64Range(1e-3, 1e4).Draw(t, "tm"),
		CompletedReduces: rapid.IntRange(0, 3).Draw(t, "cr"),
		MeanReduceTime:   rapid.Float64Range(1e-3, 1e4).Draw(t, "tr"),
		CopyTime:         rapid.Float64Range(0, 1).Draw(t, "tc"),
		TimeLeft:         rapid.Float64Range(-100, 1e6).Draw(t, "D"),
	}
	got, err := MinimumSlots(e)
	if err != nil {
		if !errors.Is(err, ErrBadInput) || e.MapTasks >= 0 {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	switch got.Status {
	case SlotsFeasible:
		if !got.Meets(got.Map, got.Reduce) && (e.MapTasks+e.ReduceTasks > 0) {
			t.Fatalf("%+v does not meet its own deadline", got)
		}
		if got.A > 0 && got.Meets(got.Map-1, got.Reduce) {
			t.Fatalf("%+v: one map slot fewer still meets", got)
		}
		if got.B > 0 && got.Meets(got.Map, got.Reduce-1) {
			t.Fatalf("%+v: one reduce slot fewer still meets", got)
		}
	case SlotsInfeasible:
		if got.C > 0 && got.Meets(MaxPhaseSlots, MaxPhaseSlots) {
			t.Fatalf("%+v reported infeasible but MaxPhaseSlots meets", got)
		}
	case SlotsNoEstimate:
		if e.CompletedMaps != 0 {
			t.Fatalf("no estimate with %d completed maps", e.CompletedMaps)
		}
	}
}

func TestPropMinimumSlots(t *testing.T) { rapid.Check(t, propMinimumSlots) }
func FuzzMinimumSlots(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMinimumSlots)) }
