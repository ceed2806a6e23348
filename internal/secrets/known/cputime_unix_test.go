//go:build unix

package known

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time (user and system). The benchmarks
// report it per op beside the wall time: on a loaded machine (this VM is
// shared) wall time says more about the neighbours than about the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
