package placement

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Measured figures. The package doc states the contracts (O-costs, what
// allocates, the bounds); the figures below are what was measured, with
// the machine and the command, and are re-measured rather than edited.
//
// Measured on the thesis scenario (20 racks × 40 servers, 80 VMs), 1 core of
// a shared 2-core AMD EPYC under load from other builds (load average 9–12),
// go test -run '^$' -bench . -benchtime 200x -cpu 1 ./placement:
//
//	Evaluator.CompletionTime   0.6–2.5 µs/op       0 allocs/op (pinned: TestEvaluatorAllocs)
//	NewEvaluator                34 µs/op          12 allocs/op
//	Search, 300 evaluations    2.2–2.6 ms/op    1116 allocs/op
//	Search, 10,000 evaluations  35–49 ms/op     1122 allocs/op
//	RR-R+RR-S+H-1+H-2           150 µs/op        576 allocs/op
//
// Measured on 2 shared cores under load from other builds, with
// go test -run '^$' -bench 'PlanPools$|AssignMapTask' -cpu 1 ./placement:
// PlanPools on the §4.4.1 problem 38–70 µs/op, 0 allocs/op; AssignMapTask with
// 400 VMs on 100 machines and 1,000 tasks 0.27–0.53 µs/op when it launches a
// local task, 0.9–2.1 µs per pair of remote steps (two queued tasks, two
// reconfigurations), 0 allocs/op (pinned by TestAssignMapTaskAllocs; ranges
// are runs at load averages of 15–22 on the 2 cores).
//
// PlanPools at MaxPoolSearch (BenchmarkPlanPoolsAtLimit): 0.85–1.5 s (10
// types, 100 jobs, 1,941 accelerators searched, no plan meeting the
// deadline) and 0.07–0.11 s (one type, one job, 65,536 accelerators and
// extra core nodes).

// BenchmarkCompletionTime scores one candidate of the thesis scenario (20
// racks × 40 servers, 80 VMs) with validation, as a caller would.
func BenchmarkCompletionTime(b *testing.B) {
	top, app := ThesisTopology(), ThesisSort()
	ev, err := NewEvaluator(top, app)
	if err != nil {
		b.Fatal(err)
	}
	s, err := RandomPlacement(top, app.VMs, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.CompletionTime(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewEvaluator is the one-off cost of precomputing the topology.
func BenchmarkNewEvaluator(b *testing.B) {
	top, app := ThesisTopology(), ThesisSort()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewEvaluator(top, app); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch is one GA run on the thesis scenario at the thesis's
// budget (300 evaluations) and at the default one (10,000).
func BenchmarkSearch(b *testing.B) {
	top, app := ThesisTopology(), ThesisSort()
	for _, evals := range []int{300, DefaultMaxEvaluations} {
		b.Run(fmt.Sprintf("evals=%d", evals), func(b *testing.B) {
			src := rand.NewPCG(1, 2)
			rng := rand.New(src)
			b.ReportAllocs()
			for b.Loop() {
				src.Seed(1, 2)
				if _, err := Search(top, app, SearchOptions{MaxEvaluations: evals}, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHeuristics places the thesis request with RR-R, RR-S, H-1, H-2.
func BenchmarkHeuristics(b *testing.B) {
	top, app := ThesisTopology(), ThesisSort()
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range Heuristics {
			if _, err := h.Place(top, app.VMs); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPlanPoolsAtLimit is PlanPools on a search as large as
// MaxPoolSearch allows,
// in which no candidate meets the deadline, at two shapes: 10 types and
// 100 jobs (MaxAccelerators 1,941, MaxExtraCoreNodes 7), and one type and
// one job (both maxima 65,536, under the bound).
func BenchmarkPlanPoolsAtLimit(b *testing.B) {
	for _, shape := range [][2]int{{10, 100}, {1, 1}} {
		b.Run(fmt.Sprintf("types=%d/jobs=%d", shape[0], shape[1]), func(b *testing.B) {
			p := poolsAtLimit(shape[0], shape[1])
			b.ReportAllocs()
			for b.Loop() {
				if _, err := PlanPools(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLimits times Search at MaxSearchWork and at MaxSearchMemory on
// the thesis scenario and NewEvaluator and Predict at MaxServers (see
// TestLimitsSearch and TestLimitsTopology).
func BenchmarkLimits(b *testing.B) {
	top, app := ThesisTopology(), ThesisSort()
	for _, c := range []struct {
		name string
		cfg  SearchOptions
	}{
		{"Search/MaxSearchWork", SearchOptions{MaxEvaluations: MaxSearchWork / 900}},
		{"Search/MaxSearchMemory", SearchOptions{Population: 68850, MaxEvaluations: 68850 + 4 + 6885}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Search(top, app, c.cfg, rand.New(rand.NewPCG(1, 2))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	big := limitTopology()
	bigApp := app
	bigApp.VMs = MaxServers
	b.Run("NewEvaluator/MaxServers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NewEvaluator(big, bigApp)
		}
	})
	ev, _ := NewEvaluator(big, bigApp)
	all := make([]int, MaxServers)
	for i := range all {
		all[i] = i
	}
	b.Run("Predict/MaxServers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ev.Predict(all)
		}
	})
}
