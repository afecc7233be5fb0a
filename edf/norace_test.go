//go:build !race

package edf

const raceEnabled = false
