package hook

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

// MemoryCeiling bounds the memory a hook process takes on while it
// decides, besides a quarter of it for the runtime, its input (at most
// MaxInput) and the input's decoding (memoryAllowance). An ordinary call
// adds a few MB, a 32 MiB BeforeModel request or an 8 MiB tool output some
// hundred; past it the hook answers its fail-safe and exits, as at its
// deadline. Without it, input that makes the analysis grow (the shell's
// ${x//?/$x}, bounded there by budgets, is the known case) would run the
// process into the kernel's OOM killer, and Gemini CLI takes a hook killed
// by a signal for a success.
const MemoryCeiling = 512 << 20

// How often the watchdog samples the process's memory: not at all during
// the first memoryFirstCheck (an ordinary call is over by then and never
// wakes a second thread for it), then every memoryInterval. Allocating
// 512 MB takes this machine longer than an interval.
const (
	memoryFirstCheck = 20 * time.Millisecond
	memoryInterval   = 5 * time.Millisecond
)

// MemoryError says a decision needed more memory than its ceiling.
type MemoryError struct{ Ceiling uint64 }

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the check needed more than its %d MiB memory limit", e.Ceiling>>20)
}

// memoryInUse is the memory the runtime holds from the system: what it has
// mapped, less what it has handed back (close to the process's resident
// size). runtime.ReadMemStats, not runtime/metrics: that package builds its
// tables when the process starts, which cost every hook call ~0.1 ms, and
// the watchdog reads memory only once a call has run for memoryFirstCheck.
func memoryInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Sys - m.HeapReleased
}

// memoryAllowance is what a hook process may hold besides its ceiling:
// the runtime, the input read (at most MaxInput) and its decoding. The
// watchdog compares the memory in use with ceiling plus a quarter of it
// instead of with what the process held when the call began: reading that
// at the start cost every hook call ~0.13 ms of CPU (runtime/metrics
// builds its tables on first use), more than the rest of an ordinary
// shell check, and a process that allocates without end reaches the
// ceiling as surely either way.
func memoryAllowance(ceiling uint64) uint64 { return ceiling / 4 }

// watchMemory calls over once when the memory in use exceeds ceiling plus
// its allowance, sampling on a timer (no goroutine until it first fires,
// no sample before memoryFirstCheck). It also sets the runtime's soft
// memory limit to the ceiling, so that the garbage collector works harder
// before the watchdog has to act. stop ends it.
func watchMemory(ceiling uint64, over func()) (stop func()) {
	limit := ceiling + memoryAllowance(ceiling)
	debug.SetMemoryLimit(int64(ceiling))
	var t *time.Timer
	stopped := make(chan struct{})
	check := func() {
		select {
		case <-stopped:
			return
		default:
		}
		if memoryInUse() > limit {
			over()
			return
		}
		t.Reset(memoryInterval)
	}
	// Armed only once t is set: check resets t, and on a loaded machine
	// the first check can come before AfterFunc has returned.
	t = time.AfterFunc(time.Hour, check)
	t.Reset(memoryFirstCheck)
	return func() {
		close(stopped)
		t.Stop()
	}
}
