//go:build linux || darwin

// Package scannertest helps tests that start scanner daemons clean up
// after themselves.
package scannertest

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// waitLimit bounds every wait: a generous limit, not a timing assertion.
const waitLimit = 30 * time.Second

// KillDaemons kills, by pid, every scanner daemon holding a lock file in
// dir or in a directory right under it (a runtime directory or the
// XDG_RUNTIME_DIR above one), and waits until its lock is free. A daemon
// busy with an adversarial scan would otherwise outlive its test and slow
// every test after it.
func KillDaemons(dir string) {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
	deeper, _ := filepath.Glob(filepath.Join(dir, "*", "*.lock"))
	for _, l := range append(locks, deeper...) {
		if pid := LockHolder(l); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
			deadline := time.Now().Add(waitLimit)
			for LockHolder(l) == pid && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
}

// LockHolder returns the pid of the daemon holding the lock file path, 0
// when nobody holds it. A daemon writes its pid once its detector is
// built: until then this waits.
func LockHolder(path string) int {
	deadline := time.Now().Add(waitLimit)
	for {
		f, err := os.Open(path)
		if err != nil {
			return 0
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			f.Close()
			return 0
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			return pid
		}
		if time.Now().After(deadline) {
			return 0
		}
		time.Sleep(5 * time.Millisecond)
	}
}
