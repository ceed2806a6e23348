package scanner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// maxSocketPath is the longest unix socket path used: sockaddr_un holds 104
// bytes on macOS (108 on Linux), the terminating NUL included.
const maxSocketPath = 103

// DefaultDir is the runtime directory daemons put their sockets in:
// $XDG_RUNTIME_DIR/gemini-guard when XDG_RUNTIME_DIR is an absolute path to
// a directory of ours (the XDG specification ignores a relative one; one
// inherited from another user through su or sudo is not ours), else
// os.TempDir()/gemini-guard-<uid>. getenv nil means os.Getenv.
func DefaultDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) {
		if info, err := os.Stat(x); err == nil && info.IsDir() && ownedByUs(info) {
			return filepath.Join(x, "gemini-guard")
		}
	}
	return filepath.Join(os.TempDir(), "gemini-guard-"+strconv.Itoa(os.Getuid()))
}

// ErrNoDir is returned by CheckDir for a directory that does not exist.
var ErrNoDir = errors.New("scanner: runtime directory does not exist")

// CheckDir verifies that dir is safe to hold sockets: an absolute path to a
// real directory (not a symbolic link) owned by the current user with mode
// exactly 0700, so nobody else can plant a socket that answers "no
// secrets". With create, a missing directory is made (its parent must
// exist) with mode 0700. A missing one without create gives ErrNoDir; an
// unsafe one an error saying why — callers then scan without a daemon.
func CheckDir(dir string, create bool) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("scanner: runtime directory %q is not absolute", dir)
	}
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return ErrNoDir
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("scanner: %w", err)
		} else if err == nil {
			// The umask may have taken bits away; never added: 0700 exactly.
			if err := os.Chmod(dir, 0o700); err != nil {
				return fmt.Errorf("scanner: %w", err)
			}
		}
		info, err = os.Lstat(dir)
	}
	if err != nil {
		return fmt.Errorf("scanner: %w", err)
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("scanner: runtime directory %s is a symbolic link", dir)
	case !info.IsDir():
		return fmt.Errorf("scanner: runtime directory %s is not a directory", dir)
	case info.Mode().Perm() != 0o700:
		return fmt.Errorf("scanner: runtime directory %s has mode %04o, not 0700", dir, info.Mode().Perm())
	}
	if !ownedByUs(info) {
		return fmt.Errorf("scanner: runtime directory %s belongs to another user", dir)
	}
	return nil
}

// SocketPath is the daemon socket for fingerprint in dir:
// <dir>/scan-<first 16 hex digits>.sock. A path too long for a unix socket
// address is an error (callers scan without a daemon).
func SocketPath(dir, fingerprint string) (string, error) {
	if len(fingerprint) < 16 {
		return "", fmt.Errorf("scanner: fingerprint %q too short", fingerprint)
	}
	p := filepath.Join(dir, "scan-"+fingerprint[:16]+".sock")
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("scanner: socket path %s is longer than %d bytes", p, maxSocketPath)
	}
	return p, nil
}

// LockPath is the lock file a daemon holds for socket while it runs; it
// also holds the daemon's process id.
func LockPath(socket string) string { return socket + ".lock" }
