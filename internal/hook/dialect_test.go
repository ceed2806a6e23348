package hook

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Qwen Code 0.24.4's inputs, as its hook runner builds them
// (createBaseInput plus the event's fields).
const (
	qwenPreEdit = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","timestamp":"x","permission_mode":"yolo",` +
		`"tool_name":"edit","tool_input":{"file_path":"a.py","old_string":"x","new_string":"y","replace_all":true},"tool_use_id":"toolu_1"}`
	qwenPreShell = `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","permission_mode":"yolo",` +
		`"tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"sub","is_background":false}}`
	qwenPost = `{"session_id":"s","cwd":"/w","hook_event_name":"PostToolUse","permission_mode":"yolo",` +
		`"tool_name":"read_file","tool_input":{"file_path":"a"},"tool_response":{"llmContent":"text","returnDisplay":"text"}}`
	qwenStart = `{"session_id":"s","cwd":"/w","hook_event_name":"SessionStart","permission_mode":"yolo","source":"startup","model":"m"}`
)

func TestQwenEditIsSeenAsReplace(t *testing.T) {
	var seen BeforeToolInput
	runOnce(t, BeforeTool, strings.NewReader(qwenPreEdit), func(in BeforeToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.Equal(t, Qwen, seen.Host)
	assert.Equal(t, "BeforeTool", seen.HookEventName)
	assert.Equal(t, "replace", seen.ToolName)
	assert.JSONEq(t, `{"file_path":"a.py","old_string":"x","new_string":"y","allow_multiple":true}`, string(seen.ToolInput))
}

func TestQwenShellDirectoryIsDirPath(t *testing.T) {
	var seen BeforeToolInput
	runOnce(t, BeforeTool, strings.NewReader(qwenPreShell), func(in BeforeToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.Equal(t, "run_shell_command", seen.ToolName)
	assert.JSONEq(t, `{"command":"ls","dir_path":"sub","is_background":false}`, string(seen.ToolInput))
}

func TestGeminiInputIsUnchanged(t *testing.T) {
	in := `{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}}`
	var seen BeforeToolInput
	got := runOnce(t, BeforeTool, strings.NewReader(in), func(in BeforeToolInput) (Output, error) {
		seen = in
		return ReplaceToolInputOrDeny(json.RawMessage(`{"file_path":"a"}`), "m", Deny("no", "")), nil
	})
	assert.Equal(t, Gemini, seen.Host)
	assert.JSONEq(t, `{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}`, string(seen.ToolInput))
	assert.Equal(t, map[string]any{"file_path": "a"}, got["hookSpecificOutput"].(map[string]any)["tool_input"], "Gemini CLI can rewrite")
}

func TestQwenDenyIsADecision(t *testing.T) {
	got := runOnce(t, BeforeTool, strings.NewReader(qwenPreShell), func(BeforeToolInput) (Output, error) {
		return Deny("gemini-guard blocked x", "user line"), nil
	})
	assert.Equal(t, map[string]any{"decision": "deny", "reason": "gemini-guard blocked x", "systemMessage": "user line"}, got)
}

func TestQwenRewriteBecomesTheDenial(t *testing.T) {
	got := runOnce(t, BeforeTool, strings.NewReader(qwenPreEdit), func(BeforeToolInput) (Output, error) {
		return ReplaceToolInputOrDeny(json.RawMessage(`{"file_path":"a"}`), "redacted", Deny("blocked github-pat", "u")), nil
	})
	assert.Equal(t, map[string]any{"decision": "deny", "reason": "blocked github-pat", "systemMessage": "u"}, got)

	got = runOnce(t, BeforeTool, strings.NewReader(qwenPreEdit), func(BeforeToolInput) (Output, error) {
		return ReplaceToolInput(json.RawMessage(`{"file_path":"a"}`), "redacted"), nil
	})
	assert.Equal(t, "deny", got["decision"], "a rewrite without a denial still fails closed")
}

func TestQwenPostToolDenyReplacesTheResult(t *testing.T) {
	var seen AfterToolInput
	got := runOnce(t, AfterTool, strings.NewReader(qwenPost), func(in AfterToolInput) (Output, error) {
		seen = in
		return Deny("redacted output", "hid 1 secret"), nil
	})
	assert.Equal(t, "read_file", seen.ToolName)
	assert.JSONEq(t, `"text"`, string(seen.ToolResponse.LLMContent))
	assert.Equal(t, map[string]any{"continue": false, "stopReason": "redacted output", "systemMessage": "hid 1 secret"}, got)
}

func TestQwenSessionStartSaysWhatIsNotProtected(t *testing.T) {
	got := runOnce(t, SessionStart, strings.NewReader(qwenStart), func(in SessionStartInput) (Output, error) {
		assert.Equal(t, Qwen, in.Host)
		return Output{}, nil
	})
	msg, _ := got["systemMessage"].(string)
	assert.Contains(t, msg, "NOT redacted")
	assert.Contains(t, msg, "no policy wall")
	assert.Equal(t, msg, got["hookSpecificOutput"].(map[string]any)["additionalContext"])

	gem := runOnce(t, SessionStart, strings.NewReader(`{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}`),
		func(SessionStartInput) (Output, error) { return Output{}, nil })
	assert.Empty(t, gem, "Gemini CLI's SessionStart answer is unchanged")
}

func TestQwenBadInputStillFailsClosed(t *testing.T) {
	for _, in := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"edit","tool_input":"not an object"}`,
		`{"hook_event_name":"PreToolUse","tool_name":7}`,
		`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"directory":1,"dir_path":"x"}}`,
	} {
		got := runOnce(t, BeforeTool, strings.NewReader(in), func(in BeforeToolInput) (Output, error) {
			var args map[string]any
			if json.Unmarshal(in.ToolInput, &args) != nil {
				return Output{}, &InputError{}
			}
			return Deny("checked", ""), nil
		})
		require.Equal(t, "deny", got["decision"], in)
	}
}
