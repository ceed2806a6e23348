package bounded

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEvalSymlinks: the same answers as filepath.EvalSymlinks on a tree
// with absolute, relative and chained links.
func TestEvalSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "b", "f"), nil, 0o600))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "abs")))
	require.NoError(t, os.Symlink("a/b", filepath.Join(dir, "rel")))
	require.NoError(t, os.Symlink("rel/f", filepath.Join(dir, "chain")))
	require.NoError(t, os.Symlink("../a/b/f", filepath.Join(dir, "a", "up")))
	require.NoError(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	for _, p := range []string{"a/b/f", "abs/b/f", "rel/f", "chain", "a/up", "abs/b/../b/f", "missing", "loop", "a/b/f/x"} {
		t.Run(p, func(t *testing.T) {
			want, wantErr := filepath.EvalSymlinks(filepath.Join(dir, p))
			got, err := EvalSymlinks(OS{}, filepath.Join(dir, p))
			if wantErr != nil {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
