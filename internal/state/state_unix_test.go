//go:build unix

package state

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Something else put where the state directory should be (tampering, or a
// mistake) is moved aside, the user told, and a private directory made:
// without state a secret split across chunks would be shown.
func TestOpenRepairsReplacedDir(t *testing.T) {
	for name, plant := range map[string]func(path string) error{
		"a file":       func(p string) error { return os.WriteFile(p, []byte("x"), 0o600) },
		"a symlink":    func(p string) error { return os.Symlink(t.TempDir(), p) },
		"a named pipe": func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sessions")
			require.NoError(t, plant(dir))
			s, err := Open(dir)
			require.NoError(t, err)
			require.Len(t, s.Repaired, 1)
			assert.Contains(t, s.Repaired[0], "moved it to")
			info, err := os.Lstat(dir)
			require.NoError(t, err)
			assert.True(t, info.IsDir())
			assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
			require.NoError(t, s.Update(Key("a"), func([]byte) ([]byte, error) { return []byte("kept"), nil }))
		})
	}
}

// A record replaced by a pipe, a directory or a link must not hold the
// hook (open(2) of a pipe blocks until a writer comes) nor be followed:
// it is removed, the user told, and the record made afresh.
func TestUpdateRepairsReplacedRecord(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	require.NoError(t, os.WriteFile(outside, []byte("not ours to touch"), 0o600))
	for name, plant := range map[string]func(path string) error{
		"a named pipe": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"a directory":  func(p string) error { return os.Mkdir(p, 0o700) },
		"a symlink":    func(p string) error { return os.Symlink(outside, p) },
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			require.NoError(t, err)
			key := Key("session")
			require.NoError(t, plant(filepath.Join(s.Dir(), key)))
			done := make(chan error, 1)
			go func() {
				done <- s.Update(key, func(old []byte) ([]byte, error) {
					assert.Nil(t, old)
					return []byte("new"), nil
				})
			}()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("Update blocked on a record that is not a regular file")
			}
			require.Len(t, s.Repaired, 1)
			assert.Contains(t, s.Repaired[0], "removed it")
			got, err := s.Read(key)
			require.NoError(t, err)
			assert.Equal(t, "new", string(got))
			b, err := os.ReadFile(outside)
			require.NoError(t, err)
			assert.Equal(t, "not ours to touch", string(b), "a link is never followed")
		})
	}
	// CleanEvery's mark too.
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, syscall.Mkfifo(filepath.Join(s.Dir(), cleanMark), 0o600))
	require.NoError(t, s.CleanEvery(time.Now(), time.Minute, time.Hour))
}
