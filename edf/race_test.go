//go:build race

package edf

const raceEnabled = true
