package tct

import (
	"syscall"
	"time"
	"unsafe"
)

// exp2ThreadCPU returns the CPU time (user + system) of the calling OS
// thread, so that a benchmark on a loaded machine can report the CPU a fit
// takes besides its wall-clock time, which waiting for a core inflates.
// The caller locks its goroutine to the thread. It reads
// CLOCK_THREAD_CPUTIME_ID, which counts nanoseconds (getrusage counts
// microseconds, too coarse to time one fit).
func exp2ThreadCPU() (time.Duration, bool) {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
