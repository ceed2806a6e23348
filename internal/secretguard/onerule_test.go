package secretguard_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// TestOneRulePerSecret: a secret that a vendor rule and a generic rule
// (a credential-named assignment, an Authorization header, a URL query)
// both find is reported once, under the vendor rule; a secret only a
// generic rule finds keeps it; two secrets stay two.
func TestOneRulePerSecret(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok, tok2 := ghp(31), ghp(32)
	key := "a7" + secrettest.NewRand(33).From(secrettest.Alnum, 28) + "9Q"
	cases := []struct {
		name, content string
		rules         []string
	}{
		{"assignment", "TOKEN = \"" + tok + "\"\n", []string{"github-pat"}},
		{"authorization header", "curl -H 'Authorization: token " + tok + "' https://api.github.com/user\n", []string{"github-pat"}},
		{"bearer", "headers = {\"Authorization\": \"Bearer " + tok + "\"}\n", []string{"github-pat"}},
		{"url query", "https://api.example.io/v1?api_key=" + tok + "\n", []string{"github-pat"}},
		{"only a generic rule", "ACME_API_KEY=" + key + "\n", []string{"keyword-assigned-secret"}},
		{"two secrets", "TOKEN = \"" + tok + "\"\nACME_API_KEY=" + key + "\nOTHER_TOKEN=" + tok2 + "\n", []string{"github-pat", "keyword-assigned-secret", "github-pat"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := check(t, env, ws, "write_file", input(t, "file_path", ws+"/f.txt", "content", c.content))
			require.Equal(t, verdict.Deny, d.Verdict.Action)
			assert.Equal(t, c.rules, d.Rules)
			assert.Equal(t, c.rules[0], d.Verdict.RuleID)
			assert.Equal(t, 2*len(c.rules), strings.Count(d.Verdict.What, "`"), "one masked preview per secret: %s", d.Verdict.What)
			for _, s := range []string{tok, tok2, key} {
				assert.NotContains(t, d.Verdict.What, s)
			}
		})
	}
}
