// Package detector finds secrets with gitleaks' own detector: gitleaks v8's
// default rules plus gemini-guard's additions (rules.toml, in gitleaks'
// format), with the user's gitleaks config layered on top by gitleaks'
// [extend] mechanism, and reports each finding as a secrets.Finding with its
// exact byte range.
//
// Only the scanner process (cmd/guard-scanner) and the people's command
// link this package: gitleaks costs a process milliseconds to start and
// ~120 ms to set up its detector with the RE2 regexp build, so hooks ask a
// long-lived scanner instead (internal/scanner).
//
// gitleaks traps handled here (see ../shared/reference/libraries.md):
//   - `gitleaks:allow` comments suppress findings; the model can write
//     them, so they are ignored unless the user trusts them;
//   - a fragment's file path lets path allowlists skip the whole content:
//     content is always scanned without a path;
//   - findings carry lines and columns, not byte offsets, with an
//     off-by-one after the first line: Scan converts them;
//   - gitleaks counts [extend] loads in a process-global counter that is
//     never reset: a user config can be loaded once per process (New
//     refuses a second one rather than silently losing the defaults).
package detector

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/configcred"
)

// Additions are gemini-guard's additions to gitleaks' default rules, in
// gitleaks' config format: rules for credential forms the defaults miss and
// allowlists for values that are public by design. They only add (no rule
// id of gitleaks' is redefined), so they are appended to the defaults as
// they are.
//
//go:embed rules.toml
var Additions string

// Detector is a gitleaks detector set up as the guard needs it. It is safe
// for concurrent use.
type Detector struct {
	d *detect.Detector
	// grammar is set unless configcred.RuleID is disabled: credentials
	// read by a configuration file's own grammar are reported too.
	grammar bool
	// grammarAllow are the allowlists that judge the grammar's values:
	// see grammarAllowlists.
	grammarAllow []*config.Allowlist
}

// New builds a detector for opts. A user config (opts.ConfigPath) that
// cannot be read, parsed or compiled gives a *secrets.ConfigError; so does
// a second user config in one process (gitleaks' extend counter). An error
// without a user config means the built-in rules do not load: a broken
// build.
func New(opts secrets.Options) (*Detector, error) {
	logging.Logger = zerolog.Nop()
	var cfg config.Config
	var err error
	if opts.ConfigPath == "" {
		var base *config.ViperConfig
		base, err = builtinConfig()
		if err != nil {
			return nil, err
		}
		cfg, err = base.Translate()
		if err != nil {
			return nil, fmt.Errorf("detector: built-in rules: %w", err)
		}
	} else {
		cfg, err = userConfig(opts.ConfigPath)
		if err != nil {
			return nil, &secrets.ConfigError{Path: opts.ConfigPath, Err: err}
		}
	}
	return build(cfg, opts), nil
}

// build sets up gitleaks' detector for cfg as the guard runs it: rules
// disabled by id, decoding depth 5 (gitleaks' command line default; the
// library's is 0, no decoding), gitleaks:allow ignored unless trusted.
func build(cfg config.Config, opts secrets.Options) *Detector {
	for _, id := range opts.DisabledRules {
		delete(cfg.Rules, id)
		cfg.OrderedRules = slices.DeleteFunc(cfg.OrderedRules, func(r string) bool { return r == id })
	}
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = secrets.MaxDecodeDepth
	d.IgnoreGitleaksAllow = !opts.TrustAllowComments
	return &Detector{d: d, grammar: !slices.Contains(opts.DisabledRules, configcred.RuleID), grammarAllow: grammarAllowlists(cfg)}
}

// grammarAllowlists are the allowlists that judge a value the grammar
// found: gitleaks' untargeted global allowlists, and the built-in global
// allowlists that target the keyed-value rules (publishable keys, captcha
// site keys, analytics tokens, search-only keys, sealed secrets, names
// that hold an id). A rule's own allowlists are not used: some judge a
// value by its characters (two digits and two letters), which the
// grammar never does.
func grammarAllowlists(cfg config.Config) []*config.Allowlist {
	out := slices.Clone(cfg.Allowlists)
	builtin, err := Builtin()
	if err != nil {
		return out
	}
	targeted := map[string]bool{}
	for _, a := range builtin.Allowlists {
		if a.Description != "" && slices.ContainsFunc(a.TargetRules, func(id string) bool { return slices.Contains(grammarAllowlistRules(), id) }) {
			targeted[a.Description] = true
		}
	}
	for _, id := range grammarAllowlistRules() {
		for _, a := range cfg.Rules[id].Allowlists {
			if targeted[a.Description] && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Builtin is the built-in rule set as a gitleaks config: gitleaks' default
// config with Additions appended (its deprecated single [allowlist] folded
// into [[allowlists]], as gitleaks does when it loads it). The result is
// shared: do not modify it.
var Builtin = sync.OnceValues(func() (*secrets.Config, error) {
	def, err := secrets.ParseConfig([]byte(config.DefaultConfig))
	if err != nil {
		return nil, fmt.Errorf("detector: gitleaks default config: %w", err)
	}
	add, err := secrets.ParseConfig([]byte(Additions))
	if err != nil {
		return nil, fmt.Errorf("detector: rules.toml: %w", err)
	}
	for _, r := range add.Rules {
		if slices.ContainsFunc(def.Rules, func(d secrets.Rule) bool { return d.ID == r.ID }) {
			return nil, fmt.Errorf("detector: rules.toml redefines gitleaks rule %s (additions only add)", r.ID)
		}
	}
	def.Title = "gitleaks default config with gemini-guard's additions"
	def.Rules = append(def.Rules, add.Rules...)
	def.Allowlists = append(def.Allowlists, add.Allowlists...)
	return def, nil
})

// builtinTOML is Builtin in gitleaks' TOML format.
var builtinTOML = sync.OnceValues(func() ([]byte, error) {
	cfg, err := Builtin()
	if err != nil {
		return nil, err
	}
	return toml.Marshal(cfg)
})

// builtinConfig is Builtin parsed as gitleaks parses configs (go-toml into
// gitleaks' ViperConfig gives what viper gives, in a tenth of the time).
func builtinConfig() (*config.ViperConfig, error) {
	text, err := builtinTOML()
	if err != nil {
		return nil, err
	}
	return viperConfig(text)
}

func viperConfig(text []byte) (*config.ViperConfig, error) {
	var vc config.ViperConfig
	if err := toml.Unmarshal(text, &vc); err != nil {
		return nil, fmt.Errorf("detector: built-in rules: %w", err)
	}
	return &vc, nil
}

// MaxConfigSize is the largest user gitleaks config New reads (gitleaks'
// own default config is about 120 KiB).
const MaxConfigSize = 4 << 20

// userMu and userLoaded enforce one user config per process: gitleaks'
// extend counter is process-global and never reset, and a second
// extension would silently yield the user's rules alone.
var (
	userMu     sync.Mutex
	userLoaded string
)

// userConfig loads the user's gitleaks config at path on top of base with
// gitleaks' own [extend] (merge of rules with the same id, disabledRules,
// allowlists of both). The user's config always extends the built-in rules:
// a config with useDefault or no [extend] gets them as its parent; one with
// its own extend.path is refused (gitleaks allows two extend levels, and
// the built-in rules must be one of them).
func userConfig(path string) (config.Config, error) {
	userMu.Lock()
	defer userMu.Unlock()
	if userLoaded != "" {
		return config.Config{}, fmt.Errorf("gitleaks loads one extended config per process, and %s is loaded", userLoaded)
	}
	data, truncated, err := bounded.ReadFile(path, MaxConfigSize)
	if err != nil {
		return config.Config{}, err
	}
	if truncated {
		return config.Config{}, fmt.Errorf("larger than %d MiB", MaxConfigSize>>20)
	}
	var vc config.ViperConfig
	if err := toml.Unmarshal(data, &vc); err != nil {
		return config.Config{}, err
	}
	if vc.Extend.Path != "" || vc.Extend.URL != "" {
		return config.Config{}, errors.New("[extend] path/url is not supported: gemini-guard's config always extends its built-in rules (gitleaks' defaults and gemini-guard's additions); copy the extended rules into this file")
	}
	// gitleaks' extend reads the parent from a file: write the built-in
	// rules to a private temporary one.
	dir, err := os.MkdirTemp("", "gemini-guard-rules-")
	if err != nil {
		return config.Config{}, err
	}
	defer os.RemoveAll(dir)
	parent := filepath.Join(dir, "builtin.toml")
	text, err := builtinTOML()
	if err != nil {
		return config.Config{}, err
	}
	if err := os.WriteFile(parent, text, 0o600); err != nil {
		return config.Config{}, err
	}
	vc.Extend.UseDefault = false
	vc.Extend.Path = parent
	userLoaded = path
	cfg, err := translate(&vc)
	if err != nil {
		return config.Config{}, err
	}
	if _, ok := cfg.Rules["generic-api-key"]; !ok && !slices.Contains(vc.Extend.DisabledRules, "generic-api-key") {
		// The extension did not happen: never scan with fewer rules than
		// the built-in set without saying so.
		return config.Config{}, errors.New("gitleaks did not extend the built-in rules")
	}
	return cfg, nil
}

// translate is vc.Translate, which panics on a regexp that does not
// compile (gitleaks uses MustCompile): a user's typo is an error, not a
// crashed scanner.
func translate(vc *config.ViperConfig) (cfg config.Config, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return vc.Translate()
}

// RuleIDs returns the ids of the rules the detector runs, sorted.
func (d *Detector) RuleIDs() []string {
	ids := make([]string, 0, len(d.d.Config.Rules))
	for id := range d.d.Config.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Scan returns every secret in text (see secrets.Complete for order and
// repeats). It stops early, with what it found so far, when ctx is done.
// Empty text gives nil.
func (d *Detector) Scan(ctx context.Context, text string) []secrets.Finding {
	if text == "" {
		return nil
	}
	//nolint:staticcheck // gitleaks v8 DetectContext takes detect.Fragment; sources.Fragment is v9's
	found := d.d.DetectContext(ctx, detect.Fragment{Raw: text})
	var nl []int
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			nl = append(nl, i)
		}
	}
	out := make([]secrets.Finding, 0, len(found))
	for _, f := range found {
		out = append(out, d.finding(text, nl, f))
	}
	if d.grammar && ctx.Err() == nil {
		out = d.byGrammar(text, nl, out)
	}
	return secrets.Complete(text, out)
}

// byGrammar adds to found the credentials configcred reads by the text's
// own grammar that no finding of the rules overlaps (a rule's finding on
// the same value names it, and says more), and drops a
// surroundings-anchored rule's finding that lies inside a value the
// grammar puts in a credential position and calls no secret (a
// reference, a placeholder, ciphertext): the file's grammar knows better
// than a pattern around it (a decoded finding too: its encoded span lies
// inside that value). A vendor rule's finding is never dropped.
func (d *Detector) byGrammar(text string, nl []int, found []secrets.Finding) []secrets.Finding {
	values := configcred.Read(text)
	if len(values) == 0 {
		return found
	}
	found = slices.DeleteFunc(found, func(f secrets.Finding) bool {
		return surroundingsRule(f.RuleID) && slices.ContainsFunc(values, func(c configcred.Credential) bool {
			inside := c.Start <= f.Start && f.End <= c.End
			// A decoded finding's range is its whole encoded match.
			overlaps := f.Decoded && c.Start < f.End && f.Start < c.End
			return overrules(c, text[c.Start:c.End]) && (inside || overlaps)
		}) && !slices.ContainsFunc(values, func(c configcred.Credential) bool {
			return c.Secret && c.Start < f.End && f.Start < c.End
		})
	})
	for _, c := range values {
		if !c.Secret || d.allowedByRules(text, c) {
			continue
		}
		// A rule's finding that overlaps the value is the same secret (a
		// vendor rule may take part of a value the grammar reads whole).
		covered := slices.ContainsFunc(found, func(f secrets.Finding) bool {
			return !f.Decoded && f.Start < c.End && c.Start < f.End
		})
		if covered {
			continue
		}
		found = append(found, secrets.Finding{
			RuleID:      configcred.RuleID,
			Description: "Credential in a configuration file (" + c.Format + ": " + c.KeyPath + ")",
			Start:       c.Start, End: c.End, Line: sort.SearchInts(nl, c.Start) + 1,
			Secret: text[c.Start:c.End],
		})
	}
	return found
}

// overrules reports whether the grammar's word on a value that is not a
// secret overrules a surroundings rule's finding of it: a reference,
// ciphertext or a public value always; a placeholder unless it is a
// URL's password (the url-password rule allows a placeholder password
// only on a local or documentation host, and so does the guard).
func overrules(c configcred.Credential, value string) bool {
	switch c.Why {
	case configcred.Reference, configcred.Ciphertext, configcred.Public:
		return true
	case configcred.Placeholder:
		return c.Format != "url" && configcred.WholePlaceholder(value)
	}
	return false
}

// grammarAllowlistRules are the keyed-value rules whose targeted global
// allowlists judge the grammar's values too (generic-api-key's are not
// used: its 1,400 stopwords hit random values too often).
func grammarAllowlistRules() []string {
	return []string{"keyword-assigned-secret", "keyword-assigned-hex", "password-assigned"}
}

// allowedByRules reports whether the grammar's allowlists (see
// grammarAllowlists) allow a value it found, with the value's line as the
// match.
func (d *Detector) allowedByRules(text string, c configcred.Credential) bool {
	secret := text[c.Start:c.End]
	from := strings.LastIndexByte(text[:c.Start], '\n') + 1
	to := strings.IndexByte(text[c.End:], '\n')
	if to < 0 {
		to = len(text)
	} else {
		to += c.End
	}
	line := strings.TrimSpace(text[from:to])
	return slices.ContainsFunc(d.grammarAllow, func(a *config.Allowlist) bool { return allowlistAllows(a, secret, line) })
}

// allowlistAllows is gitleaks' check of one allowlist on a finding
// (detect.checkFindingAllowed) for a text without a path or commit.
func allowlistAllows(a *config.Allowlist, secret, match string) bool {
	target := secret
	if a.RegexTarget == "match" || a.RegexTarget == "line" {
		target = match
	}
	regexAllowed := a.RegexAllowed(target)
	stop, _ := a.ContainsStopWord(secret)
	if a.MatchCondition != config.AllowlistMatchAnd {
		return regexAllowed || stop
	}
	if len(a.Paths) > 0 || len(a.Commits) > 0 {
		return false
	}
	checks := 0
	if len(a.Regexes) > 0 {
		if !regexAllowed {
			return false
		}
		checks++
	}
	if len(a.StopWords) > 0 {
		if !stop {
			return false
		}
		checks++
	}
	return checks > 0
}

// surroundingsRule reports whether a rule finds a value by the key or
// position around it (secrets.GenericRule, and the additions' rules for a
// URL's or a connection string's password) rather than by its shape.
func surroundingsRule(id string) bool {
	switch id {
	case "database-url-password", "connection-string-password", "oracle-jdbc-password", "docker-config-auth", "passphrase-assigned":
		return true
	}
	return secrets.GenericRule(id)
}

// GrammarDescription is the description of configcred.RuleID. Each
// finding's own names the format and the key path, never the value, with
// no comma before them (a block reason shortens a description at its first
// ", "): Credential in a configuration file (yaml: spring.datasource.password).
const GrammarDescription = "Credential in a configuration file, read by the file's own grammar"

// Description returns a rule's description ("" for an unknown id).
func (d *Detector) Description(id string) string {
	if id == configcred.RuleID {
		return GrammarDescription
	}
	return d.d.Config.Rules[id].Description
}

// finding converts a gitleaks finding. gitleaks gives 0-based lines and
// byte columns, off by one on every line after the first (upstream issue
// #1424): the match is text[base(StartLine)+StartColumn-1 :
// base(EndLine)+EndColumn], base(L) being 0 for line 0 and the offset of
// the L-th newline after. For a decoded finding that is the encoded span;
// otherwise the range is narrowed to the secret inside the match.
func (d *Detector) finding(text string, nl []int, f report.Finding) secrets.Finding {
	base := func(line int) int {
		if line <= 0 || line > len(nl) {
			return 0
		}
		return nl[line-1]
	}
	start := base(f.StartLine) + f.StartColumn - 1
	end := base(f.EndLine) + f.EndColumn
	decoded := slices.ContainsFunc(f.Tags, func(t string) bool { return strings.HasPrefix(t, "decoded:") })
	valid := 0 <= start && start <= end && end <= len(text)
	if !decoded {
		if !valid || text[start:end] != f.Match {
			// Never trust a range that does not hold the match: find it.
			if i := strings.Index(text, f.Match); f.Match != "" && i >= 0 {
				start, end, valid = i, i+len(f.Match), true
			} else {
				valid = false
			}
		}
		if valid && f.Secret != "" {
			if i := strings.Index(text[start:end], f.Secret); i >= 0 {
				start, end = start+i, start+i+len(f.Secret)
			}
		}
		if !valid {
			if i := strings.Index(text, f.Secret); f.Secret != "" && i >= 0 {
				start, end, valid = i, i+len(f.Secret), true
			}
		}
	}
	if !valid {
		// No range holds it (or a decoded one is out of bounds): the whole
		// text is the place (a redactor hides all of it rather than none).
		start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
		if start >= end {
			start, end = 0, len(text)
		}
	}
	return secrets.Finding{
		RuleID: f.RuleID, Description: f.Description,
		Start: start, End: end, Line: sort.SearchInts(nl, start) + 1,
		Secret: f.Secret, Decoded: decoded,
	}
}

// GitleaksVersion is the gitleaks release whose detector and default rules
// this package runs (a test checks it against go.mod).
const GitleaksVersion = "v8.30.1"
