// Command gemini-guard is the people's side of gemini-guard. Gemini CLI runs
// its session-start subcommand once per session; people use the others.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
