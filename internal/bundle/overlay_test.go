package bundle

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The start-up patches apply to the mvdan.cc/sh go.mod pins, change only
// what they name, and the patched packages build: an upgrade that moves
// the patched text fails here first.
func TestStartupPatchesApply(t *testing.T) {
	dir := t.TempDir()
	path, err := WriteOverlay(context.Background(), "../..", dir)
	require.NoError(t, err)
	var overlay struct{ Replace map[string]string }
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &overlay))
	require.Len(t, overlay.Replace, len(startupPatches))
	for orig, patched := range overlay.Replace {
		before, err := os.ReadFile(orig)
		require.NoError(t, err)
		after, err := os.ReadFile(patched)
		require.NoError(t, err)
		assert.NotContains(t, string(after), "= regexp.MustCompile(", "%s: no regexp compiled at start-up", orig)
		assert.Contains(t, string(before), "= regexp.MustCompile(", "%s: the original compiles them at start-up", orig)
	}

	goTool, err := GoTool()
	require.NoError(t, err)
	var pkgs []string
	for _, p := range startupPatches {
		pkgs = append(pkgs, p.pkg)
	}
	cmd := exec.Command(goTool, append([]string{"build", "-overlay", path}, pkgs...)...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// A patch whose text is not there exactly once is an error that names the
// file to update, never a silent build of something else.
func TestStartupPatchMismatchFails(t *testing.T) {
	p := sourcePatch{pkg: "example.com/x", file: "x.go", edits: []textEdit{{"var a = 1", "var a = 2"}}}
	_, err := p.apply("var b = 1\n")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "internal/bundle/overlay.go")
	_, err = p.apply("var a = 1\nvar a = 1\n")
	require.Error(t, err)
	got, err := p.apply("var a = 1\n")
	require.NoError(t, err)
	assert.Equal(t, "var a = 2\n", got)
}
