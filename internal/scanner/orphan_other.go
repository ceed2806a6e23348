//go:build !linux

package scanner

import "os/exec"

// dieWithCaller: only Linux can tie a child's life to its parent's; the
// one-shot still ends at its own deadline (exec.CommandContext).
func dieWithCaller(*exec.Cmd) {}
