package prefilter

import (
	"go/format"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// builtinFromSecrets builds the rule table from the scanner's rule set, as
// internal/gen does.
func builtinFromSecrets(t *testing.T) []Rule {
	t.Helper()
	cfg, err := detector.Builtin()
	require.NoError(t, err)
	var rules []Rule
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		rules = append(rules, Rule{ID: r.ID, Pattern: SecretGroupOnly(r.Regex, r.SecretGroup), Keywords: kws})
	}
	slices.SortFunc(rules, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return rules
}

func TestRulesGenUpToDate(t *testing.T) {
	src, err := RulesSource(builtinFromSecrets(t))
	require.NoError(t, err)
	want, err := format.Source(src)
	require.NoError(t, err)
	got, err := os.ReadFile("rules_gen.go")
	require.NoError(t, err)
	assert.True(t, string(want) == string(got), "rules_gen.go is stale: run go generate ./internal/secrets/prefilter")
}

func TestBuiltinRulesMatchScanner(t *testing.T) {
	sc := secrettest.Builtin()
	var ids []string
	for _, r := range BuiltinRules() {
		ids = append(ids, r.ID)
	}
	for _, id := range sc.RuleIDs() {
		if id == "pkcs12-file" {
			continue // a path-only rule: never runs on text
		}
		assert.Contains(t, ids, id)
	}
}

func TestAnalysisOfBuiltinRules(t *testing.T) {
	for _, r := range BuiltinRules() {
		in, err := analyze(r.Pattern, r.Keywords)
		require.NoError(t, err, r.ID)
		assert.Equal(t, r.info, in, r.ID)
		if in.anchored != "" {
			assert.NotEqual(t, unbounded, in.anchorPrefix, r.ID)
		}
	}
}
