package tct

import "math"

// A WorkerProb is one evaluated worker count: the estimate of
// P(T ≤ deadline) from the Monte-Carlo runs with that many workers.
type WorkerProb struct {
	Workers  int
	ProbMeet float64
}

// An Allocation is the answer of WorkersFor.
type Allocation struct {
	// Workers is the smallest worker count found with ProbMeet ≥ the
	// confidence; when Feasible is false it is maxWorkers.
	Workers int
	// ProbMeet is the estimate of P(T ≤ deadline) with Workers workers.
	ProbMeet float64
	// Feasible is false when even maxWorkers workers reach less than the
	// confidence.
	Feasible bool
	// Evaluated lists every worker count simulated, in search order.
	Evaluated []WorkerProb
}

// WorkersFor returns the smallest number of workers w in [1, maxWorkers]
// with P(T ≤ deadline) ≥ confidence for job model m (its Workers field is
// ignored), thesis 004 §5.4.1. P is estimated from opt.Runs runs per w,
// always runs 0..N−1 of opt.Seed: common random numbers, so the estimates
// for different w differ only through w and the answer is stable.
//
// The search is a bisection on w: it first checks maxWorkers, then keeps a
// w that fails and one that meets the confidence until they are adjacent.
// It returns a w that meets the confidence with w − 1 failing (or w = 1);
// when the estimated P is non-decreasing in w (see the package doc for
// exactly when the model guarantees it) that is the smallest such w. Cost:
// about log₂(maxWorkers) + 1 predictions.
//
// deadline (seconds) must be finite and ≥ 0, confidence in [0, 1]
// (confidence 0 gives w = 1), maxWorkers in [1, MaxWorkers]; otherwise, or
// for a bad model or options, a *ValueError.
func WorkersFor(m JobModel, deadline, confidence float64, maxWorkers int, opt Options) (Allocation, error) {
	if err := mcConfidence("confidence", confidence); err != nil {
		return Allocation{}, err
	}
	as, err := workersFor(m, deadline, []float64{confidence}, maxWorkers, opt)
	if err != nil {
		return Allocation{}, err
	}
	return as[0], nil
}

// WorkersForEach answers WorkersFor for several confidences at once:
// element i of the result is exactly WorkersFor(m, deadline,
// confidences[i], maxWorkers, opt), Evaluated included, but a worker count
// that several searches visit (maxWorkers always, and the first bisection
// steps they share) is simulated only once. confidences must be non-empty,
// each in [0, 1]; the other inputs are checked as by WorkersFor. Errors
// are *ValueErrors naming the field, e.g. "confidences[2]".
func WorkersForEach(m JobModel, deadline float64, confidences []float64, maxWorkers int, opt Options) ([]Allocation, error) {
	if len(confidences) == 0 {
		return nil, &ValueError{Field: "confidences", Value: 0, Reason: "need at least one confidence"}
	}
	for i, c := range confidences {
		if err := mcConfidence(mcIndexed("confidences", i), c); err != nil {
			return nil, err
		}
	}
	return workersFor(m, deadline, confidences, maxWorkers, opt)
}

// mcConfidence checks that a confidence is in [0, 1].
func mcConfidence(field string, c float64) error {
	if !(c >= 0 && c <= 1) {
		return &ValueError{Field: field, Value: c, Reason: "must be in [0, 1]"}
	}
	return nil
}

// workersFor is WorkersForEach after the confidences are checked: one
// bisection per confidence over a shared table of estimated P(T ≤ D).
func workersFor(m JobModel, deadline float64, confidences []float64, maxWorkers int, opt Options) ([]Allocation, error) {
	if !(deadline >= 0) || math.IsInf(deadline, 1) {
		return nil, &ValueError{Field: "deadline", Value: deadline, Reason: "must be finite and ≥ 0"}
	}
	if err := mcCount("maxWorkers", maxWorkers, 1, MaxWorkers); err != nil {
		return nil, err
	}
	m.Workers = maxWorkers
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	buf := make([]float64, opt.runs())
	known := make(map[int]float64)
	estimate := func(w int) float64 {
		if p, ok := known[w]; ok {
			return p
		}
		mw := m
		mw.Workers = w
		mcRunAll(buf, opt.Goroutines, func(s *Simulator, k int) float64 {
			return s.run(&mw, opt.Seed, k)
		})
		met := 0
		for _, t := range buf {
			if t <= deadline {
				met++
			}
		}
		p := float64(met) / float64(len(buf))
		known[w] = p
		return p
	}
	out := make([]Allocation, len(confidences))
	for i, confidence := range confidences {
		a := &out[i]
		prob := func(w int) float64 {
			p := estimate(w)
			a.Evaluated = append(a.Evaluated, WorkerProb{Workers: w, ProbMeet: p})
			return p
		}
		hiP := prob(maxWorkers)
		if hiP < confidence {
			a.Workers, a.ProbMeet = maxWorkers, hiP
			continue
		}
		lo, hi := 0, maxWorkers // P(lo) < confidence (lo = 0: no workers), P(hi) ≥ confidence
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if p := prob(mid); p >= confidence {
				hi, hiP = mid, p
			} else {
				lo = mid
			}
		}
		a.Workers, a.ProbMeet, a.Feasible = hi, hiP, true
	}
	return out, nil
}

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
// ignored), thesis 004 §5.4.1: E[reward(T) − costPerWorkerSecond·w·T],
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
			return RewardAllocation{}, &ValueError{Field: mcIndexed("candidates", i), Value: float64(w), Reason: "expected reward − cost overflows"}
		}
		ra.Evaluated = append(ra.Evaluated, p)
		if i == 0 || p.Net > ra.Best.Net || (p.Net == ra.Best.Net && w < ra.Best.Workers) {
			ra.Best = p
		}
	}
	return ra, nil
}
