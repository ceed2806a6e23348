package hook

import (
	"bytes"
	"encoding/json"
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

// A decision that does not come in time is replaced by the event's
// fail-safe: never silence, never the late answer.
func TestRunWithinLateDecision(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := func(BeforeToolInput) (Output, error) { <-release; return Output{}, nil }
	start := time.Now()
	got := runWithin(t, BeforeTool, 50*time.Millisecond, `{"tool_name":"run_shell_command"}`, slow, nil)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.deadline")

	slowTool := func(AfterToolInput) (Output, error) { <-release; return Output{}, nil }
	got = runWithin(t, AfterTool, 50*time.Millisecond, `{"tool_name":"read_file"}`, slowTool, nil)
	assert.Equal(t, "deny", got["decision"], "AfterTool withholds the output")
	assert.Contains(t, got["reason"], "hook.output-unscanned")

	// An event-specific answer built from the input.
	slowChunk := func(AfterModelInput) (Output, error) { <-release; return Output{}, nil }
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
