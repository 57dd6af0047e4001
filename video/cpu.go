package video

import "time"

// SelfCPU is this process's user+system time so far, all threads: benchmarks divide its
// growth by the frames for a CPU cost that a loaded machine inflates less than wall time.
func SelfCPU() time.Duration { return selfCPU() }
