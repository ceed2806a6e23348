package bundle

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The start-up patches apply to the mvdan.cc/sh that go.mod pins, the
// patched copy compiles no regexp at start-up, and the release build with
// it succeeds: an upgrade that moves the patched text fails here first.
func TestStartupPatchesApply(t *testing.T) {
	dir := t.TempDir()
	modFile, err := PatchedModFile(context.Background(), "../..", dir)
	require.NoError(t, err)
	data, err := os.ReadFile(modFile)
	require.NoError(t, err)
	assert.Contains(t, string(data), "replace "+patchedModule+" => ")
	copies, err := filepath.Glob(filepath.Join(dir, "mvdan.cc_sh_v3@*", "go.mod"))
	require.NoError(t, err)
	require.Len(t, copies, 1)
	for _, p := range startupPatches {
		src, err := os.ReadFile(filepath.Join(filepath.Dir(copies[0]), filepath.FromSlash(p.file)))
		require.NoError(t, err)
		for _, e := range p.edits {
			assert.True(t, strings.Contains(string(src), e.new), "%s: %q is not in the copy", p.file, e.new)
		}
	}

	// Reused, not copied again, by the next build.
	again, err := PatchedModFile(context.Background(), "../..", dir)
	require.NoError(t, err)
	copies2, _ := filepath.Glob(filepath.Join(dir, "mvdan.cc_sh_v3@*", "go.mod"))
	assert.Equal(t, copies, copies2)

	goTool, err := GoTool()
	require.NoError(t, err)
	cmd := exec.Command(goTool, "build", "-modfile", again, "-o", os.DevNull, "./cmd/guard-shell")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	data, err = os.ReadFile("../../go.mod")
	require.NoError(t, err)
	assert.NotContains(t, string(data), "replace "+patchedModule, "the repository's go.mod is untouched")
}

// A patch whose text is not there exactly once is an error that names the
// file to update, never a silent build of something else.
func TestStartupPatchMismatchFails(t *testing.T) {
	p := sourcePatch{file: "x/x.go", edits: []textEdit{{"var a = 1", "var a = 2"}}}
	_, err := p.apply("var b = 1\n")
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "internal/bundle/patch.go"), err.Error())
	_, err = p.apply("var a = 1\nvar a = 1\n")
	require.Error(t, err)
	got, err := p.apply("var a = 1\n")
	require.NoError(t, err)
	assert.Equal(t, "var a = 2\n", got)
}
