//go:build !race

package tct

// exp2RaceEnabled is true under -race, where allocation counts are not
// meaningful.
const exp2RaceEnabled = false
