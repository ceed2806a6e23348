package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workspaceWith returns a workspace whose project file holds content.
func workspaceWith(t *testing.T, content string) string {
	t.Helper()
	ws := t.TempDir()
	path := filepath.Join(ws, filepath.FromSlash(ProjectFile))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return ws
}

func loaded(t *testing.T, m map[string]string) Settings {
	t.Helper()
	s, warnings := Load(env(m))
	require.Empty(t, warnings)
	return s
}

func TestApplyProjectNoFile(t *testing.T) {
	s := Default()
	got, warnings := ApplyProject(s, t.TempDir())
	assert.Empty(t, warnings)
	assert.Equal(t, s, got)

	got, warnings = ApplyProject(s, "")
	assert.Empty(t, warnings)
	assert.Equal(t, s, got)
}

func TestApplyProjectTightens(t *testing.T) {
	user := loaded(t, map[string]string{
		"GEMINI_GUARD_MODE":                 "standard",
		"GEMINI_GUARD_DISABLED_RULES":       "git.reset-hard,generic-api-key",
		"GEMINI_GUARD_PROTECTED_PATHS":      "/srv/data",
		"GEMINI_GUARD_TRUSTED_DELETE_ROOTS": "/scratch,/var/cache/build/",
		"GEMINI_GUARD_SECRETS_ACTION":       "redact",
		"GEMINI_GUARD_SECRETS_SKIP_PATHS":   "testdata/**,fixtures/*",
		"GEMINI_GUARD_TRUST_GITLEAKS_ALLOW": "true",
		"GEMINI_GUARD_REDACT_STREAM":        "false",
		"GEMINI_GUARD_REDACT_TOOL_OUTPUT":   "false",
	})
	userCopy := user
	userCopy.DisabledRules = append([]string(nil), user.DisabledRules...)
	userCopy.ProtectedPaths = append([]string(nil), user.ProtectedPaths...)

	ws := workspaceWith(t, `
mode = "strict"
protected_paths = ["deploy", "/etc/app", "/srv/data"]
enable_rules = ["git.reset-hard"]
remove_trusted_delete_roots = ["/var/cache/build"]
remove_secrets_skip_paths = ["testdata/**"]
secrets_action = "block"
trust_gitleaks_allow = false
redact_stream = true
redact_tool_output = true
audit_log = "on"
`)
	got, warnings := ApplyProject(user, ws)
	assert.Empty(t, warnings)
	assert.Equal(t, Strict, got.Mode)
	assert.Equal(t, []string{"/srv/data", filepath.Join(ws, "deploy"), "/etc/app"}, got.ProtectedPaths)
	assert.Equal(t, []string{"generic-api-key"}, got.DisabledRules)
	assert.Equal(t, []string{"/scratch"}, got.TrustedDeleteRoots)
	assert.Equal(t, []string{"fixtures/*"}, got.SecretsSkipPaths)
	assert.Equal(t, Block, got.SecretsAction)
	assert.False(t, got.TrustGitleaksAllow)
	assert.True(t, got.RedactStream)
	assert.True(t, got.RedactToolOutput)
	assert.Equal(t, "on", got.AuditLog)

	assert.Equal(t, userCopy.DisabledRules, user.DisabledRules, "the caller's slices are untouched")
	assert.Equal(t, userCopy.ProtectedPaths, user.ProtectedPaths, "the caller's slices are untouched")
}

func TestApplyProjectNeverLoosens(t *testing.T) {
	strict := loaded(t, map[string]string{"GEMINI_GUARD_MODE": "strict", "GEMINI_GUARD_AUDIT_LOG": "on"})
	standard := Default()
	cases := []struct {
		name    string
		user    Settings
		file    string
		warning string
	}{
		{"mode down to warn", standard, `mode = "warn"`, `mode = "warn" ignored`},
		{"mode down to standard", strict, `mode = "standard"`, `mode = "standard" ignored`},
		{"disable a rule", standard, `disabled_rules = ["git.reset-hard"]`, "disabled_rules ignored"},
		{"trust a delete root", standard, `trusted_delete_roots = ["/"]`, "trusted_delete_roots ignored"},
		{"skip scanning", standard, `secrets_skip_paths = ["**"]`, "secrets_skip_paths ignored"},
		{"own gitleaks config", standard, `gitleaks_config = "allow-all.toml"`, "gitleaks_config ignored"},
		{"redact instead of block", standard, `secrets_action = "redact"`, `secrets_action = "redact" ignored`},
		{"trust gitleaks:allow", standard, `trust_gitleaks_allow = true`, "trust_gitleaks_allow = true ignored"},
		{"stop stream redaction", standard, `redact_stream = false`, "redact_stream = false ignored"},
		{"stop tool redaction", standard, `redact_tool_output = false`, "redact_tool_output = false ignored"},
		{"audit log off", strict, `audit_log = "off"`, `audit_log = "off" ignored`},
		{"audit log elsewhere", standard, `audit_log = "/tmp/agent-controlled.jsonl"`, "audit_log = <path> ignored"},
		{"invalid mode", standard, `mode = "yolo"`, `mode = "yolo" is not valid`},
		{"invalid action", standard, `secrets_action = "ignore"`, `secrets_action = "ignore" is not valid`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, warnings := ApplyProject(c.user, workspaceWith(t, c.file))
			assert.Equal(t, c.user, got, "nothing loosened")
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], c.warning)
			assert.Contains(t, warnings[0], ProjectFile)
		})
	}
}

// Asking for what is already configured is not a warning.
func TestApplyProjectSameValueIsQuiet(t *testing.T) {
	user := loaded(t, map[string]string{"GEMINI_GUARD_MODE": "warn", "GEMINI_GUARD_SECRETS_ACTION": "redact", "GEMINI_GUARD_REDACT_STREAM": "false"})
	got, warnings := ApplyProject(user, workspaceWith(t, "mode = \"warn\"\nsecrets_action = \"redact\"\nredact_stream = false\n"))
	assert.Empty(t, warnings)
	assert.Equal(t, user, got)

	got, warnings = ApplyProject(user, workspaceWith(t, `mode = "standard"`))
	assert.Empty(t, warnings)
	assert.Equal(t, Standard, got.Mode, "warn may be tightened to standard")
}

func TestApplyProjectUnknownKeysKeepTheRest(t *testing.T) {
	got, warnings := ApplyProject(Default(), workspaceWith(t, "mode = \"strict\"\nprotected_path = [\"x\"]\n[extra]\nkey = 1\n"))
	assert.Equal(t, Strict, got.Mode, "known keys still apply")
	require.Len(t, warnings, 2)
	assert.Contains(t, warnings[0], `line 2: unknown key "protected_path"`)
	assert.Contains(t, warnings[1], `line 3: unknown key "extra"`)
}

func TestApplyProjectBadFiles(t *testing.T) {
	cases := map[string]string{
		"not toml":     "mode = strict\n",
		"wrong type":   "mode = 3\n",
		"list as text": "protected_paths = \"/etc\"\n",
		"binary":       "\x00\xff\xfe",
		"too large":    "# " + strings.Repeat("x", MaxProjectFile) + "\n",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			got, warnings := ApplyProject(Default(), workspaceWith(t, content))
			assert.Equal(t, Default(), got)
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], "gemini-guard: ignored "+ProjectFile)
		})
	}

	t.Run("a directory", func(t *testing.T) {
		ws := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(ws, filepath.FromSlash(ProjectFile)), 0o755))
		got, warnings := ApplyProject(Default(), ws)
		assert.Equal(t, Default(), got)
		require.Len(t, warnings, 1)
		assert.Contains(t, warnings[0], "not a regular file")
	})
}

// Any project file: no panic, and never looser than the user's settings.
func FuzzApplyProject(f *testing.F) {
	for _, seed := range []string{
		"mode = \"strict\"\nprotected_paths = [\"a\"]\n", "mode = \"warn\"", "disabled_rules = [\"x\"]",
		"enable_rules = [\"git.reset-hard\"]\nremove_trusted_delete_roots = [\"/scratch\"]", "[x]\ny = 1", "mode = 3",
		"audit_log = \"/tmp/x\"", "redact_stream = false\ntrust_gitleaks_allow = true\nsecrets_action = \"redact\"",
	} {
		f.Add(seed)
	}
	user, _ := Load(env(map[string]string{
		"GEMINI_GUARD_MODE": "standard", "GEMINI_GUARD_DISABLED_RULES": "git.reset-hard",
		"GEMINI_GUARD_TRUSTED_DELETE_ROOTS": "/scratch", "GEMINI_GUARD_SECRETS_SKIP_PATHS": "testdata/**",
	}))
	f.Fuzz(func(t *testing.T, content string) {
		got, _ := ApplyProject(user, workspaceWith(t, content))
		assert.GreaterOrEqual(t, got.Mode.rank(), user.Mode.rank())
		assert.Subset(t, user.DisabledRules, got.DisabledRules)
		assert.Subset(t, user.TrustedDeleteRoots, got.TrustedDeleteRoots)
		assert.Subset(t, user.SecretsSkipPaths, got.SecretsSkipPaths)
		assert.Subset(t, got.ProtectedPaths, user.ProtectedPaths)
		assert.False(t, user.SecretsAction == Block && got.SecretsAction != Block)
		assert.False(t, got.TrustGitleaksAllow && !user.TrustGitleaksAllow)
		assert.False(t, user.RedactStream && !got.RedactStream)
		assert.False(t, user.RedactToolOutput && !got.RedactToolOutput)
		assert.True(t, got.AuditLog == user.AuditLog || (user.AuditLog == "" && got.AuditLog == "on"))
	})
}
