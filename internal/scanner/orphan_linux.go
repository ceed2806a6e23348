package scanner

import (
	"os/exec"
	"syscall"
)

// dieWithCaller makes a one-shot scan end when the hook that started it
// does: a hook answers by its own deadline and exits, and a scan of a large
// adversarial text would otherwise run on for minutes, orphaned.
func dieWithCaller(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
