package deadlinecheck

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestSimulationStrategies works Kueue's two strategies by hand. A quota of
// 4 slots; X holds 2 of them for 100 s more; in queue order B wants all 4
// for 50 s, C one for 30 s. StrictFIFO: B waits for X (100) and C for B
// (150). BestEffortFIFO: C fits beside X at once (0), B starts at 100.
func TestSimulationStrategies(t *testing.T) {
	running := []etaJob{{share: 0.5, run: []float64{100}}}
	jobs := []etaJob{{share: 1, run: []float64{50}}, {share: 0.25, run: []float64{30}}}
	for _, tt := range []struct {
		strict bool
		want   []float64
	}{{true, []float64{100, 150}}, {false, []float64{100, 0}}} {
		starts := [][]float64{{0}, {0}}
		newSimulation(jobs, nil, walkPace{}).run(running, jobs, nil, tt.strict, 0, starts)
		for k, w := range tt.want {
			if starts[k][0] != w {
				t.Errorf("strict %v: job %d starts at %v, want %v", tt.strict, k, starts[k][0], w)
			}
		}
	}
	// Entering the queue later (a Retry's backoff) holds no one back, and
	// a workload being deactivated is placed but takes nothing: here C
	// starts at once behind the ghost B in StrictFIFO.
	jobs = []etaJob{{share: 1, run: []float64{50}, notBefore: 500}, {share: 1, run: []float64{50}, ghost: true}, {share: 0.5, run: []float64{30}}}
	starts := [][]float64{{0}, {0}, {0}}
	newSimulation(jobs, nil, walkPace{}).run(running, jobs, nil, true, 0, starts)
	if starts[0][0] != 500 || starts[1][0] != 100 || starts[2][0] != 0 {
		t.Errorf("starts %v, want 500, 100, 0", starts)
	}
}

// TestSimulationLatestStart works a rejection the replay foresees by hand.
// X holds the whole quota for 10 s more; in queue order A wants all of it
// for 50 s, B for 20 s. A gets quota at 10: with a latest start of 5 the
// check rejects it then and B starts at 10 too; with a latest start of 10
// (not past it) or none, A holds the quota and B starts at 60.
func TestSimulationLatestStart(t *testing.T) {
	running := []etaJob{{share: 1, run: []float64{10}}}
	for _, tt := range []struct {
		expires bool
		latest  float64
		b       float64
	}{{true, 5, 10}, {true, 10, 60}, {false, 5, 60}} {
		jobs := []etaJob{{share: 1, run: []float64{50}, expires: tt.expires, latest: tt.latest}, {share: 1, run: []float64{20}}}
		for _, strict := range []bool{false, true} {
			starts := [][]float64{{-1}, {-1}}
			newSimulation(jobs, nil, walkPace{}).run(running, jobs, nil, strict, 0, starts)
			if starts[0][0] != 10 || starts[1][0] != tt.b {
				t.Errorf("latest %v (expires %v), strict %v: starts %v, want A at 10, B at %v", tt.latest, tt.expires, strict, starts, tt.b)
			}
		}
	}
}

// propSimulation checks a simulated sample against an independent replay
// of its starts: no job starts before it enters the queue; whenever a job
// (not a ghost) starts, it fits the quota left by the jobs running then;
// BestEffortFIFO leaves no job waiting at an event that would fit then;
// StrictFIFO starts jobs that enter at once in queue order; a ghost starts
// where it would fit, holding nothing.
func propSimulation(t *rapid.T) {
	n := rapid.IntRange(0, 4).Draw(t, "running")
	running := make([]etaJob, n)
	for i := range running {
		running[i] = etaJob{share: float64(rapid.IntRange(1, 4).Draw(t, "r share")) / 4, run: []float64{float64(rapid.IntRange(0, 100).Draw(t, "r run"))}}
	}
	m := rapid.IntRange(1, 6).Draw(t, "pending")
	jobs := make([]etaJob, m)
	for k := range jobs {
		jobs[k] = etaJob{share: float64(rapid.IntRange(1, 4).Draw(t, "share")) / 4, ghost: rapid.IntRange(0, 4).Draw(t, "ghost") == 0}
		if rapid.IntRange(0, 4).Draw(t, "run?") > 0 {
			jobs[k].run = []float64{float64(rapid.IntRange(0, 100).Draw(t, "run"))}
		}
		if rapid.IntRange(0, 3).Draw(t, "later?") == 0 {
			jobs[k].notBefore = float64(rapid.IntRange(1, 200).Draw(t, "not before"))
		}
	}
	strict := rapid.Bool().Draw(t, "strict")
	starts := make([][]float64, m)
	for k := range starts {
		starts[k] = []float64{-1}
	}
	newSimulation(jobs, nil, walkPace{}).run(running, jobs, nil, strict, 0, starts)

	// Replay: what holds quota at time x when job before is placed: the
	// jobs started before x, and those started at x ahead of it in queue
	// order, still running after x (before = len(jobs): every job started
	// by x).
	used := func(x float64, before int) float64 {
		u := 0.0
		for _, r := range running {
			if r.run[0] > x {
				u += r.share
			}
		}
		for k, j := range jobs {
			if k == before || j.ghost || j.run == nil {
				continue
			}
			if s := starts[k][0]; (s < x || (s == x && k < before)) && s+j.run[0] > x {
				u += j.share
			}
		}
		return u
	}
	events := []float64{0}
	for _, r := range running {
		events = append(events, r.run[0])
	}
	for k, j := range jobs {
		s := starts[k][0]
		if math.IsInf(s, 1) || s < 0 {
			t.Fatalf("job %d never started (%v): every share fits an empty quota", k, s)
		}
		if s < j.notBefore {
			t.Fatalf("job %d starts at %v before it enters the queue at %v", k, s, j.notBefore)
		}
		if j.share > 1-used(s, k)+fitSlack {
			t.Fatalf("job %d (share %v) starts at %v with %v of the quota in use", k, j.share, s, used(s, k))
		}
		events = append(events, j.notBefore)
		if !j.ghost && j.run != nil {
			events = append(events, s+j.run[0])
		}
	}
	if !strict {
		for _, x := range events {
			for k, j := range jobs {
				if j.notBefore <= x && starts[k][0] > x && j.share <= 1-used(x, len(jobs))+fitSlack {
					t.Fatalf("BestEffortFIFO: job %d (share %v) waits past %v although %v of the quota is free then", k, j.share, x, 1-used(x, len(jobs)))
				}
			}
		}
	} else {
		last := 0.0
		for k, j := range jobs {
			if j.ghost || j.notBefore > 0 {
				continue
			}
			if starts[k][0] < last {
				t.Fatalf("StrictFIFO: job %d starts at %v, before an earlier job's %v", k, starts[k][0], last)
			}
			last = starts[k][0]
		}
	}
}

func TestPropSimulation(t *testing.T) { rapid.Check(t, propSimulation) }
func FuzzSimulation(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propSimulation)) }

// Kueue's order, not EDF: of two waiting workloads, the higher-priority one
// starts first although its deadline is later; at equal priority the one
// created first does.
func TestPlanETAKueueOrder(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	ws := []Workload{
		{Key: "ns/busy", UID: "busy", Phase: Promised, Pods: 4, Slots: 4, RunTime: fixed(100)},
		{Key: "ns/urgent", UID: "urgent", Created: at(-60), QueueTime: at(-60), Phase: Waiting, Deadline: at(3000), Pods: 4, Slots: 4, RunTime: fixed(200)},
		{Key: "ns/vip", UID: "vip", Created: at(-30), QueueTime: at(-30), Priority: 100, Phase: Waiting, Deadline: at(5000), Pods: 4, Slots: 4, RunTime: fixed(300)},
		{Key: "ns/last", UID: "last", Created: at(-10), QueueTime: at(-10), Phase: Waiting, Pods: 4, Slots: 4, RunTime: fixed(50)},
	}
	outs, err := Plan(Queue{Name: "cq"}, ws, t0, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"ns/vip": {100, 400}, "ns/urgent": {400, 600}, "ns/last": {600, 650}}
	for _, o := range outs {
		w, ok := want[o.Key]
		if !ok {
			continue
		}
		if o.ETA == nil || !o.ETA.StartP50.Equal(at(w[0])) || !o.ETA.FinishP90.Equal(at(w[1])) {
			t.Errorf("%s: ETA %+v, want start %d s, finish %d s", o.Key, o.ETA, w[0], w[1])
		}
	}
}

// TestStartDelay works the start delay by hand: pods of an exact 10 s run
// time with a 3 s start delay. Not admitted: 3 + 10 = 13 s left; admitted
// 2 s ago: 1 s of delay and the 10 s run left; admitted 5 s ago: its pods
// have run 2 s, 8 s left. Two pods over four slots: fluid is half the sum.
func TestStartDelay(t *testing.T) {
	for _, tt := range []struct {
		executed time.Duration
		own      float64
	}{{0, 13}, {2 * time.Second, 11}, {5 * time.Second, 8}, {20 * time.Second, 0}} {
		w := Workload{UID: "u", Pods: 2, Slots: 4, Executed: tt.executed, RunTime: &RunTime{Exact: 10}}
		wk, err := drawWork(w, 1, 1, 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if wk.own[0] != tt.own || wk.fluid[0] != tt.own/2 {
			t.Errorf("executed %v: own %v, fluid %v; want %v, %v", tt.executed, wk.own[0], wk.fluid[0], tt.own, tt.own/2)
		}
	}
	if err := (Config{Confidence: 0.9, Samples: 1, MinRetry: time.Second, MaxRetry: time.Second, StartDelay: -time.Second}).Validate(); err == nil ||
		err.Error() != "start-delay = -1s: must be in [0s, 1h]" {
		t.Errorf("StartDelay -1s: %v", err)
	}
}

// TestETAPassAllocations: a pass after a ClusterQueue's first allocates
// its block of ETAs and the string of its notes, whatever the queue's
// length (the rest is in the ClusterQueue's etaScratch).
func TestETAPassAllocations(t *testing.T) {
	for _, n := range []int{50, 400} {
		pass := etaPassOf(t, n, 200)
		outs := pass()
		if a := testing.AllocsPerRun(3, func() { pass() }); a != 2 {
			t.Errorf("%d workloads: %v allocations per pass, want 2 (the ETAs' block, the notes' string)", n, a)
		}
		if outs[n-1].ETA == nil || outs[n-1].Note == "" {
			t.Errorf("%d workloads: the last waiting one has ETA %v, note %q", n, outs[n-1].ETA, outs[n-1].Note)
		}
	}
}
