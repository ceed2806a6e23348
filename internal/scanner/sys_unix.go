//go:build linux || darwin

package scanner

import (
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// daemonSupported: daemons run where unix sockets, flock and peer
// credentials are all available and tested.
const daemonSupported = true

// ownedByUs reports whether info belongs to the current user.
func ownedByUs(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// detach makes cmd's process the leader of a new session: signals to the
// hook's process group (Gemini CLI kills a hook that times out) do not
// reach the daemon.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// dial connects to the daemon's socket before until. It makes the system
// calls itself rather than use package net: linking net cost every hook
// process net's and net/netip's initialisation, and a unix socket needs
// none of it. The connection is an *os.File on the runtime's poller, so
// its deadlines work as a net.Conn's do.
func dial(socket string, until time.Time) (*os.File, error) {
	wait := time.Until(until)
	if wait <= 0 {
		return nil, os.ErrDeadlineExceeded
	}
	// As package net does: no fork may inherit the socket before it is
	// marked close-on-exec (Darwin has no SOCK_CLOEXEC).
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	// A blocking connect, bounded by SO_SNDTIMEO: a unix socket connects at
	// once unless the daemon's backlog is full, and then the timeout ends
	// the wait (a nonblocking connect would need a poller to wait on).
	tv := syscall.NsecToTimeval(wait.Nanoseconds())
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("setsockopt", err)
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket})
		if err != syscall.EINTR {
			break
		}
	}
	if err == nil {
		err = syscall.SetNonblock(fd, true)
	}
	if err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("connect", err)
	}
	// Nonblocking: os.NewFile puts it on the poller (deadlines work).
	return os.NewFile(uintptr(fd), socket), nil
}

// closeWrite ends what the client sends (shutdown(SHUT_WR)).
func closeWrite(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = syscall.Shutdown(int(fd), syscall.SHUT_WR) }); err != nil {
		return err
	}
	return os.NewSyscallError("shutdown", serr)
}
