package shellguard_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/shellguard"
)

// TestHostHomesMovedByTheEnvironment: with CLAUDE_CONFIG_DIR or CODEX_HOME
// set, as the host passes them to its hooks, a command that rewrites or
// deletes the hooks there is denied, as it is in ~/.claude and ~/.codex.
func TestHostHomesMovedByTheEnvironment(t *testing.T) {
	ws, other := t.TempDir(), t.TempDir()
	claude, codex := filepath.Join(other, "claude"), filepath.Join(other, "codex")
	for _, d := range []string{claude, codex} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	vars := map[string]string{"CLAUDE_CONFIG_DIR": claude, "CODEX_HOME": codex}
	decide := func(command string, vars map[string]string) string {
		in, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": ws, "hook_event_name": "BeforeTool",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}})
		var out bytes.Buffer
		require.Zero(t, shellguard.Run(bytes.NewReader(in), &out, hookEnv(vars)))
		var ans struct{ Decision, Reason string }
		require.NoError(t, json.Unmarshal(out.Bytes(), &ans), out.String())
		return ans.Decision
	}
	for _, cmd := range []string{
		`echo '{}' > ` + claude + `/settings.json`,
		`rm -rf ` + claude,
		`sed -i '/guard-shell/d' ` + codex + `/hooks.json`,
		`printf '' > ` + codex + `/config.toml`,
	} {
		assert.Equal(t, "deny", decide(cmd, vars), cmd)
	}
	for _, cmd := range []string{`echo '{}' > ` + claude + `/settings.json`, `sed -i '/guard-shell/d' ` + codex + `/hooks.json`} {
		assert.NotEqual(t, "deny", decide(cmd, nil), "not a host's directory without the variable: %s", cmd)
	}
	assert.NotEqual(t, "deny", decide(`cat `+claude+`/settings.json`, vars), "reading is not changing")
}
