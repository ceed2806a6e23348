package secretguard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/edit"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

func TestScanGroups(t *testing.T) {
	spans := []edit.Span{{Start: 0, End: 10}, {Start: 20, End: 30}, {Start: 40, End: 100}, {Start: 150, End: 400}, {Start: 410, End: 420}}
	assert.Equal(t, []edit.Span{{Start: 0, End: 100}, {Start: 150, End: 400}, {Start: 410, End: 420}}, scanGroups(spans, 100))
	assert.Equal(t, []edit.Span{{Start: 0, End: 420}}, scanGroups(spans, 1<<20))
	assert.Nil(t, scanGroups(nil, 100))
}

func TestGroupsOneRulePerSecret(t *testing.T) {
	f := func(rule string, start, end int, secret string) secrets.Finding {
		return secrets.Finding{RuleID: rule, Start: start, End: end, Line: 1, Secret: secret}
	}
	found := []secrets.Finding{
		f("keyword-assigned-secret", 8, 48, "ghp_x"),
		f("github-pat", 8, 48, "ghp_x"),
		f("authorization-header-token", 60, 90, "abcdefgh-long"),
		f("generic-api-key", 62, 90, "cdefgh-long"), // inside it: the longer generic match names it
		f("url-password", 100, 110, "pw-1"),         // alone: kept
	}
	var rules []string
	for _, g := range groups(found) {
		rules = append(rules, g.rule)
	}
	assert.Equal(t, []string{"github-pat", "authorization-header-token", "url-password"}, rules)
}
