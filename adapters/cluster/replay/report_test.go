package replay

import (
	"strings"
	"testing"
)

// TestSpread: over two repetitions each figure is printed as its
// smallest–largest; one repetition prints nothing.
func TestSpread(t *testing.T) {
	a := Result{Config: Check, Rep: 1, Load: "1×", Met: 18, Missed: 0, Rejected: 12, MissedShare: 0, WaitP50: 4, WaitP90: 8}
	b := Result{Config: Check, Rep: 2, Load: "1×", Met: 16, Missed: 1, Rejected: 13, MissedShare: 1.0 / 17, WaitP50: 7, WaitP90: 15,
		ETA: ETAStats{N: 2, FinishRelErrP50: 0.25, FinishCover90: 0.5}}
	var one strings.Builder
	Spread(&one, []Result{a})
	if one.Len() != 0 {
		t.Errorf("one repetition printed %q", one.String())
	}
	var two strings.Builder
	Spread(&two, []Result{a, b})
	fields := strings.Fields(strings.Split(strings.TrimSpace(two.String()), "\n")[2])
	want := []string{"1×", "check", "16–18", "0–1", "12–13", "0%–6%", "4–7", "8–15", "0%–25%", "0%–50%"}
	if strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Errorf("Spread row %q, want %q", fields, want)
	}
}
