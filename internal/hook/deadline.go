package hook

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"
)

// Deadlines of the hooks: how long each may decide before it answers its
// fail-safe instead. Gemini CLI lets the action through when a hook passes
// its hooks.json timeout (shell 10 s, secrets 30 s, AfterTool 30 s,
// AfterModel 10 s), so each hook answers by its deadline, at most ~40 % of
// that timeout: process start, a loaded machine and the answer's own
// writing fit in the rest.
const (
	ShellDeadline      = 4 * time.Second
	SecretsDeadline    = 12 * time.Second
	AfterToolDeadline  = 12 * time.Second
	AfterModelDeadline = 4 * time.Second
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
// and decide's eventual answer is dropped: the caller exits right after,
// which ends it. Exactly one JSON object is written either way.
//
// late gets the decoded input so that an event whose fail-safe depends on
// it (AfterModel withholds the chunk it was given) can build that answer.
func RunWithin[In any](ev Event, limit time.Duration, r io.Reader, w io.Writer, decide func(In) (Output, error), late func(In, error) Output) {
	if late == nil {
		late = func(_ In, err error) Output { return FailSafe(ev, err) }
	}
	Run(ev, r, w, func(in In) (Output, error) {
		type result struct {
			out Output
			err error
		}
		// Buffered: a decision that comes after the deadline must not
		// block its goroutine forever (tests call this in one process).
		done := make(chan result, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- result{err: &PanicError{Value: p, Stack: debug.Stack()}}
				}
			}()
			out, err := decide(in)
			done <- result{out, err}
		}()
		timer := time.NewTimer(limit)
		defer timer.Stop()
		select {
		case res := <-done:
			return res.out, res.err
		case <-timer.C:
			return late(in, &DeadlineError{Limit: limit}), nil
		}
	})
}
