//go:build !race

package deadlineadmission

// raceEnabled is true under -race, where allocation counts are not pinned.
const raceEnabled = false
