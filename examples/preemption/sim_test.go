package main

import (
	"math"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/preempt"
)

// checkRun asserts the invariants of one simulated run.
func checkRun(t *testing.T, jobs []JobSpec, r Result) {
	t.Helper()
	counted := 0
	for _, j := range jobs {
		if j.Counted {
			counted++
		}
	}
	if r.Finished != len(jobs) {
		t.Fatalf("%d of %d jobs finished", r.Finished, len(jobs))
	}
	if r.Metrics.N != counted || len(r.Actual) != counted {
		t.Fatalf("metrics over %d jobs, want %d", r.Metrics.N, counted)
	}
	k := 0
	for i, j := range jobs {
		if r.Finishes[i] < r.Arrivals[i] || (j.After >= 0 && r.Arrivals[i] != r.Finishes[j.After]) {
			t.Fatalf("job %d: arrives %v, finishes %v", i, r.Arrivals[i], r.Finishes[i])
		}
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
	if r.ProtectedKills != 0 {
		t.Fatalf("%d victims from a job or pool being preempted for", r.ProtectedKills)
	}
	sum := 0
	for _, n := range r.ByReason {
		sum += n
	}
	if sum != r.Kills || !(r.WorkLost >= 0) || math.IsInf(r.WorkLost, 0) || r.LongKills > r.Kills || r.ByReason[preempt.ReasonStarvingLongJob] > r.LongKills {
		t.Fatalf("work lost %v, kills %d by reason %v, long %d", r.WorkLost, r.Kills, r.ByReason, r.LongKills)
	}
	if r.Episodes > r.StarvingJudged || !(r.NonProdShare >= 0 && r.NonProdShare <= r.Occupancy && r.Occupancy <= 1) {
		t.Fatalf("episodes %d of %d judgements, occupancy %v non-production %v", r.Episodes, r.StarvingJudged, r.Occupancy, r.NonProdShare)
	}
}

// configs are every model × starvation rule.
func configs() map[string]Config {
	out := map[string]Config{}
	for _, m := range []Model{PerJob, TwoPool} {
		for _, s := range []StarvationRule{PerPeriod, EveryCheck} {
			c := DefaultConfig()
			c.Model, c.Starvation = m, s
			out[m.String()+"/"+s.String()] = c
		}
	}
	return out
}

// A job that has not arrived, or has finished, is no input to preempt: it is
// not among Cluster.Jobs, none of Cluster.Tasks is its, and the queued demand
// handed to preempt is no more than the jobs in the system have left. (The
// example once passed every job with all its tasks queued before arrival:
// 25,706 queued tasks at t = 600 s against 892 in the system, which made
// starvation condition (3) nearly always true.)
func TestNoInputFromAbsentJobs(t *testing.T) {
	for _, w := range []Workload{IO, Mixed} {
		jobs, err := Scenario{Workload: w, Period: "busy", MeanGap: 30, LongPos: 66, Seed: 1}.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		owner := make([]int, 0) // task index → job
		for i, j := range jobs {
			for range j.Durations {
				owner = append(owner, i)
			}
		}
		for name, base := range configs() {
			if w == Mixed && (base.Model != PerJob || base.Starvation != PerPeriod) {
				continue // the mixed workload under the default model; io under all four
			}
			for _, pol := range policies {
				cfg := base
				first, err := Simulate(cfg, jobs, pol)
				if err != nil {
					t.Fatal(err)
				}
				checkRun(t, jobs, first)
				live := func(i int, now float64) bool { return first.Arrivals[i] <= now && now <= first.Finishes[i] }
				calls, late := 0, 0
				cfg.inspect = func(now float64, c preempt.Cluster, own []int, _ preempt.Decision) {
					calls++
					if len(own) != len(c.Jobs) {
						t.Fatalf("%d owners for %d jobs", len(own), len(c.Jobs))
					}
					queued, left := 0, 0
					for i := range jobs {
						if live(i, now) {
							left += len(jobs[i].Durations)
						} else if first.Arrivals[i] > now {
							late++
						}
					}
					for k, i := range own {
						if i < 0 {
							continue // a class pool of the two-pool model
						}
						if !live(i, now) {
							t.Fatalf("%s %s %v: t = %v: job %d (arrives %v, finishes %v) handed to preempt", w, name, pol, now, i, first.Arrivals[i], first.Finishes[i])
						}
						if c.Jobs[k].Queued > len(jobs[i].Durations) {
							t.Fatalf("%s %s %v: t = %v: job %d of %d tasks has %d queued", w, name, pol, now, i, len(jobs[i].Durations), c.Jobs[k].Queued)
						}
						queued += c.Jobs[k].Queued
					}
					if cfg.Starvation == PerPeriod && math.Mod(now, cfg.Window) == 0 {
						return // a judgement: Queued is the period's mean
					}
					for _, tk := range c.Tasks {
						if i := owner[tk.ID]; !live(i, now) {
							t.Fatalf("%s %s %v: t = %v: task %d of absent job %d", w, name, pol, now, tk.ID, i)
						}
					}
					if queued+len(c.Tasks) > left {
						t.Fatalf("%s %s %v: t = %v: %d queued + %d running tasks, the jobs in the system have %d", w, name, pol, now, queued, len(c.Tasks), left)
					}
				}
				again, err := Simulate(cfg, jobs, pol)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(first, again) {
					t.Fatalf("%s %s %v: inspecting changed the run", w, name, pol)
				}
				if calls == 0 || late == 0 {
					t.Fatalf("%s %s %v: %d calls, %d absent job-checks: the test saw nothing", w, name, pol, calls, late)
				}
			}
		}
	}
}

// Same scenario, same result, bit for bit; every policy sees the same jobs.
func TestDeterministic(t *testing.T) {
	for _, w := range []Workload{IO, Mixed} {
		sc := Scenario{Workload: w, Period: "busy", MeanGap: 30, LongPos: 66, Seed: 7}
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
}

// The per-period starvation rule judges at the end of each 3-minute period
// only; at the onset it kills ⌈50%⌉ of the long job's overflowing tasks, in
// all until T_timeout (6 minutes); from then on all of them. The
// every-check ablation judges at every 20 s check.
func TestStarvationPerPeriod(t *testing.T) {
	jobs, err := Scenario{Workload: IO, Period: "busy", MeanGap: 30, LongPos: 1, Seed: 1}.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []StarvationRule{PerPeriod, EveryCheck} {
		cfg := DefaultConfig()
		cfg.Starvation = rule
		offPeriod, onset, afterTimeout := 0, 0, 0
		var episodeKills, allowance int
		cfg.inspect = func(now float64, c preempt.Cluster, own []int, d preempt.Decision) {
			for k, i := range own {
				if i < 0 || !jobs[i].Long {
					continue
				}
				job := c.Jobs[k]
				held := 0
				for _, tk := range c.Tasks {
					if tk.Job == k {
						held++
					}
				}
				over := max(0, held-int(math.Ceil(job.Share)))
				victims := 0
				for _, v := range d.Victims {
					if v.Reason == preempt.ReasonStarvingLongJob {
						if v.Job != k {
							t.Fatalf("t = %v: starvation victim of job %d, not the long job", now, v.Job)
						}
						victims++
					}
				}
				if victims > 0 && math.Mod(now, cfg.Window) != 0 {
					offPeriod++
				}
				starving := len(d.Starving) > 0
				switch {
				case rule == EveryCheck || !starving || job.NoPreempt:
				case job.StarvingFor == 0:
					onset++
					allowance, episodeKills = (over+1)/2, victims
					if victims != allowance {
						t.Fatalf("t = %v: onset killed %d of %d overflowing, want ⌈50%%⌉ = %d", now, victims, over, allowance)
					}
				case job.StarvingFor < cfg.Timeout:
					if episodeKills += victims; episodeKills > allowance {
						t.Fatalf("t = %v: %d starvation kills before T_timeout, allowance %d", now, episodeKills, allowance)
					}
				default:
					afterTimeout++
					if victims != over {
						t.Fatalf("t = %v: starving %v s: killed %d of %d overflowing, want all", now, job.StarvingFor, victims, over)
					}
				}
			}
		}
		r, err := Simulate(cfg, jobs, GP)
		if err != nil {
			t.Fatal(err)
		}
		checkRun(t, jobs, r)
		t.Logf("%v: %d episodes, %d starving judgements, %d starvation kills, %d off-period kill checks, %d onsets and %d past-T_timeout checked",
			rule, r.Episodes, r.StarvingJudged, r.ByReason[preempt.ReasonStarvingLongJob], offPeriod, onset, afterTimeout)
		switch rule {
		case PerPeriod:
			if offPeriod != 0 || onset == 0 {
				t.Fatalf("per period: %d checks off a period's end killed for starvation; %d onsets seen", offPeriod, onset)
			}
		case EveryCheck:
			if offPeriod == 0 {
				t.Fatal("every check: no starvation kill off a period's end: the ablation is the same rule")
			}
		}
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

// With two pools the Fair Scheduler's victims are the newest tasks of the
// pool above its fair share, which is GP's second step: GP without its
// starvation rule makes exactly the baseline's decisions (the package doc's
// reason for the per-job default).
func TestTwoPoolIsGPStepTwo(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Model = TwoPool
	preempting := 0
	for seed := range uint64(4) {
		for _, pos := range []int{1, 92} {
			jobs, err := Scenario{Workload: IO, Period: "busy", MeanGap: 30, LongPos: pos, Seed: 1 + seed}.Build(nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Simulate(cfg, jobs, Baseline)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Simulate(cfg, jobs, GPNoStarvation)
			if err != nil {
				t.Fatal(err)
			}
			if b.ByReason[preempt.ReasonOverflow] != g.ByReason[preempt.ReasonMostRecent] {
				t.Fatalf("kills %v vs %v", b.ByReason, g.ByReason)
			}
			g.ByReason = b.ByReason
			if !reflect.DeepEqual(b, g) {
				t.Fatalf("seed %d, long job at %d: two-pool baseline and GP-no-starvation differ: SNP %v vs %v, work lost %v vs %v", 1+seed, pos, b.Metrics.SNP, g.Metrics.SNP, b.WorkLost, g.WorkLost)
			}
			if b.Kills == 0 {
				continue
			}
			preempting++
			cfg.Model = PerJob
			p, _ := Simulate(cfg, jobs, GPNoStarvation)
			pb, _ := Simulate(cfg, jobs, Baseline)
			cfg.Model = TwoPool
			if p.Metrics.SNP == pb.Metrics.SNP {
				t.Fatalf("seed %d, long job at %d: per-job GP-no-starvation equals its baseline too", 1+seed, pos)
			}
		}
	}
	if preempting == 0 {
		t.Fatal("no preemption in any run: the test sees nothing")
	}
}
