package edf

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

func feasible(nm, nr int) MinSlots { return MinSlots{Status: SlotsFeasible, Map: nm, Reduce: nr} }

func TestAlgorithm2ByHand(t *testing.T) {
	jobs := []Alg2Job{
		{ID: 10, Arrival: 5, Deadline: 400, PendingMaps: 4},                                                           // fresh
		{ID: 11, Arrival: 3, Deadline: 900, PendingMaps: 4},                                                           // fresh, older
		{ID: 12, Arrival: 0, Deadline: 100, PendingMaps: 3, RunningMaps: 2, CompletedTasks: 1, Slots: feasible(2, 1)}, // at its n_m
		{ID: 13, Arrival: 1, Deadline: 200, PendingMaps: 3, RunningMaps: 1, CompletedTasks: 1, Slots: feasible(3, 1)},
		{ID: 14, Arrival: 1, Deadline: 300, PendingReduces: 2, CompletedTasks: 6, Slots: feasible(0, 1)}, // map phase done
		{ID: 15, Arrival: 1, Deadline: 50, PendingReduces: 2, RunningMaps: 1, CompletedTasks: 6, Slots: feasible(3, 1)},
	}
	want := []struct {
		k    SlotKind
		drop int // jobs[:drop] removed before picking
		id   int64
	}{
		{MapSlot, 0, 11},    // fresh jobs first, oldest
		{MapSlot, 2, 13},    // 12 is at n_m = 2 running; 13 next in deadline order
		{ReduceSlot, 0, 14}, // 15's map phase still runs
	}
	for _, w := range want {
		i, err := Algorithm2(jobs[w.drop:], w.k)
		if err != nil {
			t.Fatal(err)
		}
		if i < 0 || jobs[w.drop+i].ID != w.id {
			t.Errorf("kind %d drop %d: index %d, want job %d", w.k, w.drop, i, w.id)
		}
	}
	// No estimate: capped at one running task; infeasible: not capped.
	ne := []Alg2Job{{ID: 1, Deadline: 10, PendingMaps: 5, RunningMaps: 1, Slots: MinSlots{Status: SlotsNoEstimate}}}
	if i, _ := Algorithm2(ne, MapSlot); i != -1 {
		t.Errorf("no-estimate job got a second slot: %d", i)
	}
	inf := []Alg2Job{{ID: 1, Deadline: 10, PendingMaps: 5, RunningMaps: 40, CompletedTasks: 3, Slots: MinSlots{Status: SlotsInfeasible}}}
	if i, _ := Algorithm2(inf, MapSlot); i != 0 {
		t.Errorf("infeasible job capped: %d", i)
	}
	if i, _ := Algorithm2(nil, MapSlot); i != -1 {
		t.Errorf("empty: %d", i)
	}
}

func TestAlgorithm2BadInput(t *testing.T) {
	ok := Alg2Job{ID: 1, Deadline: 10, PendingMaps: 1}
	for name, c := range map[string]struct {
		j Alg2Job
		k SlotKind
	}{
		"Arrival NaN":     {Alg2Job{Arrival: math.NaN()}, MapSlot},
		"Arrival Inf":     {Alg2Job{Arrival: math.Inf(1)}, MapSlot},
		"Deadline NaN":    {Alg2Job{Deadline: math.NaN()}, MapSlot},
		"Deadline -Inf":   {Alg2Job{Deadline: math.Inf(-1)}, MapSlot},
		"PendingMaps -1":  {Alg2Job{PendingMaps: -1}, MapSlot},
		"RunningMaps -1":  {Alg2Job{RunningMaps: -1}, MapSlot},
		"Reduces -1":      {Alg2Job{PendingReduces: -1}, ReduceSlot},
		"Running red -1":  {Alg2Job{RunningReduces: -1}, ReduceSlot},
		"Completed -1":    {Alg2Job{CompletedTasks: -1}, MapSlot},
		"Slots.Map -1":    {Alg2Job{Slots: MinSlots{Map: -1}}, MapSlot},
		"Slots.Reduce -1": {Alg2Job{Slots: MinSlots{Reduce: -1}}, MapSlot},
		"Slots.Status 9":  {Alg2Job{Slots: MinSlots{Status: 9}}, MapSlot},
		"kind 7":          {ok, 7},
	} {
		if _, err := Algorithm2([]Alg2Job{ok, c.j}, c.k); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err = %v, want ErrBadInput", name, err)
		}
	}
}

// propAlgorithm2: the pick is eligible (fresh job on a map slot, or within
// its slot cap in the right phase); a fresh job on a map slot always wins;
// among non-fresh eligible jobs the pick has the minimum deadline.
func propAlgorithm2(t *rapid.T) {
	n := rapid.IntRange(0, 10).Draw(t, "n")
	jobs := make([]Alg2Job, n)
	for i := range jobs {
		dl := NoDeadline()
		if rapid.Bool().Draw(t, "dl") {
			dl = float64(rapid.IntRange(0, 10).Draw(t, "deadline"))
		}
		jobs[i] = Alg2Job{
			ID: int64(i), Arrival: float64(rapid.IntRange(0, 5).Draw(t, "arr")), Deadline: dl,
			PendingMaps: rapid.IntRange(0, 3).Draw(t, "pm"), RunningMaps: rapid.IntRange(0, 3).Draw(t, "rm"),
			PendingReduces: rapid.IntRange(0, 3).Draw(t, "pr"), RunningReduces: rapid.IntRange(0, 3).Draw(t, "rr"),
			CompletedTasks: rapid.IntRange(0, 2).Draw(t, "ct"),
			Slots:          MinSlots{Status: SlotStatus(rapid.IntRange(0, 2).Draw(t, "st")), Map: rapid.IntRange(0, 3).Draw(t, "nm"), Reduce: rapid.IntRange(0, 3).Draw(t, "nr")},
		}
	}
	k := SlotKind(rapid.IntRange(0, 1).Draw(t, "k"))
	pick, err := Algorithm2(jobs, k)
	if err != nil {
		t.Fatal(err)
	}
	anyFresh, minDL := false, math.Inf(1)
	anyElig := false
	for i := range jobs {
		j := &jobs[i]
		if k == MapSlot && j.fresh() && j.PendingMaps > 0 {
			anyFresh = true
		} else if j.eligible(k) {
			anyElig = true
			minDL = math.Min(minDL, j.Deadline)
		}
	}
	if pick < 0 {
		if anyFresh || anyElig {
			t.Fatalf("idle with an eligible job")
		}
		return
	}
	j := &jobs[pick]
	if anyFresh {
		if !j.fresh() {
			t.Fatalf("fresh job waiting, picked %+v", j)
		}
		return
	}
	if !j.eligible(k) || j.Deadline != minDL {
		t.Fatalf("picked %+v, min deadline %v", j, minDL)
	}
}

func TestPropAlgorithm2(t *testing.T) { rapid.Check(t, propAlgorithm2) }
func FuzzAlgorithm2(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAlgorithm2)) }
