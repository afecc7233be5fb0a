package xencredit

import (
	"math"
	"time"
)

// The clock's extremes, beside internal/extremes' int extremes: all of this
// package's arithmetic is integer.

// timeExtremes are the instants at the ends of the valid clock and beyond.
var timeExtremes = []time.Duration{
	math.MinInt64, -1, 0, 1, MaxTime - 1, MaxTime, MaxTime + 1, Never - 1, Never,
}
