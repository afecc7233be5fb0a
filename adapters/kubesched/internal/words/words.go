// Package words formats the numbers the plugins' messages and events
// give: durations in seconds and counted nouns.
package words

import (
	"math"
	"time"
)

// Seconds writes a number of seconds as a Go duration rounded to the
// second ("5m0s").
func Seconds(s float64) string {
	return time.Duration(math.Round(s) * float64(time.Second)).String()
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
