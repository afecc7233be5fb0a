package jct

import (
	"fmt"
	"math"
)

// A RewardPoint is the expected outcome with one candidate worker count.
type RewardPoint struct {
	Workers    int
	Reward     float64 // mean of reward(T) over the runs
	Cost       float64 // mean of costPerWorkerSecond · Workers · T
	Net        float64 // Reward − Cost
	MeanTime   float64 // mean completion time T, seconds
	StdDevTime float64 // its standard deviation
}

// A RewardAllocation is the answer of AllocateByReward.
type RewardAllocation struct {
	Best      RewardPoint   // the candidate with the largest Net
	Evaluated []RewardPoint // every candidate, in the caller's order
}

// AllocateByReward returns the worker count among candidates that maximises
// the expected reward minus cost for job model m (its Workers field is
// ignored), Lee thesis §5.4.1: E[reward(T) − costPerWorkerSecond·w·T],
// the workers being paid from the job's start until its completion T.
// Every candidate uses runs 0..N−1 of opt.Seed (common random numbers).
// Ties go to the fewer workers, then the earlier candidate.
//
// reward is called in the caller's goroutine only, once per run, with a
// completion time in seconds; a NaN or infinite reward gives a
// *ValueError. candidates must be non-empty, each in [1, MaxWorkers];
// costPerWorkerSecond finite and ≥ 0; reward non-nil.
func AllocateByReward(m JobModel, reward func(completion float64) float64, costPerWorkerSecond float64, candidates []int, opt Options) (RewardAllocation, error) {
	if reward == nil {
		return RewardAllocation{}, &ValueError{Field: "reward", Value: 0, Reason: "nil function"}
	}
	if !(costPerWorkerSecond >= 0) || math.IsInf(costPerWorkerSecond, 1) {
		return RewardAllocation{}, &ValueError{Field: "costPerWorkerSecond", Value: costPerWorkerSecond, Reason: "must be finite and ≥ 0"}
	}
	if len(candidates) == 0 {
		return RewardAllocation{}, &ValueError{Field: "candidates", Value: 0, Reason: "need at least one worker count"}
	}
	for i, w := range candidates {
		if err := mcCount(mcIndexed("candidates", i), w, 1, MaxWorkers); err != nil {
			return RewardAllocation{}, err
		}
	}
	m.Workers = 1
	if err := m.Validate(); err != nil {
		return RewardAllocation{}, err
	}
	if err := opt.validate(); err != nil {
		return RewardAllocation{}, err
	}
	if err := rewardWork(&m, candidates, opt.runs()); err != nil {
		return RewardAllocation{}, err
	}
	buf := make([]float64, opt.runs())
	ra := RewardAllocation{Evaluated: make([]RewardPoint, 0, len(candidates))}
	for i, w := range candidates {
		mw := m
		mw.Workers = w
		mcRunAll(buf, opt.Goroutines, func(s *Simulator, k int) float64 {
			return s.run(&mw, opt.Seed, k)
		})
		var rsum, csum float64
		for _, t := range buf {
			r := reward(t)
			if math.IsNaN(r) || math.IsInf(r, 0) {
				return RewardAllocation{}, &ValueError{Field: "reward(" + mcFormat(t) + ")", Value: r, Reason: "must be finite"}
			}
			rsum += r
			csum += costPerWorkerSecond * float64(w) * t
		}
		d := mcDistribution(buf)
		n := float64(len(buf))
		p := RewardPoint{Workers: w, Reward: rsum / n, Cost: csum / n, MeanTime: d.Mean(), StdDevTime: d.StdDev()}
		p.Net = p.Reward - p.Cost
		if math.IsInf(p.Net, 0) || math.IsNaN(p.Net) {
			return RewardAllocation{}, &ValueError{Field: mcIndexed("candidates", i), Value: w, Reason: "expected reward − cost overflows"}
		}
		ra.Evaluated = append(ra.Evaluated, p)
		if i == 0 || p.Net > ra.Best.Net || (p.Net == ra.Best.Net && w < ra.Best.Workers) {
			ra.Best = p
		}
	}
	return ra, nil
}

// rewardWork checks that the runs of every candidate together stay within
// MaxDraws.
func rewardWork(m *JobModel, candidates []int, runs int) error {
	var total uint64
	for _, w := range candidates {
		total += uint64(runs) * mcDrawsPerRun(m, w)
		if total > MaxDraws {
			return &ValueError{Field: "candidates", Value: len(candidates), Reason: fmt.Sprintf("%d candidates × %d runs exceed MaxDraws = 2³² draws (fewer candidates or runs, or a smaller model)", len(candidates), runs)}
		}
	}
	return nil
}
