//go:build linux || darwin

package scanner

import "syscall"

func umask(m int) int { return syscall.Umask(m) }
