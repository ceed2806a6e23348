package cli

import (
	"fmt"
	"io"
)

// check and scan need the shell and secrets guards' packages, which are not
// in this build yet: until then they say so and exit 2.
func check(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fmt.Fprintln(stderr, "gemini-guard check: not available in this build yet")
	return 2
}

func scan(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fmt.Fprintln(stderr, "gemini-guard scan: not available in this build yet")
	return 2
}
