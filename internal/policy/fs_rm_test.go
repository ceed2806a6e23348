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

// TestDeleteThroughWorkspaceLink: a delete inside the workspace that
// reaches, through a symbolic link, a directory in home is judged where it
// lands; the link itself (named without a trailing slash) and links that
// stay in the workspace are the workspace's.
func TestDeleteThroughWorkspaceLink(t *testing.T) {
	workspace, home := testdirs.New(t)
	require.NoError(t, os.MkdirAll(filepath.Join(home, "Documents"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(workspace, "build", "out"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(home, "Documents"), filepath.Join(workspace, "docs")))
	require.NoError(t, os.Symlink("build/out", filepath.Join(workspace, "out")))
	require.NoError(t, os.MkdirAll(filepath.Join(workspace, "vendor"), 0o755))
	require.NoError(t, os.Symlink(home, filepath.Join(workspace, "vendor", "h")))
	for cmd, want := range map[string]string{
		`rm -rf docs/`:    "fs.rm-home",
		`rm -rf docs/*`:   "fs.rm-home",
		`rm -rf docs/old`: "fs.rm-home",
		`tar --remove-files -cf /tmp/d.tar docs/`: "fs.rm-home",
		`rm -rf vendor/h/.config`:                 "fs.rm-home",
		`rm -rf vendor/h/`:                        "fs.rm-home",
		`rm docs`:                                 "",
		`rm -rf docs`:                             "",
		`rm -rf out/`:                             "",
		`rm -rf out/*`:                            "",
		`rm -rf build/out`:                        "",
		`rm -rf vendor/h`:                         "",
	} {
		assert.Equal(t, want, decision(workspace, home, settings.Default(), cmd), cmd)
	}
}
