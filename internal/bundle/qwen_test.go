package bundle

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateQwen = flag.Bool("update", false, "rewrite qwen-extension.json from gemini-extension.json and hooks/hooks.json")

// The repository's qwen-extension.json (what Qwen Code installs from a git
// checkout) is the one Stage generates: edit hooks/hooks.json and the
// Gemini manifest, then `go test ./internal/bundle -run TestQwenManifestIsGenerated -update`.
func TestQwenManifestIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	manifest, err := os.ReadFile(filepath.Join(root, "gemini-extension.json"))
	require.NoError(t, err)
	hooks, err := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
	require.NoError(t, err)
	want, err := QwenManifestFrom(manifest, hooks)
	require.NoError(t, err)
	path := filepath.Join(root, QwenManifest)
	if *updateQwen {
		require.NoError(t, os.WriteFile(path, want, 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "qwen-extension.json is stale: run go test ./internal/bundle -run TestQwenManifestIsGenerated -update")
}

func TestQwenManifestHooks(t *testing.T) {
	manifest := `{"name":"gemini-guard","version":"1.2.3","settings":[{"name":"Mode","envVar":"GEMINI_GUARD_MODE"}]}`
	hooks := `{"hooks":{
		"BeforeTool":[{"matcher":"^(write_file|replace|run_shell_command)$","hooks":[{"name":"s","type":"command","command":"a && b","timeout":30000}]}],
		"AfterTool":[{"matcher":"^read_file$","hooks":[{"name":"r","type":"command","command":"c","timeout":500}]}],
		"AfterModel":[{"hooks":[{"name":"m","type":"command","command":"d"}]}],
		"SessionStart":[{"hooks":[{"name":"st","type":"command","command":"e","timeout":10000}]}]}}`
	out, err := QwenManifestFrom([]byte(manifest), []byte(hooks))
	require.NoError(t, err)
	assert.Contains(t, string(out), `"a && b"`, "commands are not HTML-escaped")
	var q struct {
		Name     string                 `json:"name"`
		Version  string                 `json:"version"`
		Settings []map[string]string    `json:"settings"`
		Hooks    map[string][]HookGroup `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(out, &q))
	assert.Equal(t, "gemini-guard", q.Name)
	assert.Equal(t, "1.2.3", q.Version)
	assert.Equal(t, "GEMINI_GUARD_MODE", q.Settings[0]["envVar"])
	require.Len(t, q.Hooks, 3, "no AfterModel counterpart: %v", q.Hooks)
	assert.Equal(t, "^(write_file|edit|run_shell_command)$", q.Hooks["PreToolUse"][0].Matcher)
	assert.Equal(t, 30, q.Hooks["PreToolUse"][0].Hooks[0].Timeout, "seconds")
	assert.Equal(t, 1, q.Hooks["PostToolUse"][0].Hooks[0].Timeout, "rounded up")
	assert.Equal(t, 10, q.Hooks["SessionStart"][0].Hooks[0].Timeout)

	_, err = QwenManifestFrom([]byte(`[`), []byte(hooks))
	assert.Error(t, err)
	_, err = QwenManifestFrom([]byte(manifest), []byte(`{"hooks":{"X":[{"bogus":1}]}}`))
	assert.Error(t, err)
}
