package shellguard_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
)

// runCodex runs guard-shell as Codex does (`--host codex PreToolUse`).
func runCodex(t *testing.T, tool string, input any) string {
	t.Helper()
	call, err := json.Marshal(map[string]any{
		"session_id": "s1", "turn_id": "t1", "transcript_path": nil, "cwd": "/home/user/shop", "hook_event_name": "PreToolUse",
		"model": "gpt-5.5", "permission_mode": "bypassPermissions", "tool_name": tool, "tool_input": input, "tool_use_id": "call_1",
	})
	require.NoError(t, err)
	e := hookEnv(nil)
	e.Host = hook.FromArgs([]string{"--host", "codex", "PreToolUse"})
	var out bytes.Buffer
	assert.Zero(t, shellguard.Run(bytes.NewReader(call), &out, e))
	return out.String()
}

func TestCodexShell(t *testing.T) {
	out := runCodex(t, "Bash", map[string]string{"command": "rm -rf ~"})
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, out, "fs.rm-home")
	assert.Empty(t, runCodex(t, "Bash", map[string]string{"command": "go test ./..."}), "an allow is no output")

	// apply_patch: a deleted file is judged as rm of it, a moved one as mv.
	out = runCodex(t, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Delete File: /home/user/.bashrc\n*** End Patch\n"})
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, out, "fs.rm-home")
	assert.Empty(t, runCodex(t, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Delete File: old.txt\n*** Add File: new.txt\n+x\n*** End Patch\n"}))
	assert.Empty(t, runCodex(t, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: new.txt\n+x\n*** End Patch\n"}),
		"what a patch writes is the secrets guard's")
	// A patch in a shell command, which Codex applies itself.
	out = runCodex(t, "Bash", map[string]string{"command": "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: /home/user/.bashrc\n*** End Patch\nEOF"})
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, out, "/home/user/.bashrc")
	assert.Empty(t, runCodex(t, "Bash", map[string]string{"command": "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\nEOF"}))
	assert.Empty(t, runCodex(t, "view_image", map[string]string{"path": "a.png"}), "a tool it does not judge runs")
	out = runCodex(t, "apply_patch", map[string]string{"command": "not a patch"})
	assert.Contains(t, out, "hook.bad-input")
}

// In Codex, what is typed into a running command (write_stdin) reaches no
// hook: a command that would read the commands it runs from its input is
// denied there, and only there.
func TestCodexStdinCommands(t *testing.T) {
	for _, c := range []string{"bash", "bash -i", "sh -s", "zsh", "python3", "python3 -", "node", "irb", "ssh example.org", "ssh -i key -p 22 example.org",
		"sudo -s", "sudo -u root -i", "su", "su -", "cd sub && bash", "env FOO=1 python3", "bash -c 'python3'", "psql -h db shop", "mysql -u root shop", "sqlite3 app.db"} {
		out := runCodex(t, "Bash", map[string]string{"command": c})
		assert.Contains(t, out, "codex.stdin-commands", c)
	}
	for _, c := range []string{"bash script.sh", "bash -c 'echo hi'", "python3 x.py", "python3 -m http.server", "python3 -c 'print(1)'", "node -e 1",
		"ssh example.org ls", "sudo ls", "su -c id", "echo ls | bash", "bash < script.sh", "bash --version", "python3 --version", "cat -", "ls -la",
		"psql -h db -c 'select 1' shop", "mysql -e 'select 1' shop", "sqlite3 app.db 'select 1'"} {
		out := runCodex(t, "Bash", map[string]string{"command": c})
		assert.NotContains(t, out, "codex.stdin-commands", c)
	}
	// Gemini CLI's shell tool gives a command no input to type into.
	assert.NotContains(t, string(runHook(t, []byte(`{"session_id":"s","cwd":"/home/user/shop","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"bash"}}`), nil)), "codex.stdin-commands")
}
