//go:build unix

package bounded

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFIFOIsRefused: a FIFO nobody writes to would block its reader (a hook
// past its deadline); ReadFile refuses it without opening it. A hang would
// hit the test timeout.
func TestFIFOIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	_, _, err := ReadFile(p, 4)
	assert.ErrorIs(t, err, ErrNotRegular)
}

// TestFIFOIsRefusedByReadAny: ReadAny reads devices, never a FIFO.
func TestFIFOIsRefusedByReadAny(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".env")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	_, _, err := ReadAny(p, 4)
	assert.ErrorIs(t, err, ErrNotRegular)
	_, _, err = OS{}.ReadFile(p, 4)
	assert.ErrorIs(t, err, ErrNotRegular)
}
