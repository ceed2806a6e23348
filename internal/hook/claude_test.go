package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var claudeArgs = []string{"--host", "claude"}

// claudeCall is a Claude Code 2.1.332 input (reference §2.4) for event
// around one tool call; response is "" for PreToolUse.
func claudeCall(event, tool, input, response string) string {
	s := `{"session_id":"a1ee","transcript_path":"/home/dev/.claude/projects/-w/a1ee.jsonl","cwd":"/w","prompt_id":"db95",` +
		`"permission_mode":"bypassPermissions","hook_event_name":"` + event + `","tool_name":"` + tool + `","tool_input":` + input
	if response != "" {
		s += `,"tool_response":` + response + `,"duration_ms":72`
	}
	return s + `,"tool_use_id":"toolu_0002"}`
}

// runClaude runs Run as Claude Code's hook would (`--host claude`) and
// returns stdout, checked to be one JSON object on one line.
func runClaude[In any](t *testing.T, ev Event, stdin string, decide func(In) (Output, error)) string {
	t.Helper()
	var out bytes.Buffer
	Run(ev, strings.NewReader(stdin), &out, decide, FromArgs(claudeArgs))
	s := out.String()
	require.True(t, strings.HasSuffix(s, "\n") && strings.Count(s, "\n") == 1, "one line: %q", s)
	require.True(t, json.Valid([]byte(s)), "one JSON object: %q", s)
	return strings.TrimSpace(s)
}

func TestClaudeToolsAreSeenAsGeminiTools(t *testing.T) {
	cases := []struct {
		tool, input string
		want        string
		wantInput   string
	}{
		{"Bash", `{"command":"echo hi","description":"Say hi"}`, "run_shell_command", `{"command":"echo hi"}`},
		{"Write", `{"file_path":"/w/a.txt","content":"one\n"}`, "write_file", `{"file_path":"/w/a.txt","content":"one\n"}`},
		{"Edit", `{"file_path":"/w/a.txt","old_string":"one","new_string":"two","replace_all":false}`,
			"replace", `{"file_path":"/w/a.txt","old_string":"one","new_string":"two","allow_multiple":false}`},
		{"MultiEdit", `{"file_path":"/w/a.txt","edits":[{"old_string":"a","new_string":"b","replace_all":true},{"old_string":"c","new_string":"d"}]}`,
			MultiReplace, `{"file_path":"/w/a.txt","edits":[{"old_string":"a","new_string":"b","allow_multiple":true},{"old_string":"c","new_string":"d"}]}`},
		{"NotebookEdit", `{"notebook_path":"/w/n.ipynb","new_source":"x=1"}`, "notebook_edit", `{"notebook_path":"/w/n.ipynb","new_source":"x=1"}`},
		{"Read", `{"file_path":"/w/a.txt","offset":1}`, "read_file", `{"file_path":"/w/a.txt"}`},
		{"WebFetch", `{"url":"https://example.com/","prompt":"summarise"}`, "web_fetch", `{"url":"https://example.com/","prompt":"summarise"}`},
		{"WebSearch", `{"query":"go fuzzing"}`, "google_web_search", `{"query":"go fuzzing"}`},
		{"mcp__tickets__run_command", `{"command":"ls"}`, "mcp_tickets_run_command", `{"command":"ls"}`},
		{"Task", `{"prompt":"x"}`, "Task", `{"prompt":"x"}`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			var seen BeforeToolInput
			out := runClaude(t, BeforeTool, claudeCall("PreToolUse", c.tool, c.input, ""), func(in BeforeToolInput) (Output, error) {
				seen = in
				return Output{}, nil
			})
			assert.Equal(t, "{}", out, "an allow is no decision")
			assert.Equal(t, Claude, seen.Host)
			assert.Equal(t, "BeforeTool", seen.HookEventName)
			assert.Equal(t, "/w", seen.Cwd)
			assert.Equal(t, "a1ee", seen.SessionID)
			assert.Equal(t, c.want, seen.ToolName)
			assert.JSONEq(t, c.wantInput, string(seen.ToolInput))
			if c.want != c.tool {
				assert.Equal(t, c.tool, seen.HostToolName)
			}
		})
	}
}

func TestClaudeDenyIsAPermissionDecision(t *testing.T) {
	out := runClaude(t, BeforeTool, claudeCall("PreToolUse", "Bash", `{"command":"rm -rf ~"}`, ""), func(BeforeToolInput) (Output, error) {
		return Deny("gemini-guard blocked fs.rm-home: no", "user line"), nil
	})
	assert.JSONEq(t, `{"systemMessage":"user line","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"gemini-guard blocked fs.rm-home: no"}}`, out)
}

func TestClaudeRewriteIsDenied(t *testing.T) {
	out := runClaude(t, BeforeTool, claudeCall("PreToolUse", "Write", `{"file_path":"/w/a","content":"x"}`, ""), func(BeforeToolInput) (Output, error) {
		return ReplaceToolInputOrDeny(json.RawMessage(`{"file_path":"/w/a","content":"y"}`), "m", Deny("blocked instead", "")), nil
	})
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked instead"}}`, out)
	assert.NotContains(t, out, "allow", "never an allow: it would skip the user's permission prompt")
}

func TestClaudeBadInputFailsClosed(t *testing.T) {
	for name, in := range map[string]string{
		"empty":       "",
		"not json":    "this is {not json",
		"other event": claudeCall("PostToolUse", "Bash", `{"command":"ls"}`, `{"stdout":"x"}`),
		"no tool":     `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse"}`,
		"bad args":    claudeCall("PreToolUse", "Bash", `"ls"`, ""),
	} {
		t.Run(name, func(t *testing.T) {
			out := runClaude(t, BeforeTool, in, allowAll)
			var got claudeOutput
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			require.NotNil(t, got.Specific, out)
			assert.Equal(t, "deny", got.Specific.PermissionDecision)
			assert.Contains(t, got.Specific.PermissionDecisionReason, "hook.bad-input")
		})
	}
}

func TestClaudeHostIsNamedOnTheCommandLine(t *testing.T) {
	// Without --host claude the event names are Qwen Code's too; Claude
	// Code's own tool names still tell it.
	var seen BeforeToolInput
	got := runOnce(t, BeforeTool, strings.NewReader(claudeCall("PreToolUse", "Bash", `{"command":"ls"}`, "")), func(in BeforeToolInput) (Output, error) {
		seen = in
		return Deny("no", ""), nil
	})
	assert.Equal(t, Claude, seen.Host)
	assert.Equal(t, "run_shell_command", seen.ToolName)
	assert.Equal(t, "deny", got["hookSpecificOutput"].(map[string]any)["permissionDecision"], "answered as Claude Code reads it")
	runOnce(t, BeforeTool, strings.NewReader(qwenPreShell), func(in BeforeToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.Equal(t, Qwen, seen.Host, "Qwen Code's tools are snake_case")
	var out bytes.Buffer
	Run(BeforeTool, strings.NewReader(claudeCall("PreToolUse", "Bash", `{"command":"ls"}`, "")), &out, allowAll, FromArgs([]string{"--host", "claude", "x"}))
	assert.Contains(t, out.String(), `"permissionDecision":"deny"`, "arguments it cannot read: Claude's fail-safe")
}

const claudeBashResponse = `{"stdout":"token=SECRET","stderr":"warn SECRET","interrupted":false,"isImage":false,"noOutputExpected":false}`

func TestClaudePostToolUseRedactsInTheResponsesShape(t *testing.T) {
	cases := []struct {
		name, tool, input, response string
		wantText                    string
		want                        string
	}{
		{"Bash", "Bash", `{"command":"env"}`, claudeBashResponse, "token=SECRET\nwarn SECRET",
			`{"stdout":"REDACTED","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{"Read", "Read", `{"file_path":"/w/.env"}`, `{"type":"text","file":{"filePath":"/w/.env","content":"K=SECRET\n","numLines":2,"startLine":1,"totalLines":2}}`,
			"K=SECRET\n", `{"type":"text","file":{"filePath":"/w/.env","content":"REDACTED","numLines":2,"startLine":1,"totalLines":2}}`},
		{"WebFetch", "WebFetch", `{"url":"https://x/","prompt":"p"}`, `{"bytes":10,"code":200,"codeText":"OK","result":"SECRET","durationMs":3,"url":"https://x/"}`,
			"SECRET", `{"bytes":10,"code":200,"codeText":"OK","result":"REDACTED","durationMs":3,"url":"https://x/"}`},
		{"MCP blocks", "mcp__logs__tail", `{}`, `[{"type":"text","text":"a SECRET"},{"type":"text","text":"b"}]`,
			"a SECRET\nb", `[{"type":"text","text":"REDACTED"},{"type":"text","text":""}]`},
		{"string", "mcp__logs__tail", `{}`, `"SECRET"`, "SECRET", `"REDACTED"`},
		{"notebook", "Read", `{"file_path":"/w/n.ipynb"}`,
			`{"type":"notebook","file":{"filePath":"/w/n.ipynb","cells":[{"cell_type":"code","cell_id":"c1","source":"k = 'SECRET'","language":"python","outputs":[{"text":"SECRET"}]}]}}`,
			"k = 'SECRET'\nSECRET",
			`{"type":"notebook","file":{"filePath":"/w/n.ipynb","cells":[{"cell_type":"code","cell_id":"c1","source":"REDACTED","language":"python","outputs":[{"text":""}]}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var seen AfterToolInput
			out := runClaude(t, AfterTool, claudeCall("PostToolUse", c.tool, c.input, c.response), func(in AfterToolInput) (Output, error) {
				seen = in
				return Deny("REDACTED", "hid a secret"), nil
			})
			assert.Equal(t, "AfterTool", seen.HookEventName)
			assert.JSONEq(t, mustJSON(t, c.wantText), string(seen.ToolResponse.LLMContent))
			var got claudeOutput
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			require.NotNil(t, got.Specific, out)
			assert.Equal(t, "PostToolUse", got.Specific.HookEventName)
			assert.JSONEq(t, c.want, string(got.Specific.UpdatedToolOutput))
			assert.Equal(t, "hid a secret", got.SystemMessage)
			assert.Nil(t, got.Continue)
		})
	}
}

func TestClaudePostToolUseClean(t *testing.T) {
	out := runClaude(t, AfterTool, claudeCall("PostToolUse", "Bash", `{"command":"ls"}`, claudeBashResponse), func(AfterToolInput) (Output, error) {
		return Output{}, nil
	})
	assert.Equal(t, "{}", out, "never an identity rewrite: it would clobber a sibling hook's redaction")
}

func TestClaudeImageIsNotScannedAsText(t *testing.T) {
	var seen AfterToolInput
	runClaude(t, AfterTool, claudeCall("PostToolUse", "Read", `{"file_path":"/w/a.png"}`,
		`{"type":"image","file":{"base64":"iVBORw0KGgoSECRET","type":"image/png","originalSize":10}}`), func(in AfterToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.NotContains(t, string(seen.ToolResponse.LLMContent), "iVBOR")
}

func TestClaudeWritersOutputIsNotScanned(t *testing.T) {
	var seen AfterToolInput
	runClaude(t, AfterTool, claudeCall("PostToolUse", "Write", `{"file_path":"/w/a","content":"x"}`,
		`{"type":"create","filePath":"/w/a","content":"x","structuredPatch":[],"originalFile":null,"userModified":false}`), func(in AfterToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.Equal(t, "write_file", seen.ToolName)
	assert.JSONEq(t, `""`, string(seen.ToolResponse.LLMContent))
}

func TestClaudePostToolUseWithoutAShapeStopsTheRun(t *testing.T) {
	// Unreadable input: nothing to put the answer in, so the run stops.
	out := runClaude(t, AfterTool, "not json", func(AfterToolInput) (Output, error) { return Output{}, nil })
	var got claudeOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Continue)
	assert.False(t, *got.Continue)
	assert.Contains(t, got.StopReason, "hook.output-unscanned")
	// A guard error after the input was read: the output is withheld in
	// its own shape.
	out = runClaude(t, AfterTool, claudeCall("PostToolUse", "Bash", `{"command":"ls"}`, claudeBashResponse), func(AfterToolInput) (Output, error) {
		return Output{}, errors.New("scanner down")
	})
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Specific, out)
	assert.Contains(t, string(got.Specific.UpdatedToolOutput), "hook.output-unscanned")
	assert.NotContains(t, out, "SECRET")
}

func TestClaudeUserPrompt(t *testing.T) {
	in := `{"session_id":"a1ee","transcript_path":"/t","cwd":"/w","prompt_id":"p","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"key SECRET"}`
	var seen UserPromptInput
	out := runClaude(t, UserPrompt, in, func(in UserPromptInput) (Output, error) {
		seen = in
		return Deny("has a secret", "told"), nil
	})
	assert.Equal(t, "key SECRET", seen.Prompt)
	assert.Equal(t, Claude, seen.Host)
	assert.JSONEq(t, `{"decision":"block","reason":"has a secret","systemMessage":"told"}`, out)
	out = runClaude(t, UserPrompt, in, func(UserPromptInput) (Output, error) { return Output{}, nil })
	assert.Equal(t, "{}", out)
	out = runClaude(t, UserPrompt, `{"hook_event_name":"UserPromptSubmit"}`, func(UserPromptInput) (Output, error) { return Output{}, nil })
	assert.Contains(t, out, `"decision":"block"`, "a prompt that cannot be read is not sent")
}

func TestClaudeSessionStart(t *testing.T) {
	in := `{"session_id":"a1ee","transcript_path":"/t","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}`
	out := runClaude(t, SessionStart, in, func(in SessionStartInput) (Output, error) {
		assert.Equal(t, "startup", in.Source)
		return Output{SystemMessage: "m", Specific: &Specific{HookEventName: SessionStart, AdditionalContext: "c"}}, nil
	})
	assert.JSONEq(t, `{"systemMessage":"m","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`, out)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestClaudePostToolUseFailureStopsTheTurn(t *testing.T) {
	in := `{"session_id":"a1ee","transcript_path":"/t","cwd":"/w","hook_event_name":"PostToolUseFailure","tool_name":"Bash",` +
		`"tool_input":{"command":"cat notes; exit 3"},"tool_use_id":"toolu_1","error":"Exit code 3\nTOKEN=SECRET","is_interrupt":false}`
	var seen AfterToolInput
	out := runClaude(t, AfterTool, in, func(in AfterToolInput) (Output, error) {
		seen = in
		return Deny("redacted: TOKEN=[REDACTED]", "hid a secret"), nil
	})
	assert.Equal(t, "run_shell_command", seen.ToolName)
	assert.JSONEq(t, `"Exit code 3\nTOKEN=SECRET"`, string(seen.ToolResponse.LLMContent))
	assert.JSONEq(t, `{"systemMessage":"hid a secret"}`, out,
		"the error text can be neither replaced nor stopped here (PostToolBatch stops the turn)")
	out = runClaude(t, AfterTool, in, func(AfterToolInput) (Output, error) {
		return Output{Specific: &Specific{HookEventName: AfterTool, AdditionalContext: "c"}}, nil
	})
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"c"}}`, out)
	out = runClaude(t, AfterTool, in, func(AfterToolInput) (Output, error) { return Output{}, nil })
	assert.Equal(t, "{}", out)
}

func TestClaudePostToolBatchStopsTheTurn(t *testing.T) {
	in := `{"session_id":"a1ee","transcript_path":"/t","cwd":"/w","hook_event_name":"PostToolBatch","tool_calls":[` +
		`{"tool_name":"Bash","tool_input":{"command":"cat n; exit 3"},"tool_use_id":"t1","tool_response":"Exit code 3\nTOKEN=SECRET"},` +
		`{"tool_name":"Read","tool_input":{"file_path":"/w/a"},"tool_use_id":"t2","tool_response":{"type":"text","file":{"filePath":"/w/a","content":"x"}}},` +
		`{"tool_name":"Task","tool_input":{},"tool_use_id":"t3"}]}`
	var seen AfterToolInput
	out := runClaude(t, AfterTool, in, func(in AfterToolInput) (Output, error) {
		seen = in
		return Deny("redacted: TOKEN=[REDACTED]", "hid a secret"), nil
	})
	assert.Equal(t, ClaudeBatchTool, seen.ToolName)
	assert.JSONEq(t, `[{"text":"Exit code 3\nTOKEN=SECRET"},{"text":"x"},{"text":""}]`, string(seen.ToolResponse.LLMContent))
	var got claudeOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Continue, out)
	assert.False(t, *got.Continue)
	assert.Contains(t, got.StopReason, "gemini-guard stopped this turn")
	assert.NotContains(t, out, "SECRET")
	assert.Nil(t, got.Specific)
	out = runClaude(t, AfterTool, in, func(AfterToolInput) (Output, error) { return Output{}, nil })
	assert.Equal(t, "{}", out)
}
