package perf

import (
	"strings"
	"testing"
)

// TestRunDelay: hand-worked sums of the second field, and the bad lines.
func TestRunDelay(t *testing.T) {
	got, err := runDelay([]string{"875894 4530645 10", "323429973 1500000000 1070\n"})
	if err != nil || got != 1.504530645 {
		t.Errorf("runDelay = %v, %v, want 1.504530645 s", got, err)
	}
	if got, err := runDelay(nil); got != 0 || err != nil {
		t.Errorf("no thread: %v, %v, want 0", got, err)
	}
	for _, c := range []struct{ line, want string }{
		{"", "want 3 fields"},
		{"1 2", "want 3 fields"},
		{"1 x 3", "run-queue wait"},
		{"1 -5 3", "run-queue wait"},
	} {
		if _, err := runDelay([]string{"1 2 3", c.line}); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: %v, want an error naming line 1 and %q", c.line, err, c.want)
		}
	}
}
