package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeFakeBin is a bin/ directory with an executable stand-in for each
// program, under a name with a space and a quote (commands must quote).
func claudeFakeBin(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "gemini guard's", "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	for _, name := range claudeBinaries {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name+exeSuffix()), []byte("#!/bin/sh\n"), 0o755))
	}
	return bin
}

func claudeRunCLI(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return run(t, map[string]string{"HOME": home}, "", append([]string{"claude"}, args...)...)
}

// claudeSettingsOf reads a settings file as Claude Code's JSON.parse would.
func claudeSettingsOf(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(data, &v))
	return v
}

// commandsOf lists every handler command of event in settings.
func commandsOf(settings map[string]any, event string) []string {
	var out []string
	hooks, _ := settings["hooks"].(map[string]any)
	groups, _ := hooks[event].([]any)
	for _, g := range groups {
		hs, _ := g.(map[string]any)["hooks"].([]any)
		for _, h := range hs {
			out = append(out, h.(map[string]any)["command"].(string))
		}
	}
	return out
}

func TestClaudeInstallIntoMissingFile(t *testing.T) {
	home, bin := t.TempDir(), claudeFakeBin(t)
	code, out, errOut := claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "block")
	require.Equal(t, 0, code, errOut)
	path := filepath.Join(home, ".claude", "settings.json")
	assert.Contains(t, out, path)
	s := claudeSettingsOf(t, path)
	q := shellQuote(bin)
	assert.Equal(t, []string{shellQuote(filepath.Join(bin, "guard-shell")) + " --host claude", shellQuote(filepath.Join(bin, "guard-secrets")) + " --host claude"}, commandsOf(s, "PreToolUse"))
	assert.Equal(t, []string{shellQuote(filepath.Join(bin, "guard-redact")) + " after-tool --host claude"}, commandsOf(s, "PostToolUse"))
	assert.Equal(t, []string{shellQuote(filepath.Join(bin, "guard-redact")) + " after-tool --host claude"}, commandsOf(s, "PostToolBatch"))
	assert.Equal(t, []string{shellQuote(filepath.Join(bin, "guard-redact")) + " user-prompt --host claude"}, commandsOf(s, "UserPromptSubmit"))
	assert.Equal(t, []string{shellQuote(filepath.Join(bin, "gemini-guard")) + " session-start --host claude"}, commandsOf(s, "SessionStart"))
	assert.True(t, strings.HasPrefix(q, "'"), "the path is quoted")
	data, _ := os.ReadFile(path)
	assert.Equal(t, 6, strings.Count(string(data), `"onFailure": "block"`))

	code, out, _ = claudeRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "gemini-guard is registered (user scope)")
	assert.NotContains(t, out, "FAIL")
}

func TestClaudeInstallKeepsEverythingElseAndIsIdempotent(t *testing.T) {
	home, bin := t.TempDir(), claudeFakeBin(t)
	path := filepath.Join(home, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	before := `{
  "model": "opus",
  "permissions": {"deny": ["Bash(curl:*)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/my-linter"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "env": {"FOO": "1"}
}`
	require.NoError(t, os.WriteFile(path, []byte(before), 0o600))
	code, out, errOut := claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "off")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "settings.json.bak")
	assert.Contains(t, out, `onFailure "block"`, "the user is told what off means")
	s := claudeSettingsOf(t, path)
	assert.Equal(t, "opus", s["model"])
	assert.Equal(t, map[string]any{"FOO": "1"}, s["env"])
	assert.Equal(t, map[string]any{"deny": []any{"Bash(curl:*)"}}, s["permissions"])
	pre := commandsOf(s, "PreToolUse")
	require.Len(t, pre, 3)
	assert.Equal(t, "/usr/local/bin/my-linter", pre[0], "the user's hook first, as it was")
	assert.Equal(t, []string{"notify-send done"}, commandsOf(s, "Stop"))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the mode is kept")
	first, _ := os.ReadFile(path)

	code, out, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "off")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "already registered")
	again, _ := os.ReadFile(path)
	assert.Equal(t, string(first), string(again))

	// Another copy of gemini-guard replaces the first's handlers.
	other := claudeFakeBin(t)
	code, _, _ = claudeRunCLI(t, home, "install", "--bin", other, "--on-failure", "off")
	require.Equal(t, 0, code)
	pre = commandsOf(claudeSettingsOf(t, path), "PreToolUse")
	require.Len(t, pre, 3)
	assert.NotContains(t, strings.Join(pre, "\n"), shellQuote(bin))

	code, out, _ = claudeRunCLI(t, home, "status", "--bin", other)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, `onFailure "block" is not set`)

	code, out, _ = claudeRunCLI(t, home, "uninstall")
	require.Equal(t, 0, code, out)
	s = claudeSettingsOf(t, path)
	assert.Equal(t, []string{"/usr/local/bin/my-linter"}, commandsOf(s, "PreToolUse"))
	assert.Equal(t, []string{"notify-send done"}, commandsOf(s, "Stop"))
	assert.Empty(t, commandsOf(s, "PostToolUse"))
	assert.NotContains(t, s["hooks"], "PostToolUse", "an event left empty is removed")
	assert.Equal(t, "opus", s["model"])

	code, out, _ = claudeRunCLI(t, home, "uninstall")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "not registered")
}

func TestClaudeInstallProject(t *testing.T) {
	home, bin, dir := t.TempDir(), claudeFakeBin(t), t.TempDir()
	code, out, errOut := claudeRunCLI(t, home, "install", "--project", "--dir", dir, "--bin", bin, "--on-failure", "block")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, filepath.Join(dir, ".claude", "settings.json"))
	_, err := os.Stat(filepath.Join(home, ".claude", "settings.json"))
	assert.True(t, os.IsNotExist(err), "the user's file is not touched")
	code, out, _ = claudeRunCLI(t, home, "status", "--project", "--dir", dir, "--bin", bin)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "project scope")
}

func TestClaudeInstallLeavesBrokenFilesAlone(t *testing.T) {
	for name, content := range map[string]string{
		"not json":        `{"hooks": `,
		"hooks not obj":   `{"hooks": []}`,
		"event not array": `{"hooks": {"PreToolUse": {}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			home, bin := t.TempDir(), claudeFakeBin(t)
			path := filepath.Join(home, ".claude", "settings.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
			code, _, errOut := claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "block")
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, "left as it is")
			data, _ := os.ReadFile(path)
			assert.Equal(t, content, string(data))
		})
	}
}

func TestClaudeInstallNeedsThePrograms(t *testing.T) {
	home, bin := t.TempDir(), claudeFakeBin(t)
	require.NoError(t, os.Remove(filepath.Join(bin, "guard-redact"+exeSuffix())))
	code, _, errOut := claudeRunCLI(t, home, "install", "--bin", bin)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "guard-redact")
}

func TestClaudeStatus(t *testing.T) {
	home, bin := t.TempDir(), claudeFakeBin(t)
	code, out, _ := claudeRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "absent")

	code, _, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "block")
	require.Equal(t, 0, code)
	require.NoError(t, os.Remove(filepath.Join(bin, "guard-shell"+exeSuffix())))
	code, out, _ = claudeRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL")
	assert.Contains(t, out, "guard-shell")

	path := filepath.Join(home, ".claude", "settings.json")
	data, _ := os.ReadFile(path)
	var s map[string]any
	require.NoError(t, json.Unmarshal(data, &s))
	s["disableAllHooks"] = true
	data, _ = json.Marshal(s)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, out, _ = claudeRunCLI(t, home, "status", "--bin", bin)
	assert.Contains(t, out, "disableAllHooks")
}

func TestVersionAtLeast(t *testing.T) {
	assert.True(t, versionAtLeast("2.1.332", "2.1.332"))
	assert.True(t, versionAtLeast("2.2.0", "2.1.332"))
	assert.False(t, versionAtLeast("2.1.240", "2.1.332"))
	assert.False(t, versionAtLeast("", "2.1.332"))
}

func TestClaudeSessionStartSaysTheLimits(t *testing.T) {
	in := `{"session_id":"s","transcript_path":"/t","cwd":"` + t.TempDir() + `","hook_event_name":"SessionStart","source":"startup"}`
	code, out, _ := run(t, map[string]string{"HOME": t.TempDir()}, in, "session-start", "--host", "claude")
	require.Equal(t, 0, code)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	spec := got["hookSpecificOutput"].(map[string]any)
	assert.Equal(t, "SessionStart", spec["hookEventName"])
	assert.Contains(t, spec["additionalContext"], "NOT redacted")
}

func TestClaudeDoctor(t *testing.T) {
	ext := fakeExtension(t, nil)
	home := t.TempDir()
	_, r, _ := doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusSkip, statusOf(r)["claude code"])

	code, _, errOut := claudeRunCLI(t, home, "install", "--bin", filepath.Join(ext, "bin"), "--on-failure", "block")
	require.Equal(t, 0, code, errOut)
	_, r, _ = doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusOK, statusOf(r)["claude code"], detailOf(r, "claude code"))

	require.NoError(t, os.Remove(filepath.Join(ext, "bin", "guard-shell"+exeSuffix())))
	_, r, _ = doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusFail, statusOf(r)["claude code"])
}

func TestClaudeReinstallKeepsOnFailure(t *testing.T) {
	home, bin := t.TempDir(), claudeFakeBin(t)
	code, _, _ := claudeRunCLI(t, home, "install", "--bin", bin, "--on-failure", "block")
	require.Equal(t, 0, code)
	// No Claude Code to ask: what the file had is kept.
	code, out, _ := claudeRunCLI(t, home, "install", "--bin", bin, "--claude", filepath.Join(t.TempDir(), "no-claude"))
	require.Equal(t, 0, code)
	assert.Contains(t, out, "already registered")
	data, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	assert.Equal(t, 6, strings.Count(string(data), `"onFailure": "block"`))

	home = t.TempDir()
	code, out, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--claude", filepath.Join(t.TempDir(), "no-claude"))
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Could not tell the version of Claude Code")
	data, _ = os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	assert.NotContains(t, string(data), "onFailure")

	// A Claude Code that says its version.
	fake := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho '2.1.332 (Claude Code)'\n"), 0o755))
	code, _, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--claude", fake)
	require.Equal(t, 0, code)
	data, _ = os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	assert.Equal(t, 6, strings.Count(string(data), `"onFailure": "block"`))
	old := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(old, []byte("#!/bin/sh\necho '2.1.240 (Claude Code)'\n"), 0o755))
	code, out, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--claude", old)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "older than 2.1.332")
	assert.NotContains(t, out, "WARNING", "2.1.240 replaces tool output")
	older := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(older, []byte("#!/bin/sh\necho '2.1.100 (Claude Code)'\n"), 0o755))
	_, out, _ = claudeRunCLI(t, home, "install", "--bin", bin, "--claude", older)
	assert.Contains(t, out, "WARNING: Claude Code 2.1.100 is older than 2.1.233")
	data, _ = os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	assert.NotContains(t, string(data), "onFailure")
}

func TestClaudeConfigDir(t *testing.T) {
	home, bin, cfg := t.TempDir(), claudeFakeBin(t), t.TempDir()
	code, out, errOut := run(t, map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": cfg}, "", "claude", "install", "--bin", bin, "--on-failure", "block")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, filepath.Join(cfg, "settings.json"))
	assert.FileExists(t, filepath.Join(cfg, "settings.json"))
	assert.NoFileExists(t, filepath.Join(home, ".claude", "settings.json"))
}

func TestClaudeSessionStartWarnsOnAnOldClaudeCode(t *testing.T) {
	in := `{"session_id":"s","transcript_path":"/t","cwd":"` + t.TempDir() + `","hook_event_name":"SessionStart","source":"startup"}`
	for agent, warned := range map[string]bool{"claude-code_2-1-100_harness": true, "claude-code_2-1-332_harness": false, "": false} {
		_, out, _ := run(t, map[string]string{"HOME": t.TempDir(), "AI_AGENT": agent}, in, "session-start", "--host", "claude")
		assert.Equal(t, warned, strings.Contains(out, "older than 2.1.233"), "%s: %s", agent, out)
	}
}
