package perf

import (
	"fmt"
	"strconv"
	"strings"
)

// runDelay parses /proc/<pid>/task/<tid>/schedstat lines (on-CPU
// nanoseconds, nanoseconds waited on a run queue, time slices) and returns
// the sum of the second field over them in seconds: the time the threads
// were ready to run but waited for a CPU. An empty or malformed line is
// an error naming it.
func runDelay(lines []string) (float64, error) {
	var sum uint64
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 {
			return 0, fmt.Errorf("schedstat line %d %q: want 3 fields", i, l)
		}
		v, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("schedstat line %d %q: run-queue wait: %w", i, l, err)
		}
		sum += v
	}
	return float64(sum) / 1e9, nil
}
