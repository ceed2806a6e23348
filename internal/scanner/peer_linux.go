package scanner

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// PeerUID returns the user id of the process at the other end of the
// unix socket c (a *net.UnixConn, or an *os.File holding one)
// (SO_PEERCRED: the credentials the peer had when it connected).
func PeerUID(c syscall.Conn) (int, error) {
	cred, err := peerCred(c)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

func peerCred(c syscall.Conn) (*syscall.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("scanner: peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return nil, fmt.Errorf("scanner: peer credentials: %w", err)
	}
	if credErr != nil {
		return nil, fmt.Errorf("scanner: peer credentials: %w", credErr)
	}
	return cred, nil
}

// checkPeer proves that the process serving c is a scanner daemon of ours:
// it runs as our user and its executable (/proc/<pid>/exe, which the kernel
// keeps, whatever the process says of itself) is the very file binary. A
// same-user process that took the socket's place and answers "no
// findings" fails the proof. The fingerprint a daemon echoes proves
// nothing: the request carries it.
func checkPeer(c syscall.Conn, binary string) error {
	cred, err := peerCred(c)
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return &ImpostorError{PID: int(cred.Pid), Why: "it runs as user " + strconv.Itoa(int(cred.Uid))}
	}
	want, err := os.Stat(binary)
	if err != nil {
		return fmt.Errorf("scanner: %w", err)
	}
	exe := "/proc/" + strconv.Itoa(int(cred.Pid)) + "/exe"
	got, err := os.Stat(exe)
	if err != nil {
		return &ImpostorError{PID: int(cred.Pid), Why: "its executable cannot be checked (" + err.Error() + ")"}
	}
	if !os.SameFile(want, got) {
		path, _ := os.Readlink(exe)
		return &ImpostorError{PID: int(cred.Pid), Why: "it runs " + path + ", not " + binary}
	}
	return nil
}
