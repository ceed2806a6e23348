package bundle

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// A newcomer's first build runs with an empty module cache: the release
// build must fetch mvdan.cc/sh itself before it copies and patches it (the
// go command downloads modules for a build, but the copy is made before
// the build runs).
func TestReleaseBuildFetchesTheModuleFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads mvdan.cc/sh/v3 from the module proxy")
	}
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOFLAGS", "-modcacherw") // so that TempDir can remove it
	matches, _ := filepath.Glob(filepath.Join(cache, "mvdan.cc", "sh", "v3@*"))
	require.Empty(t, matches, "the module cache starts empty")

	modFile, notice := releaseModFile(context.Background(), "../..", t.TempDir(), startupPatches)
	assert.Empty(t, notice)
	require.NotEmpty(t, modFile)
	data, err := os.ReadFile(modFile)
	require.NoError(t, err)
	assert.Contains(t, string(data), "replace "+patchedModule+" => ")
	matches, _ = filepath.Glob(filepath.Join(cache, "mvdan.cc", "sh", "v3@*"))
	assert.NotEmpty(t, matches, "the module was downloaded into the empty cache")
}

// When an upgrade of mvdan.cc/sh moves the patched text, the release build
// goes on with the module as published and says so in one line; only
// TestStartupPatchesApply fails, for the maintainers.
func TestReleaseBuildGoesOnWhenThePatchNoLongerApplies(t *testing.T) {
	stale := []sourcePatch{{file: "expand/expand.go", edits: []textEdit{{"text no release of the module holds", "x"}}}}
	modFile, notice := releaseModFile(context.Background(), "../..", t.TempDir(), stale)
	assert.Empty(t, modFile, "the repository's own go.mod, the module as published")
	assert.True(t, strings.HasPrefix(notice, "gemini-guard: building with "+patchedModule+" as published"), notice)
	assert.Contains(t, notice, "internal/bundle/patch.go", "the line names the file to update")
	assert.NotContains(t, notice, "\n", "one line")
}

// A plain `go build ./cmd/...` in a clone, with none of the release
// build's settings (no tags, no patched module, cgo as the machine has it),
// gives hooks that decide as the release's do: they only start slower.
func TestPlainGoBuildMakesWorkingHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every program")
	}
	goTool, err := GoTool()
	require.NoError(t, err)
	bin := t.TempDir()
	cmd := exec.Command(goTool, "build", "-o", bin+string(filepath.Separator), "./cmd/...")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	// The scanner daemon the secrets guard starts keeps its socket in a
	// runtime directory of this test's, and stops when it is removed.
	runtimeDir := filepath.Join(t.TempDir(), "run")
	require.NoError(t, os.Mkdir(runtimeDir, 0o700))
	home, work := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_RUNTIME_DIR="+runtimeDir)

	decide := func(binary string, input map[string]any) map[string]any {
		t.Helper()
		data, err := json.Marshal(input)
		require.NoError(t, err)
		cmd := exec.Command(filepath.Join(bin, binary))
		cmd.Env, cmd.Dir, cmd.Stdin = env, work, strings.NewReader(string(data))
		out, err := cmd.Output()
		require.NoError(t, err, "%s exits 0", binary)
		var answer map[string]any
		require.NoError(t, json.Unmarshal(out, &answer), "%s prints one JSON object: %s", binary, out)
		return answer
	}
	call := func(tool string, args map[string]any) map[string]any {
		return map[string]any{"session_id": "plain-build", "cwd": work, "hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": args}
	}

	assert.Equal(t, "deny", decide("guard-shell", call("run_shell_command", map[string]any{"command": "git reset --hard HEAD~3"}))["decision"])
	assert.NotEqual(t, "deny", decide("guard-shell", call("run_shell_command", map[string]any{"command": "go test ./..."}))["decision"])
	token := secrettest.Token(23, "ghp_", 36)
	write := call("write_file", map[string]any{"file_path": filepath.Join(work, "config.txt"), "content": "token = " + token + "\n"})
	answer := decide("guard-secrets", write)
	assert.Equal(t, "deny", answer["decision"])
	assert.NotContains(t, answer["reason"], token)
}
