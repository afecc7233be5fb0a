package tct

import (
	"syscall"
	"time"
)

// exp2ThreadCPU returns the CPU time (user + system) of the calling OS
// thread, so that a benchmark on a loaded machine can report the CPU a fit
// takes besides its wall-clock time, which waiting for a core inflates.
// The caller locks its goroutine to the thread.
func exp2ThreadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD, Linux only
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
