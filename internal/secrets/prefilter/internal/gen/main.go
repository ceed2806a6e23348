// Command gen writes the files generated from the built-in rule set
// (gitleaks' default config extended by
// internal/secrets/detector/rules.toml):
//
//	internal/secrets/prefilter/rules_gen.go  the prefilter's rule table, analysis precomputed
//
// Run it with `go generate ./internal/secrets/prefilter`; tests fail when the
// committed files differ from what it would write.
package main

import (
	"flag"
	"fmt"
	"go/format"
	"os"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

func main() {
	out := flag.String("o", "rules_gen.go", "file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	rules, err := builtinRules()
	if err != nil {
		return err
	}
	src, err := prefilter.RulesSource(rules)
	if err != nil {
		return err
	}
	if src, err = format.Source(src); err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

// builtinRules are the content rules of the built-in set, keywords lower
// case. Every one must have a keyword: the prefilter could otherwise never
// say "nothing to find".
func builtinRules() ([]prefilter.Rule, error) {
	cfg, err := detector.Builtin()
	if err != nil {
		return nil, err
	}
	var rules []prefilter.Rule
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue // path-only rule: never runs on content
		}
		if len(r.Keywords) == 0 {
			return nil, fmt.Errorf("rule %s has no keywords; the prefilter needs at least one", r.ID)
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		rules = append(rules, prefilter.Rule{ID: r.ID, Pattern: prefilter.SecretGroupOnly(r.Regex, r.SecretGroup), Keywords: kws})
	}
	// By id, as gitleaks orders rules after extending.
	slices.SortFunc(rules, func(a, b prefilter.Rule) int { return strings.Compare(a.ID, b.ID) })
	return rules, nil
}
