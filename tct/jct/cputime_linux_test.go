//go:build linux

package jct

import (
	"syscall"
	"time"
)

// mcProcessCPU returns the CPU time (user + system) of the whole process,
// every thread included, so that a benchmark whose work is spread over
// goroutines can report the CPU it used besides its wall-clock time.
func mcProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
