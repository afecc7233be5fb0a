package tct

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// mcInterval returns the exact (Clopper–Pearson) two-sided interval of
// coverage level for a binomial proportion with met successes in n trials
// (0 ≤ met ≤ n, n ≥ 1, level in (0, 1)):
//
//	low  = Beta⁻¹(α/2; met, n − met + 1)      (0 when met = 0)
//	high = Beta⁻¹(1 − α/2; met + 1, n − met)  (1 when met = n)
//
// with α = 1 − level. For every true proportion p the interval contains p
// with probability at least level, whatever n — unlike the normal
// approximation, which undercovers near 0 and 1.
func mcInterval(met, n int, level float64) (low, high float64) {
	half := (1 - level) / 2
	// At the ends the bounds have closed forms, exact where the inverse
	// incomplete beta loses digits (tails far below 10⁻⁶).
	end := math.Log(half) / float64(n) // ln((α/2)^(1/n))
	switch {
	case met == 0:
		low, high = 0, -math.Expm1(end)
	case met == n:
		low, high = math.Exp(end), 1
	default:
		low = mathext.InvRegIncBeta(float64(met), float64(n-met+1), half)
		high = mathext.InvRegIncBeta(float64(met+1), float64(n-met), 1-half)
	}
	// The estimate met/n always lies inside; rounding in the inverse must
	// not push a bound across it.
	p := float64(met) / float64(n)
	return math.Min(low, p), math.Max(high, p)
}
