package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Deadlines of the hooks: how long each may take, from its start, to read
// its input and decide before it answers its fail-safe instead. Gemini CLI lets the action through when a hook passes
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

// DeadlineError says a decision did not come within its deadline. Unread
// says the input itself had not been read whole by then (a stdin that
// trickles or is never closed).
type DeadlineError struct {
	Limit  time.Duration
	Unread bool
}

func (e *DeadlineError) Error() string {
	if e.Unread {
		return fmt.Sprintf("the hook's input did not arrive within its %v time limit", e.Limit)
	}
	return fmt.Sprintf("the check did not finish within its %v time limit", e.Limit)
}

func (e *DeadlineError) Unwrap() error { return ErrDeadline }

// RunWithin is Run with a deadline: a timer counts limit from the moment
// RunWithin is called (the process's start, but for the runtime's own
// start-up), over the reading and decoding of the input as well as
// decide. When the timer wins, the answer is late(in, err) with a
// *DeadlineError (late nil: FailSafe), or FailSafe(ev, err) when the input
// has not been decoded yet, written at once, and the process exits 0
// (exitLate): the read or decide, still busy on the caller's goroutine, is
// ended with it. Exactly one JSON object is written either way. The timer
// covers the input because a host that trickles it, or never closes
// stdin, would otherwise hold the hook past the host's own timeout, and
// Gemini CLI lets the action through then.
//
// The same happens on SIGTERM (what Gemini CLI sends at its timeout),
// SIGINT and SIGHUP: the answer is the fail-safe with a *SignalError,
// never silence, for a signal that comes from signalsFrom into the call
// (signal.go says why not from its very start).
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
	o := collect(opts)
	head := &headReader{r: r}
	c := &lateCall[In]{ev: ev, w: w, o: o, late: late, head: head, written: make(chan struct{})}
	timer := time.AfterFunc(limit, func() { c.answer(&DeadlineError{Limit: limit}) })
	defer timer.Stop()
	stopSignals := onSignal(signalsFrom, func(s os.Signal) { c.answer(&SignalError{Signal: s}) })
	defer stopSignals()
	out, host := answer(ev, head, o, func(in In, host Dialect) (Output, error) {
		c.decoded.Store(&decoded[In]{in: in, host: host})
		stop := watchMemory(memoryCeiling, func() { c.answer(&MemoryError{Ceiling: memoryCeiling}) })
		defer stop()
		return decide(in)
	})
	if !c.done.CompareAndSwap(false, true) {
		// The late answer is being written: returning now could end the
		// process in the middle of it.
		<-c.written
		return
	}
	write(w, ev, o, host, out)
}

// lateCall is what the late answer of one RunWithin call needs: exactly
// one of the decision and the late answer is written (done), and written
// is closed once the late answer is out.
type lateCall[In any] struct {
	ev      Event
	w       io.Writer
	o       options
	late    func(In, error) Output
	head    *headReader
	decoded atomic.Pointer[decoded[In]]
	done    atomic.Bool
	written chan struct{}
}

// decoded is the call's input once read, and the host that sent it.
type decoded[In any] struct {
	in   In
	host Dialect
}

// answer writes the late answer for err, unless an answer is out or
// being written, and ends the process.
func (c *lateCall[In]) answer(err error) {
	if !c.done.CompareAndSwap(false, true) {
		return
	}
	if d := c.decoded.Load(); d != nil {
		write(c.w, c.ev, c.o, d.host, withHostResponse(&d.in, d.host, c.late(d.in, err)))
	} else {
		var de *DeadlineError
		if errors.As(err, &de) {
			de.Unread = !c.head.ended()
		}
		write(c.w, c.ev, c.o, c.head.host(c.o.host), FailSafe(c.ev, err))
	}
	close(c.written)
	exitLate()
}

// headReader passes reads on and keeps the first bytes read, from which
// the late answer to an input not decoded tells the host (host), and
// whether the input has ended (ended: then it was read, and the time went
// to decoding it).
type headReader struct {
	r   io.Reader
	mu  sync.Mutex
	n   int
	eof bool
	b   [4 << 10]byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 || err == io.EOF {
		h.mu.Lock()
		if h.n < len(h.b) {
			h.n += copy(h.b[h.n:], p[:n])
		}
		h.eof = h.eof || err == io.EOF
		h.mu.Unlock()
	}
	return n, err
}

func (h *headReader) ended() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.eof
}

// host is the host whose answer fits an input not read whole: given
// (from the command line) when it is not Gemini, else Qwen Code when the
// input begun names one of its events (a Gemini CLI answer to its
// PostToolUse would be ignored there, the output passed on), else Gemini.
func (h *headReader) host(given Dialect) Dialect {
	if given != Gemini {
		return given
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.b[:h.n]
	if bytes.Contains(b, []byte(`"PreToolUse"`)) || bytes.Contains(b, []byte(`"PostToolUse"`)) {
		return Qwen
	}
	return Gemini
}

// memoryCeiling is MemoryCeiling; tests lower it.
var memoryCeiling uint64 = MemoryCeiling

// exitLate ends the hook process after its late answer is written; tests
// replace it.
var exitLate = func() { os.Exit(0) }

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
