package hadoopsim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

func TestResidual(t *testing.T) {
	for _, c := range []struct{ web, r float64 }{
		{0, 1}, {20, 0.9}, {90, 0.55}, {130, 0.35}, {170, 0.15}, {164, 0.18}, {250, 0}, {-10, 1},
		{math.NaN(), 0}, {math.Inf(1), 0}, {math.Inf(-1), 1}, {math.MaxFloat64, 0},
	} {
		if got := Residual(c.web); math.Abs(got-c.r) > 1e-12 {
			t.Errorf("Residual(%v) = %v, want %v", c.web, got, c.r)
		}
	}
}

// TestModelsShapedLikeFig6: Pi and grep-search rise steeply with web load,
// Sort barely; every model is 1 at a dedicated slot and decreasing in r.
func TestModelsShapedLikeFig6(t *testing.T) {
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	norm := func(i int, r float64) float64 { return types[i].TCT.TCT(r) / types[i].TCT.TCT(1) }
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
	// The map counts depend on the world's TCT only, not on the error.
	exact := CaseStudyTypes(CaseStudyCluster(), PredictionError{})
	for i := range types {
		if types[i].Maps != exact[i].Maps || types[i].TCT != exact[i].TCT {
			t.Errorf("%s: maps %d vs %d with exact estimates", types[i].Name, types[i].Maps, exact[i].Maps)
		}
	}
}

// TestPredictionErrorStatistics: ratios drawn from PaperError have §6.3.1's
// statistics (57% over-predicted, by 35%; the rest under by 29%), the task
// factor has mean 1, and MeanRatio matches the draws.
func TestPredictionErrorStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 400_000
	var over, under, sumOver, sumUnder, sumRatio, sumFactor float64
	e := PaperError
	for range n {
		nu := e.ratio(rng)
		sumRatio += nu
		pred, actual := 1.0, nu // predicted / actual = 1/ν
		if pred > actual {
			over++
			sumOver += (pred - actual) / actual
		} else {
			under++
			sumUnder += (actual - pred) / actual
		}
		sumFactor += e.Factor(rng)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"share over", over / n, 0.57},
		{"mean over", sumOver / over, 0.35},
		{"mean under", sumUnder / under, 0.29},
		{"E[ν]", sumRatio / n, e.MeanRatio()},
		{"E[ε]", sumFactor / n, 1},
	} {
		if math.Abs(c.got-c.want) > 0.004 {
			t.Errorf("%s = %.4f, want %.4f", c.name, c.got, c.want)
		}
	}
	if m := e.MeanRatio(); math.Abs(m-1.0752) > 1e-4 {
		t.Errorf("MeanRatio = %v, want ≈ 1.0752 (0.57·ln1.7/0.7 + 0.43·(−ln0.42)/0.58)", m)
	}
}

// TestRead90Factor: the closed-form time-weighted percentile agrees with a
// Monte-Carlo measurement (rates sampled in proportion to task time), and
// the zero error gives exactly 1.
func TestRead90Factor(t *testing.T) {
	if f := (PredictionError{}).Read90Factor(); f != 1 {
		t.Errorf("zero error: Read90Factor = %v, want 1", f)
	}
	if f := (PredictionError{OverShare: 0.5}).Read90Factor(); f != 1 {
		t.Errorf("no spread: Read90Factor = %v, want 1", f)
	}
	for _, e := range []PredictionError{PaperError, {0.2, 0.1, 0.45}, {0.9, 2, 0.1}, {0, 0, 0.3}, {1, 0.5, 0}} {
		rng := rand.New(rand.NewPCG(5, 6))
		const n = 200_000
		type sample struct{ rate, weight float64 }
		s := make([]sample, n)
		total := 0.0
		for i := range s {
			eps := e.Factor(rng)
			s[i] = sample{1 / eps, eps}
			total += eps
		}
		// The 90th percentile of the rate, weighting each task by its time.
		slices.SortFunc(s, func(a, b sample) int { return cmp.Compare(a.rate, b.rate) })
		acc, q := 0.0, 0.0
		for _, x := range s {
			acc += x.weight
			if acc >= ReadQuantile*total {
				q = x.rate
				break
			}
		}
		if got := e.Read90Factor(); math.Abs(got/q-1) > 0.01 {
			t.Errorf("%+v: Read90Factor %.4f, Monte Carlo %.4f", e, got, q)
		}
	}
	if got := PaperError.Read90Factor(); math.Abs(got-1.6018) > 1e-3 {
		t.Errorf("PaperError.Read90Factor = %.4f, want ≈ 1.6018", got)
	}
}

func TestPredictionErrorValidate(t *testing.T) {
	for _, c := range []struct {
		e     PredictionError
		field string
	}{
		{PredictionError{OverShare: -0.1}, "OverShare"},
		{PredictionError{OverShare: math.NaN()}, "OverShare"},
		{PredictionError{OverShare: 1.5}, "OverShare"},
		{PredictionError{MeanOver: -1}, "MeanOver"},
		{PredictionError{MeanOver: math.Inf(1)}, "MeanOver"},
		{PredictionError{MeanUnder: 0.5}, "MeanUnder"},
		{PredictionError{MeanUnder: math.NaN()}, "MeanUnder"},
	} {
		err := c.e.Validate()
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: error %v, want one naming %s", c.e, err, c.field)
		}
		if _, err := ConditionedTrace(CaseStudyTypes(CaseStudyCluster(), PaperError), 100, 3, c.e, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v: ConditionedTrace accepted it", c.e)
		}
	}
	if err := PaperError.Validate(); err != nil {
		t.Error(err)
	}
}

// TestWithEstimates: Model is TCT scaled by 1/E[ν] (NormTCT unchanged), and
// Read90 the mean read rate; the percentile variant scales Read90 only.
func TestWithEstimates(t *testing.T) {
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	for _, jt := range types {
		for _, r := range []float64{0, 0.3, 1} {
			if got, want := jt.Model.TCT(r)/jt.TCT.TCT(r), 1/PaperError.MeanRatio(); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: Model/TCT at %v = %v, want %v", jt.Name, r, got, want)
			}
			if a, b := jt.Model.NormTCT(r), jt.TCT.NormTCT(r); math.Abs(a-b) > 1e-12*b {
				t.Errorf("%s: NormTCT %v vs %v", jt.Name, a, b)
			}
		}
		if jt.Read90 != jt.ReadRate {
			t.Errorf("%s: Read90 %v, ReadRate %v", jt.Name, jt.Read90, jt.ReadRate)
		}
	}
	p90 := WithRead90Percentile(types, PaperError)
	for i := range p90 {
		if got := p90[i].Read90; math.Abs(got-types[i].ReadRate*PaperError.Read90Factor()) > 1e-12 || p90[i].Model != types[i].Model {
			t.Errorf("%s: percentile Read90 %v", p90[i].Name, got)
		}
	}
	if types[1].Read90 != 12 {
		t.Error("WithRead90Percentile changed its input")
	}
}

// TestRunAccounting: every job ends up met, missed, rejected, failed or
// deadline-free; runs are deterministic; the IO slowdown is part of the
// task time.
func TestRunAccounting(t *testing.T) {
	s := SweepScenario(3, 2, PaperError)
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
		if (p == MPAC || p == MPACPaper || p == MPACStrict) != (a.Rejected > 0) {
			t.Errorf("%v rejected %d", p, a.Rejected)
		}
		if !(a.IOSlowdownHours >= 0 && a.IOSlowdownHours < a.TaskHours) {
			t.Errorf("%v: IO slowdown %v h of %v h", p, a.IOSlowdownHours, a.TaskHours)
		}
		for i, o := range a.Outcomes {
			if o.Admitted && !math.IsInf(o.Finish, 1) && o.Finish < s.Jobs[i].Arrival {
				t.Errorf("%v: job %d finished before it arrived", p, i)
			}
		}
	}
}

// TestRealisedErrorsArePapers: on an unconstrained cluster (no overload) the
// scheduler's realised TCT prediction errors are those of MIMP §6.3.1.
func TestRealisedErrorsArePapers(t *testing.T) {
	s := CaseStudy(1, PaperError)
	s.Cluster.DataNodes = 0
	for _, p := range []Policy{EDF, MP} {
		r, err := Run(&s, p)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Errors
		if math.Abs(got.OverShare-0.57) > 0.02 || math.Abs(got.MeanOver-0.35) > 0.02 || math.Abs(got.MeanUnder-0.29) > 0.02 {
			t.Errorf("%v: realised errors %+v, want ≈ %+v", p, got, PaperError)
		}
		if r.IOSlowdownHours != 0 || r.OverloadedStarts != 0 {
			t.Errorf("%v: overload on an unconstrained cluster", p)
		}
	}
}

// TestWorldConservesBytes: however overloaded the data nodes are, a task
// reads ReadRate·TCT(1) MB: rate × run time is the same for every task,
// and the slowdown is the run time beyond TCT(r)·ε.
func TestWorldConservesBytes(t *testing.T) {
	c := Cluster{VMs: make([]VMClass, 8), SlotsPerVM: 1, DataNodes: 1, NodeCapacity: 10}
	w := newWorld(c)
	jt := CaseStudyTypes(CaseStudyCluster(), PaperError)[4] // GrepSearch, 15 MB/s
	bytes := jt.ReadRate * jt.TCT.TCT(1)
	over := 0
	for sl, r := range []float64{1, 0.9, 0.5, 0.2, 1, 1, 0.3, 0.7} {
		eps := 0.6 + 0.2*float64(sl)
		d, o := w.start(sl, &jt, r, eps)
		if o {
			over++
		}
		if got := w.read[sl] * d; math.Abs(got-bytes) > 1e-9*bytes {
			t.Errorf("slot %d: read %v MB, want %v", sl, got, bytes)
		}
		if base := jt.TCT.TCT(r) * eps; math.Abs(d-base-w.slow[sl]) > 1e-9*d {
			t.Errorf("slot %d: run %v = %v + slowdown %v?", sl, d, base, w.slow[sl])
		}
	}
	if over == 0 {
		t.Fatal("no task started on overloaded data nodes: the test checks nothing")
	}
	for sl := range 8 {
		w.end(sl)
	}
	if w.readSum != 0 || w.nReading != 0 {
		t.Errorf("after every task ended: read %v MB/s by %d tasks", w.readSum, w.nReading)
	}
}

// TestWebLoadPerVM: a VM's slots share one web VM, so they always have the
// same residual capacity; different VMs draw their own.
func TestWebLoadPerVM(t *testing.T) {
	c := CaseStudyCluster()
	r := &run{s: &Scenario{Cluster: c}, cluster: make([]admission.Slot, c.Slots())}
	rng := rand.New(rand.NewPCG(1, 2))
	distinct := map[float64]bool{}
	for range 50 {
		for v := range c.VMs {
			r.setWeb(v, rng)
		}
		for v := range c.VMs {
			a, b := r.cluster[2*v].R, r.cluster[2*v+1].R
			if a != b {
				t.Fatalf("VM %d: slots at %v and %v", v, a, b)
			}
			distinct[a] = true
		}
	}
	if len(distinct) < 100 {
		t.Errorf("only %d distinct residual capacities", len(distinct))
	}
}

// TestOfferOrder: one single-task job on a cluster of one dedicated and one
// heavy VM. In cluster order the task always lands on the dedicated VM; in
// heartbeat order the seed decides, and both VMs get it over 40 seeds.
func TestOfferOrder(t *testing.T) {
	types := CaseStudyTypes(CaseStudyCluster(), PredictionError{})[:1]
	heavy := 0
	for seed := range uint64(40) {
		s := Scenario{
			Cluster: Cluster{VMs: []VMClass{Dedicated, Heavy}, SlotsPerVM: 1},
			Types:   types,
			Jobs:    []JobSpec{{ID: 0, Type: 0, Deadline: math.Inf(1), Maps: 1, Noise: []float64{1}}},
			Seed:    seed, Horizon: 1000,
		}
		for _, o := range []OfferOrder{OfferHeartbeat, OfferClusterOrder} {
			s.Offer = o
			r, err := Run(&s, FIFO)
			if err != nil {
				t.Fatal(err)
			}
			if r.TasksTotal[0] != 1 {
				t.Fatalf("%v: %d tasks done", o, r.TasksTotal[0])
			}
			if o == OfferClusterOrder && r.TasksOnHeavy[0] != 0 {
				t.Errorf("cluster order, seed %d: task on the heavy VM", seed)
			}
			if o == OfferHeartbeat {
				heavy += r.TasksOnHeavy[0]
			}
		}
	}
	if heavy < 10 || heavy > 30 {
		t.Errorf("heartbeat order put the task on the heavy VM %d times in 40", heavy)
	}
}

func TestSWIMTrace(t *testing.T) {
	in := "job0\t5\t5\t134217729\t0\t0\njob1\t9\t4\t0\t0\t0\n\njob2\t20\t11\t1e12\t1\t1\n"
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	rng := rand.New(rand.NewPCG(1, 2))
	jobs, err := SWIMTrace(strings.NewReader(in), types, 0, 100, PaperError, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 || jobs[0].Maps != 2 || jobs[1].Maps != 1 || jobs[2].Maps != 100 || jobs[0].Arrival != 0 || jobs[2].Arrival != 15 {
		t.Errorf("jobs %+v", jobs)
	}
	for _, bad := range []string{"job0\t5\t5\n", "job0\tx\t1\t1\n", "job0\t1\t1\t-5\n", "job0\t1\t1\tNaN\n", "job0\t1e300\t1\t1\n", ""} {
		if _, err := SWIMTrace(strings.NewReader(bad), types, 0, 0, PaperError, rng); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestTraceBadInputs is the bad-input table of the trace generators: each
// case is an error naming the input, never a panic.
func TestTraceBadInputs(t *testing.T) {
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	rng := rand.New(rand.NewPCG(1, 1))
	zeroPeriod := append([]JobType(nil), types...)
	zeroPeriod[2].Period = 0
	nanPeriod := append([]JobType(nil), types...)
	nanPeriod[2].Period = math.NaN()
	bigMaps := append([]JobType(nil), types...)
	bigMaps[0].Maps = MaxJobMaps + 1
	line := "job0\t5\t5\t1\t0\t0\n"
	for _, c := range []struct {
		name  string
		types []JobType
		rng   *rand.Rand
		win   float64
		want  string
	}{
		{"nil types", nil, rng, 0, "types is empty"},
		{"nil rng", types, nil, 0, "rng is nil"},
		{"period 0", zeroPeriod, rng, 0, "types[2].Period = 0"},
		{"period NaN", nanPeriod, rng, 0, "types[2].Period = NaN"},
		{"maps too many", bigMaps, rng, 0, "types[0].Maps"},
		{"window NaN", types, rng, math.NaN(), "window = NaN"},
		{"window -1", types, rng, -1, "window = -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := SWIMTrace(strings.NewReader(line), c.types, c.win, 0, PaperError, c.rng)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("SWIMTrace: %v, want %q", err, c.want)
			}
			if c.win != 0 {
				return
			}
			if _, err := PoissonTrace(c.types, 100, 1, PaperError, c.rng); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("PoissonTrace: %v, want %q", err, c.want)
			}
			if _, err := ConditionedTrace(c.types, 100, 5, PaperError, c.rng); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ConditionedTrace: %v, want %q", err, c.want)
			}
		})
	}
	if jobs, err := PoissonTrace(types, 100, -1, PaperError, rng); err != nil || len(jobs) != 0 {
		t.Errorf("PoissonTrace with load -1: %d jobs, %v; want 0, nil", len(jobs), err)
	}
	if jobs, err := ConditionedTrace(types, 100, -5, PaperError, rng); err != nil || len(jobs) != 0 {
		t.Errorf("ConditionedTrace with n = -5: %d jobs, %v; want 0, nil", len(jobs), err)
	}
}

func TestUtilizationEdges(t *testing.T) {
	if u := Utilization(Cluster{}, nil); u != 0 {
		t.Errorf("Utilization(Cluster{}, nil) = %v, want 0", u)
	}
	types := CaseStudyTypes(CaseStudyCluster(), PaperError)
	if u := Utilization(Cluster{}, types); u != 0 {
		t.Errorf("Utilization with no slots = %v, want 0", u)
	}
	if u := Utilization(CaseStudyCluster(), types); !(u > 0.5 && u < 1) {
		t.Errorf("case-study utilization %v", u)
	}
	if u := OfferedUtilization(&Scenario{}); u != 0 {
		t.Errorf("OfferedUtilization(empty) = %v", u)
	}
	s := CaseStudy(1, PaperError)
	s.Cluster = Cluster{}
	if u := OfferedUtilization(&s); u != 0 {
		t.Errorf("OfferedUtilization with no slots = %v", u)
	}
	if c := (Cluster{}).MeanCapacity(); c != 0 {
		t.Errorf("MeanCapacity(Cluster{}) = %v", c)
	}
}

// TestExp2Range: the closed-form range agrees with a dense grid, including
// a model that dips far below both ends inside [0, 1].
func TestExp2Range(t *testing.T) {
	for _, m := range []tct.Exp2{
		{A: 1, B: -50, C: 1e-20, D: 50}, // convex, minimum ≈ 7e-10 at r = 0.5
		{A: 2, B: 1, C: -1, D: 2},       // concave bump
		{A: 25, B: -4, C: 1, D: 0},
		{A: 1, B: 0, C: 0, D: 0},
	} {
		lo, hi := exp2Range(m)
		glo, ghi := math.Inf(1), math.Inf(-1)
		for k := 0; k <= 100000; k++ {
			v := m.TCT(float64(k) / 100000)
			glo, ghi = math.Min(glo, v), math.Max(ghi, v)
		}
		near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-6*math.Max(1e-12, math.Abs(y)) }
		if !near(lo, glo) && !(lo < glo && glo-lo < 1e-3*math.Abs(glo)) || !near(hi, ghi) && !(hi > ghi && hi-ghi < 1e-3*math.Abs(ghi)) {
			t.Errorf("%+v: range [%v, %v], grid [%v, %v]", m, lo, hi, glo, ghi)
		}
	}
}

// TestRunBadScenarios is the bad-input table of Run (and Validate): each
// bad field gives an error naming it, before any simulation.
func TestRunBadScenarios(t *testing.T) {
	base := CaseStudy(1, PaperError)
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name   string
		mutate func(s *Scenario)
		field  string
	}{
		{"no VMs", func(s *Scenario) { s.Cluster.VMs = nil }, "SlotsPerVM"},
		{"0 slots per VM", func(s *Scenario) { s.Cluster.SlotsPerVM = 0 }, "SlotsPerVM"},
		{"too many slots", func(s *Scenario) { s.Cluster.SlotsPerVM = MaxSlots }, "SlotsPerVM"},
		{"web band NaN", func(s *Scenario) { s.Cluster.VMs = []VMClass{{"x", nan, 1}} }, "VMs[0]"},
		{"web band inverted", func(s *Scenario) { s.Cluster.VMs = []VMClass{{"x", 50, 10}} }, "VMs[0]"},
		{"WebPeriod Inf", func(s *Scenario) { s.Cluster.WebPeriod = inf }, "WebPeriod"},
		{"WebPeriod 1e-300", func(s *Scenario) { s.Cluster.WebPeriod = 1e-300 }, "WebPeriod"},
		{"too many web draws", func(s *Scenario) { s.Cluster.WebPeriod = 1; s.Horizon = MaxTime }, "web-load redraws"},
		{"DataNodes -1", func(s *Scenario) { s.Cluster.DataNodes = -1 }, "DataNodes"},
		{"DataNodes huge", func(s *Scenario) { s.Cluster.DataNodes = MaxSlots + 1 }, "DataNodes"},
		{"NodeCapacity NaN", func(s *Scenario) { s.Cluster.NodeCapacity = nan }, "NodeCapacity"},
		{"NodeCapacity 0", func(s *Scenario) { s.Cluster.NodeCapacity = 0 }, "NodeCapacity"},
		{"NodeCapacity 1e-300", func(s *Scenario) { s.Cluster.NodeCapacity = 1e-300 }, "NodeCapacity"},
		{"model negative", func(s *Scenario) { s.Types[0].Model = tct.Exp2{A: -1} }, "Types[0].Model"},
		{"model Inf at r=1", func(s *Scenario) { s.Types[0].Model = tct.Exp2{A: 1, B: 1000} }, "Types[0].Model"},
		{"model TCT 5e-324", func(s *Scenario) { s.Types[0].Model = tct.Exp2{A: 5e-324} }, "Types[0].Model"},
		{"world TCT 5e-324", func(s *Scenario) { s.Types[0].TCT = tct.Exp2{A: 5e-324} }, "Types[0].TCT"},
		{"model dips inside [0,1]", func(s *Scenario) { s.Types[1].Model = tct.Exp2{A: 1, B: -50, C: 1e-20, D: 50} }, "Types[1].Model"},
		{"model NaN", func(s *Scenario) { s.Types[1].TCT = tct.Exp2{A: nan} }, "Types[1].TCT"},
		{"Read90 -1", func(s *Scenario) { s.Types[0].Read90 = -1 }, "Types[0].Read90"},
		{"Read90 MaxFloat64", func(s *Scenario) { s.Types[2].Read90 = math.MaxFloat64 }, "Types[2].Read90"},
		{"ReadRate MaxFloat64", func(s *Scenario) { s.Types[2].ReadRate = math.MaxFloat64 }, "Types[2].ReadRate"},
		{"ReadRate NaN", func(s *Scenario) { s.Types[2].ReadRate = nan }, "Types[2].ReadRate"},
		{"job ID not index", func(s *Scenario) { s.Jobs[3].ID = 7 }, "Jobs[3].ID"},
		{"job type 99", func(s *Scenario) { s.Jobs[3].Type = 99 }, "Jobs[3].Type"},
		{"job maps -1", func(s *Scenario) { s.Jobs[3].Maps = -1 }, "Jobs[3].Maps"},
		{"job maps huge", func(s *Scenario) { s.Jobs[3].Maps = MaxJobMaps + 1 }, "Jobs[3].Maps"},
		{"job noise too short", func(s *Scenario) { s.Jobs[3].Noise = nil }, "Jobs[3].Noise"},
		{"job noise NaN", func(s *Scenario) { s.Jobs[3].Noise[0] = nan }, "Jobs[3].Noise[0]"},
		{"job noise 0", func(s *Scenario) { s.Jobs[3].Noise[0] = 0 }, "Jobs[3].Noise[0]"},
		{"job noise 1e300", func(s *Scenario) { s.Jobs[3].Noise[1] = 1e300 }, "Jobs[3].Noise[1]"},
		{"job arrival NaN", func(s *Scenario) { s.Jobs[3].Arrival = nan }, "Jobs[3].Arrival"},
		{"job arrival -1", func(s *Scenario) { s.Jobs[3].Arrival = -1 }, "Jobs[3].Arrival"},
		{"job arrival 1e308", func(s *Scenario) { s.Jobs[3].Arrival = 1e308 }, "Jobs[3].Arrival"},
		{"job deadline NaN", func(s *Scenario) { s.Jobs[3].Deadline = nan }, "Jobs[3].Deadline"},
		{"job deadline -Inf", func(s *Scenario) { s.Jobs[3].Deadline = math.Inf(-1) }, "Jobs[3].Deadline"},
		{"job deadline -1e308", func(s *Scenario) { s.Jobs[3].Deadline = -1e308 }, "Jobs[3].Deadline"},
		{"horizon Inf", func(s *Scenario) { s.Horizon = inf }, "Horizon"},
		{"horizon NaN", func(s *Scenario) { s.Horizon = nan }, "Horizon"},
		{"horizon -1", func(s *Scenario) { s.Horizon = -1 }, "Horizon"},
		{"horizon before last arrival", func(s *Scenario) { s.Horizon = LastArrival(s.Jobs) - 1 }, "Horizon"},
		{"RecordUntil NaN", func(s *Scenario) { s.RecordUntil = nan }, "RecordUntil"},
		{"Offer 9", func(s *Scenario) { s.Offer = 9 }, "Offer"},
		{"Margin 0.5", func(s *Scenario) { s.Margin = 0.5 }, "Margin"},
		{"Margin NaN", func(s *Scenario) { s.Margin = nan }, "Margin"},
		{"Margin above admission.MaxMargin", func(s *Scenario) { s.Margin = 1e4 }, "Margin"},
		{"TCTError mean NaN", func(s *Scenario) { s.TCTError.Mean = nan }, "TCTError"},
		{"TCTError spread without mean", func(s *Scenario) { s.TCTError = edf.TCTError{Spread: 1} }, "TCTError"},
		{"TCTError spread -1", func(s *Scenario) { s.TCTError.Spread = -1 }, "TCTError"},
		{"TCTError spread +Inf", func(s *Scenario) { s.TCTError.Spread = inf }, "TCTError"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			s.Types = append([]JobType(nil), base.Types...)
			s.Jobs = append([]JobSpec(nil), base.Jobs...)
			s.Jobs[3].Noise = append([]float64(nil), base.Jobs[3].Noise...)
			c.mutate(&s)
			_, err := Run(&s, MP)
			if err == nil || !strings.Contains(err.Error(), c.field) {
				t.Errorf("error %v, want one naming %s", err, c.field)
			}
		})
	}
	if _, err := Run(&base, Policy(9)); err == nil || !strings.Contains(err.Error(), "policy") {
		t.Errorf("unknown policy: %v", err)
	}
	if _, err := Run(nil, MP); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Run(nil): %v", err)
	}
	tooMany := base
	tooMany.Jobs = make([]JobSpec, 5)
	for i := range tooMany.Jobs {
		tooMany.Jobs[i] = JobSpec{ID: i, Deadline: math.Inf(1), Maps: MaxJobMaps, Noise: make([]float64, 0)}
	}
	if _, err := Run(&tooMany, MP); err == nil || !strings.Contains(err.Error(), "MaxTasks") && !strings.Contains(err.Error(), "Noise") {
		t.Errorf("too many tasks: %v", err)
	}
}

// TestTaskFactors: a trace's duration factors have mean ≈ 1 and the spread
// of PaperError; the same seed with exact estimates gives the same arrivals
// and factors of 1.
func TestTaskFactors(t *testing.T) {
	s := CaseStudy(1, PaperError)
	var n, sum float64
	for _, j := range s.Jobs {
		for _, f := range j.Noise {
			n, sum = n+1, sum+f
		}
	}
	if mean := sum / n; math.Abs(mean-1) > 0.01 {
		t.Errorf("factor mean %.4f over %v tasks, want 1", mean, n)
	}
	exact := CaseStudy(1, PredictionError{})
	for i, j := range exact.Jobs {
		if j.Arrival != s.Jobs[i].Arrival || j.Type != s.Jobs[i].Type {
			t.Fatalf("job %d differs between errors", i)
		}
		for _, f := range j.Noise {
			if f != 1 {
				t.Fatalf("exact estimates: factor %v", f)
			}
		}
	}
}

func BenchmarkCaseStudy(b *testing.B) {
	s := CaseStudy(1, PaperError)
	for _, p := range []Policy{EDF, MP, MPAC, MPACStrict} {
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
