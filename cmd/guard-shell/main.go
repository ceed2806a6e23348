// Command guard-shell is gemini-guard's BeforeTool hook for run_shell_command
// and for MCP tools that plainly run a shell command: it denies destructive
// and secret-leaking commands. Gemini CLI starts it once
// per shell call with the call as JSON on stdin; it prints one JSON answer and
// exits 0. It must not link gitleaks (start-up cost on every call). The
// decisions are internal/shellguard.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
)

// Antigravity CLI runs it as `guard-shell --host agy PreToolUse` (its input
// names no event), also for view_file; see internal/hook.FromArgs.
func main() {
	e := shellguard.DefaultEnv()
	e.Host = hook.FromArgs(os.Args[1:])
	os.Exit(shellguard.Run(os.Stdin, os.Stdout, e))
}
