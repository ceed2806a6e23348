//go:build !linux && !darwin

package scanner

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// daemonSupported: elsewhere (Windows) every scan is a one-shot process.
const daemonSupported = false

func ownedByUs(fs.FileInfo) bool { return false }

func detach(*exec.Cmd) {}

// PeerUID is not available here: it always fails.
func PeerUID(syscall.Conn) (int, error) {
	return -1, errors.New("scanner: peer credentials not supported on this system")
}

func checkPeer(syscall.Conn, string) error { return errNoDaemon }

// TryLock is not available here: it always fails.
func TryLock(string) (*os.File, error) {
	return nil, errors.New("scanner: locks not supported on this system")
}

// IsLockFile is not available here: it is always false.
func IsLockFile(*os.File, string) bool { return false }

// dial is not available here (no daemon): it always fails.
func dial(string, time.Time) (*os.File, error) { return nil, errNoDaemon }

func closeWrite(*os.File) error { return errNoDaemon }
