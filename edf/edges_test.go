package edf

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// edgeModel is a model whose task time at every r is drawn from the
// extremes: 5e-324, 1e±300, MaxFloat64, NaN, ±Inf, 0, negative.
func edgeModel(t *rapid.T) Model {
	switch rapid.IntRange(0, 3).Draw(t, "model") {
	case 0:
		return flat(extremes.AnyFloat().Draw(t, "flat"))
	case 1:
		return lin{A: extremes.AnyFloat().Draw(t, "A"), B: extremes.AnyFloat().Draw(t, "B")}
	case 2:
		return exp2{A: extremes.AnyFloat().Draw(t, "A"), B: extremes.OrEdge(rapid.Float64Range(-50, 50), -800, 800).Draw(t, "B"),
			C: extremes.AnyFloat().Draw(t, "C"), D: extremes.OrEdge(rapid.Float64Range(-50, 50), -800, 800).Draw(t, "D")}
	}
	return lin{A: rapid.Float64Range(1, 100).Draw(t, "A"), B: rapid.Float64Range(0, 0.9).Draw(t, "B·A")}
}

func TestPropModelFuncEdges(t *testing.T) { rapid.Check(t, propModelFuncEdges) }
func FuzzModelFuncEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propModelFuncEdges)) }

// propModelFuncEdges feeds CompletableTasks, CompletionTime,
// CompletionTimeRate, NormTCT and IOLoad extreme models, task counts,
// capacities and times: each returns a *ValueError naming a field or a
// result that is never NaN and never negative.
func propModelFuncEdges(t *rapid.T) {
	m := edgeModel(t)
	R := rapid.SliceOfN(extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1), 0, 6).Draw(t, "R")
	n := extremes.OrIntEdge(rapid.IntRange(0, 100), 0, math.MaxInt).Draw(t, "nTasks")
	tRem := extremes.AnyFloat().Draw(t, "tRemaining")
	for name, f := range map[string]func() (float64, error){
		"CompletableTasks":   func() (float64, error) { return CompletableTasks(m, tRem, R) },
		"CompletionTime":     func() (float64, error) { return CompletionTime(m, n, R) },
		"CompletionTimeRate": func() (float64, error) { return CompletionTimeRate(m, n, R) },
	} {
		v, err := f()
		if err != nil {
			wantAnyField(t, err)
			continue
		}
		if math.IsNaN(v) || v < 0 {
			t.Fatalf("%s = %v", name, v)
		}
	}
	r, d := extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1).Draw(t, "r"), extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1).Draw(t, "rDedicated")
	nt, err := NormTCT(m, r, d)
	if err != nil {
		wantAnyField(t, err)
		nt = extremes.OrEdge(rapid.Float64Range(0.5, 5), 0, math.MaxFloat64).Draw(t, "normTCT")
	} else if !(nt > 0) || math.IsInf(nt, 0) {
		t.Fatalf("NormTCT = %v", nt)
	}
	io, err := IOLoad(extremes.OrEdge(rapid.Float64Range(0, 100), 0, math.MaxFloat64).Draw(t, "read90"), nt)
	if err != nil {
		wantAnyField(t, err)
	} else if !(io >= 0) || math.IsInf(io, 0) {
		t.Fatalf("IOLoad = %v", io)
	}
}

func TestPropMinimumSlotsEdges(t *testing.T) { rapid.Check(t, propMinimumSlotsEdges) }
func FuzzMinimumSlotsEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMinimumSlotsEdges)) }

// propMinimumSlotsEdges: counts up to MaxInt, times from 5e-324 to
// MaxFloat64: an error names a field; otherwise the slot counts are in
// [0, MaxPhaseSlots], a feasible answer meets its own deadline, and A, B, C are
// never NaN.
func propMinimumSlotsEdges(t *rapid.T) {
	e := SlotEstimate{
		MapTasks:         extremes.OrIntEdge(rapid.IntRange(0, 100), 0, math.MaxInt).Draw(t, "u"),
		ReduceTasks:      extremes.OrIntEdge(rapid.IntRange(0, 100), 0, math.MaxInt).Draw(t, "v"),
		CompletedMaps:    extremes.OrIntEdge(rapid.IntRange(0, 3), 0, math.MaxInt).Draw(t, "cm"),
		MeanMapTime:      extremes.OrEdge(rapid.Float64Range(1e-3, 1e4), 5e-324, math.MaxFloat64).Draw(t, "tm"),
		CompletedReduces: extremes.OrIntEdge(rapid.IntRange(0, 3), 0, math.MaxInt).Draw(t, "cr"),
		MeanReduceTime:   extremes.OrEdge(rapid.Float64Range(1e-3, 1e4), 5e-324, math.MaxFloat64).Draw(t, "tr"),
		CopyTime:         extremes.OrEdge(rapid.Float64Range(0, 1), 0, math.MaxFloat64).Draw(t, "tc"),
		TimeLeft:         extremes.OrEdge(rapid.Float64Range(-100, 1e6), -math.MaxFloat64, math.MaxFloat64).Draw(t, "D"),
	}
	got, err := MinimumSlots(e)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	if got.Map < 0 || got.Map > MaxPhaseSlots || got.Reduce < 0 || got.Reduce > MaxPhaseSlots ||
		math.IsNaN(got.A) || math.IsNaN(got.B) || math.IsNaN(got.C) {
		t.Fatalf("MinimumSlots(%+v) = %+v", e, got)
	}
	if got.Status == SlotsFeasible && e.MapTasks+e.ReduceTasks > 0 && !got.Meets(got.Map, got.Reduce) {
		t.Fatalf("%+v does not meet its own deadline", got)
	}
}

func TestPropAlgorithm2Edges(t *testing.T) { rapid.Check(t, propAlgorithm2Edges) }
func FuzzAlgorithm2Edges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propAlgorithm2Edges)) }

// propAlgorithm2Edges: task counts and slot caps up to MaxInt, times at
// ±MaxFloat64 and subnormal: an error names a field; otherwise the pick is
// an index into jobs (or -1) and is eligible.
func propAlgorithm2Edges(t *rapid.T) {
	n := rapid.IntRange(0, 6).Draw(t, "n")
	jobs := make([]Alg2Job, n)
	cnt := func(name string) int { return extremes.OrIntEdge(rapid.IntRange(0, 3), 0, math.MaxInt).Draw(t, name) }
	for i := range jobs {
		jobs[i] = Alg2Job{
			ID:          rapid.SampledFrom([]int64{int64(i), math.MinInt64, math.MaxInt64}).Draw(t, "id"),
			Arrival:     extremes.OrEdge(rapid.Float64Range(0, 5), -math.MaxFloat64, math.MaxFloat64).Draw(t, "arr"),
			Deadline:    extremes.OrEdge(rapid.SampledFrom([]float64{1, 5, NoDeadline()}), -math.MaxFloat64, math.MaxFloat64).Draw(t, "deadline"),
			PendingMaps: cnt("pm"), RunningMaps: cnt("rm"), PendingReduces: cnt("pr"), RunningReduces: cnt("rr"),
			CompletedTasks: cnt("ct"),
			Slots:          MinSlots{Status: SlotStatus(rapid.IntRange(0, 3).Draw(t, "st")), Map: cnt("nm"), Reduce: cnt("nr")},
		}
	}
	k := SlotKind(rapid.IntRange(0, 2).Draw(t, "k"))
	pick, err := Algorithm2(jobs, k)
	if err != nil {
		wantAnyField(t, err)
		return
	}
	if pick == -1 {
		return
	}
	if pick < 0 || pick >= n {
		t.Fatalf("pick %d of %d jobs", pick, n)
	}
	if j := &jobs[pick]; !(k == MapSlot && j.fresh() && j.PendingMaps > 0) && !j.eligible(k) {
		t.Fatalf("picked %+v, not eligible for %v", j, k)
	}
}
