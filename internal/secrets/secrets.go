// Package secrets holds what the secrets guard and the redactor share about
// found credentials: the Finding, the scanner Options, and the Scanner
// interface. It links no gitleaks: detection runs in the scanner process
// (internal/secrets/detector over gitleaks' own detector, behind
// internal/scanner), so hook processes that start per call stay small.
//
// Findings never depend on a file path (gitleaks' path allowlists would
// skip content) and `gitleaks:allow` comments are ignored unless the user
// trusts them. See docs/secrets.md for the design and measurements.
package secrets

import (
	"errors"
	"slices"
	"sort"
	"strings"
)

// Finding is one secret found in a scanned text.
type Finding struct {
	// RuleID is the gitleaks rule id (github-pat, generic-api-key, ...).
	RuleID string
	// Description is the rule's description.
	Description string
	// Start and End are the byte range [Start, End) in the scanned text
	// that covers the secret. For a secret found after base64/hex/percent/
	// unicode decoding it is the encoded span in the scanned text.
	Start, End int
	// Line is the 1-based line of Start in the scanned text.
	Line int
	// Secret is the secret itself (the decoded value for an encoded one).
	// Never print or log it: show verdict.Mask(Secret).
	Secret string
	// Decoded is set when the secret was found only after decoding.
	Decoded bool
	// Repeat is set when the finding is another occurrence of a secret
	// that a rule found elsewhere in the text (gitleaks reports a secret
	// where its rule matched; a redactor must hide every copy).
	Repeat bool
}

// genericRule says rule finds a secret by its surroundings (a
// credential-named key, an Authorization header, a URL's password or query
// string, an XML element) rather than by a shape a vendor gave it. A switch,
// not a map: nothing is built at start-up.
func genericRule(rule string) bool {
	switch rule {
	case "keyword-assigned-secret", "keyword-assigned-hex", "password-assigned", "password-directive",
		"sql-password", "cli-password-flag", "xml-add-key-secret", "xml-secret-element",
		"authorization-header-token", "url-query-credential", "url-password",
		// webhook-url is one shape for many vendors' webhook URLs: a vendor's
		// own rule for the same URL (microsoft-teams-webhook) names it better.
		"webhook-url",
		"curl-auth-header", "curl-auth-user",
		// config-credential is a credential read by a configuration
		// file's grammar (internal/secrets/configcred).
		"config-credential":
		return true
	}
	return false
}

// GenericRule reports whether rule finds secrets by their surroundings
// rather than by a vendor's shape. When such a rule and a vendor rule find
// the same secret, the vendor rule names it (it says what the credential is
// and where to revoke it). gitleaks makes the same choice for rule ids that
// contain "generic" (detect.filter); the guard's own surrounding-anchored
// rules are listed here.
func GenericRule(rule string) bool {
	return genericRule(rule) || strings.Contains(strings.ToLower(rule), "generic")
}

// Options configure a scanner. The zero value scans with the built-in rules,
// ignores `gitleaks:allow` comments and disables nothing.
type Options struct {
	// ConfigPath is a gitleaks TOML config that extends the built-in rules
	// with gitleaks' [extend] (its rules are added or merged, its
	// allowlists apply, its [extend] disabledRules remove built-in rules).
	// "" means none. A file that cannot be read, parsed or compiled makes
	// the scan fail with a *ConfigError.
	ConfigPath string
	// DisabledRules are rule ids never run. Unknown ids are ignored.
	DisabledRules []string
	// TrustAllowComments honours `gitleaks:allow` on a line. Off, a finding
	// on such a line is still reported: the model can write that comment.
	TrustAllowComments bool
}

// MaxDecodeDepth is how many decoding passes a scan makes (gitleaks' command
// line default).
const MaxDecodeDepth = 5

// Scanner finds secrets in texts.
type Scanner interface {
	// Scan returns every secret in text, sorted by Start (then End, then
	// rule id), each copy of a found secret included (Repeat). An error
	// means the text could not be scanned (a *ConfigError when the user's
	// config is at fault); it never contains the text.
	Scan(text string) ([]Finding, error)
}

// ConfigError says the user's gitleaks config could not be loaded. Callers
// scan again without it and tell the user: the built-in rules are never
// weaker than a broken file.
type ConfigError struct {
	Path string
	Err  error
}

func (e *ConfigError) Error() string { return "gitleaks config " + e.Path + ": " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// ScanOrBuiltin scans text with scannerFor(opts). When the user's config
// (opts.ConfigPath) cannot be loaded, it scans again with the built-in rules
// (the built-in set is never weaker than a broken file) and returns the
// *ConfigError it met, so the caller can tell the user. err means text was
// not scanned at all.
func ScanOrBuiltin(scannerFor func(Options) Scanner, opts Options, text string) (found []Finding, bad *ConfigError, err error) {
	found, err = scannerFor(opts).Scan(text)
	if errors.As(err, &bad) && opts.ConfigPath != "" {
		opts.ConfigPath = ""
		found, err = scannerFor(opts).Scan(text)
		return found, bad, err
	}
	return found, nil, err
}

// Complete sorts found (findings in text), removes duplicates of one rule
// on one range, and adds every other occurrence in text of each found
// secret as a Repeat finding: gitleaks reports a secret where its rule
// matched, and a redactor must hide every copy.
func Complete(text string, found []Finding) []Finding {
	if len(found) == 0 {
		return nil
	}
	// gitleaks returns findings in map order; which rule's copy of a
	// repeated secret is reported must not depend on it.
	found = slices.Clone(found)
	sortFindings(found)
	type key struct {
		rule       string
		start, end int
	}
	seen := map[key]bool{}
	out := make([]Finding, 0, len(found))
	add := func(f Finding) {
		k := key{f.RuleID, f.Start, f.End}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, f)
	}
	for _, f := range found {
		add(f)
	}
	lines := newLineIndex(text)
	for _, f := range found {
		if f.Decoded || len(f.Secret) < minRepeatLen {
			continue
		}
		for from := 0; ; {
			i := strings.Index(text[from:], f.Secret)
			if i < 0 {
				break
			}
			start := from + i
			end := start + len(f.Secret)
			from = end
			covered := slices.ContainsFunc(out, func(g Finding) bool { return g.Start <= start && end <= g.End })
			if covered {
				continue
			}
			r := f
			r.Start, r.End, r.Line, r.Repeat = start, end, lines.line(start), true
			add(r)
		}
	}
	sortFindings(out)
	return out
}

// sortFindings sorts by Start, then End, then rule id.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.End != b.End {
			return a.End < b.End
		}
		return a.RuleID < b.RuleID
	})
}

// minRepeatLen is the shortest secret whose other occurrences are reported:
// shorter ones (a rule may capture a 4-character value) would mark ordinary
// words all over a text.
const minRepeatLen = 8

// lineIndex answers "which line is byte i on" for one text.
type lineIndex []int

func newLineIndex(text string) lineIndex {
	var nl lineIndex
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			nl = append(nl, i)
		}
	}
	return nl
}

// line returns the 1-based line of byte offset i.
func (l lineIndex) line(i int) int {
	return sort.SearchInts(l, i) + 1
}
