// Command guard-redact is gemini-guard's redaction hook. With argument
// after-model it answers AfterModel (one process per streamed chunk) and
// redacts secrets from what the user sees; with after-tool it answers
// AfterTool and keeps secrets in tool output from reaching the model.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

func main() {
	ev := hook.AfterModel
	if len(os.Args) > 1 && os.Args[1] == "after-tool" {
		ev = hook.AfterTool
	}
	switch ev {
	case hook.AfterTool:
		hook.Run(ev, os.Stdin, os.Stdout, func(in hook.AfterToolInput) (hook.Output, error) {
			return hook.Output{}, nil // TODO(issue 5)
		})
	default:
		hook.Run(ev, os.Stdin, os.Stdout, func(in hook.AfterModelInput) (hook.Output, error) {
			return hook.Output{}, nil // TODO(issue 5)
		})
	}
}
