//go:build linux || darwin

package server

import (
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// watchHangup calls cancel once conn's peer has closed the connection,
// checking every HangupCheck until the returned stop is called.
//
// The client shuts down its writing side when its request is sent, so a
// read tells nothing (end of stream either way); only a full close sets
// POLLHUP (Linux: both directions shut; macOS: no more sending). POLLOUT
// is asked for because macOS reports the hang-up through its write filter.
func watchHangup(conn *net.UnixConn, cancel func()) (stop func()) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(HangupCheck)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			gone := false
			_ = raw.Control(func(fd uintptr) {
				p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
				if n, err := unix.Poll(p, 0); err == nil && n > 0 {
					gone = p[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
				}
			})
			if gone {
				cancel()
				return
			}
		}
	}()
	return func() { close(done) }
}
