package secrets

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// Config is a gitleaks config as written in TOML: regexps are still
// strings. The detector marshals the built-in rule set through it into the
// file gitleaks' [extend] reads; the redactor reads rule patterns from it
// without linking gitleaks. Field names follow gitleaks' keys (matched case-insensitively,
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
