//go:build !linux

package jct

import "time"

// mcProcessCPU is not available here: benchmarks report wall-clock time
// only.
func mcProcessCPU() (time.Duration, bool) { return 0, false }
