package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// checkRun asserts the invariants of one simulated run.
func checkRun(t *testing.T, jobs []JobSpec, r Result) {
	t.Helper()
	if r.Finished != len(jobs) {
		t.Fatalf("%d of %d jobs finished", r.Finished, len(jobs))
	}
	if r.Metrics.N != countedJobs || len(r.Actual) != countedJobs {
		t.Fatalf("metrics over %d jobs, want %d", r.Metrics.N, countedJobs)
	}
	k := 0
	for i, j := range jobs {
		if !j.Counted {
			continue
		}
		// A job of at most 400 tasks cannot beat its longest task.
		if len(j.Durations) <= 400 && r.Actual[k] < r.Ideal[k]*(1-1e-12) {
			t.Fatalf("job %d: response %v below ideal %v", i, r.Actual[k], r.Ideal[k])
		}
		k++
	}
	m := r.Metrics
	if !(m.SNP > 0 && m.SNP <= 1+1e-9) || !(m.L1 >= 1-1e-9) || !(m.L2 >= m.L1) || !(m.Unfairness >= 0 && m.Unfairness < 10) || !(m.AvgResponse > 0) {
		t.Fatalf("metrics out of range: %+v", m)
	}
	if r.ServedKills != 0 {
		t.Fatalf("%d victims from a pool being preempted for", r.ServedKills)
	}
	if !(r.WorkLost >= 0) || math.IsInf(r.WorkLost, 0) || r.LongKills > r.Kills || r.StarveKills > r.LongKills {
		t.Fatalf("work lost %v, kills %d, long %d, starving %d", r.WorkLost, r.Kills, r.LongKills, r.StarveKills)
	}
}

var (
	defaultOnce  sync.Once
	defaultOpts  Options
	defaultRun   []Cell
	defaultError error
)

// defaultCells runs the default scenario once for all tests: 5 seeds × 3
// positions × busy/idle × 2 policies; under the race detector or -short one
// seed and the first position.
func defaultCells(t *testing.T) (Options, []Cell) {
	defaultOnce.Do(func() {
		defaultOpts = Options{Reps: 5, Seed: 1, Positions: []int{1, 66, 92}}
		if raceEnabled || testing.Short() {
			defaultOpts.Reps, defaultOpts.Positions = 1, []int{1}
		}
		defaultRun, defaultError = Run(defaultOpts)
	})
	if defaultError != nil {
		t.Fatal(defaultError)
	}
	return defaultOpts, defaultRun
}

func TestDefaultScenario(t *testing.T) {
	o, cells := defaultCells(t)
	if want := 2 * 2 * len(o.Positions); len(cells) != want {
		t.Fatalf("%d cells, want %d", len(cells), want)
	}
	for _, c := range cells {
		if len(c.Runs) != o.Reps {
			t.Fatalf("%s p=%d %v: %d runs", c.Period, c.Position, c.Policy, len(c.Runs))
		}
		for r, res := range c.Runs {
			sc := Scenario{Period: c.Period, MeanGap: map[string]float64{"busy": 30, "idle": 80}[c.Period], LongPos: c.Position, Seed: o.Seed + uint64(r)}
			jobs, err := sc.Build(nil)
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, jobs, res)
			if c.Policy == Baseline && res.StarveKills != 0 {
				t.Fatal("the baseline has no starvation rule")
			}
		}
	}
	var buf bytes.Buffer
	PrintTable(&buf, cells, o.Reps)
	t.Logf("\n%s", buf.String())
	if !strings.Contains(buf.String(), "busy: GP changes SNP by") {
		t.Fatal("the table does not report the comparison")
	}
	s := Summary(cells).Periods
	busyB, busyG := s[0], s[1]
	t.Logf("busy: SNP baseline %.3f, GP %.3f (%+.1f%%; paper +15%%); unfairness %.3f vs %.3f",
		busyB.SNP, busyG.SNP, pct(busyG.SNP, busyB.SNP), busyB.Unfairness, busyG.Unfairness)
}

// Same scenario, same result, bit for bit; the two policies see the same jobs.
func TestDeterministic(t *testing.T) {
	sc := Scenario{Period: "busy", MeanGap: 30, LongPos: 66, Seed: 7}
	a, _ := sc.Build(nil)
	b, _ := sc.Build(nil)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Build is not deterministic")
	}
	ra, err := Simulate(DefaultConfig(), a, GP)
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := Simulate(DefaultConfig(), b, GP)
	if !reflect.DeepEqual(ra, rb) {
		t.Fatal("Simulate is not deterministic")
	}
}

// The workload is Table III: 130 jobs, the long job at its position, 39
// production jobs among the counted ones, 25 uncounted tail jobs.
func TestWorkloadShape(t *testing.T) {
	ord, long := tableIIIJobs()
	if len(ord) != 129 || long.maps != 250 || long.taskTime != 2500 {
		t.Fatalf("%d ordinary jobs, long %+v", len(ord), long)
	}
	maps := 0
	for _, j := range ord {
		maps += j.maps
	}
	if maps+long.maps != 28621 { // 49·1 + 21·2 + 18·10 + 11·50 + 8·100 + 8·250 + 5·400 + 5·800 + 2·1500 + 3000 + 5000 + 8000
		t.Fatalf("Table III has %d maps, want 28621", maps+long.maps)
	}
	for _, pos := range []int{1, 66, 92} {
		jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: pos, Seed: 3}.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != countedJobs+tailJobs || !jobs[pos-1].Long || len(jobs[pos-1].Durations) != 250 || jobs[pos-1].Prod {
			t.Fatalf("position %d: long job misplaced", pos)
		}
		prod, counted := 0, 0
		for i, j := range jobs {
			if j.Counted {
				counted++
				if j.Prod {
					prod++
				}
			}
			if i > 0 && j.Arrival < jobs[i-1].Arrival {
				t.Fatal("arrivals out of order")
			}
		}
		if counted != 130 || prod != 39 {
			t.Fatalf("counted %d, production %d; want 130, 39", counted, prod)
		}
	}
	if _, err := (Scenario{MeanGap: 30, LongPos: 131}).Build(nil); err == nil {
		t.Fatal("position 131 accepted")
	}
}

// The pool a check frees slots for loses no task to it (HFS's preemptTasks
// takes victims only from pools above their fair share; 003 §IV: a
// production job's arrival preempts non-production jobs). The model before
// review protected only the short pool's jobs below their own share, and GP
// then killed the newest tasks of the production jobs it was serving.
func TestServedPoolLosesNothing(t *testing.T) {
	jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: 1, Seed: 1}.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	old := DefaultConfig()
	old.ServedJobsOnly = true
	for _, pol := range []Policy{Baseline, GP} {
		r, err := Simulate(DefaultConfig(), jobs, pol)
		if err != nil {
			t.Fatal(err)
		}
		checkRun(t, jobs, r)
		ro, err := Simulate(old, jobs, pol)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: served-pool kills %d (pool protected), %d (jobs only)", pol, r.ServedKills, ro.ServedKills)
		if pol == GP && ro.ServedKills == 0 {
			t.Fatal("the jobs-only ablation no longer kills tasks of the served pool: this test cannot fail")
		}
	}
}

// The two readings of the graduated kill: 50% of what overflows at every
// check (default) kills more long-job tasks by the starvation rule than 50%
// of the onset overflow in all before T_timeout (-graduated-once).
func TestGraduatedOnce(t *testing.T) {
	jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: 1, Seed: 1}.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	once := DefaultConfig()
	once.GraduatedOnce = true
	ro, err := Simulate(once, jobs, GP)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, jobs, ro)
	rd, _ := Simulate(DefaultConfig(), jobs, GP)
	t.Logf("starvation kills: %d per check, %d once", rd.StarveKills, ro.StarveKills)
	if ro.StarveKills == 0 || ro.StarveKills >= rd.StarveKills {
		t.Fatalf("starvation kills %d (once) vs %d (per check)", ro.StarveKills, rd.StarveKills)
	}
}

func TestIdealTime(t *testing.T) {
	if got := IdealTime([]float64{5, 3, 4}, 2); got != 7 { // 5 | 3 then 4
		t.Fatalf("IdealTime = %v, want 7", got)
	}
	if got := IdealTime([]float64{5, 3}, 400); got != 5 {
		t.Fatalf("IdealTime = %v, want 5", got)
	}
}

// -json prints exactly the schema (periods busy/idle × baseline/GP)
// and -plot writes the charts, from one run.
func TestJSONSchemaAndPlot(t *testing.T) {
	o, cells := defaultCells(t)
	dir := t.TempDir()
	if raceEnabled {
		dir = "" // drawing 12 PNGs takes seconds under -race; covered without it
	}
	var buf bytes.Buffer
	if err := emit(&buf, cells, o.Reps, true, dir); err != nil {
		t.Fatal(err)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("not {\"periods\":[…]}: %v\n%s", err, buf.String())
	}
	keys := []string{"avg_response_s", "l1", "l2", "period", "policy", "snp", "unfairness", "work_lost_slot_s"}
	var got []string
	for _, row := range doc["periods"] {
		var ks []string
		for k := range row {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if !slices.Equal(ks, keys) {
			t.Fatalf("row keys %v, want %v", ks, keys)
		}
		got = append(got, row["period"].(string)+"/"+row["policy"].(string))
	}
	if want := []string{"busy/baseline", "busy/GP", "idle/baseline", "idle/GP"}; !slices.Equal(got, want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	if dir == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	if len(files) != 12 {
		t.Fatalf("%d PNGs, want 12", len(files))
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-reps", "0"}, {"-positions", "0"}, {"-positions", "x"}, {"-trace", "nope.txt"}, {"-trigger", "x"}, {"-preempt-timeout", "-1"}, {"-preempt-timeout", "NaN"}, {"-bogus"}} {
		if err := run(args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%v) accepted", args)
		}
	}
}

func TestTraces(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("reading traces is slow under -race / -short")
	}
	for _, path := range []string{
		"../../../shared/traces/swim-facebook/FB-2009_samples_24_times_1hr_0.tsv",
		"../../../shared/traces/google-clusterdata-2011/task_events-part-00000-of-00500.csv.gz",
	} {
		if _, err := os.Stat(path); err != nil {
			t.Logf("skip %s: %v", path, err)
			continue
		}
		ord, err := ReadTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(ord) != countedJobs-1+tailJobs {
			t.Fatalf("%s: %d jobs", path, len(ord))
		}
		jobs, err := Scenario{Period: "busy", MeanGap: 30, LongPos: 66, Seed: 1}.Build(ord)
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range []Policy{Baseline, GP} {
			r, err := Simulate(DefaultConfig(), jobs, pol)
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, jobs, r)
			t.Logf("%s %v: SNP %.3f unfairness %.3f avg resp %.0f s work lost %.0f slot·s", filepath.Base(path), pol, r.Metrics.SNP, r.Metrics.Unfairness, r.Metrics.AvgResponse, r.WorkLost)
		}
	}
}
