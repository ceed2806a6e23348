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
