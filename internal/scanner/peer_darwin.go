package scanner

import (
	"fmt"
	"os"
	"strconv"
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

// checkPeer proves what it can of the process serving c: that it runs as
// our user. macOS has no /proc to check its executable by (proc_pidpath
// needs cgo), so a same-user impostor is not told apart here.
func checkPeer(c syscall.Conn, _ string) error {
	uid, err := PeerUID(c)
	if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return &ImpostorError{PID: -1, Why: "it runs as user " + strconv.Itoa(uid)}
	}
	return nil
}
