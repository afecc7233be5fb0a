package hadoopsim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/tct"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// FuzzSWIMTrace: any input either parses into valid jobs (maps ≥ 1 and
// within the cap, arrivals ≥ 0 and sorted, one factor per map) or gives an
// error; it never panics.
func FuzzSWIMTrace(f *testing.F) {
	f.Add("job0\t5\t5\t134217729\t0\t0\njob1\t9\t4\t0\t0\t0\n", 0.0, 10)
	f.Add("job0\t1e300\t1\t1e300\t0\t0\n", 100.0, 0)
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	f.Fuzz(func(t *testing.T, in string, window float64, maxMaps int) {
		if maxMaps < 0 || maxMaps > 1000 {
			maxMaps = 1000 // bound the work per input; a factor is drawn per map
		}
		if len(in) > 4096 {
			in = in[:4096]
		}
		jobs, err := SWIMTrace(strings.NewReader(in), types, window, max(maxMaps, 1), PaperError, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			return
		}
		for i, j := range jobs {
			if j.Maps < 1 || j.Maps > max(maxMaps, 1) || !(j.Arrival >= 0) || len(j.Noise) != j.Maps || j.ID != i {
				t.Fatalf("job %d: %+v", i, j)
			}
			if i > 0 && j.Arrival < jobs[i-1].Arrival {
				t.Fatal("not sorted")
			}
		}
	})
}

// TestIOCheckMatchesWorld: with exact estimates MP's IO check (edf's
// bookkeeping of the Eq. 5 loads) equals the world's data-node load, so MP
// never starts a task on overloaded nodes while EDF, which has no check,
// does. With PaperError the estimates are off per task and MP overloads
// the nodes now and then, far less than EDF.
func TestIOCheckMatchesWorld(t *testing.T) {
	s := CaseStudy(1, PredictionError{})
	if want := LastArrival(s.Jobs) + Drain; s.Horizon != want {
		t.Errorf("horizon %v, want %v", s.Horizon, want)
	}
	mp, err := Run(&s, MP)
	if err != nil {
		t.Fatal(err)
	}
	edf, _ := Run(&s, EDF)
	if mp.OverloadedStarts != 0 || edf.OverloadedStarts == 0 {
		t.Errorf("exact estimates, overloaded starts: MP %d (want 0), EDF %d (want > 0)", mp.OverloadedStarts, edf.OverloadedStarts)
	}
	s = CaseStudy(1, PaperError)
	mp, _ = Run(&s, MP)
	edf, _ = Run(&s, EDF)
	if !(mp.IOSlowdownHours < edf.IOSlowdownHours/2) {
		t.Errorf("paper-size errors: IO slowdown MP %.2f h, EDF %.2f h", mp.IOSlowdownHours, edf.IOSlowdownHours)
	}
}

// fuzzScenario builds a small scenario from fuzzed numbers (web bands,
// data-node capacity, a job type's world and estimated models and read
// rates, arrivals, deadlines, map counts and factors), some NaN, infinite,
// negative or extreme; two seeds in three give MP the case study's
// TCTError.
func fuzzScenario(webLow, webHigh, capacity, a, b, c, read float64, maps int, arrival, deadline, noise float64, seed uint64) Scenario {
	maps = min(max(maps, -1), 50) // bound the work per input
	if arrival > 1e4 {
		arrival = 1e4 // a job the IO check never admits idles to the horizon: keep it near
	}
	m := tct.Exp2{A: a, B: b, C: c}
	types := []JobType{
		{Name: "fuzz", TCT: m, Model: scaled(m, 0.9), ReadRate: read, Read90: read * 1.5, Period: 100, HasDeadline: true},
		CaseStudyTypes(CaseStudyCluster(), PaperError)[0],
	}
	s := Scenario{
		Cluster: Cluster{VMs: []VMClass{Dedicated, {"x", webLow, webHigh}}, SlotsPerVM: 2, WebPeriod: 60, DataNodes: 1, NodeCapacity: capacity},
		Types:   types, Seed: seed, RecordUntil: 100, Offer: OfferOrder(seed % 2),
	}
	if seed%3 != 0 { // MP protects deadlines against the case study's errors
		s.TCTError = mpError(PaperError)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range 4 {
		n := max(maps, 0)
		nz := make([]float64, n)
		for k := range nz {
			nz[k] = noise + rng.Float64()
		}
		s.Jobs = append(s.Jobs, JobSpec{ID: i, Type: i % 2, Arrival: arrival + float64(i), Deadline: deadline + float64(i), Maps: maps, Noise: nz})
	}
	s.Horizon = math.Abs(arrival) + 4 + Drain
	return s
}

// FuzzRun: a fuzzed scenario either fails Validate or runs under every
// policy without error (a valid scenario never fails mid-run), with
// consistent accounting: met + missed ≤ deadline jobs, met + missed +
// rejected + failed ≤ jobs, finite non-negative task hours, IO slowdown and
// lateness, finish times after arrival.
func FuzzRun(f *testing.F) {
	f.Add(20.0, 35.0, 60.0, 25.0, -4.0, 1.0, 12.0, 3, 10.0, 200.0, 1.0, uint64(1))
	f.Add(0.0, 170.0, 0.001, 1e-3, 700.0, -1.0, MaxReadRate, 40, -1.0, math.NaN(), 0.0, uint64(2))
	f.Add(math.NaN(), 1.0, math.Inf(1), 1.0, 0.0, 1.0, 0.0, 0, 1e308, 1e308, 1e-300, uint64(3))
	f.Add(0.0, 0.0, 1e-3, 5e-324, 0.0, 0.0, math.MaxFloat64, 5, 0.0, math.Inf(-1), 999.0, uint64(4))
	f.Fuzz(func(t *testing.T, webLow, webHigh, capacity, a, b, c, read float64, maps int, arrival, deadline, noise float64, seed uint64) {
		checkRun(t, fuzzScenario(webLow, webHigh, capacity, a, b, c, read, maps, arrival, deadline, noise, seed))
	})
}

// propRun is FuzzRun with every input drawn at the edges of its range on
// purpose (MaxFloat64, subnormals, 1e±300, NaN, ±Inf, MaxReadRate and
// MaxTaskTime and just beyond, MinInt/MaxInt map counts), so that the
// ordinary test run meets the extremes too.
func propRun(t *rapid.T) {
	// Each input is an edge one time in six, so that a good share of the
	// scenarios are valid and run.
	f := func(name string, lo, hi float64) float64 {
		if rapid.IntRange(0, 5).Draw(t, name+"Edge") == 0 {
			return extremes.OrEdge(rapid.Float64Range(lo, hi), lo, hi).Draw(t, name)
		}
		return rapid.Float64Range(lo, hi).Draw(t, name)
	}
	maps := rapid.IntRange(0, 8).Draw(t, "maps")
	if rapid.IntRange(0, 5).Draw(t, "mapsEdge") == 0 {
		maps = extremes.OrIntEdge(rapid.IntRange(0, 8), 1, 50).Draw(t, "maps")
	}
	s := fuzzScenario(f("webLow", 0, 50), f("webHigh", 0, 200), f("capacity", 1e-3, MaxNodeCapacity),
		f("a", 0, 100), f("b", -50, 50), f("c", 0, 10), f("read", 0, MaxReadRate),
		maps, f("arrival", 0, 100), f("deadline", 0, 1000), f("noise", 0, 2), rapid.Uint64().Draw(t, "seed"))
	checkRun(t, s)
}

func TestPropRun(t *testing.T)  { rapid.Check(t, propRun) }
func FuzzRunEdges(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propRun)) }

// checkRun: s either fails Validate or runs under every policy without
// error, with consistent accounting (see FuzzRun).
func checkRun(t interface{ Fatalf(string, ...any) }, s Scenario) {
	{
		valid := s.Validate() == nil
		deadlineJobs := 0
		for _, j := range s.Jobs {
			if !math.IsInf(j.Deadline, 1) {
				deadlineJobs++
			}
		}
		for _, p := range Policies {
			res, err := Run(&s, p)
			if err != nil {
				if valid {
					t.Fatalf("%v: Run failed on a valid scenario: %v", p, err)
				}
				return
			}
			if !valid {
				t.Fatalf("%v: Run accepted an invalid scenario", p)
			}
			if res.Met+res.Missed > deadlineJobs || res.Met+res.Missed+res.Rejected+res.Failed > len(s.Jobs) {
				t.Fatalf("%v: accounting %+v", p, res)
			}
			for _, x := range []float64{res.TaskHours, res.IOSlowdownHours, res.AvgLateness, res.MaxLateness, res.Errors.MeanOver, res.Errors.MeanUnder} {
				if !(x >= 0) || math.IsInf(x, 0) {
					t.Fatalf("%v: a non-finite or negative figure in %+v", p, res)
				}
			}
			for i, o := range res.Outcomes {
				if !math.IsInf(o.Finish, 1) && !(o.Finish >= s.Jobs[i].Arrival) {
					t.Fatalf("%v: job %d finished at %v, arrived at %v", p, i, o.Finish, s.Jobs[i].Arrival)
				}
			}
		}
	}
}
