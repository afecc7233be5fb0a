//go:build race

package admission

// raceEnabled is true under -race, where allocation counts are not pinned.
const raceEnabled = true
