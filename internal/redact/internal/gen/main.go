// Command gen writes internal/redact/rules_gen.go, the streaming redactor's
// table of the built-in rule set (gitleaks' default config extended by
// internal/secrets/rules.toml) with each rule's analysis precomputed.
//
// Run it with `go generate ./internal/redact`; a test fails when the
// committed file differs from what it would write.
package main

import (
	"flag"
	"fmt"
	"go/format"
	"os"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

func main() {
	out := flag.String("o", "rules_gen.go", "file to write")
	flag.Parse()
	src, err := source()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func source() ([]byte, error) {
	cfg, err := secrets.BuiltinConfig()
	if err != nil {
		return nil, err
	}
	var rules []redact.Rule
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue // path-only rule: never runs on content
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		rules = append(rules, redact.Rule{ID: r.ID, Pattern: r.Regex, Keywords: kws})
	}
	src, err := redact.RulesSource(rules)
	if err != nil {
		return nil, err
	}
	return format.Source(src)
}
