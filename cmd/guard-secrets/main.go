// Command guard-secrets is gemini-guard's BeforeTool hook for write_file,
// replace and run_shell_command: it denies a call that would add a credential.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

func main() {
	hook.Run(hook.BeforeTool, os.Stdin, os.Stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return hook.Output{}, nil // TODO(issue 4): secretguard
	})
}
