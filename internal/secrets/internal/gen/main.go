// Command gen writes the files generated from the built-in rule set
// (gitleaks' default config extended by internal/secrets/rules.toml):
//
//	internal/secrets/keywords/words_gen.go  the keyword list of the prefilter
//
// Run it with `go generate ./internal/secrets`; a test fails when the
// committed files differ from what it would write.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

func main() {
	out := flag.String("keywords", "keywords/words_gen.go", "keyword file to write")
	flag.Parse()
	cfg, err := secrets.BuiltinConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	src, err := secrets.KeywordsSource(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
