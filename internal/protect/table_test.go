package protect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJoinedHoldsIsJoinThenCompare(t *testing.T) {
	paths := []string{"/", "/home", "/home/ann", "/home/ann/.gemini", "/home/ann/.GEMINI/settings.json", "/home/ann/.gemini/settings.jsonx",
		"/home/ann/.gemini/extensions/x/y", "/home/annb/.gemini", "/etc/gemini-cli", "/etc/gemini-cli/settings.json", "/etc/gemini-clix", "/w", "/w/.env"}
	dirs := []string{"/", "/home/ann", "/home/ann/.gemini", "/etc/gemini-cli", "/w"}
	rels := []string{"", "settings.json", ".gemini", "extensions", ".gemini/settings.json", ".env"}
	for _, p := range paths {
		for _, d := range dirs {
			for _, r := range rels {
				q := filepath.Join(d, r)
				exact, within := joinedHolds(p, d, r)
				assert.Equal(t, samePath(p, q), exact, "%s vs %s", p, q)
				assert.Equal(t, Within(p, q), within, "%s in %s", p, q)
			}
		}
	}
}

// TestHostHomesMoved: Claude Code's and Codex CLI's configuration are
// protected where CLAUDE_CONFIG_DIR and CODEX_HOME put them, as in home.
func TestHostHomesMoved(t *testing.T) {
	home, other := t.TempDir(), t.TempDir()
	claude, codex := filepath.Join(other, "claude-cfg"), filepath.Join(other, "codex-home")
	for _, d := range []string{claude, codex} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	r := Roots{Home: home, Hosts: HostHomesFrom(func(k string) string {
		return map[string]string{"CLAUDE_CONFIG_DIR": claude, "CODEX_HOME": codex}[k]
	})}
	for _, p := range []string{
		filepath.Join(claude, "settings.json"), filepath.Join(claude, "settings.local.json"), filepath.Join(claude, "plugins", "x", "hooks.json"),
		filepath.Join(codex, "config.toml"), filepath.Join(codex, "hooks.json"),
		filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".codex", "config.toml"),
	} {
		assert.Equal(t, Config, Classify(r, p).Kind, p)
	}
	assert.Equal(t, None, Classify(r, filepath.Join(claude, "notes.md")).Kind)
	assert.Equal(t, None, Classify(Roots{Home: home}, filepath.Join(claude, "settings.json")).Kind, "unnamed, it is an ordinary file")
	assert.Contains(t, Contains(r, claude).What, "Claude Code's configuration directory", "deleting the directory")
	assert.Contains(t, Contains(r, codex).What, "Codex CLI's configuration directory", "deleting the directory")
	assert.Equal(t, HostHomes{}, HostHomesFrom(func(string) string { return "relative/dir" }), "a relative value is not a place")
}
