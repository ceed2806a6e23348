package redactguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// TestBrokenGitleaksConfig: a config that does not load leaves the built-in
// rules in force (as in the secrets guard), and the user is told once.
func TestBrokenGitleaksConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "gl.toml")
	require.NoError(t, os.WriteFile(cfg, []byte("[[rules]\nnot toml"), 0o600))
	e := testEnv(t, map[string]string{"GEMINI_GUARD_GITLEAKS_CONFIG": cfg})
	secret := secretsFor["github-pat"]
	text := "your token " + secret + " ok"
	out := runHook(t, e, "after-model", chunkInput("s1", "req", text, "STOP"))
	assert.Contains(t, out, "could not load your gitleaks config", "the user is warned")
	assert.Contains(t, out, "[REDACTED:github-pat]", "the built-in rules still apply")
	assert.NotContains(t, out, secret)
	out = runHook(t, e, "after-model", chunkInput("s1", "req2", text, "STOP"))
	assert.NotContains(t, out, "could not load", "once per session")
	assert.NotContains(t, out, secret)

	out = runHook(t, e, "after-tool", toolInput("read_file", `"`+text+`"`))
	assert.Contains(t, out, "[REDACTED:github-pat]", "AfterTool uses the built-in rules too")
	assert.NotContains(t, out, secret)
}

// TestUserGitleaksConfig streams a secret of a rule that only the
// workspace's .gitleaks.toml defines, split over chunks.
func TestUserGitleaksConfig(t *testing.T) {
	ws := t.TempDir()
	cfg := "[extend]\nuseDefault = true\n\n[[rules]]\nid = \"acme-key\"\nregex = '''acme_[a-z0-9]{20}'''\nkeywords = [\"acme_\"]\n"
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".gitleaks.toml"), []byte(cfg), 0o600))
	e := testEnv(t, nil)
	key := "acme_" + secrettest.NewRand(3).From(secrettest.LowerAlnum, 20)
	in := func(text, finish string) string {
		return strings.Replace(chunkInput("s1", "req", text, finish), `"cwd":"/tmp"`, `"cwd":`+quoteJSON(ws), 1)
	}
	var shown strings.Builder
	for i, part := range []string{"the key is " + key[:8], key[8:], " and more."} {
		finish := ""
		if i == 2 {
			finish = "STOP"
		}
		shown.WriteString(displayed(t, runHook(t, e, "after-model", in(part, finish)), part))
	}
	assert.Equal(t, "the key is [REDACTED:acme-key] and more.", shown.String())

	out := runHook(t, e, "after-tool", strings.Replace(toolInput("read_file", quoteJSON("K="+key)), `"cwd":"/tmp"`, `"cwd":`+quoteJSON(ws), 1))
	assert.Contains(t, out, "[REDACTED:acme-key]")
	assert.NotContains(t, out, key)
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// displayed is what Gemini CLI shows for a chunk with text given the hook's
// answer: the replacement's parts, or the chunk's own text.
func displayed(t testing.TB, answer, text string) string {
	t.Helper()
	var out struct {
		Content  *string `json:"content"`
		Specific *struct {
			LLMResponse *struct {
				Candidates []struct {
					Content struct {
						Parts []string `json:"parts"`
					} `json:"content"`
				} `json:"candidates"`
			} `json:"llm_response"`
		} `json:"hookSpecificOutput"`
		Decision string `json:"decision"`
	}
	require.NoError(t, json.Unmarshal([]byte(answer), &out))
	require.NotEqual(t, "deny", out.Decision, "AfterModel never denies")
	if out.Content != nil {
		return *out.Content
	}
	if out.Specific != nil && out.Specific.LLMResponse != nil && len(out.Specific.LLMResponse.Candidates) > 0 {
		if parts := out.Specific.LLMResponse.Candidates[0].Content.Parts; len(parts) > 0 {
			return strings.Join(parts, "")
		}
	}
	return text
}
