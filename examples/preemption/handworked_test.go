package main

import (
	"slices"
	"testing"

	"github.com/schedkit/schedkit/preempt"
)

// handConfig is a cluster small enough to follow by hand: one worker of 4
// slots, production and non-production classes with a minimum share of 2
// slots each, a check every 10 s, starvation judged over 30 s (3 checks),
// minSharePreemptionTimeout 10 s and no fair-share preemption.
func handConfig() Config {
	return Config{
		Workers: 1, SlotsPerWorker: 4, ProdShare: 0.5, CheckInterval: 10,
		Window: 30, BusySlots: preempt.DefaultBusySlots, BusyTime: preempt.DefaultBusyTime, Timeout: 60,
		Model: PerJob, MinShareTimeout: 10, FairShareTimeout: 1e6, Starvation: PerPeriod,
	}
}

// handJobs: J0, the long non-production job, 3 tasks of 200 s at t = 0
// (task IDs 0–2); J1, non-production, one task of 200 s at t = 15 (ID 3);
// J2, production, 2 tasks of 30 s at t = 25 (IDs 4, 5).
func handJobs() []JobSpec {
	return []JobSpec{
		{Arrival: 0, Durations: []float64{200, 200, 200}, Long: true, Counted: true, After: -1},
		{Arrival: 15, Durations: []float64{200}, Counted: true, After: -1},
		{Arrival: 25, Durations: []float64{30, 30}, Prod: true, Counted: true, After: -1},
	}
}

type handKill struct {
	at     float64
	id     int64
	reason preempt.Reason
	lost   float64
}

// checkVictims simulates jobs under pol, checks every victim (check time,
// task ID, reason, work lost) against want, and returns the run.
func checkVictims(t *testing.T, cfg Config, jobs []JobSpec, pol Policy, want []handKill) Result {
	t.Helper()
	var got []handKill
	cfg.inspect = func(now float64, _ preempt.Cluster, _ []int, d preempt.Decision) {
		for _, v := range d.Victims {
			got = append(got, handKill{now, v.ID, v.Reason, v.WorkLost})
		}
	}
	r, err := Simulate(cfg, jobs, pol)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%v: victims %v, want %v", pol, got, want)
	}
	return r
}

// The victims and their elapsed time under both policies, worked out by hand
// event by event.
//
// Both policies, up to t = 40. t = 0: J0 alone; non-production gets its 2
// slots plus the idle production part up to its demand, share 3, minimum
// share 2: tasks 0, 1, 2 start. t = 15: J1 (share 1, minimum 1) takes the
// free slot with task 3. t = 25: J2 arrives; shares become J0 1, J1 1, J2 2
// (each class its 2 slots), minimum shares the same. J2 runs 0 < 2 from
// t = 25. Checks at 10, 20, 30 ask for nothing (J2 below its minimum share
// for 5 s ≤ 10 s); the judgement at 30 finds the cluster not busy (2 of the
// samples at 10, 20, 30 above 90%: 3/4 slots at 10). t = 40: J2 has been
// below its minimum share for 15 s > 10 s: k = 2, J2 protected.
//
// Baseline, t = 40: J0 holds 3 > ⌈1⌉, its 2 overflowing tasks, newest first
// (all started at 0; lower ID first): 0 and 1, 40 s each = 80. J2 (needy,
// 0 of 2) gets both slots: tasks 4, 5 run 40–70. J0 relaunches 1 and 0 at
// 70, J1 finishes at 215, J0 at 270, J2 at 70. Total 80 slot·s, 2 kills.
//
// GP (and GP without starvation: the cluster is never found starving), t =
// 40: the newest tasks cluster-wide outside J2: task 3 (started 15, 25 s),
// then task 0 (40 s). Both J1 (0 of its minimum 1) and J2 (0 of 2) are now
// needy at ratio 0; the larger deficiency, J2's 2, takes task 4; then J1
// (0/1) comes before J2 (1/2) and restarts task 3. t = 50 and t = 60: J2
// still runs 1 < 2, k = 1; the newest task outside J2 is task 3 again,
// restarted at 40 and then at 50: 10 s each, and J1 (needy, ratio 0) takes
// the slot back each time. (At the judgement at 60 the others' queue, J1 0
// and J2 ⌊4/3⌉ = 1, is one job's and below n_task 10/3: no starvation.)
// t = 70: task 4 ends, J2 (share 1 now) runs task 5 to 100; task 0 restarts
// at 100. Total 25 + 40 + 10 + 10 = 85 slot·s, 4 kills: GP kills a task of a
// job at its minimum share, which the Fair Scheduler hands straight back.
func TestHandWorkedVictims(t *testing.T) {
	gp := []handKill{{40, 3, preempt.ReasonMostRecent, 25}, {40, 0, preempt.ReasonMostRecent, 40}, {50, 3, preempt.ReasonMostRecent, 10}, {60, 3, preempt.ReasonMostRecent, 10}}
	for _, tt := range []struct {
		pol      Policy
		kills    []handKill
		lost     float64
		longLost float64
		finishes []float64
	}{
		{Baseline, []handKill{{40, 0, preempt.ReasonOverflow, 40}, {40, 1, preempt.ReasonOverflow, 40}}, 80, 80, []float64{270, 215, 70}},
		{GP, gp, 85, 40, []float64{300, 260, 100}},
		{GPNoStarvation, gp, 85, 40, []float64{300, 260, 100}},
	} {
		r := checkVictims(t, handConfig(), handJobs(), tt.pol, tt.kills)
		if r.WorkLost != tt.lost || r.LongLost != tt.longLost || r.LostBySource != [numSources]float64{tt.lost, 0, 0} ||
			r.KillsBySource != [numSources]float64{float64(len(tt.kills)), 0, 0} || r.Episodes != 0 {
			t.Errorf("%v: work lost %v (long job %v, by source %v, kills %v), %d episodes; want %v (%v), all min-share preemption, none",
				tt.pol, r.WorkLost, r.LongLost, r.LostBySource, r.KillsBySource, r.Episodes, tt.lost, tt.longLost)
		}
		if !slices.Equal(r.Finishes, tt.finishes) {
			t.Errorf("%v: jobs finish at %v, want %v", tt.pol, r.Finishes, tt.finishes)
		}
	}
}

// starveConfig is handConfig with 8 slots and a 4-slot minimum share for
// each class.
func starveConfig() Config {
	c := handConfig()
	c.Workers = 2
	return c
}

// starveJobs: A, the long non-production job, 7 tasks of 200 s at t = 0
// (IDs 0–6); B, non-production, one task of 200 s at t = 1 (ID 7); C,
// non-production, 8 tasks of 200 s at t = 5 (IDs 8–15); D, production, 2
// tasks of 30 s at t = 6 (IDs 16, 17).
func starveJobs() []JobSpec {
	return []JobSpec{
		{Arrival: 0, Durations: []float64{200, 200, 200, 200, 200, 200, 200}, Long: true, Counted: true, After: -1},
		{Arrival: 1, Durations: []float64{200}, Counted: true, After: -1},
		{Arrival: 5, Durations: []float64{200, 200, 200, 200, 200, 200, 200, 200}, Counted: true, After: -1},
		{Arrival: 6, Durations: []float64{30, 30}, Prod: true, Counted: true, After: -1},
	}
}

// The slots preemption frees reach the pools it frees them for, and GP's
// starvation rule fills k first; worked out by hand.
//
// Shares from t = 6: production D 2 (minimum 2); non-production's 4 slots
// plus the 2 production leaves, 6, max-min over A (demand 7), B (1), C (8):
// A 2.5, B 1, C 2.5; minimum shares A 1.5, B 1, C 1.5. C (0 of ⌊1.5⌋ = 1
// since t = 5) and D (0 of 2 since t = 6) have been below their minimum
// shares for more than 10 s at t = 20: k = 1 + 2 = 3.
//
// Baseline, t = 20: A holds 7 > ⌈2.5⌉, 4 overflowing tasks; the newest three
// (IDs 0, 1, 2; all started at 0) lose 20 s each = 60. C and D are both
// needy at ratio 0: C (deficiency 2.5) takes task 8, then D (still needy,
// C no longer) tasks 16 and 17. By deficiency alone C (1.5 after one slot)
// would take the third slot from D (1). t = 30, the first judgement: busy
// (every sample full), the others' mean queue B 0 + C ⌊23/3⌉ = 8 + D
// ⌊4/3⌉ = 1 = 9 > n_task 22/3, no job above 90% of it, A holds 4 > 2.5:
// A starves the others (an episode, judged under every policy); the
// baseline does not act on it. t = 60 judges C's ⌊17/3⌉ = 6 ≤ n_task: the
// episode ends. D finishes at 50; A restarts its three tasks at 200, when
// its first tasks end (deficiency ties go to the earlier job), and C's last
// task starts at 250: A 400, B 201, C 450. Total 60 slot·s, 3 kills.
//
// GP, t = 20: the newest tasks outside C and D: B's task 7 (started 1, 19
// s), then A's tasks 0 and 1 (20 s each) = 59. Needy at ratio 0: B (0 of
// 1), C, D; C (deficiency 2.5) takes task 8, D (2) task 16, then B (ratio
// 0) before D (1/2) restarts task 7. t = 30: D runs 1 of 2, k = 1; the
// judgement finds A starving (others' mean queue 0 + 8 + ⌊5/3⌉ = 2 = 10 >
// n_task 23/3) with 2 overflowing tasks (5 held, ⌈2.5⌉ kept): ⌈50%⌉ = 1,
// the newest, task 2 (30 s), which fills k, so nothing more; D takes the
// slot (task 17, 30–60). t = 60 ends the episode (C's mean queue 6 ≤ 7).
// A restarts tasks 2, 1, 0 at 200; B finishes at 220, C at 460 (its last
// task starts at 260). Total 19 + 20 + 20 + 30 = 89 slot·s: GP's newest
// victims lose 59 where the baseline's lose 60, and the starvation rule
// adds 30 within k.
func TestHandWorkedStarvation(t *testing.T) {
	for _, tt := range []struct {
		pol       Policy
		kills     []handKill
		bySource  [numSources]float64
		finishes  []float64
		starvKill int
	}{
		{Baseline, []handKill{{20, 0, preempt.ReasonOverflow, 20}, {20, 1, preempt.ReasonOverflow, 20}, {20, 2, preempt.ReasonOverflow, 20}},
			[numSources]float64{60, 0, 0}, []float64{400, 201, 450, 50}, 0},
		{GP, []handKill{{20, 7, preempt.ReasonMostRecent, 19}, {20, 0, preempt.ReasonMostRecent, 20}, {20, 1, preempt.ReasonMostRecent, 20}, {30, 2, preempt.ReasonStarvingLongJob, 30}},
			[numSources]float64{59, 0, 30}, []float64{400, 220, 460, 60}, 1},
	} {
		r := checkVictims(t, starveConfig(), starveJobs(), tt.pol, tt.kills)
		if r.LostBySource != tt.bySource || r.Episodes != 1 || r.ByReason[preempt.ReasonStarvingLongJob] != tt.starvKill || r.BeyondKills != 0 {
			t.Errorf("%v: work lost by source %v, %d episodes, %d starvation kills (%d beyond k); want %v, 1, %d, 0",
				tt.pol, r.LostBySource, r.Episodes, r.ByReason[preempt.ReasonStarvingLongJob], r.BeyondKills, tt.bySource, tt.starvKill)
		}
		if !slices.Equal(r.Finishes, tt.finishes) {
			t.Errorf("%v: jobs finish at %v, want %v", tt.pol, r.Finishes, tt.finishes)
		}
	}
}
