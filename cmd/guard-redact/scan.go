package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	scan "github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// scanner is gemini-guard's scanner process (internal/scanner) as a
// redact.Scanner. Most chunks never need it: the redactor asks only when a
// rule's pattern may match.
type scanner struct {
	opts secrets.Options
	// scanner returns the scanner for options (nil: the client).
	scanner func(secrets.Options) secrets.Scanner
}

func (sc *scanner) with(opts secrets.Options) secrets.Scanner {
	if sc.scanner != nil {
		return sc.scanner(opts)
	}
	return &scan.Client{Options: opts, Timeout: scanTimeout}
}

// scanTimeout bounds a scan: the AfterModel hook's timeout in hooks.json is
// 5 s, and a hook that times out shows the chunk as it is. Within it, a
// first call can wait for a new daemon (scan.StartTimeout) and fall back
// to a one-shot scan.
const scanTimeout = 4 * time.Second

func (sc *scanner) Scan(text string) ([]redact.Finding, error) {
	// A broken user config: the built-in rules still apply (the
	// session-start hook tells the user about the file).
	found, _, err := secrets.ScanOrBuiltin(sc.with, sc.opts, text)
	if err != nil {
		return nil, err
	}
	out := make([]redact.Finding, 0, len(found))
	for _, f := range found {
		out = append(out, redact.Finding{RuleID: f.RuleID, Start: f.Start, End: f.End, Secret: f.Secret})
	}
	return out, nil
}

// watchRules are the rules the redactor watches: the built-in table, plus
// with a user's gitleaks config every pattern and keyword the config adds.
// The watch only decides what to hold back, so a superset is safe: a rule
// the config redefines is watched in both forms, and the scanner applies
// the config in full (gitleaks' own [extend]).
func watchRules(path string) ([]redact.Rule, error) {
	builtin := redact.BuiltinRules()
	if path == "" {
		return builtin, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gitleaks config: %w", err)
	}
	user, err := secrets.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("gitleaks config %s: %w", path, err)
	}
	rules := slices.Clone(builtin)
	for _, r := range user.Rules {
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		i := slices.IndexFunc(builtin, func(b redact.Rule) bool { return b.ID == r.ID })
		switch {
		case i >= 0 && r.Regex == "" && len(kws) == 0:
			// Only allowlists or a description: the built-in watch covers it.
		case i >= 0 && r.Regex == "":
			// More keywords for a built-in pattern (gitleaks appends them).
			rules = append(rules, redact.Rule{ID: r.ID, Pattern: builtin[i].Pattern, Keywords: append(slices.Clone(builtin[i].Keywords), kws...)})
		case r.Regex != "":
			if i >= 0 && builtin[i].Pattern == r.Regex && slices.Equal(builtin[i].Keywords, kws) {
				continue
			}
			rules = append(rules, redact.Rule{ID: r.ID, Pattern: r.Regex, Keywords: kws})
		}
	}
	return rules, nil
}

func marker(s settings.Settings) func(string) string {
	if s.MarkerRule {
		return redact.RuleMarker
	}
	return redact.PlainMarker
}
