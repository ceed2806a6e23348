package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codexCall is a Codex 0.171.0 PreToolUse input as captured live
// (reference §2.4) around one tool call.
func codexCall(event, tool, input string, extra string) string {
	return `{"session_id":"01a224b8-d30b-7d10-8105-628acbe7b46d","turn_id":"01a224b8-d32f-7200-b492-118047a9ece2",` +
		`"transcript_path":"/home/dev/.codex/sessions/rollout.jsonl","cwd":"/home/dev/shop","hook_event_name":"` + event + `",` +
		`"model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"` + tool + `","tool_input":` + input + extra +
		`,"tool_use_id":"call_2"}`
}

func runCodex[In any](t *testing.T, ev Event, event, stdin string, decide func(In) (Output, error)) string {
	t.Helper()
	var out bytes.Buffer
	Run(ev, strings.NewReader(stdin), &out, decide, FromArgs([]string{"--host", "codex", event}))
	return out.String()
}

func TestCodexToolsAreSeenAsGeminiTools(t *testing.T) {
	cases := []struct {
		tool, input, want, wantInput string
	}{
		{"Bash", `{"command":"touch a && echo hi"}`, "run_shell_command", `{"command":"touch a && echo hi"}`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: patched.txt\n+hello\n*** End Patch\n"}`, ApplyPatch,
			`{"files":[{"op":"add","path":"patched.txt","content":"hello\n"}]}`},
		{"Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\nEOF"}`, "run_shell_command",
			`{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\nEOF","codex_patch":{"files":[{"op":"delete","path":"a.txt"}]}}`},
		{"Bash", `{"command":"echo '*** Begin Patch' > notes.txt"}`, "run_shell_command", `{"command":"echo '*** Begin Patch' > notes.txt"}`},
		{"mcp__tickets__create", `{"title":"t"}`, "mcp_tickets_create", `{"title":"t"}`},
		{"web_search", `{"q":"x"}`, "web_search", `{"q":"x"}`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			var seen BeforeToolInput
			out := runCodex(t, BeforeTool, "PreToolUse", codexCall("PreToolUse", c.tool, c.input, ""), func(in BeforeToolInput) (Output, error) {
				seen = in
				return Output{}, nil
			})
			assert.Empty(t, out, "an allow is no output")
			assert.Equal(t, Codex, seen.Host)
			assert.Equal(t, "BeforeTool", seen.HookEventName)
			assert.Equal(t, "/home/dev/shop", seen.Cwd)
			assert.Equal(t, "01a224b8-d30b-7d10-8105-628acbe7b46d", seen.SessionID)
			assert.Equal(t, c.want, seen.ToolName)
			assert.JSONEq(t, c.wantInput, string(seen.ToolInput))
		})
	}
}

func TestCodexDenyHasOnlySchemaKeys(t *testing.T) {
	out := runCodex(t, BeforeTool, "PreToolUse", codexCall("PreToolUse", "Bash", `{"command":"rm -rf /"}`, ""), func(BeforeToolInput) (Output, error) {
		return Deny("gemini-guard blocked fs.rm-root", "blocked"), nil
	})
	assert.JSONEq(t, `{"systemMessage":"blocked","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"gemini-guard blocked fs.rm-root"}}`, out)
	assert.True(t, strings.HasSuffix(out, "}\n"))

	// No reason: Codex reads an empty reason as invalid (the call would run).
	out = runCodex(t, BeforeTool, "PreToolUse", codexCall("PreToolUse", "Bash", `{"command":"x"}`, ""), func(BeforeToolInput) (Output, error) {
		return Output{Decision: "deny"}, nil
	})
	assert.Contains(t, out, `"permissionDecisionReason":"gemini-guard blocked this tool call."`)

	// A rewrite cannot be carried out: its fallback deny is sent.
	out = runCodex(t, BeforeTool, "PreToolUse", codexCall("PreToolUse", "Bash", `{"command":"x"}`, ""), func(BeforeToolInput) (Output, error) {
		return ReplaceToolInputOrDeny(json.RawMessage(`{"command":"y"}`), "redacted", Deny("FALLBACK", "")), nil
	})
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"FALLBACK"}}`, out)
	assert.NotContains(t, out, "updatedInput")

	// A warn-mode allow tells the user only.
	out = runCodex(t, BeforeTool, "PreToolUse", codexCall("PreToolUse", "Bash", `{"command":"x"}`, ""), func(BeforeToolInput) (Output, error) {
		return Allow("would have blocked"), nil
	})
	assert.JSONEq(t, `{"systemMessage":"would have blocked"}`, out)
}

func TestCodexBadInputFailsClosed(t *testing.T) {
	cases := map[string]string{
		"not json":          `nope`,
		"empty":             ``,
		"bash no command":   codexCall("PreToolUse", "Bash", `{"cmd":"ls"}`, ""),
		"bash argv":         codexCall("PreToolUse", "Bash", `{"command":["rm","-rf","/"]}`, ""),
		"bad patch":         codexCall("PreToolUse", "apply_patch", `{"command":"rm -rf /"}`, ""),
		"bad embedded":      codexCall("PreToolUse", "Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\nrm -rf /\n*** End Patch\nEOF"}`, ""),
		"unended embedded":  codexCall("PreToolUse", "Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\nEOF"}`, ""),
		"no tool name":      `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_input":{}}`,
		"other event named": codexCall("PostToolUse", "Bash", `{"command":"ls"}`, `,"tool_response":"x"`),
	}
	for name, stdin := range cases {
		t.Run(name, func(t *testing.T) {
			called := false
			out := runCodex(t, BeforeTool, "PreToolUse", stdin, func(BeforeToolInput) (Output, error) {
				called = true
				return Output{}, nil
			})
			assert.False(t, called)
			var got struct {
				HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &got), out)
			assert.Equal(t, "deny", got.HookSpecificOutput["permissionDecision"])
			assert.Contains(t, got.HookSpecificOutput["permissionDecisionReason"], "hook.bad-input")
		})
	}
	// The program answers another event than the command line names.
	out := runCodex(t, AfterTool, "PreToolUse", codexCall("PostToolUse", "Bash", `{"command":"ls"}`, `,"tool_response":"x"`), func(AfterToolInput) (Output, error) {
		return Output{}, nil
	})
	var block map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &block), out)
	assert.Equal(t, "block", block["decision"], "output that could not be scanned is withheld")
	assert.Contains(t, block["reason"], "this program answers the Codex event PostToolUse, not PreToolUse")
	assert.Len(t, block, 2)
	var unknown bytes.Buffer
	Run(BeforeTool, strings.NewReader(codexCall("PreToolUse", "Bash", `{"command":"ls"}`, "")), &unknown,
		func(BeforeToolInput) (Output, error) { return Output{}, nil }, FromArgs([]string{"--host", "codex", "Stop"}))
	assert.Contains(t, unknown.String(), `"permissionDecision":"deny"`)
}

func TestCodexPostToolUseBlocksWithTheReason(t *testing.T) {
	var seen AfterToolInput
	stdin := codexCall("PostToolUse", "Bash", `{"command":"cat .env"}`, `,"tool_response":"TOKEN=abc\n"`)
	out := runCodex(t, AfterTool, "PostToolUse", stdin, func(in AfterToolInput) (Output, error) {
		seen = in
		return Deny("redacted: TOKEN=[REDACTED]", "hid a secret"), nil
	})
	assert.Equal(t, "run_shell_command", seen.ToolName)
	assert.JSONEq(t, `"TOKEN=abc\n"`, string(seen.ToolResponse.LLMContent))
	assert.JSONEq(t, `{"decision":"block","reason":"redacted: TOKEN=[REDACTED]"}`, out)

	// An object response (MCP) is scanned as its JSON text; an allow is
	// no output.
	stdin = codexCall("PostToolUse", "mcp__s__t", `{}`, `,"tool_response":{"content":[{"type":"text","text":"hi"}]}`)
	out = runCodex(t, AfterTool, "PostToolUse", stdin, func(in AfterToolInput) (Output, error) {
		seen = in
		return Output{}, nil
	})
	assert.Empty(t, out)
	var text string
	require.NoError(t, json.Unmarshal(seen.ToolResponse.LLMContent, &text))
	assert.Contains(t, text, `"text":"hi"`)
}

func TestCodexSessionStart(t *testing.T) {
	stdin := `{"session_id":"s","transcript_path":null,"cwd":"/w","hook_event_name":"SessionStart","model":"gpt-5.5","permission_mode":"default","source":"startup"}`
	var seen SessionStartInput
	out := runCodex(t, SessionStart, "SessionStart", stdin, func(in SessionStartInput) (Output, error) {
		seen = in
		return Allow("hello"), nil
	})
	assert.Equal(t, "startup", seen.Source)
	assert.Equal(t, Codex, seen.Host)
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}`, out)
}

func TestParsePatch(t *testing.T) {
	patch := "*** Begin Patch\n" +
		"*** Add File: docs/new.md\n+# Title\n+\n+body\n" +
		"*** Update File: src/app.py\n" +
		"*** Move to: src/main.py\n" +
		"@@ def main():\n" +
		"     x = 1\n" +
		"-    y = 2\n" +
		"+    y = 3\n" +
		"\n" +
		"@@\n" +
		"-old\n" +
		"+new\n" +
		"*** End of File\n" +
		"*** Delete File: tmp/junk.txt\n" +
		"*** End Patch"
	files, err := ParsePatch(patch)
	require.NoError(t, err)
	assert.Equal(t, []PatchFile{
		{Op: PatchAdd, Path: "docs/new.md", Content: "# Title\n\nbody\n"},
		{Op: PatchUpdate, Path: "src/app.py", MoveTo: "src/main.py", Edits: []PatchEdit{
			{OldString: "    x = 1\n    y = 2\n", NewString: "    x = 1\n    y = 3\n"},
			{OldString: "old", NewString: "new"},
		}},
		{Op: PatchDelete, Path: "tmp/junk.txt"},
	}, files)
	assert.Equal(t, "mv -- 'src/app.py' 'src/main.py'\nrm -- 'tmp/junk.txt'\n", PatchShellCommand(files))

	// White space around the markers, CRLF, as Codex's parser allows.
	files, err = ParsePatch("\n *** Begin Patch \r\n*** Delete File:  it's.txt \r\n *** End Patch \n\n")
	require.NoError(t, err)
	assert.Equal(t, []PatchFile{{Op: PatchDelete, Path: "it's.txt"}}, files)
	assert.Equal(t, `rm -- 'it'\''s.txt'`+"\n", PatchShellCommand(files))

	for name, bad := range map[string]string{
		"no begin":         "*** Add File: a\n+x\n*** End Patch",
		"no end":           "*** Begin Patch\n*** Add File: a\n+x\n",
		"empty":            "*** Begin Patch\n*** End Patch",
		"text first":       "*** Begin Patch\nhello\n*** End Patch",
		"add without plus": "*** Begin Patch\n*** Add File: a\nx\n*** End Patch",
		"delete with body": "*** Begin Patch\n*** Delete File: a\n+x\n*** End Patch",
		"no path":          "*** Begin Patch\n*** Add File: \n+x\n*** End Patch",
		"move without upd": "*** Begin Patch\n*** Add File: a\n*** Move to: b\n*** End Patch",
		"bad hunk line":    "*** Begin Patch\n*** Update File: a\n@@\n*x\n*** End Patch",
	} {
		_, err := ParsePatch(bad)
		assert.Error(t, err, name)
	}
}
