package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

func write(t *testing.T, p, body string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
}

// TestBranchOverConfig: a branch brought into a work tree that holds the
// home directory's configuration is denied; one that holds a protected
// file of the workspace's own is denied in strict mode only; an ordinary
// repository's is allowed.
func TestBranchOverConfig(t *testing.T) {
	_, home := testdirs.New(t)
	write(t, filepath.Join(home, ".gemini", "settings.json"), "{}")
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".git"), 0o755))
	for _, cmd := range []string{"git checkout dotfiles", "git switch other", "git pull origin main", "git reset --hard origin/main", "git merge theirs"} {
		assert.Equal(t, "guard.tamper", decision(home, home, settings.Default(), cmd), cmd)
	}
	assert.Equal(t, "", decision(home, home, settings.Default(), "git status"))

	ws, home2 := testdirs.New(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	assert.Equal(t, "", decision(ws, home2, settings.Default(), "git checkout feature"), "an ordinary repository")
	write(t, filepath.Join(ws, ".gemini", "settings.json"), "{}")
	strict := settings.Default()
	strict.Mode = settings.Strict
	assert.Equal(t, "", decision(ws, home2, settings.Default(), "git checkout feature"))
	assert.Equal(t, "guard.tamper", decision(ws, home2, strict, "git checkout feature"))
	assert.Equal(t, "", decision(ws, home2, strict, "git checkout -b feature"))
}

// TestFindReachesByName: a find over the workspace whose name tests rule
// out every protected file there is allowed; one that can select them is
// denied.
func TestFindReachesByName(t *testing.T) {
	ws, home := testdirs.New(t)
	write(t, filepath.Join(ws, ".gemini", "settings.json"), "{}")
	write(t, filepath.Join(home, ".gemini", "extensions", "gemini-guard", "bin", "guard-shell"), "x")
	for cmd, want := range map[string]string{
		`find . -name '*.o' -delete`:                      "",
		`find . -name '*.json' -exec rm {} +`:             "guard.tamper",
		`find ~ -name 'guard-*' -exec chmod 644 {} +`:     "guard.tamper",
		`find ~ -name '*.log' -exec chmod 644 {} +`:       "",
		`find ~ -path '*/bin/*' -exec cp /bin/true {} \;`: "guard.tamper",
		`find . -type f -name '*.md' | xargs chmod 644`:   "",
	} {
		fs, ctx := findings(ws, home, settings.Default(), cmd)
		got := ""
		for _, f := range fs {
			if f.Denies(ctx) && f.Rule.ID == "guard.tamper" {
				got = f.Rule.ID
			}
		}
		assert.Equal(t, want, got, cmd)
	}
}
