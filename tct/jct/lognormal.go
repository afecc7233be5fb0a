package jct

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// Lognormal is a log-normal distribution of a duration in seconds: ln X is
// normal with mean Mu and standard deviation Sigma (Lee thesis §5.2.1).
// Valid range: Mu finite, Sigma in [0, +∞) and finite. Sigma = 0 is the
// degenerate distribution at e^Mu (every draw equals e^Mu).
type Lognormal struct {
	Mu    float64 // mean of ln X (ln seconds)
	Sigma float64 // standard deviation of ln X, ≥ 0
}

// LognormalFromMoments returns the lognormal with the given mean (seconds,
// > 0) and variance (seconds², ≥ 0) by Eq. 5.1:
//
//	σ² = ln(1 + Var/E²),  μ = ln(E) − σ²/2.
//
// This is the moment match the thesis uses; Mean and Variance of the result
// give mean and variance back (up to rounding). A mean that is not > 0 or a
// variance that is not ≥ 0 (NaN, ±Inf included) gives a *ValueError.
func LognormalFromMoments(mean, variance float64) (Lognormal, error) {
	if !(mean > 0) || math.IsInf(mean, 1) {
		return Lognormal{}, &ValueError{Field: "mean", Value: mean, Reason: "must be finite and > 0"}
	}
	if !(variance >= 0) || math.IsInf(variance, 1) {
		return Lognormal{}, &ValueError{Field: "variance", Value: variance, Reason: "must be finite and ≥ 0"}
	}
	s2 := math.Log1p(variance / mean / mean)
	l := Lognormal{Mu: math.Log(mean) - s2/2, Sigma: math.Sqrt(s2)}
	if err := l.Validate(); err != nil {
		return Lognormal{}, err
	}
	return l, nil
}

// LognormalFromSamples fits a lognormal to observed durations by maximum
// likelihood: Mu is the mean of ln x and Sigma the population (1/n) standard
// deviation of ln x. Unlike LognormalFromMoments it does not match the sample
// mean and variance exactly; it is the better estimator when the data are
// lognormal. Every sample must be finite and > 0, and the fit must pass
// Validate (|Mu| ≤ MaxLogMu, Sigma ≤ MaxSigma); an empty slice gives a
// *ValueError with Field "samples".
func LognormalFromSamples(samples []float64) (Lognormal, error) {
	if len(samples) == 0 {
		return Lognormal{}, &ValueError{Field: "samples", Value: 0, Reason: "need at least one sample"}
	}
	var sum float64
	for i, x := range samples {
		if !(x > 0) || math.IsInf(x, 1) {
			return Lognormal{}, &ValueError{Field: mcIndexed("samples", i), Value: x, Reason: "must be finite and > 0"}
		}
		sum += math.Log(x)
	}
	n := float64(len(samples))
	mu := sum / n
	var ss float64
	for _, x := range samples {
		d := math.Log(x) - mu
		ss += d * d
	}
	l := Lognormal{Mu: mu, Sigma: math.Sqrt(ss / n)}
	if err := l.Validate(); err != nil {
		return Lognormal{}, err
	}
	return l, nil
}

// Validate reports whether l is a usable distribution: Mu in [−MaxLogMu,
// MaxLogMu] and Sigma in [0, MaxSigma] (NaN and ±Inf are outside). The error
// is a *ValueError naming "Mu" or "Sigma".
func (l Lognormal) Validate() error {
	return l.validate("")
}

func (l Lognormal) validate(prefix string) error {
	if !(l.Mu >= -MaxLogMu && l.Mu <= MaxLogMu) {
		return &ValueError{Field: prefix + "Mu", Value: l.Mu, Reason: "must be in [-50, 50] (ln seconds)"}
	}
	if !(l.Sigma >= 0 && l.Sigma <= MaxSigma) {
		return &ValueError{Field: prefix + "Sigma", Value: l.Sigma, Reason: "must be in [0, 10]"}
	}
	return nil
}

// Limits of a Lognormal that Validate accepts. Within them every method
// and every simulated run is finite: e^(Mu + Sigma·z) stays below e^450 for
// any deviate a simulation can draw (|z| < 40), the moments stay below
// e^300, and conditional draws after at most MaxDuration seconds stay below
// 1e100. They are far outside any real duration: e^50 s is 10¹⁴ years, and
// Sigma = 10 is a coefficient of variation of 5·10²¹.
const (
	MaxLogMu = 50 // |Mu| ≤ MaxLogMu (ln seconds)
	MaxSigma = 10 // 0 ≤ Sigma ≤ MaxSigma
)

// MaxDuration bounds every duration a caller gives, the elapsed times
// (Lognormal.DrawRemaining, JobState.Elapsed, running tasks' Elapsed):
// 10¹² seconds, about 31,700 years.
const MaxDuration = 1e12

// Mean returns E[X] = e^(Mu + Sigma²/2), in seconds.
func (l Lognormal) Mean() float64 { return math.Exp(l.Mu + l.Sigma*l.Sigma/2) }

// Variance returns Var[X] = (e^(Sigma²) − 1)·e^(2Mu + Sigma²), in seconds².
func (l Lognormal) Variance() float64 {
	s2 := l.Sigma * l.Sigma
	if s2 == 0 {
		return 0
	}
	return math.Exp(2*l.Mu + s2 + math.Log(math.Expm1(s2)))
}

// StdDev returns the standard deviation of X in seconds.
func (l Lognormal) StdDev() float64 { return math.Sqrt(l.Variance()) }

// Median returns e^Mu, the median of X in seconds.
func (l Lognormal) Median() float64 { return math.Exp(l.Mu) }

// CDF returns P(X ≤ x). It is 0 for x ≤ 0 (and for x = NaN), 1 for x = +Inf.
// With Sigma = 0 it is the step at e^Mu.
func (l Lognormal) CDF(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	if l.Sigma == 0 {
		if x >= math.Exp(l.Mu) {
			return 1
		}
		return 0
	}
	return 0.5 * math.Erfc(-(math.Log(x)-l.Mu)/(l.Sigma*math.Sqrt2))
}

// Survival returns P(X > x) = 1 − CDF(x), computed without cancellation in
// the upper tail.
func (l Lognormal) Survival(x float64) float64 {
	if !(x > 0) {
		if math.IsNaN(x) {
			return 0
		}
		return 1
	}
	if l.Sigma == 0 {
		if x >= math.Exp(l.Mu) {
			return 0
		}
		return 1
	}
	return 0.5 * math.Erfc((math.Log(x)-l.Mu)/(l.Sigma*math.Sqrt2))
}

// PDF returns the density of X at x (per second); 0 for x ≤ 0 or NaN. With
// Sigma = 0 the density does not exist and PDF returns 0 everywhere. It is
// never NaN; it is +Inf only where the density itself exceeds
// math.MaxFloat64 (subnormal x near e^Mu).
func (l Lognormal) PDF(x float64) float64 {
	if !(x > 0) || l.Sigma == 0 || math.IsInf(x, 1) {
		return 0
	}
	z := (math.Log(x) - l.Mu) / l.Sigma
	den := x * l.Sigma * math.Sqrt(2*math.Pi)
	if den == 0 { // x·Sigma underflows (subnormal x): divide by x inside the exponent
		return math.Exp(-z*z/2-math.Log(x)) / (l.Sigma * math.Sqrt(2*math.Pi))
	}
	return math.Exp(-z*z/2) / den
}

// Quantile returns the p-quantile e^(Mu + Sigma·Φ⁻¹(p)) in seconds: 0 at
// p = 0, +Inf at p = 1 (e^Mu at both when Sigma = 0). A p outside [0, 1]
// or NaN gives a *ValueError.
func (l Lognormal) Quantile(p float64) (float64, error) {
	if !(p >= 0 && p <= 1) {
		return 0, &ValueError{Field: "p", Value: p, Reason: "must be in [0, 1]"}
	}
	if l.Sigma == 0 {
		return math.Exp(l.Mu), nil
	}
	return math.Exp(l.Mu + l.Sigma*mathext.NormalQuantile(p)), nil
}

// ErrNilRand is returned by Lognormal.Draw and Lognormal.DrawRemaining
// when the caller passes a nil *rand.Rand. It is a *ValueError on "rng", so
// it matches ErrBadInput, like every error about caller data.
var ErrNilRand error = &ValueError{Field: "rng", Value: nil, Reason: "nil *rand.Rand"}

// Draw returns one duration in seconds drawn from l using rng:
// e^(Mu + Sigma·Z) with Z = rng.NormFloat64(). It does not allocate. A nil
// rng gives ErrNilRand; an l that fails Validate gives its *ValueError.
// The simulator's inner loops use an unchecked internal form of the same
// draw, so Draw(rng) consumes rng exactly as one simulated task does.
func (l Lognormal) Draw(rng *rand.Rand) (float64, error) {
	if rng == nil {
		return 0, ErrNilRand
	}
	if err := l.Validate(); err != nil {
		return 0, err
	}
	return l.draw(rng), nil
}

// draw is Draw without checks: rng must be non-nil and l valid.
func (l Lognormal) draw(rng *rand.Rand) float64 {
	return math.Exp(l.Mu + l.Sigma*rng.NormFloat64())
}

// DrawRemaining returns the remaining duration X − elapsed, in seconds, of
// a task that has already run for elapsed seconds, drawn from the
// conditional lognormal X | X > elapsed (Lee thesis §5.4.2, online
// prediction) by inverting the survival function:
// X = e^(Mu + Sigma·Φ⁻¹(1 − U·S(elapsed))), U uniform. For elapsed ≤ 0 it
// is exactly Draw (the condition is void), so a prediction from a job's
// start uses the same draws as a full one. Far in the tail, where
// S(elapsed) underflows, it uses the Mills-ratio limit
// X ≈ elapsed·e^(Sigma·E/a), E exponential, a = (ln elapsed − Mu)/Sigma.
// With Sigma = 0 it is max(e^Mu − elapsed, 0). The result is ≥ 0, never
// NaN. It does not allocate.
//
// A nil rng gives ErrNilRand; an elapsed that is NaN, −Inf or above
// MaxDuration, or an l that fails Validate, gives a *ValueError.
func (l Lognormal) DrawRemaining(elapsed float64, rng *rand.Rand) (float64, error) {
	if rng == nil {
		return 0, ErrNilRand
	}
	if !(elapsed >= -math.MaxFloat64 && elapsed <= MaxDuration) {
		return 0, &ValueError{Field: "elapsed", Value: elapsed, Reason: "must be finite and ≤ 1e12 (MaxDuration)"}
	}
	if err := l.Validate(); err != nil {
		return 0, err
	}
	return l.drawRemaining(elapsed, rng), nil
}

// drawRemaining is DrawRemaining without checks: rng must be non-nil, l
// valid and elapsed finite.
func (l Lognormal) drawRemaining(elapsed float64, rng *rand.Rand) float64 {
	if !(elapsed > 0) {
		return l.draw(rng)
	}
	if l.Sigma == 0 {
		return math.Max(math.Exp(l.Mu)-elapsed, 0)
	}
	a := (math.Log(elapsed) - l.Mu) / l.Sigma
	u := 1 - rng.Float64() // (0, 1]
	s := 0.5 * math.Erfc(a/math.Sqrt2)
	if ps := u * s; ps > 1e-300 {
		z := -mathext.NormalQuantile(ps) // Φ⁻¹(1 − ps) = −Φ⁻¹(ps)
		if z < a {
			z = a
		}
		return math.Max(math.Exp(l.Mu+l.Sigma*z)-elapsed, 0)
	}
	e := -math.Log(u)
	return elapsed * math.Expm1(l.Sigma*e/a)
}
