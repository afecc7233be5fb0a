package hadoopsim

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/tct"
)

func TestResidual(t *testing.T) {
	for _, c := range []struct{ web, r float64 }{{0, 1}, {20, 0.9}, {90, 0.55}, {130, 0.35}, {170, 0.15}, {164, 0.18}, {250, 0}, {-10, 1}} {
		if got := Residual(c.web); math.Abs(got-c.r) > 1e-12 {
			t.Errorf("Residual(%v) = %v, want %v", c.web, got, c.r)
		}
	}
}

// TestModelsShapedLikeFig6: Pi and grep-search rise steeply with web load,
// Sort barely; every model is 1 at a dedicated slot and decreasing in r.
func TestModelsShapedLikeFig6(t *testing.T) {
	types := CaseStudyTypes(CaseStudyCluster())
	norm := func(i int, r float64) float64 { return types[i].Model.TCT(r) / types[i].Model.TCT(1) }
	pi, sort, grep := 0, 1, 4
	if norm(pi, 0.2) < 3.5 || norm(grep, 0.2) < 3 || norm(sort, 0.2) > 1.4 {
		t.Errorf("NormTCT at r=0.2: Pi %.2f grep %.2f Sort %.2f", norm(pi, 0.2), norm(grep, 0.2), norm(sort, 0.2))
	}
	for i := range types {
		for r := 0.0; r < 1; r += 0.05 {
			if !(norm(i, r) > norm(i, r+0.05)) {
				t.Errorf("%s not decreasing at %v", types[i].Name, r)
			}
		}
	}
}

// TestRunAccounting: every job ends up met, missed, rejected, failed or
// deadline-free; runs are deterministic; completed tasks equal the maps of
// finished jobs at most.
func TestRunAccounting(t *testing.T) {
	s := SweepScenario(3, 2)
	for _, p := range Policies {
		a, err := Run(&s, p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Run(&s, p)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%v: not deterministic", p)
		}
		if a.Met+a.Missed+a.Rejected+a.Failed != len(s.Jobs) {
			t.Errorf("%v: %d+%d+%d+%d != %d jobs", p, a.Met, a.Missed, a.Rejected, a.Failed, len(s.Jobs))
		}
		if (p == MPAC || p == MPACStrict) != (a.Rejected > 0) {
			t.Errorf("%v rejected %d", p, a.Rejected)
		}
		for i, o := range a.Outcomes {
			if o.Admitted && !math.IsInf(o.Finish, 1) && o.Finish < s.Jobs[i].Arrival {
				t.Errorf("%v: job %d finished before it arrived", p, i)
			}
		}
	}
}

func TestSWIMTrace(t *testing.T) {
	in := "job0\t5\t5\t134217729\t0\t0\njob1\t9\t4\t0\t0\t0\n\njob2\t20\t11\t1e12\t1\t1\n"
	rng := rand.New(rand.NewPCG(1, 2))
	jobs, err := SWIMTrace(strings.NewReader(in), CaseStudyTypes(CaseStudyCluster()), 0, 100, 0.1, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 || jobs[0].Maps != 2 || jobs[1].Maps != 1 || jobs[2].Maps != 100 || jobs[0].Arrival != 0 || jobs[2].Arrival != 15 {
		t.Errorf("jobs %+v", jobs)
	}
	for _, bad := range []string{"job0\t5\t5\n", "job0\tx\t1\t1\n", "job0\t1\t1\t-5\n", "job0\t1\t1\tNaN\n", ""} {
		if _, err := SWIMTrace(strings.NewReader(bad), CaseStudyTypes(CaseStudyCluster()), 0, 0, 0.1, rng); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRunRejectsBadScenario(t *testing.T) {
	s := CaseStudy(1)
	s.Jobs = append([]JobSpec(nil), s.Jobs...)
	s.Jobs[3].Type = 99
	if _, err := Run(&s, MP); err == nil {
		t.Error("bad job type accepted")
	}
	if _, err := Run(&Scenario{}, MP); err == nil {
		t.Error("empty cluster accepted")
	}
}

func BenchmarkCaseStudy(b *testing.B) {
	s := CaseStudy(1)
	for _, p := range []Policy{EDF, MP, MPACStrict} {
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(&s, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzSWIMTrace: any input either parses into valid jobs (maps ≥ 1 and
// within the cap, arrivals ≥ 0 and sorted, one noise factor per map) or
// gives an error; it never panics.
func FuzzSWIMTrace(f *testing.F) {
	f.Add("job0\t5\t5\t134217729\t0\t0\njob1\t9\t4\t0\t0\t0\n", 0.0, 10)
	f.Add("job0\t1e300\t1\t1e300\t0\t0\n", 100.0, 0)
	types := CaseStudyTypes(CaseStudyCluster())
	f.Fuzz(func(t *testing.T, in string, window float64, maxMaps int) {
		if maxMaps < 0 || maxMaps > 1000 {
			maxMaps = 1000 // bound the work per input; noise is drawn per map
		}
		if !(window >= 0) || math.IsInf(window, 0) {
			window = 0
		}
		if len(in) > 4096 {
			in = in[:4096]
		}
		jobs, err := SWIMTrace(strings.NewReader(in), types, window, max(maxMaps, 1), 0.1, rand.New(rand.NewPCG(1, 2)))
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

// TestIOCheckMatchesWorld: the simulation keeps the data nodes' load itself;
// MP's IO check (edf's bookkeeping of the same Eq. 5 loads) must agree with
// it, so MP never starts a task on overloaded nodes while EDF, which has no
// check, does. The horizon is one Drain after the last arrival.
func TestIOCheckMatchesWorld(t *testing.T) {
	s := CaseStudy(1)
	if want := LastArrival(s.Jobs) + Drain; s.Horizon != want {
		t.Errorf("horizon %v, want %v", s.Horizon, want)
	}
	mp, err := Run(&s, MP)
	if err != nil {
		t.Fatal(err)
	}
	edf, _ := Run(&s, EDF)
	if mp.OverloadedStarts != 0 || edf.OverloadedStarts == 0 {
		t.Errorf("overloaded starts: MP %d (want 0), EDF %d (want > 0)", mp.OverloadedStarts, edf.OverloadedStarts)
	}
}

// FuzzRun: a small scenario built from fuzzed numbers (web bands, data-node
// capacity, a job type's model and read rate, arrivals, deadlines, map counts
// and noise, some of them NaN, infinite or negative) either fails Validate
// or runs under every policy without panicking, with consistent accounting:
// met + missed ≤ deadline jobs, met + missed + rejected + failed ≤ jobs,
// finite non-negative task hours and lateness, finish times after arrival.
func FuzzRun(f *testing.F) {
	f.Add(20.0, 35.0, 60.0, 25.0, -4.0, 1.0, 12.0, 3, 10.0, 200.0, 1.0, uint64(1))
	f.Add(0.0, 170.0, 0.0, 1e-300, 700.0, -1.0, math.MaxFloat64, 40, -1.0, math.NaN(), 0.0, uint64(2))
	f.Add(math.NaN(), 1.0, math.Inf(1), 1.0, 0.0, 1.0, 0.0, 0, 1e308, 1e308, 1e-300, uint64(3))
	f.Fuzz(func(t *testing.T, webLow, webHigh, capacity, a, b, c, read float64, maps int, arrival, deadline, noise float64, seed uint64) {
		maps = min(max(maps, -1), 50) // bound the work per input
		if arrival > 1e4 {
			arrival = 1e4 // a job the IO check never admits idles to the horizon: keep it near
		}
		types := []JobType{
			{Name: "fuzz", Model: tct.Exp2{A: a, B: b, C: c}, Read90: read, Period: 100, HasDeadline: true},
			CaseStudyTypes(CaseStudyCluster())[0],
		}
		s := Scenario{
			Cluster: Cluster{VMs: []VMClass{Dedicated, {"x", webLow, webHigh}}, SlotsPerVM: 2, WebPeriod: 60, DataNodes: 1, NodeCapacity: capacity},
			Types:   types, WebSeed: seed, RecordUntil: 100,
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
		deadlineJobs := 0
		for _, j := range s.Jobs {
			if !math.IsInf(j.Deadline, 1) {
				deadlineJobs++
			}
		}
		for _, p := range Policies {
			res, err := Run(&s, p)
			if err != nil {
				if s.Validate() == nil {
					t.Fatalf("%v: Run failed on a valid scenario: %v", p, err)
				}
				return
			}
			if res.Met+res.Missed > deadlineJobs || res.Met+res.Missed+res.Rejected+res.Failed > len(s.Jobs) {
				t.Fatalf("%v: accounting %+v", p, res)
			}
			if !(res.TaskHours >= 0) || math.IsInf(res.TaskHours, 0) || !(res.AvgLateness >= 0) || math.IsInf(res.AvgLateness, 0) {
				t.Fatalf("%v: task hours %v, lateness %v", p, res.TaskHours, res.AvgLateness)
			}
			for i, o := range res.Outcomes {
				if !math.IsInf(o.Finish, 1) && !(o.Finish >= s.Jobs[i].Arrival) {
					t.Fatalf("%v: job %d finished at %v, arrived at %v", p, i, o.Finish, s.Jobs[i].Arrival)
				}
			}
		}
	})
}

// TestRunBadScenarios is the bad-input table of Run (and Validate).
func TestRunBadScenarios(t *testing.T) {
	base := CaseStudy(1)
	nan, inf := math.NaN(), math.Inf(1)
	for name, mutate := range map[string]func(s *Scenario){
		"no VMs":              func(s *Scenario) { s.Cluster.VMs = nil },
		"0 slots per VM":      func(s *Scenario) { s.Cluster.SlotsPerVM = 0 },
		"too many slots":      func(s *Scenario) { s.Cluster.SlotsPerVM = MaxSlots },
		"web band NaN":        func(s *Scenario) { s.Cluster.VMs = []VMClass{{"x", nan, 1}} },
		"web band inverted":   func(s *Scenario) { s.Cluster.VMs = []VMClass{{"x", 50, 10}} },
		"WebPeriod Inf":       func(s *Scenario) { s.Cluster.WebPeriod = inf },
		"WebPeriod 1e-300":    func(s *Scenario) { s.Cluster.WebPeriod = 1e-300 },
		"job arrival 1e308":   func(s *Scenario) { s.Jobs[3].Arrival = 1e308 },
		"DataNodes -1":        func(s *Scenario) { s.Cluster.DataNodes = -1 },
		"NodeCapacity NaN":    func(s *Scenario) { s.Cluster.NodeCapacity = nan },
		"model negative":      func(s *Scenario) { s.Types[0].Model = tct.Exp2{A: -1} },
		"model Inf at r=1":    func(s *Scenario) { s.Types[0].Model = tct.Exp2{A: 1, B: 1000} },
		"Read90 -1":           func(s *Scenario) { s.Types[0].Read90 = -1 },
		"job ID not index":    func(s *Scenario) { s.Jobs[3].ID = 7 },
		"job type 99":         func(s *Scenario) { s.Jobs[3].Type = 99 },
		"job maps -1":         func(s *Scenario) { s.Jobs[3].Maps = -1 },
		"job noise too short": func(s *Scenario) { s.Jobs[3].Noise = nil },
		"job noise NaN":       func(s *Scenario) { s.Jobs[3].Noise[0] = nan },
		"job noise 0":         func(s *Scenario) { s.Jobs[3].Noise[0] = 0 },
		"job arrival NaN":     func(s *Scenario) { s.Jobs[3].Arrival = nan },
		"job arrival -1":      func(s *Scenario) { s.Jobs[3].Arrival = -1 },
		"job deadline NaN":    func(s *Scenario) { s.Jobs[3].Deadline = nan },
		"horizon Inf":         func(s *Scenario) { s.Horizon = inf },
		"horizon NaN":         func(s *Scenario) { s.Horizon = nan },
	} {
		t.Run(name, func(t *testing.T) {
			s := base
			s.Types = append([]JobType(nil), base.Types...)
			s.Jobs = append([]JobSpec(nil), base.Jobs...)
			s.Jobs[3].Noise = append([]float64(nil), base.Jobs[3].Noise...)
			mutate(&s)
			if _, err := Run(&s, MP); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := Run(&base, Policy(9)); err == nil {
		t.Error("unknown policy accepted")
	}
	if n := len(PoissonTrace(base.Types, 100, -1, 0.1, rand.New(rand.NewPCG(1, 1)))); n != 0 {
		t.Errorf("PoissonTrace with load -1: %d jobs, want 0", n)
	}
	if n := len(ConditionedTrace(base.Types, 100, -5, 0.1, rand.New(rand.NewPCG(1, 1)))); n != 0 {
		t.Errorf("ConditionedTrace with n = -5: %d jobs, want 0", n)
	}
}

// TestTaskNoise: the trace's per-task noise factors have mean ≈ 1 and
// standard deviation ≈ NoiseSD (000 Table 2: ≈ 10% model error), and Run
// applies them: the same trace with every factor 1 gives a different total
// task time, within a few percent of the noisy one.
func TestTaskNoise(t *testing.T) {
	s := CaseStudy(1)
	var n, sum, sq float64
	for _, j := range s.Jobs {
		for _, f := range j.Noise {
			n, sum, sq = n+1, sum+f, sq+f*f
		}
	}
	mean := sum / n
	sd := math.Sqrt(sq/n - mean*mean)
	if math.Abs(mean-1) > 0.01 || math.Abs(sd-NoiseSD) > 0.01 {
		t.Errorf("noise mean %.4f sd %.4f over %v tasks, want 1 and %v", mean, sd, n, NoiseSD)
	}
	noisy, err := Run(&s, EDF)
	if err != nil {
		t.Fatal(err)
	}
	flat := s
	flat.Jobs = append([]JobSpec(nil), s.Jobs...)
	for i := range flat.Jobs {
		flat.Jobs[i].Noise = make([]float64, flat.Jobs[i].Maps)
		for k := range flat.Jobs[i].Noise {
			flat.Jobs[i].Noise[k] = 1
		}
	}
	exact, _ := Run(&flat, EDF)
	if noisy.TaskHours == exact.TaskHours || math.Abs(noisy.TaskHours/exact.TaskHours-1) > 0.05 {
		t.Errorf("task hours with noise %.3f, without %.3f", noisy.TaskHours, exact.TaskHours)
	}
}
