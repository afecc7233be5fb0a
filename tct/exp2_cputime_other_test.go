//go:build !linux

package tct

import "time"

// exp2ThreadCPU is not available here: benchmarks report wall-clock time
// only.
func exp2ThreadCPU() (time.Duration, bool) { return 0, false }
