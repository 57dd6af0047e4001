// Package cputime measures the CPU time this process has used, for benchmarks, which divide
// its difference by the frames: a figure the machine's other jobs disturb far less than
// wall time.
package cputime

import (
	"syscall"
	"time"
)

// Self is this process's user and system time so far, all threads; 0 if the system will
// not say.
func Self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
