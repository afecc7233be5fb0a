package jct

import (
	"math"
	"slices"
	"sort"
)

// A Distribution is an empirical distribution of completion (or remaining)
// times in seconds: the outcomes of N Monte-Carlo runs (Lee thesis §5.2.2
// step 5) or any other finite, non-negative sample. It is an immutable
// value; its methods never modify it and are safe for concurrent use.
//
// The zero Distribution has no samples: Len is 0, Mean and StdDev are 0,
// and Quantile, ProbWithin, Lognormal and KS return a *ValueError. Mean
// and StdDev stay finite even for outcomes near math.MaxFloat64 (the sums
// are rescaled when they would overflow).
type Distribution struct {
	runs   []float64 // in run order: runs[k] is run k's outcome
	sorted []float64 // ascending
	mean   float64
	sd     float64
}

// NewDistribution returns the distribution of samples (copied; the caller
// may reuse the slice). samples[k] is kept as run k's outcome, so two
// distributions made under common random numbers can be compared run by
// run (Samples). Every sample must be finite and ≥ 0; an empty slice gives
// a *ValueError with Field "samples".
func NewDistribution(samples []float64) (Distribution, error) {
	if len(samples) == 0 {
		return Distribution{}, &ValueError{Field: "samples", Value: 0, Reason: "need at least one sample"}
	}
	for i, x := range samples {
		if !(x >= 0) || math.IsInf(x, 1) {
			return Distribution{}, &ValueError{Field: mcIndexed("samples", i), Value: x, Reason: "must be finite and ≥ 0"}
		}
	}
	return mcDistribution(slices.Clone(samples)), nil
}

// mcDistribution builds a Distribution that owns runs (already checked).
func mcDistribution(runs []float64) Distribution {
	sorted := slices.Clone(runs)
	slices.Sort(sorted)
	n := float64(len(runs))
	var sum float64
	for _, x := range runs {
		sum += x
	}
	mean := sum / n
	if math.IsInf(mean, 1) { // outcomes near MaxFloat64: average x/n instead
		mean = 0
		for _, x := range runs {
			mean += x / n
		}
	}
	lo, hi := sorted[0], sorted[len(sorted)-1]
	mean = min(max(mean, lo), hi) // rounding must not leave [Min, Max]
	sd := 0.0
	if lo < hi { // equal outcomes have sd exactly 0, not a rounding residue
		sd = mcStdDev(runs, mean, 1)
		if math.IsInf(sd, 1) { // squares overflow: scale by the largest outcome
			sd = hi * mcStdDev(runs, mean, hi)
		}
	}
	return Distribution{runs: runs, sorted: sorted, mean: mean, sd: sd}
}

// mcStdDev returns sqrt(Σ((x − mean)/scale)² / (n − 1)) for len(x) ≥ 2.
func mcStdDev(x []float64, mean, scale float64) float64 {
	var ss float64
	for _, v := range x {
		d := (v - mean) / scale
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// Len returns the number of outcomes N.
func (d Distribution) Len() int { return len(d.runs) }

// Mean returns the sample mean in seconds (0 when empty).
func (d Distribution) Mean() float64 { return d.mean }

// StdDev returns the sample standard deviation (n − 1 denominator) in
// seconds; 0 with fewer than two outcomes.
func (d Distribution) StdDev() float64 { return d.sd }

// Min returns the smallest outcome (0 when empty).
func (d Distribution) Min() float64 {
	if len(d.sorted) == 0 {
		return 0
	}
	return d.sorted[0]
}

// Max returns the largest outcome (0 when empty).
func (d Distribution) Max() float64 {
	if len(d.sorted) == 0 {
		return 0
	}
	return d.sorted[len(d.sorted)-1]
}

// Quantile returns the p-quantile in seconds by linear interpolation
// between order statistics (Hyndman–Fan type 7, R's default): with the
// outcomes sorted x₀ ≤ … ≤ x_{N−1} and h = (N−1)p, it is
// x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋). Quantile(0) is the minimum and
// Quantile(1) the maximum; it is non-decreasing in p. A p outside [0, 1]
// (or NaN) or an empty distribution gives a *ValueError.
func (d Distribution) Quantile(p float64) (float64, error) {
	if !(p >= 0 && p <= 1) {
		return 0, &ValueError{Field: "p", Value: p, Reason: "must be in [0, 1]"}
	}
	if len(d.sorted) == 0 {
		return 0, mcErrEmpty()
	}
	h := float64(len(d.sorted)-1) * p
	lo := int(h)
	if lo >= len(d.sorted)-1 {
		return d.sorted[len(d.sorted)-1], nil
	}
	f := h - float64(lo)
	a, b := d.sorted[lo], d.sorted[lo+1]
	return a + f*(b-a), nil
}

// ProbWithin returns the estimate of P(T ≤ deadline): the fraction of
// outcomes at most deadline seconds. It is 0 below the minimum and 1 from
// the maximum on; deadline = +Inf gives 1 and −Inf gives 0. A NaN deadline
// or an empty distribution gives a *ValueError.
func (d Distribution) ProbWithin(deadline float64) (float64, error) {
	if math.IsNaN(deadline) {
		return 0, &ValueError{Field: "deadline", Value: deadline, Reason: "must not be NaN"}
	}
	if len(d.sorted) == 0 {
		return 0, mcErrEmpty()
	}
	return float64(d.countWithin(deadline)) / float64(len(d.sorted)), nil
}

// countWithin returns how many outcomes are at most deadline.
func (d Distribution) countWithin(deadline float64) int {
	return sort.Search(len(d.sorted), func(i int) bool { return d.sorted[i] > deadline })
}

// ProbWithinInterval returns ProbWithin(deadline) with its exact
// (Clopper–Pearson) interval of coverage level: the bounds SearchWorkers
// reports for a worker count estimated from these outcomes. level must be
// in [0.5, MaxLevel]; a bad level, a NaN deadline or an empty distribution
// gives a *ValueError.
func (d Distribution) ProbWithinInterval(deadline, level float64) (p, low, high float64, err error) {
	if !(level >= 0.5 && level <= MaxLevel) {
		return 0, 0, 0, &ValueError{Field: "level", Value: level, Reason: "must be in [0.5, 1 − 1e-12]"}
	}
	p, err = d.ProbWithin(deadline)
	if err != nil {
		return 0, 0, 0, err
	}
	low, high = mcInterval(d.countWithin(deadline), len(d.sorted), level)
	return p, low, high, nil
}

// Samples returns a copy of the outcomes in run order (element k is run
// k's outcome; nil when empty).
func (d Distribution) Samples() []float64 { return slices.Clone(d.runs) }

// Sorted returns a copy of the outcomes in ascending order.
func (d Distribution) Sorted() []float64 { return slices.Clone(d.sorted) }

// Lognormal returns the lognormal fitted to the outcomes by maximum
// likelihood (LognormalFromSamples), as the thesis fits its simulated
// completion times (§5.3.2). An outcome of 0 (a finished job's remaining
// time) or an empty distribution gives a *ValueError.
func (d Distribution) Lognormal() (Lognormal, error) {
	if len(d.runs) == 0 {
		return Lognormal{}, mcErrEmpty()
	}
	return LognormalFromSamples(d.sorted)
}

// KS returns the Kolmogorov–Smirnov distance sup_x |F_N(x) − cdf(x)|
// between the outcomes' empirical CDF F_N and cdf (for example a fitted
// Lognormal's CDF), evaluated at the jumps of F_N:
// max_i max(cdf(x_i) − (i−1)/N, i/N − cdf(x_i)). A cdf value outside
// [0, 1] or NaN, a nil cdf or an empty distribution gives a *ValueError.
// cdf is assumed non-decreasing.
func (d Distribution) KS(cdf func(float64) float64) (float64, error) {
	if len(d.sorted) == 0 {
		return 0, mcErrEmpty()
	}
	if cdf == nil {
		return 0, &ValueError{Field: "cdf", Value: 0, Reason: "nil function"}
	}
	n := float64(len(d.sorted))
	var ks float64
	for i, x := range d.sorted {
		f := cdf(x)
		if !(f >= 0 && f <= 1) {
			return 0, &ValueError{Field: "cdf(" + mcFormat(x) + ")", Value: f, Reason: "must be in [0, 1]"}
		}
		ks = max(ks, f-float64(i)/n, float64(i+1)/n-f)
	}
	return ks, nil
}

// mcErrEmpty is the error for a method of an empty Distribution.
func mcErrEmpty() error {
	return &ValueError{Field: "Distribution", Value: 0, Reason: "no samples"}
}
