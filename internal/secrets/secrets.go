// Package secrets finds credentials in text with gitleaks' rules and reports
// each with its exact byte range.
//
// The rule set is gitleaks v8's default config extended by rules.toml
// (gemini-guard's additions, in gitleaks' own format), compiled into
// builtin_gen.go by `go generate`, optionally with a user's gitleaks config
// layered on top. Detection is a port of gitleaks' detector that reports
// exactly what gitleaks reports (TestEquivalence runs both on a corpus),
// built for a hook process that lives a few milliseconds: it links only the
// standard library and go-toml, compiles a rule's regexp only when the rule's
// keywords occur and a window around them may match, and checks allowlist
// stopwords by substring search. gitleaks itself is linked only by the
// generator and the tests; this is the only package that knows it.
//
// Findings never depend on a file path (gitleaks' path allowlists would
// skip content: rules with a path condition match only if it matches "")
// and `gitleaks:allow` comments are ignored unless the caller trusts them.
// See docs/secrets.md for the design and measurements.
package secrets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
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

// Options configure a Scanner. The zero value scans with the built-in rules,
// ignores `gitleaks:allow` comments and disables nothing.
type Options struct {
	// ConfigPath is a gitleaks TOML config layered onto the built-in rules
	// (its rules are added or merged, its allowlists apply, its [extend]
	// disabledRules remove built-in rules). "" means none. A file that
	// cannot be read or parsed, or a rule regexp that does not compile,
	// makes NewScanner fail.
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

// Scanner scans texts with one compiled rule set. Build it once per process;
// it is safe for concurrent use.
type Scanner struct {
	engine *engine
}

// NewScanner builds a scanner. It fails only on a user config that cannot
// be loaded or compiled (every rule and allowlist it adds is compiled
// here); the built-in rules always load, and compile lazily: a rule's
// regexp is compiled the first time one of its keywords occurs in a text.
func NewScanner(opts Options) (*Scanner, error) {
	if opts.ConfigPath == "" && len(opts.DisabledRules) == 0 {
		e, err := builtinEngine(opts.TrustAllowComments)
		if err != nil {
			return nil, err
		}
		return &Scanner{engine: e}, nil
	}
	cfg := builtin
	validate := map[string]bool{}
	if opts.ConfigPath != "" {
		var err error
		cfg, validate, err = loadUserConfig(cfg, opts.ConfigPath)
		if err != nil {
			return nil, err
		}
	}
	cfg = withoutRules(cfg, opts.DisabledRules)
	e, err := newEngine(cfg, opts, validate)
	if err != nil {
		return nil, err
	}
	return &Scanner{engine: e}, nil
}

// builtinEngine is the built-in rule set's engine, one per process and
// allow-comment setting, so that scanners share compiled regexps.
func builtinEngine(trust bool) (*engine, error) {
	if trust {
		return builtinTrusting()
	}
	return builtinStrict()
}

var (
	builtinStrict   = sync.OnceValues(func() (*engine, error) { return newEngine(builtin, Options{}, nil) })
	builtinTrusting = sync.OnceValues(func() (*engine, error) { return newEngine(builtin, Options{TrustAllowComments: true}, nil) })
)

// MayContainSecret reports whether some rule of the scanner could find a
// secret in text: false only when no rule keyword occurs in any decoding
// pass (and every rule has keywords). It is what Scan checks first, without
// compiling or running any rule.
func (s *Scanner) MayContainSecret(text string) bool { return s.engine.mayContain(text) }

// RuleIDs returns the ids of the rules the scanner runs, sorted.
func (s *Scanner) RuleIDs() []string { return s.engine.ruleIDs() }

// Scan returns every secret in text, sorted by Start (then End, then rule
// id), with no two findings of one rule on the same range. Each copy of a
// found secret elsewhere in text is reported too (Repeat). Empty text gives
// nil. Scan does not limit the size of text: callers bound it (the guard
// scans at most MaxScan bytes).
func (s *Scanner) Scan(text string) []Finding {
	if text == "" {
		return nil
	}
	found := s.engine.detect(text)
	return complete(text, found)
}

// complete adds the other occurrences of every found secret, sorts and
// removes duplicates.
func complete(text string, found []Finding) []Finding {
	if len(found) == 0 {
		return nil
	}
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
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.End != b.End {
			return a.End < b.End
		}
		return a.RuleID < b.RuleID
	})
	return out
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

// BuildBuiltin builds the built-in rule set from gitleaks' default config
// and gemini-guard's additions (rules.toml), both in gitleaks' TOML format:
// the additions extend the defaults. The generator uses it; at run time the
// result is compiled in (builtin_gen.go).
func BuildBuiltin(defaultTOML, additionsTOML []byte) (*Config, error) {
	def, err := ParseConfig(defaultTOML)
	if err != nil {
		return nil, fmt.Errorf("secrets: gitleaks default config: %w", err)
	}
	add, err := ParseConfig(additionsTOML)
	if err != nil {
		return nil, fmt.Errorf("secrets: rules.toml: %w", err)
	}
	return Merge(add, def), nil
}

// BuiltinConfig returns the built-in rule set (gitleaks' default config
// extended by rules.toml), as compiled in. The result is shared: do not
// modify it. The error is always nil (kept for callers written when the
// set was parsed at run time).
func BuiltinConfig() (*Config, error) { return builtin, nil }
