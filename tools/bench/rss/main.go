//go:build unix

// Command rss runs a command and prints its peak resident set size, for
// `make bench`.
//
// Usage: rss <program> [args...]; stdin and stdout pass through to the
// program, and the last line on stderr is "maxrss_kb=<n>".
//
// Why a separate program: Go starts children with vfork, and Linux counts
// the parent's memory in the child's ru_maxrss up to exec. Measured from the
// benchmark itself, every hook would show the benchmark's own size; from
// this small program the overstatement is at most its own few MB, which the
// floor's row shows.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rss <program> [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var kb int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		kb = int64(ru.Maxrss)
		if runtime.GOOS == "darwin" {
			kb /= 1024 // bytes there
		}
	}
	fmt.Fprintf(os.Stderr, "\nmaxrss_kb=%d\n", kb)
	if err != nil {
		os.Exit(1)
	}
}
