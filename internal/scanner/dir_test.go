//go:build linux || darwin

package scanner

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultDir(t *testing.T) {
	tmp := filepath.Join(os.TempDir(), "gemini-guard-"+strconv.Itoa(os.Getuid()))
	mine := t.TempDir()
	tests := []struct {
		name string
		xdg  string
		want string
	}{
		{"unset", "", tmp},
		{"ours", mine, filepath.Join(mine, "gemini-guard")},
		{"relative", "run/user", tmp},
		{"missing", filepath.Join(mine, "nope"), tmp},
		{"a file", filepath.Join(mine, "file"), tmp},
	}
	require.NoError(t, os.WriteFile(filepath.Join(mine, "file"), nil, 0o600))
	if os.Getuid() == 0 {
		other := filepath.Join(mine, "other")
		require.NoError(t, os.Mkdir(other, 0o700))
		require.NoError(t, os.Chown(other, 65534, 65534))
		tests = append(tests, struct{ name, xdg, want string }{"another user's", other, tmp})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DefaultDir(func(k string) string {
				if k == "XDG_RUNTIME_DIR" {
					return tt.xdg
				}
				return ""
			})
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSocketPath(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	p, err := SocketPath("/run/user/1000/gemini-guard", fp)
	require.NoError(t, err)
	assert.Equal(t, "/run/user/1000/gemini-guard/scan-abababababababab.sock", p)
	assert.Equal(t, p+".lock", LockPath(p))

	_, err = SocketPath("/"+strings.Repeat("d", 80), fp)
	assert.Error(t, err, "over the 104-byte sockaddr_un of macOS")
	_, err = SocketPath("/run", "abc")
	assert.Error(t, err)
}

func TestCheckDir(t *testing.T) {
	base := t.TempDir()
	t.Run("missing without create", func(t *testing.T) {
		assert.ErrorIs(t, CheckDir(filepath.Join(base, "a"), false), ErrNoDir)
	})
	t.Run("missing with create is made 0700", func(t *testing.T) {
		old := umask(0o077 | 0o700) // even a umask that takes everything
		defer umask(old)
		dir := filepath.Join(base, "b")
		require.NoError(t, CheckDir(dir, true))
		info, err := os.Lstat(dir)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
		assert.NoError(t, CheckDir(dir, false))
	})
	t.Run("parent missing", func(t *testing.T) {
		assert.Error(t, CheckDir(filepath.Join(base, "x", "y"), true))
	})
}
