// Command floor is the latency floor `make bench` compares every hook with:
// a bare Go program that reads its stdin to the end and prints {}. It is
// what a hook costs that does no work at all, started the way Gemini CLI
// starts hooks (bash -c, JSON on stdin).
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString("{}\n")
}
