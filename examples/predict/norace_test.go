//go:build !race

package main

// raceEnabled is true under -race, where the example test runs a smaller
// scenario (the race detector makes it 5–10 times slower).
const raceEnabled = false
