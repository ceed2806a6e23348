package secrets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/pelletier/go-toml/v2"
)

// MaxConfigSize is the largest gitleaks config file NewScanner reads. A
// larger one is an error (gitleaks' own default config is about 120 KiB).
const MaxConfigSize = 4 << 20

// Config is a gitleaks config as written in TOML: regexps are still
// strings. Field names follow gitleaks' keys (matched case-insensitively,
// as gitleaks' viper does); unknown keys are ignored, as gitleaks does.
type Config struct {
	Title       string `toml:"title"`
	Description string `toml:"description"`
	MinVersion  string `toml:"minVersion"`
	Extend      Extend `toml:"extend"`
	Rules       []Rule `toml:"rules"`
	// AllowList is the deprecated single global [allowlist]; it is folded
	// into Allowlists on load.
	AllowList  *Allowlist   `toml:"allowlist"`
	Allowlists []*Allowlist `toml:"allowlists"`
}

// Extend is a config's [extend] table.
type Extend struct {
	Path          string   `toml:"path"`
	URL           string   `toml:"url"`
	UseDefault    bool     `toml:"useDefault"`
	DisabledRules []string `toml:"disabledRules"`
}

// Rule is one [[rules]] entry.
type Rule struct {
	ID          string       `toml:"id"`
	Description string       `toml:"description"`
	Path        string       `toml:"path"`
	Regex       string       `toml:"regex"`
	SecretGroup int          `toml:"secretGroup"`
	Entropy     float64      `toml:"entropy"`
	Keywords    []string     `toml:"keywords"`
	Tags        []string     `toml:"tags"`
	AllowList   *Allowlist   `toml:"allowlist"`
	Allowlists  []*Allowlist `toml:"allowlists"`
	Required    []Required   `toml:"required"`
	SkipReport  bool         `toml:"skipReport"`
}

// Required is one [[rules.required]] entry of a composite rule.
type Required struct {
	ID            string `toml:"id"`
	WithinLines   *int   `toml:"withinLines"`
	WithinColumns *int   `toml:"withinColumns"`
}

// Allowlist is a [[rules.allowlists]] or [[allowlists]] entry.
type Allowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	Commits     []string `toml:"commits"`
	Paths       []string `toml:"paths"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	// TargetRules (global allowlists only) attaches the allowlist to these
	// rules instead of applying it to all.
	TargetRules []string `toml:"targetRules"`
}

// ParseConfig decodes a gitleaks TOML config. It folds the deprecated
// single [allowlist] tables into the allowlists lists, as gitleaks does, and
// rejects a config that uses both forms.
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		return nil, err
	}
	if c.AllowList != nil {
		if len(c.Allowlists) > 0 {
			return nil, errors.New("[allowlist] is deprecated, it cannot be used alongside [[allowlists]]")
		}
		c.Allowlists = []*Allowlist{c.AllowList}
		c.AllowList = nil
	}
	for i := range c.Rules {
		r := &c.Rules[i]
		if r.AllowList != nil {
			if len(r.Allowlists) > 0 {
				return nil, fmt.Errorf("%s: [rules.allowlist] is deprecated, it cannot be used alongside [[rules.allowlist]]", r.ID)
			}
			r.Allowlists = []*Allowlist{r.AllowList}
			r.AllowList = nil
		}
	}
	return &c, nil
}

// readConfigFile reads and parses the config at path, bounded by
// MaxConfigSize.
func readConfigFile(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigSize {
		return nil, fmt.Errorf("larger than %d MiB", MaxConfigSize>>20)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// loadUserConfig reads the user's config at path and layers it onto base,
// following its [extend] path (one level). The user's config always
// extends base: gemini-guard never runs with fewer rules than its built-in
// set unless rules are disabled by id. validate lists the rules the user's
// files define, whose regexps must be compiled (and so checked) up front.
func loadUserConfig(base *Config, path string) (*Config, map[string]bool, error) {
	user, err := readConfigFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("secrets: gitleaks config %s: %w", path, err)
	}
	if user.Extend.Path != "" && user.Extend.UseDefault {
		return nil, nil, fmt.Errorf("secrets: gitleaks config %s: unable to load config due to extend.path and extend.useDefault being set", path)
	}
	validate := map[string]bool{}
	for _, r := range user.Rules {
		validate[r.ID] = true
	}
	if user.Extend.Path != "" {
		p := user.Extend.Path
		if !filepath.IsAbs(p) {
			// gitleaks resolves it against its working directory; a hook's
			// is the workspace, but the config's own directory is what the
			// author of a nested config means.
			p = filepath.Join(filepath.Dir(path), p)
		}
		parent, err := readConfigFile(p)
		if err != nil {
			return nil, nil, fmt.Errorf("secrets: gitleaks config %s: extend.path %s: %w", path, user.Extend.Path, err)
		}
		if parent.Extend.Path != "" {
			return nil, nil, fmt.Errorf("secrets: gitleaks config %s: extend.path %s extends again; gemini-guard follows one level", path, user.Extend.Path)
		}
		for _, r := range parent.Rules {
			validate[r.ID] = true
		}
		// The parent itself extends the built-in rules.
		base = Merge(parent, base)
	}
	return Merge(user, base), validate, nil
}

// Merge layers child onto base as gitleaks' [extend] does: base rules not
// listed in child.Extend.DisabledRules are added; a rule in both keeps the
// base's fields unless child sets them (description, entropy, secretGroup,
// regex, path), and tags, keywords and allowlists are appended. Global
// allowlists of both apply. Neither input is modified.
func Merge(child, base *Config) *Config {
	out := &Config{
		Title:       child.Title,
		Description: child.Description,
		MinVersion:  child.MinVersion,
		Extend:      Extend{},
	}
	disabled := map[string]bool{}
	for _, id := range child.Extend.DisabledRules {
		disabled[id] = true
	}
	index := map[string]int{}
	for _, r := range child.Rules {
		index[r.ID] = len(out.Rules)
		out.Rules = append(out.Rules, cloneRule(r))
	}
	for _, b := range base.Rules {
		if disabled[b.ID] {
			continue
		}
		i, ok := index[b.ID]
		if !ok {
			index[b.ID] = len(out.Rules)
			out.Rules = append(out.Rules, cloneRule(b))
			continue
		}
		c := out.Rules[i]
		m := cloneRule(b)
		if c.Description != "" {
			m.Description = c.Description
		}
		if c.Entropy != 0 {
			m.Entropy = c.Entropy
		}
		if c.SecretGroup != 0 {
			m.SecretGroup = c.SecretGroup
		}
		if c.Regex != "" {
			m.Regex = c.Regex
		}
		if c.Path != "" {
			m.Path = c.Path
		}
		m.Tags = append(m.Tags, c.Tags...)
		m.Keywords = append(m.Keywords, c.Keywords...)
		m.Allowlists = append(m.Allowlists, c.Allowlists...)
		m.Required = append(m.Required, c.Required...)
		m.SkipReport = m.SkipReport || c.SkipReport
		out.Rules[i] = m
	}
	// gitleaks sorts the rule ids after extending; keep the same order so
	// results come out in the same order.
	sort.SliceStable(out.Rules, func(i, j int) bool { return out.Rules[i].ID < out.Rules[j].ID })
	out.Allowlists = append(slices.Clone(child.Allowlists), base.Allowlists...)
	return out
}

func cloneRule(r Rule) Rule {
	r.Keywords = slices.Clone(r.Keywords)
	r.Tags = slices.Clone(r.Tags)
	r.Allowlists = slices.Clone(r.Allowlists)
	r.Required = slices.Clone(r.Required)
	return r
}

// withoutRules returns c without the rules whose ids are listed (and
// without the allowlists that target only those rules).
func withoutRules(c *Config, ids []string) *Config {
	if len(ids) == 0 {
		return c
	}
	out := *c
	out.Rules = nil
	for _, r := range c.Rules {
		if !slices.Contains(ids, r.ID) {
			out.Rules = append(out.Rules, r)
		}
	}
	out.Allowlists = nil
	for _, a := range c.Allowlists {
		if len(a.TargetRules) > 0 {
			kept := *a
			kept.TargetRules = nil
			for _, id := range a.TargetRules {
				if !slices.Contains(ids, id) {
					kept.TargetRules = append(kept.TargetRules, id)
				}
			}
			if len(kept.TargetRules) == 0 {
				continue
			}
			a = &kept
		}
		out.Allowlists = append(out.Allowlists, a)
	}
	return &out
}
