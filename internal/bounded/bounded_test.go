package bounded

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(p, []byte("0123456789"), 0o600))

	data, truncated, err := ReadFile(p, 10)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))
	assert.False(t, truncated)

	data, truncated, err = ReadFile(p, 4)
	require.NoError(t, err)
	assert.Equal(t, "0123", string(data))
	assert.True(t, truncated)

	_, _, err = ReadFile(filepath.Join(dir, "missing"), 4)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	_, _, err = ReadFile(dir, 4)
	assert.ErrorIs(t, err, ErrNotRegular)
	_, _, err = ReadAny(dir, 4)
	assert.ErrorIs(t, err, ErrDirectory)
}

// TestDeviceOnlyReadByReadAny: /dev/null is no regular file.
func TestDeviceOnlyReadByReadAny(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	_, _, err := ReadFile(os.DevNull, 4)
	assert.ErrorIs(t, err, ErrNotRegular)
	data, truncated, err := ReadAny(os.DevNull, 4)
	require.NoError(t, err)
	assert.Empty(t, data)
	assert.False(t, truncated)
}
