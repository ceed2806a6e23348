// Command guard-redact is gemini-guard's redaction hook. With argument
// after-model it answers AfterModel (one process per streamed chunk) and
// redacts secrets from what the user sees, also when a secret is split
// across chunks; with after-tool it answers AfterTool and keeps secrets in
// tool output from reaching the model; with before-model it answers
// BeforeModel and removes secrets from the text of the request to the
// model. The decisions are internal/redactguard; see docs/redaction.md.
package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/redactguard"
)

func main() {
	os.Exit(redactguard.Run(os.Args[1:], os.Stdin, os.Stdout, redactguard.DefaultEnv()))
}
