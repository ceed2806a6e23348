//go:build linux || darwin

package scanner

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// TryLock opens the lock file path (creating it 0600) and takes an
// exclusive non-blocking flock on it. It returns nil, nil when another
// process holds the lock. The lock belongs to the open file: a child that
// inherits the file holds it too, until every copy is closed or the
// holders die.
//
// A daemon removes its lock file while it still holds it, on the way
// out; a file opened just before that is no longer the one at path, so
// TryLock checks that it locked the file path names, and tries again.
func TryLock(path string) (*os.File, error) {
	for range 3 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("scanner: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, nil
			}
			return nil, fmt.Errorf("scanner: locking %s: %w", path, err)
		}
		if IsLockFile(f, path) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("scanner: lock file %s keeps changing", path)
}

// IsLockFile reports whether f is the file at path and holds its lock
// (taking it if nobody does).
func IsLockFile(f *os.File, path string) bool {
	held, err1 := f.Stat()
	named, err2 := os.Lstat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) {
		return false
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
