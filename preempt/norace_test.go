//go:build !race

package preempt

const raceEnabled = false
