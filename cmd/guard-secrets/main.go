// Command guard-secrets is gemini-guard's BeforeTool hook for write_file,
// replace and run_shell_command: it denies a call that would add a
// credential (or, with the redact action, runs it with placeholders), and a
// write to the guard's or Gemini CLI's configuration. Gemini CLI starts it
// once per call with the call as JSON on stdin; it prints one JSON answer
// and exits 0. The decisions are internal/secretguard.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
)

// Antigravity CLI runs it as `guard-secrets --host agy PreToolUse` (its
// input names no event); see internal/hook.FromArgs.
func main() {
	e := secretguard.DefaultHookEnv()
	e.Host = hook.FromArgs(os.Args[1:])
	os.Exit(secretguard.Run(os.Stdin, os.Stdout, e))
}
