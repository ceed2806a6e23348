// Command guard-scanner is gemini-guard's secret scanner process: a
// long-lived per-user daemon (serve) or a one-shot scan of the request on
// stdin (scan). Hooks never run it directly; internal/scanner's client
// starts it. See package internal/scanner/server.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/scanner/server"
)

func main() {
	os.Exit(server.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, build))
}
