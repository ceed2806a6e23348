package toolargs_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/toolargs"
)

func TestText(t *testing.T) {
	raw := json.RawMessage(`{"url":"https://x.example/?k=v","headers":{"Authorization":"Bearer abc"},"n":3,"list":[{"deep":["a","b"]}],"ok":true,"none":null}`)
	text, err := toolargs.Text(raw)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "Authorization: Bearer abc\n"), "keys sorted, each value after its key: %q", text)
	for _, want := range []string{"url: https://x.example/?k=v\n", "deep: a\n", "deep: b\n"} {
		assert.Contains(t, text, want)
	}
	_, err = toolargs.Text(json.RawMessage(`{"a":`))
	assert.Error(t, err)

	deep := strings.Repeat(`[`, 200) + `"needle"` + strings.Repeat(`]`, 200)
	text, err = toolargs.Text(json.RawMessage(deep))
	require.NoError(t, err)
	assert.Contains(t, text, "needle", "a value nested past MaxDepth is still in the text")
}

func TestOutbound(t *testing.T) {
	for _, tool := range []string{"web_fetch", "google_web_search", "mcp_github_create_issue"} {
		assert.True(t, toolargs.Outbound(tool), tool)
	}
	for _, tool := range []string{"read_file", "write_file", "glob", "mcpx"} {
		assert.False(t, toolargs.Outbound(tool), tool)
	}
}

func TestShellCommand(t *testing.T) {
	cases := []struct {
		tool, args, want string
		ok               bool
	}{
		{"mcp_box_run_command", `{"command":"git reset --hard"}`, "git reset --hard", true},
		{"mcp_dev_exec", `{"cmd":"rm -rf /"}`, "rm -rf /", true},
		{"mcp_ci_bash", `{"script":"echo hi"}`, "echo hi", true},
		{"mcp_term_terminal-run", `{"command":["rm","-rf","a b"]}`, "rm -rf 'a b'", true},
		{"mcp_notes_create_note", `{"command":"rm -rf /"}`, "", false},
		{"mcp_box_run_command", `{"text":"rm -rf /"}`, "", false},
		{"run_shell_command", `{"command":"ls"}`, "", false},
		{"mcp_box_exec", `not json`, "", false},
		// Process starters, camelCase names and argument names.
		{"mcp_desktop-commander_start_process", `{"command":"rm -rf ~","timeout_ms":1000}`, "rm -rf ~", true},
		{"mcp_ops_startProcess", `{"cmdline":"git push --force"}`, "git push --force", true},
		{"mcp_ops_runCommand", `{"commandLine":"git reset --hard"}`, "git reset --hard", true},
		{"mcp_box_spawn", `{"argv":["rm","-rf","/"]}`, "rm -rf /", true},
		{"mcp_box_execute_commands", `{"commands":["cd /","rm -rf home"]}`, "cd /\nrm -rf home", true},
		{"mcp_box_bash", `{"code":"rm -rf ~"}`, "rm -rf ~", true},
		{"mcp_jupyter_execute_code", `{"code":"import os"}`, "", false}, // code of an exec tool may be any language
		{"mcp_images_process_image", `{"path":"a.png"}`, "", false},
		{"mcp_notes_processor", `{"command":"rm -rf /"}`, "", false}, // not the word process
	}
	for _, c := range cases {
		got, ok := toolargs.ShellCommand(c.tool, json.RawMessage(c.args))
		assert.Equal(t, c.ok, ok, c.tool+" "+c.args)
		assert.Equal(t, c.want, got, c.tool+" "+c.args)
	}
}
