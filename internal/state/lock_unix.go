//go:build unix

package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// openFlags open a record without following a symbolic link or blocking
// on a named pipe.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lock takes an exclusive flock(2) on the open record f, retrying until
// wait has passed. flock is released by the kernel when the process dies,
// so a crashed hook never leaves a record locked.
func lock(f *os.File, _ string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, errors.New("timed out waiting for another gemini-guard process")
		}
		time.Sleep(time.Millisecond)
	}
}

// checkOwner refuses a directory that belongs to another user: its owner
// could read what we store or swap our records.
func checkOwner(info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) != os.Getuid() {
		return errors.New("belongs to another user")
	}
	return nil
}

// Writable reports an error when the process may not create files in the
// store's directory (a read-only directory or file system): access(2),
// one system call, no file made.
func (s *Store) Writable() error {
	if err := syscall.Access(s.dir, 0o2|0o1); err != nil { // W_OK|X_OK
		return fmt.Errorf("state: %s is not writable: %w", s.dir, err)
	}
	return nil
}
