// Package extremes holds the rapid generators that draw extreme values on
// purpose — subnormals, 1e±300, the largest float64, NaN and the
// infinities, the ints where a conversion, sum or product overflows, and
// the ends of a documented range with their float64 neighbours — so that
// the next overflow is found by a property or fuzz target rather than by a
// reader. Only the core packages' tests import it; the packages themselves
// still never import each other.
package extremes

import (
	"math"

	"pgregory.net/rapid"
)

// Finite are values that break arithmetic written for ordinary magnitudes:
// the smallest subnormal and normal numbers, 1e±300 (whose products leave
// float64), the largest float64, and their negatives.
var Finite = []float64{
	0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e300, math.MaxFloat64,
	-5e-324, -2.2250738585072014e-308, -1e-300, -1e300, -math.MaxFloat64,
}

// NotFinite is NaN and the infinities.
var NotFinite = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}

// Ints are the int values where a conversion, a sum or a product
// overflows, or where float64 stops counting exactly.
var Ints = []int{
	math.MinInt, math.MinInt + 1, math.MinInt32 - 1, -1, 0, 1,
	math.MaxInt32, math.MaxInt32 + 1, 1<<53 + 1, math.MaxInt - 1, math.MaxInt,
}

// AnyFloat draws any float64, two times in three an extreme or not finite.
func AnyFloat() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64(), rapid.SampledFrom(Finite), rapid.SampledFrom(NotFinite))
}

// AnyInt draws any int, half the time an extreme.
func AnyInt() *rapid.Generator[int] {
	return rapid.OneOf(rapid.Int(), rapid.SampledFrom(Ints))
}

// Edges returns the ends of [lo, hi], their float64 neighbours inside and
// just outside, and the finite extremes: the values where a documented range
// is most likely to be checked wrongly.
func Edges(lo, hi float64) []float64 {
	out := []float64{
		lo, hi, math.Nextafter(lo, hi), math.Nextafter(hi, lo),
		math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1)),
	}
	return append(out, Finite...)
}

// OrEdge draws from g or, one time in two, from the edges of [lo, hi] and
// beyond (see Edges) or a non-finite value.
func OrEdge(g *rapid.Generator[float64], lo, hi float64) *rapid.Generator[float64] {
	return rapid.OneOf(g, rapid.SampledFrom(append(Edges(lo, hi), NotFinite...)))
}

// OrIntEdge draws from g or, one time in two, lo, hi, one beyond either, or
// an int extreme.
func OrIntEdge(g *rapid.Generator[int], lo, hi int) *rapid.Generator[int] {
	e := append([]int{lo, hi}, Ints...)
	if lo > math.MinInt {
		e = append(e, lo-1)
	}
	if hi < math.MaxInt {
		e = append(e, hi+1)
	}
	return rapid.OneOf(g, rapid.SampledFrom(e))
}
