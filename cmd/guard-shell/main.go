// Command guard-shell is gemini-guard's BeforeTool hook for run_shell_command:
// it denies destructive and secret-leaking commands. Gemini CLI starts it once
// per shell call with the call as JSON on stdin; it prints one JSON answer and
// exits 0. It must not link gitleaks (start-up cost on every call).
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

func main() {
	hook.Run(hook.BeforeTool, os.Stdin, os.Stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return hook.Output{}, nil // TODO(issue 3): shellguard
	})
}
