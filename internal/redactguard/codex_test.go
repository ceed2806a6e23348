package redactguard

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// Codex's PostToolUse (`guard-redact after-tool --host codex PostToolUse`):
// a secret in the output blocks it, and the reason Codex shows the model
// instead is the redacted output, holding only decision and reason.
func TestCodexPostToolUse(t *testing.T) {
	tok := secrettest.Token(901, "gh"+"p_", 36)
	call := func(output string) string {
		b, err := json.Marshal(map[string]any{
			"session_id": "s1", "turn_id": "t1", "transcript_path": nil, "cwd": t.TempDir(), "hook_event_name": "PostToolUse",
			"model": "gpt-5.5", "permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]string{"command": "cat notes.txt"},
			"tool_response": output, "tool_use_id": "call_1",
		})
		require.NoError(t, err)
		return string(b)
	}
	run := func(input string) string {
		var out bytes.Buffer
		require.Equal(t, 0, Run([]string{"after-tool", "--host", "codex", "PostToolUse"}, strings.NewReader(input), &out, testEnv(t, nil)))
		return out.String()
	}
	out := run(call("deploy with GITHUB_TOKEN=" + tok + "\nthen tag\n"))
	var got map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.Len(t, got, 2, "only Codex's keys: %s", out)
	assert.Equal(t, "block", got["decision"])
	assert.Contains(t, got["reason"], "gemini-guard redacted")
	assert.Contains(t, got["reason"], "then tag")
	assert.NotContains(t, out, tok)

	assert.Empty(t, run(call("all clean\n")), "clean output: no answer")
}
