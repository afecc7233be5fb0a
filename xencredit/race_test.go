//go:build race

package xencredit

const raceEnabled = true
