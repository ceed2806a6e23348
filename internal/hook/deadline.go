package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// Deadlines of the hooks: how long each may decide before it answers its
// fail-safe instead. Gemini CLI lets the action through when a hook passes
// its hooks.json timeout (shell 10 s, secrets 30 s, AfterTool 30 s,
// AfterModel 10 s, BeforeModel 30 s), so each hook answers by its
// deadline, at most ~40 % of that timeout: process start, a loaded machine
// and the answer's own writing fit in the rest.
const (
	ShellDeadline       = 4 * time.Second
	SecretsDeadline     = 12 * time.Second
	AfterToolDeadline   = 12 * time.Second
	AfterModelDeadline  = 4 * time.Second
	BeforeModelDeadline = 12 * time.Second
)

// ErrDeadline is the error a late decision is replaced with.
var ErrDeadline = errors.New("the check took longer than its time limit")

// DeadlineError says a decision did not come within its deadline.
type DeadlineError struct{ Limit time.Duration }

func (e *DeadlineError) Error() string {
	return fmt.Sprintf("the check did not finish within its %v time limit", e.Limit)
}

func (e *DeadlineError) Unwrap() error { return ErrDeadline }

// RunWithin is Run with a deadline: the input is read and decoded as Run
// does, then decide runs while a timer counts limit. When the timer wins,
// the answer is late(in, err) with a *DeadlineError (late nil: FailSafe),
// written at once, and the process exits 0 (exitLate): decide, still busy
// on the caller's goroutine, is ended with it. Exactly one JSON object is
// written either way.
//
// decide runs on the caller's goroutine, not a new one: handing the call to
// another goroutine and waiting for it woke a second thread on every hook
// call (measured: ~2.5x the context switches and ~0.4 ms of a hook
// process's CPU on 2 cores). The timer costs no goroutine until it fires.
//
// late gets the decoded input so that an event whose fail-safe depends on
// it (AfterModel withholds the chunk it was given) can build that answer.
//
// Memory is bounded the same way: while decide runs, a watchdog answers
// late(in, *MemoryError) and exits when the process holds more than
// MemoryCeiling (memory.go).
func RunWithin[In any](ev Event, limit time.Duration, r io.Reader, w io.Writer, decide func(In) (Output, error), late func(In, error) Output, opts ...Option) {
	reserveStack(0)
	if late == nil {
		late = func(_ In, err error) Output { return FailSafe(ev, err) }
	}
	once := onceWriter{written: make(chan struct{})}
	o := collect(opts)
	out, host := answer(ev, r, o, func(in In, host Dialect) (Output, error) {
		lateAnswer := func(err error) {
			if once.claim() {
				write(w, ev, o, host, late(in, err))
				close(once.written)
				exitLate()
			}
		}
		timer := time.AfterFunc(limit, func() { lateAnswer(&DeadlineError{Limit: limit}) })
		defer timer.Stop()
		stop := watchMemory(memoryCeiling, func() { lateAnswer(&MemoryError{Ceiling: memoryCeiling}) })
		defer stop()
		return decide(in)
	})
	if !once.claim() {
		// The late answer is being written: returning now could end the
		// process in the middle of it.
		<-once.written
		return
	}
	write(w, ev, o, host, out)
}

// memoryCeiling is MemoryCeiling; tests lower it.
var memoryCeiling uint64 = MemoryCeiling

// exitLate ends the hook process after its late answer is written; tests
// replace it.
var exitLate = func() { os.Exit(0) }

// onceWriter lets exactly one of the decision and the deadline answer;
// written is closed once the deadline's answer is out.
type onceWriter struct {
	done    atomic.Bool
	written chan struct{}
}

func (o *onceWriter) claim() bool { return o.done.CompareAndSwap(false, true) }

// reserveStack grows the goroutine's stack once, before the decision,
// by the size of its frame. A goroutine starts with a few KB of stack
// and doubles it whenever a call needs more: parsing JSON, a shell AST and
// the rules' checks take a hook's stack to tens of KB in five or six
// steps, each a new stack, a copy of the frames (with a walk of the
// binary's tables to adjust their pointers) and fresh pages: page faults
// that cost this kind of VM ~7 µs each. One step at the start, to a stack
// that the decision then seldom outgrows, measured interleaved over
// 2,000 runs: guard-shell ~7 page faults and ~0.05 ms less, guard-redact's
// chunk ~10 and ~0.1 ms less (larger frames cost more in faults than the
// steps they save).
//
//go:noinline
func reserveStack(i int) byte {
	var frame [16 << 10]byte
	frame[i] = 1
	return frame[(i+1)%len(frame)]
}
