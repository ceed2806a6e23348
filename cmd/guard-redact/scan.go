package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// scanner is gemini-guard's secrets scanner as a redact.Scanner. It is built
// on first use: most chunks never need it, and building it compiles the
// user's config.
type scanner struct {
	opts secrets.Options
	s    *secrets.Scanner
	err  error
	done bool
}

func (sc *scanner) Scan(text string) (out []redact.Finding, err error) {
	if !sc.done {
		sc.s, sc.err = secrets.NewScanner(sc.opts)
		sc.done = true
	}
	if sc.err != nil {
		return nil, sc.err
	}
	defer func() {
		// A panic while scanning must not lose the held text: the
		// redactor turns an error into "show it unchecked and warn".
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("the secrets scanner failed: %v", p)
		}
	}()
	for _, f := range sc.s.Scan(text) {
		out = append(out, redact.Finding{RuleID: f.RuleID, Start: f.Start, End: f.End, Secret: f.Secret})
	}
	return out, nil
}

// scanOptions are the scanner settings for a session in workspace cwd.
func scanOptions(s settings.Settings, cwd string) secrets.Options {
	return secrets.Options{
		ConfigPath:         configPath(s, cwd),
		DisabledRules:      s.DisabledRules,
		TrustAllowComments: s.TrustGitleaksAllow,
	}
}

// configPath is the user's gitleaks config: the GitleaksConfig setting
// (relative to the workspace), else the workspace's .gitleaks.toml when it
// exists, else "" (the built-in rules). It must agree with
// secretguard.ConfigPath (a test compares them); that package is not linked
// here to keep this binary small.
func configPath(s settings.Settings, cwd string) string {
	if s.GitleaksConfig != "" {
		p := s.GitleaksConfig
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	if cwd == "" {
		return ""
	}
	p := filepath.Join(cwd, ".gitleaks.toml")
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

// watchRules are the rules the redactor watches: the built-in table, or
// with a user's gitleaks config the built-in rule set with the config's
// rules merged in (only patterns and keywords matter here; the scanner
// applies the config in full). Rules the config leaves as they are keep
// their precomputed analysis.
func watchRules(path string) ([]redact.Rule, error) {
	builtin := redact.BuiltinRules()
	if path == "" {
		return builtin, nil
	}
	base, err := secrets.BuiltinConfig()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gitleaks config: %w", err)
	}
	user, err := secrets.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("gitleaks config %s: %w", path, err)
	}
	known := make(map[string]redact.Rule, len(builtin))
	for _, r := range builtin {
		known[r.ID] = r
	}
	var rules []redact.Rule
	for _, r := range secrets.Merge(user, base).Rules {
		if r.Regex == "" {
			continue
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		if b, ok := known[r.ID]; ok && b.Pattern == r.Regex && equal(b.Keywords, kws) {
			rules = append(rules, b)
			continue
		}
		rules = append(rules, redact.Rule{ID: r.ID, Pattern: r.Regex, Keywords: kws})
	}
	return rules, nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func marker(s settings.Settings) func(string) string {
	if s.MarkerRule {
		return redact.RuleMarker
	}
	return redact.PlainMarker
}
