//go:build linux || darwin

package scanner

import (
	"io/fs"
	"os"
	"os/exec"
	"syscall"
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
