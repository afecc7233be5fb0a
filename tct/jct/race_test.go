//go:build race

package jct

// mcRaceEnabled is true under -race, where allocation counts are not exact.
const mcRaceEnabled = true
