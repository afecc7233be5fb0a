//go:build !race

package tct

// mcRaceEnabled is true under -race, where allocation counts are not exact.
const mcRaceEnabled = false
