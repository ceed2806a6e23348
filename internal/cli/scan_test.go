package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// scanWorkspace is a workspace with a file holding a GitHub token, a clean
// file and the same token under testdata/.
func scanWorkspace(t *testing.T) (ws, token string) {
	t.Helper()
	ws = t.TempDir()
	token = secrettest.Token(7, "ghp_", 36)
	files := map[string]string{
		"config.py":           "import os\nTOKEN = \"" + token + "\"\n",
		"main.py":             "print('hello')\n",
		"testdata/fixture.py": "TOKEN = \"" + token + "\"\n",
	}
	for name, content := range files {
		path := filepath.Join(ws, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return ws, token
}

func TestScan(t *testing.T) {
	ws, token := scanWorkspace(t)
	env := map[string]string{"HOME": t.TempDir()}
	file := func(name string) string { return filepath.Join(ws, name) }

	t.Run("a secret is found, masked", func(t *testing.T) {
		code, stdout, _ := run(t, env, "", "scan", "--workspace", ws, file("config.py"))
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "config.py: deny github-pat")
		assert.Contains(t, stdout, "line 2")
		assert.Contains(t, stdout, "ghp_…(40 chars)")
		assert.NotContains(t, stdout, token)
	})
	t.Run("a clean file", func(t *testing.T) {
		code, stdout, _ := run(t, env, "", "scan", file("main.py"), "--workspace", ws)
		assert.Equal(t, 0, code)
		assert.Equal(t, file("main.py")+": no secrets\n", stdout)
	})
	t.Run("json, several files", func(t *testing.T) {
		code, stdout, _ := run(t, env, "", "scan", "--json", "--workspace", ws, file("main.py"), file("config.py"))
		assert.Equal(t, 1, code)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		require.Len(t, lines, 2)
		var r scanResult
		require.NoError(t, json.Unmarshal([]byte(lines[1]), &r))
		assert.Equal(t, "deny", r.Decision)
		// The token also sits in a credential-named assignment
		// (keyword-assigned-secret): one secret, named by its own rule.
		assert.Equal(t, []string{"github-pat"}, r.Rules)
		assert.Contains(t, r.Reason, "gemini-guard blocked github-pat")
		assert.NotContains(t, stdout, token)
	})
	t.Run("stdin", func(t *testing.T) {
		code, stdout, _ := run(t, env, "KEY="+token+"\n", "scan", "-")
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "-: deny github-pat")
	})
	t.Run("warn mode still reports it", func(t *testing.T) {
		code, stdout, _ := run(t, map[string]string{"GEMINI_GUARD_MODE": "warn"}, "", "scan", "--workspace", ws, file("config.py"))
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "config.py: warn github-pat")
	})
	t.Run("redact action", func(t *testing.T) {
		code, stdout, _ := run(t, map[string]string{"GEMINI_GUARD_SECRETS_ACTION": "redact"}, "", "scan", "--workspace", ws, file("config.py"))
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "config.py: rewrite github-pat")
		assert.NotContains(t, stdout, token)
	})
	t.Run("skip paths are relative to the workspace", func(t *testing.T) {
		skip := map[string]string{"GEMINI_GUARD_SECRETS_SKIP_PATHS": "testdata/**"}
		code, _, _ := run(t, skip, "", "scan", "--workspace", ws, file("testdata/fixture.py"))
		assert.Equal(t, 0, code)
		code, _, _ = run(t, skip, "", "scan", "--workspace", ws, file("config.py"))
		assert.Equal(t, 1, code)
	})
	t.Run("a project file can take the skip away", func(t *testing.T) {
		require.NoError(t, os.MkdirAll(filepath.Join(ws, ".gemini"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, ".gemini", "gemini-guard.toml"), []byte("remove_secrets_skip_paths = [\"testdata/**\"]\n"), 0o644))
		defer os.Remove(filepath.Join(ws, ".gemini", "gemini-guard.toml"))
		code, _, _ := run(t, map[string]string{"GEMINI_GUARD_SECRETS_SKIP_PATHS": "testdata/**"}, "", "scan", "--workspace", ws, file("testdata/fixture.py"))
		assert.Equal(t, 1, code)
	})
	t.Run("errors", func(t *testing.T) {
		code, _, stderr := run(t, env, "", "scan", file("main.py"), file("missing.py"))
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "missing.py")
		code, _, _ = run(t, env, "", "scan")
		assert.Equal(t, 2, code)
		code, _, _ = run(t, env, "", "scan", ws)
		assert.Equal(t, 2, code, "a directory is not a file")
		code, _, _ = run(t, env, "", "scan", "--workspace", file("main.py"), file("main.py"))
		assert.Equal(t, 2, code)
	})
}
