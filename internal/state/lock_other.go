//go:build !unix

package state

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// openFlags: Windows has no named pipes in the file system nor O_NOFOLLOW;
// openRecord's check that a record is a regular file remains.
const openFlags = 0

// staleLock is the age after which a lock file is taken to be left behind by
// a process that died (hooks time out long before).
const staleLock = 30 * time.Second

// lock creates the lock file path+".lock" exclusively, retrying until wait
// has passed. Without flock a dead holder leaves the file behind: one older
// than staleLock is removed.
func lock(_ *os.File, record string, wait time.Duration) (unlock func(), err error) {
	path := record + ".lock"
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if info, serr := os.Stat(path); serr == nil && time.Since(info.ModTime()) > staleLock {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, errors.New("timed out waiting for another gemini-guard process")
		}
		time.Sleep(time.Millisecond)
	}
}

// checkOwner cannot tell owners apart here; the directory lives in the
// user's profile.
func checkOwner(fs.FileInfo) error { return nil }

// Writable is not checked ahead on this system: a write that fails says
// so itself.
func (s *Store) Writable() error { return nil }
