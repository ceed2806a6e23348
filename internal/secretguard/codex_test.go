package secretguard_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// runCodexPatch runs the hook on a Codex apply_patch call in ws, HOME
// home, and returns the raw answer ("" for an allow).
func runCodexPatch(t *testing.T, ws, home, patch string) string {
	t.Helper()
	return runCodexTool(t, ws, home, "apply_patch", patch)
}

func runCodexTool(t *testing.T, ws, home, tool, command string) string {
	t.Helper()
	call, err := json.Marshal(map[string]any{
		"session_id": "s1", "turn_id": "t1", "transcript_path": nil, "cwd": ws, "hook_event_name": "PreToolUse",
		"model": "gpt-5.5", "permission_mode": "bypassPermissions", "tool_name": tool,
		"tool_input": map[string]string{"command": command}, "tool_use_id": "call_1",
	})
	require.NoError(t, err)
	env := map[string]string{"HOME": home}
	var stdout bytes.Buffer
	assert.Zero(t, secretguard.Run(bytes.NewReader(call), &stdout, secretguard.HookEnv{
		Getenv: func(k string) string { return env[k] }, Scanner: secrettest.CachedScanner,
		Host: hook.FromArgs([]string{"--host", "codex", "PreToolUse"}),
	}))
	return stdout.String()
}

// codexDenial is the reason of a Codex deny, "" when out is not one.
func codexDenial(t *testing.T, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var got struct {
		Specific struct {
			HookEventName, PermissionDecision, PermissionDecisionReason string
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	if got.Specific.PermissionDecision != "deny" {
		return ""
	}
	return got.Specific.PermissionDecisionReason
}

func TestCodexApplyPatch(t *testing.T) {
	tok := ghp(301)
	cases := []struct {
		name  string
		files map[string]string
		patch string
		// rule is what the deny names; "" for an allow.
		rule string
	}{
		{"add a file with a token", nil,
			"*** Begin Patch\n*** Add File: config.py\n+TOKEN = \"" + tok + "\"\n*** End Patch\n", "github-pat"},
		{"update adds a token", map[string]string{"app.py": "import os\nx = 1\n"},
			"*** Begin Patch\n*** Update File: app.py\n@@\n import os\n-x = 1\n+x = \"" + tok + "\"\n*** End Patch\n", "github-pat"},
		{"a token in the second file", map[string]string{"app.py": "x = 1\n"},
			"*** Begin Patch\n*** Add File: ok.txt\n+hello\n*** Update File: app.py\n@@\n-x = 1\n+GITHUB_TOKEN = \"" + tok + "\"\n*** End Patch\n", "github-pat"},
		{"ordinary work", map[string]string{"app.py": "x = 1\n"},
			"*** Begin Patch\n*** Add File: docs/a.md\n+# A\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n", ""},
		{"write Codex's hooks", nil,
			"*** Begin Patch\n*** Add File: ~/.codex/hooks.json\n+{}\n*** End Patch\n", "guard.protected-config"},
		{"edit Codex's config", map[string]string{"~/.codex/config.toml": "model = \"x\"\n"},
			"*** Begin Patch\n*** Update File: ~/.codex/config.toml\n@@\n-model = \"x\"\n+model = \"y\"\n*** End Patch\n", "guard.protected-config"},
		{"delete Codex's hooks", map[string]string{"~/.codex/hooks.json": "{}"},
			"*** Begin Patch\n*** Delete File: ~/.codex/hooks.json\n*** End Patch\n", "guard.protected-config"},
		{"move onto the project's Codex config", map[string]string{"x.toml": "a = 1\n"},
			"*** Begin Patch\n*** Update File: x.toml\n*** Move to: .codex/config.toml\n@@\n-a = 1\n+a = 2\n*** End Patch\n", "guard.protected-config"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			abs := func(p string) string {
				if rest, ok := strings.CutPrefix(p, "~/"); ok {
					return filepath.Join(home, rest)
				}
				return filepath.Join(ws, p)
			}
			for name, body := range c.files {
				require.NoError(t, os.MkdirAll(filepath.Dir(abs(name)), 0o755))
				require.NoError(t, os.WriteFile(abs(name), []byte(body), 0o644))
			}
			patch := strings.ReplaceAll(c.patch, "~/", home+"/")
			out := runCodexPatch(t, ws, home, patch)
			reason := codexDenial(t, out)
			assert.NotContains(t, out, tok, "no secret in the answer")
			if c.rule == "" {
				assert.Empty(t, reason, out)
				return
			}
			assert.Contains(t, reason, c.rule, out)
		})
	}
}

func TestCodexApplyPatchBadPatchIsDenied(t *testing.T) {
	out := runCodexPatch(t, t.TempDir(), t.TempDir(), "rm -rf /")
	assert.Contains(t, codexDenial(t, out), "hook.bad-input")
}

func TestCodexPatchInAShellCommand(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	heredoc := func(patch string) string { return "apply_patch <<'EOF'\n" + patch + "EOF\n" }
	out := runCodexTool(t, ws, home, "Bash", heredoc("*** Begin Patch\n*** Add File: "+home+"/.codex/hooks.json\n+{}\n*** End Patch\n"))
	assert.Contains(t, codexDenial(t, out), "guard.protected-config")
	tok := ghp(302)
	out = runCodexTool(t, ws, home, "Bash", heredoc("*** Begin Patch\n*** Add File: a.py\n+T = \""+tok+"\"\n*** End Patch\n"))
	assert.Contains(t, codexDenial(t, out), "github-pat")
	assert.NotContains(t, out, tok)
	assert.Empty(t, codexDenial(t, runCodexTool(t, ws, home, "Bash", heredoc("*** Begin Patch\n*** Add File: a.md\n+hi\n*** End Patch\n"))))
}
