package state

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDir(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"xdg state", map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/gemini-guard/sessions"},
		{"home", map[string]string{"HOME": "/h"}, "/h/.local/state/gemini-guard/sessions"},
		{"relative xdg is ignored", map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/gemini-guard/sessions"},
		{"cache fallback", map[string]string{"XDG_CACHE_HOME": "/c"}, "/c/gemini-guard/sessions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, filepath.FromSlash(c.want), Dir(env(c.env)))
		})
	}
}

func TestKey(t *testing.T) {
	a := Key("session", "s1")
	assert.Equal(t, a, Key("session", "s1"), "stable")
	assert.NotEqual(t, a, Key("session", "s2"))
	assert.NotEqual(t, Key("ab", "c"), Key("a", "bc"), "parts are delimited")
	assert.NotEqual(t, Key("../../etc/passwd"), "")
	assert.NoError(t, checkKey(Key("../../etc/passwd")), "any input gives a safe name")
	assert.Len(t, a, 32)
}

func TestOpenMakesPrivateDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	dir := filepath.Join(t.TempDir(), "a", "b")
	s, err := Open(dir)
	require.NoError(t, err)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())

	require.NoError(t, s.Update("k", func([]byte) ([]byte, error) { return []byte("v"), nil }))
	for _, name := range []string{"k"} {
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), name)
	}
}

func TestOpenTightensWideDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755))
	_, err := Open(dir)
	require.NoError(t, err)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}

func TestOpenRefuses(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	cases := map[string]string{
		"empty":      "",
		"relative":   "rel/dir",
		"under file": filepath.Join(file, "x"),
	}
	for name, dir := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := Open(dir)
			assert.Error(t, err)
			assert.Nil(t, s)
		})
	}
}

func TestUpdate(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)

	t.Run("missing record gives nil", func(t *testing.T) {
		require.NoError(t, s.Update("a", func(old []byte) ([]byte, error) {
			assert.Nil(t, old)
			return []byte("one"), nil
		}))
		got, err := s.Read("a")
		require.NoError(t, err)
		assert.Equal(t, "one", string(got))
	})
	t.Run("sees the previous value", func(t *testing.T) {
		require.NoError(t, s.Update("a", func(old []byte) ([]byte, error) {
			assert.Equal(t, "one", string(old))
			return append(old, " two"...), nil
		}))
		got, _ := s.Read("a")
		assert.Equal(t, "one two", string(got))
	})
	t.Run("empty or nil clears", func(t *testing.T) {
		for _, empty := range [][]byte{{}, nil} {
			require.NoError(t, s.Update("a", func([]byte) ([]byte, error) { return []byte("x"), nil }))
			require.NoError(t, s.Update("a", func([]byte) ([]byte, error) { return empty, nil }))
			got, err := s.Read("a")
			require.NoError(t, err)
			assert.Nil(t, got)
			require.NoError(t, s.Update("a", func(old []byte) ([]byte, error) {
				assert.Nil(t, old)
				return nil, nil
			}))
		}
	})
	t.Run("a shorter record replaces a longer one whole", func(t *testing.T) {
		require.NoError(t, s.Update("e", func([]byte) ([]byte, error) { return []byte("a long first record"), nil }))
		require.NoError(t, s.Update("e", func([]byte) ([]byte, error) { return []byte("short"), nil }))
		got, _ := s.Read("e")
		assert.Equal(t, "short", string(got))
	})
	t.Run("error writes nothing", func(t *testing.T) {
		require.NoError(t, s.Update("b", func([]byte) ([]byte, error) { return []byte("keep"), nil }))
		boom := errors.New("boom")
		err := s.Update("b", func([]byte) ([]byte, error) { return []byte("lost"), boom })
		assert.ErrorIs(t, err, boom)
		got, _ := s.Read("b")
		assert.Equal(t, "keep", string(got))
	})
	t.Run("oversize record is refused", func(t *testing.T) {
		err := s.Update("c", func([]byte) ([]byte, error) { return make([]byte, MaxRecord+1), nil })
		assert.Error(t, err)
	})
	t.Run("oversize record on disk reads as nil", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "d"), make([]byte, MaxRecord+1), 0o600))
		require.NoError(t, s.Update("d", func(old []byte) ([]byte, error) {
			assert.Nil(t, old)
			return nil, nil
		}))
		// A record written over it replaces it whole.
		require.NoError(t, s.Update("d", func(old []byte) ([]byte, error) { return []byte("new"), nil }))
		got, err := os.ReadFile(filepath.Join(s.Dir(), "d"))
		require.NoError(t, err)
		assert.Equal(t, "new", string(got))
	})
	t.Run("a longer record replaces a shorter one", func(t *testing.T) {
		require.NoError(t, s.Update("f", func([]byte) ([]byte, error) { return []byte("short"), nil }))
		require.NoError(t, s.Update("f", func([]byte) ([]byte, error) { return []byte("a longer record"), nil }))
		got, _ := s.Read("f")
		assert.Equal(t, "a longer record", string(got))
	})
	t.Run("bad keys", func(t *testing.T) {
		for _, k := range []string{"", "../x", "a/b", "a.b", ".hidden", string(make([]byte, 200))} {
			assert.Error(t, s.Update(k, func([]byte) ([]byte, error) { return nil, nil }), "%q", k)
			_, err := s.Read(k)
			assert.Error(t, err, "%q", k)
		}
	})
}

// TestUpdateConcurrent has many writers increment one counter: with the lock
// no increment is lost.
func TestUpdateConcurrent(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	const writers, rounds = 8, 25
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range rounds {
				err := s.Update("n", func(old []byte) ([]byte, error) {
					n, _ := strconv.Atoi(string(old))
					return []byte(strconv.Itoa(n + 1)), nil
				})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	got, err := s.Read("n")
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(writers*rounds), string(got))
}

func TestClean(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	write := func(name string, mtime time.Time) {
		p := filepath.Join(s.Dir(), name)
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
		require.NoError(t, os.Chtimes(p, mtime, mtime))
	}
	write("stale", old)
	write("stale.lock", old)
	write("fresh", now)
	write("fresh.lock", now)
	write("not-ours.txt", old)
	write(".cleaned", old)

	require.NoError(t, s.Clean(now, time.Hour))
	for name, want := range map[string]bool{
		"stale": false, "stale.lock": false,
		"fresh": true, "fresh.lock": true, "not-ours.txt": true, ".cleaned": true,
	} {
		_, err := os.Stat(filepath.Join(s.Dir(), name))
		assert.Equal(t, want, err == nil, name)
	}
}

func TestCleanEvery(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	now := time.Now()
	stale := filepath.Join(s.Dir(), "stale")
	plant := func() {
		require.NoError(t, os.WriteFile(stale, nil, 0o600))
		old := now.Add(-2 * time.Hour)
		require.NoError(t, os.Chtimes(stale, old, old))
	}
	plant()
	require.NoError(t, s.CleanEvery(now, 10*time.Minute, time.Hour))
	assert.NoFileExists(t, stale, "first call cleans")

	plant()
	require.NoError(t, s.CleanEvery(now.Add(time.Minute), 10*time.Minute, time.Hour))
	assert.FileExists(t, stale, "a call soon after does not")

	require.NoError(t, s.CleanEvery(now.Add(11*time.Minute), 10*time.Minute, time.Hour))
	assert.NoFileExists(t, stale, "a call after the interval does")
}

func TestCleanKeepsLockOfLiveRecord(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "live"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "live.lock"), nil, 0o600))
	require.NoError(t, os.Chtimes(filepath.Join(s.Dir(), "live.lock"), old, old))
	require.NoError(t, s.Clean(now, time.Hour))
	assert.FileExists(t, filepath.Join(s.Dir(), "live.lock"))
}
