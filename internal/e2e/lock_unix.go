//go:build unix

package e2e

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, waiting for other holders. The
// kernel drops the lock when the process dies, so a killed test run never
// leaves the cache locked.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
