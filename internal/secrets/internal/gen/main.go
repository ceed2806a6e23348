// Command gen writes the files generated from the built-in rule set,
// gitleaks' default config extended by internal/secrets/rules.toml:
//
//	internal/secrets/builtin_gen.go         the rules as a Go literal
//	internal/secrets/keywords/words_gen.go  the prefilter's keyword list
//
// It is the only program that links gitleaks' config package; the hooks do
// not. Run it with `go generate ./internal/secrets`; a test fails when the
// committed files differ from what it would write.
package main

import (
	"fmt"
	"os"

	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/internal/source"
)

// gitleaksVersion must match go.mod (a test checks it).
const gitleaksVersion = "v8.30.1"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	add, err := os.ReadFile("rules.toml")
	if err != nil {
		return err
	}
	cfg, err := secrets.BuildBuiltin([]byte(config.DefaultConfig), add)
	if err != nil {
		return err
	}
	src, err := source.Builtin(cfg, gitleaksVersion)
	if err != nil {
		return err
	}
	if err := os.WriteFile("builtin_gen.go", src, 0o644); err != nil {
		return err
	}
	words, err := source.Keywords(cfg)
	if err != nil {
		return err
	}
	return os.WriteFile("keywords/words_gen.go", words, 0o644)
}
