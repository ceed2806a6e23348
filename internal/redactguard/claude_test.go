package redactguard

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runClaudeHook runs the hook as Claude Code does (`<event> --host claude`)
// and returns its one answer.
func runClaudeHook(t *testing.T, e Env, event, input string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	require.Equal(t, 0, Run([]string{event, "--host", "claude"}, strings.NewReader(input), &out, e))
	require.Equal(t, 1, strings.Count(out.String(), "\n"), "one line: %q", out.String())
	var v map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &v), "one JSON object: %q", out.String())
	return v
}

func claudePrompt(cwd, prompt string) string {
	return `{"session_id":"s1","transcript_path":"/t","cwd":` + strconv.Quote(cwd) + `,"prompt_id":"p","permission_mode":"default",` +
		`"hook_event_name":"UserPromptSubmit","prompt":` + strconv.Quote(prompt) + `}`
}

func TestClaudeUserPromptWithASecretIsBlocked(t *testing.T) {
	token := secretsFor["github-pat"]
	e := testEnv(t, nil)
	got := runClaudeHook(t, e, "user-prompt", claudePrompt(t.TempDir(), "push with "+token+" please"))
	assert.Equal(t, "block", got["decision"])
	reason, _ := got["reason"].(string)
	assert.Contains(t, reason, "secrets.prompt")
	assert.Contains(t, reason, "github-pat")
	raw, _ := json.Marshal(got)
	assert.NotContains(t, string(raw), token[4:], "the answer never holds the secret")

	got = runClaudeHook(t, e, "user-prompt", claudePrompt(t.TempDir(), "refactor the parser"))
	assert.Empty(t, got, "a clean prompt gets no decision")
}

func TestClaudeUserPromptWarnMode(t *testing.T) {
	e := testEnv(t, map[string]string{"GEMINI_GUARD_MODE": "warn"})
	got := runClaudeHook(t, e, "user-prompt", claudePrompt(t.TempDir(), "token "+secretsFor["github-pat"]))
	assert.NotContains(t, got, "decision")
	assert.Contains(t, got["systemMessage"], "warn mode")
}

func TestClaudeAfterToolRedactsBashOutput(t *testing.T) {
	token := secretsFor["github-pat"]
	e := testEnv(t, nil)
	resp, _ := json.Marshal(map[string]any{"stdout": "GITHUB_TOKEN=" + token + "\n", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false})
	in := `{"session_id":"s1","transcript_path":"/t","cwd":` + strconv.Quote(t.TempDir()) + `,"hook_event_name":"PostToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"env"},"tool_response":` + string(resp) + `,"tool_use_id":"toolu_1"}`
	got := runClaudeHook(t, e, "after-tool", in)
	spec, ok := got["hookSpecificOutput"].(map[string]any)
	require.True(t, ok, "%v", got)
	assert.Equal(t, "PostToolUse", spec["hookEventName"])
	updated, ok := spec["updatedToolOutput"].(map[string]any)
	require.True(t, ok, "the replacement has the shape of tool_response: %v", spec)
	assert.Contains(t, updated["stdout"], "[REDACTED")
	assert.NotContains(t, updated["stdout"], token[4:])
	assert.Equal(t, false, updated["interrupted"])
}
