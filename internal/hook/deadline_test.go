package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runWithin[In any](t *testing.T, ev Event, limit time.Duration, in string, decide func(In) (Output, error), late func(In, error) Output) map[string]any {
	t.Helper()
	var out bytes.Buffer
	RunWithin(ev, limit, strings.NewReader(in), &out, decide, late)
	require.Equal(t, 1, strings.Count(out.String(), "\n"), "one line")
	var got map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &got), out.String())
	return got
}

// lateExit replaces the process exit that follows a late answer for one
// test: the slow decision it returns is released when the hook would have
// exited (in a hook process, the exit ends it).
func lateExit[In any](t *testing.T) func(In) (Output, error) {
	release := make(chan struct{})
	saved := exitLate
	exitLate = func() { close(release) }
	t.Cleanup(func() { exitLate = saved })
	return func(In) (Output, error) { <-release; return Deny("the late answer", ""), nil }
}

// A decision that does not come in time is replaced by the event's
// fail-safe: never silence, never the late answer. The decision runs on the
// caller's goroutine; the deadline's answer is written and the process
// exits.
func TestRunWithinLateDecision(t *testing.T) {
	slow := lateExit[BeforeToolInput](t)
	start := time.Now()
	got := runWithin(t, BeforeTool, 50*time.Millisecond, `{"tool_name":"run_shell_command"}`, slow, nil)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.deadline")

	slowTool := lateExit[AfterToolInput](t)
	got = runWithin(t, AfterTool, 50*time.Millisecond, `{"tool_name":"read_file"}`, slowTool, nil)
	assert.Equal(t, "deny", got["decision"], "AfterTool withholds the output")
	assert.Contains(t, got["reason"], "hook.output-unscanned")

	// An event-specific answer built from the input.
	slowChunk := lateExit[AfterModelInput](t)
	got = runWithin(t, AfterModel, 50*time.Millisecond, `{"content":"abc"}`, slowChunk, func(in AfterModelInput, err error) Output {
		empty := ""
		assert.ErrorIs(t, err, ErrDeadline)
		assert.Equal(t, "abc", *in.Content)
		return Output{Content: &empty, SystemMessage: err.Error()}
	})
	assert.Equal(t, "", got["content"])
	assert.Contains(t, got["systemMessage"], "time limit")
}

func TestRunWithinInTime(t *testing.T) {
	got := runWithin(t, BeforeTool, time.Minute, `{}`, func(BeforeToolInput) (Output, error) {
		return Deny("no", ""), nil
	}, nil)
	assert.Equal(t, "no", got["reason"])
	// A panic in the decision's goroutine is recovered too.
	got = runWithin(t, BeforeTool, time.Minute, `{}`, func(BeforeToolInput) (Output, error) {
		var m map[string]int
		m["x"] = 1 //nolint:staticcheck // the nil map write panics on purpose
		return Output{}, nil
	}, nil)
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "guard.internal-error")
	// Bad input never reaches decide.
	got = runWithin(t, BeforeTool, time.Minute, `nope`, func(BeforeToolInput) (Output, error) { return Output{}, nil }, nil)
	assert.Contains(t, got["reason"], "hook.bad-input")
}

// stuckHookEnv makes the test binary, started by
// TestRunWithinEndsAStuckProcess, act as a hook process whose decision never
// comes.
const stuckHookEnv = "GEMINI_GUARD_TEST_STUCK_HOOK"

func init() {
	if os.Getenv(stuckHookEnv) == "" {
		return
	}
	RunWithin(BeforeTool, 50*time.Millisecond, os.Stdin, os.Stdout, func(BeforeToolInput) (Output, error) {
		select {} // stuck for good, on the main goroutine
	}, nil)
	os.Exit(3) // not reached: the deadline's answer exits 0
}

// In a real process the deadline's answer ends the process even though the
// decision is stuck on the main goroutine: one JSON deny, exit 0.
func TestRunWithinEndsAStuckProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), stuckHookEnv+"=1")
	cmd.Stdin = strings.NewReader(`{"tool_name":"run_shell_command"}`)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	timer := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	require.NoError(t, cmd.Run(), "exit 0")
	require.Equal(t, 1, strings.Count(stdout.String(), "\n"), "one line: %q", stdout.String())
	var got map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.deadline")
}

// heldInput is a stdin that gives head and then nothing, never closed,
// until the hook would have exited (lateExitClosing): a host that
// trickles its input or never closes the pipe.
func heldInput(t *testing.T, head string) io.Reader {
	r, w := io.Pipe()
	go func() { _, _ = w.Write([]byte(head)) }()
	saved := exitLate
	exitLate = func() { _ = w.Close() }
	t.Cleanup(func() { exitLate = saved; _ = w.Close() })
	return r
}

// The deadline counts the reading of the input too: a stdin that is never
// closed gets the event's fail-safe at the deadline, not silence at the
// host's timeout (which lets the action through).
func TestRunWithinInputNeverArrives(t *testing.T) {
	run := func(ev Event, head string) map[string]any {
		t.Helper()
		var out bytes.Buffer
		start := time.Now()
		// (In a hook process the late answer ends the process; here the
		// input is closed then, and a whole object is decided on, its
		// answer not written.)
		switch ev {
		case BeforeTool:
			RunWithin(ev, 50*time.Millisecond, heldInput(t, head), &out, func(BeforeToolInput) (Output, error) { return Output{}, nil }, nil)
		case AfterTool:
			RunWithin(ev, 50*time.Millisecond, heldInput(t, head), &out, func(AfterToolInput) (Output, error) { return Output{}, nil }, nil)
		case AfterModel:
			RunWithin(ev, 50*time.Millisecond, heldInput(t, head), &out, func(AfterModelInput) (Output, error) { return Output{}, nil },
				func(AfterModelInput, error) Output { t.Error("late must not get an input never read"); return Output{} })
		}
		assert.Less(t, time.Since(start), 5*time.Second)
		require.Equal(t, 1, strings.Count(out.String(), "\n"), "one line: %q", out.String())
		var got map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &got), out.String())
		return got
	}
	got := run(BeforeTool, `{"tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`)
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.deadline")
	assert.Contains(t, got["reason"], "input did not arrive")

	got = run(AfterTool, `{"tool_name":"read_file","tool_response":{"llmContent":"ghp_`)
	assert.Equal(t, "deny", got["decision"], "AfterTool withholds the output")
	assert.Contains(t, got["reason"], "hook.output-unscanned")

	got = run(AfterModel, `{"llm_response":{"text":"the secret is `)
	assertWithheld(t, got, "the secret is")

	// Qwen Code ignores a PostToolUse deny: the input begun says which
	// host waits, and the answer is in its form.
	got = run(AfterTool, `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"read_file","tool_response":"`)
	assert.Equal(t, false, got["continue"], "Qwen Code's form: continue false replaces the result")
	assert.Contains(t, got["stopReason"], "hook.output-unscanned")
}
