package prefilter

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// WatchRules are the rules to watch with the gitleaks config at path
// layered on the built-in ones (path "" is the built-in table itself): the
// built-in table plus every pattern and keyword the config adds. A Watch
// only decides what to hold back and whether to ask the scanner, so a
// superset is safe: a rule the config redefines is watched in both forms,
// and the scanner applies the config in full (gitleaks' own [extend]).
// It fails when the file cannot be read or parsed.
func WatchRules(path string) ([]Rule, error) {
	builtin := BuiltinRules()
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
		i := slices.IndexFunc(builtin, func(b Rule) bool { return b.ID == r.ID })
		switch {
		case i >= 0 && r.Regex == "" && len(kws) == 0:
			// Only allowlists or a description: the built-in watch covers it.
		case i >= 0 && r.Regex == "":
			// More keywords for a built-in pattern (gitleaks appends them).
			rules = append(rules, Rule{ID: r.ID, Pattern: builtin[i].Pattern, Keywords: append(slices.Clone(builtin[i].Keywords), kws...)})
		case r.Regex != "":
			pattern := SecretGroupOnly(r.Regex, r.SecretGroup)
			if i >= 0 && builtin[i].Pattern == pattern && slices.Equal(builtin[i].Keywords, kws) {
				continue
			}
			rules = append(rules, Rule{ID: r.ID, Pattern: pattern, Keywords: kws})
		}
	}
	return rules, nil
}
