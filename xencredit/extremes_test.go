package xencredit

import (
	"math"
	"time"

	"pgregory.net/rapid"
)

// Extremes drawn on purpose, so that the next overflow is found by a
// property or fuzz target rather than by a reader. The packages do not
// import each other; each keeps its own copy of this file's shape. All of
// this package's arithmetic is integer, so only int extremes matter.

// intExtremes are the int values where a conversion, a sum or a product
// overflows, or where float64 stops counting exactly.
var intExtremes = []int{
	math.MinInt, math.MinInt + 1, math.MinInt32 - 1, -1, 0, 1,
	math.MaxInt32, math.MaxInt32 + 1, 1<<53 + 1, math.MaxInt - 1, math.MaxInt,
}

// timeExtremes are the instants at the ends of the valid clock and beyond.
var timeExtremes = []time.Duration{
	math.MinInt64, -1, 0, 1, MaxTime - 1, MaxTime, MaxTime + 1, Never - 1, Never,
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
