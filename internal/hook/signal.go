package hook

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// SignalError says the hook was told to stop before it answered: SIGTERM
// is what Gemini CLI sends a hook at its timeout, SIGINT and SIGHUP what a
// terminal sends. A hook ended by one without answering lets the action
// through, so RunWithin answers the fail-safe first.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return fmt.Sprintf("the hook was stopped (%v) before the check finished", e.Signal)
}

// signalsFrom is how far into a call its signals are caught. Catching them
// costs a thread: os/signal's first Notify starts a goroutine that waits
// for signals inside the runtime and holds a thread while it waits.
// Measured on guard-shell's ordinary call (2 cores, loaded, 15 x 200
// process starts, interleaved): armed at once, ~0.5 ms more CPU a call
// (+19 %), one more thread, 24 futex calls instead of 6. An ordinary call
// is over long before signalsFrom and never pays it; the host's SIGTERM
// comes at its timeout, seconds later, and finds the handler armed.
const signalsFrom = 20 * time.Millisecond

// signalsArmed, when set (by tests only), is called once the signals are
// caught: a test that sends one waits for it instead of guessing how long
// a loaded machine takes to get there.
var signalsArmed func()

// onSignal calls f (once) when the process gets SIGTERM, SIGINT or SIGHUP
// from after into the call until stop is called; f is expected to answer
// and exit. While armed, those signals no longer end the process by
// themselves. A signal the process was started with ignored (SIGHUP under
// nohup, SIGINT in a background job) stays ignored: Notify would let it in.
func onSignal(after time.Duration, f func(os.Signal)) (stop func()) {
	var (
		mu      sync.Mutex
		stopped bool
		ch      chan os.Signal
	)
	done := make(chan struct{})
	t := time.AfterFunc(after, func() {
		mu.Lock()
		if stopped {
			mu.Unlock()
			return
		}
		sigs := make([]os.Signal, 0, 3)
		for _, s := range [...]os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
			if !signal.Ignored(s) {
				sigs = append(sigs, s)
			}
		}
		if len(sigs) == 0 {
			mu.Unlock()
			return // Notify with no signals would take every signal
		}
		ch = make(chan os.Signal, 1)
		signal.Notify(ch, sigs...)
		mu.Unlock()
		if signalsArmed != nil {
			signalsArmed()
		}
		// The timer's own goroutine waits: no other is started.
		select {
		case s := <-ch:
			f(s)
		case <-done:
		}
	})
	return func() {
		t.Stop()
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if ch != nil {
			signal.Stop(ch)
		}
		close(done)
	}
}
