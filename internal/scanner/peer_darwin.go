package scanner

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// PeerUID returns the user id of the process at the other end of the
// unix socket c (a *net.UnixConn, or an *os.File holding one)
// (LOCAL_PEERCRED: the credentials the peer had when it connected).
func PeerUID(c syscall.Conn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("scanner: peer credentials: %w", err)
	}
	var cred *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return -1, fmt.Errorf("scanner: peer credentials: %w", err)
	}
	if credErr != nil {
		return -1, fmt.Errorf("scanner: peer credentials: %w", credErr)
	}
	return int(cred.Uid), nil
}
