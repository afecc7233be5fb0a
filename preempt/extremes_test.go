package preempt

import (
	"math"

	"pgregory.net/rapid"
)

// Extremes drawn on purpose, so that the next overflow is found by a
// property or fuzz target rather than by a reader. The packages do not
// import each other; each keeps its own copy of this file's shape.

// finiteExtremes break arithmetic written for ordinary magnitudes: the
// smallest subnormal and normal numbers, 1e±300 (whose products leave
// float64), the largest float64, and their negatives.
var finiteExtremes = []float64{
	0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e300, math.MaxFloat64,
	-5e-324, -2.2250738585072014e-308, -1e-300, -1e300, -math.MaxFloat64,
}

// notFinite is NaN and the infinities.
var notFinite = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}

// intExtremes are the int values where a conversion, a sum or a product
// overflows, or where float64 stops counting exactly.
var intExtremes = []int{
	math.MinInt, math.MinInt + 1, math.MinInt32 - 1, -1, 0, 1,
	math.MaxInt32, math.MaxInt32 + 1, 1<<53 + 1, math.MaxInt - 1, math.MaxInt,
}

// anyFloat draws any float64, two times in three an extreme or not finite.
func anyFloat() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64(), rapid.SampledFrom(finiteExtremes), rapid.SampledFrom(notFinite))
}

// anyInt draws any int, half the time an extreme.
func anyInt() *rapid.Generator[int] {
	return rapid.OneOf(rapid.Int(), rapid.SampledFrom(intExtremes))
}

// edges returns the ends of [lo, hi], their float64 neighbours inside and
// just outside, and the finite extremes: the values where a documented range
// is most likely to be checked wrongly.
func edges(lo, hi float64) []float64 {
	out := []float64{
		lo, hi, math.Nextafter(lo, hi), math.Nextafter(hi, lo),
		math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1)),
	}
	return append(out, finiteExtremes...)
}

// orEdge draws from g or, one time in two, from the edges of [lo, hi] and
// beyond (see edges) or a non-finite value.
func orEdge(g *rapid.Generator[float64], lo, hi float64) *rapid.Generator[float64] {
	return rapid.OneOf(g, rapid.SampledFrom(append(edges(lo, hi), notFinite...)))
}

// orIntEdge draws from g or, one time in two, lo, hi, one beyond either, or an
// int extreme.
func orIntEdge(g *rapid.Generator[int], lo, hi int) *rapid.Generator[int] {
	e := append([]int{lo, hi}, intExtremes...)
	if lo > math.MinInt {
		e = append(e, lo-1)
	}
	if hi < math.MaxInt {
		e = append(e, hi+1)
	}
	return rapid.OneOf(g, rapid.SampledFrom(e))
}
