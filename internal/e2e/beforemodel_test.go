package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelRequestHoldsNoSecret runs the real CLI against a fake Gemini API
// on 127.0.0.1 that records every request as it leaves the machine: a
// secret pasted in the prompt and one in an @file include must not be in
// any request, while every function call and function response (with
// thought parts, thought signatures and an empty text part on the way)
// stays in place and the answer still works.
func TestModelRequestHoldsNoSecret(t *testing.T) {
	s := session(t)
	apiKeyAuth(t, s)
	pasted, inFile := GitHubToken(41), AWSAccessKeyID(42)
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "deploy.conf"), []byte("region = eu-west-1\naccess_key = "+inFile+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "notes.txt"), []byte("deploy on Fridays\n"), 0o644))

	api, err := StartFakeAPI(
		// A thought, then an empty text part with a thought signature
		// beside a function call: a content whose text joins to "".
		Response{
			{Part{"text": "The user wants a deploy; list the files first.", "thought": true}},
			{Part{"text": "", "thoughtSignature": "c2lnLTE="}, Part{"functionCall": map[string]any{"name": "list_directory", "args": map[string]any{"dir_path": "."}}, "thoughtSignature": "c2lnLTI="}},
		},
		Tool("I'll read the notes.", "read_file", map[string]any{"file_path": "notes.txt"}),
		Chunks("All done: ", "the deploy config looks fine."),
	)
	require.NoError(t, err)
	defer api.Close()

	r := runScript(t, s, Script{
		Prompt: "Deploy with my token " + pasted + " and check @deploy.conf please.",
		API:    api,
	})

	msgs := strings.Join(r.HookMessages(), "\n")
	var streamed []APIRequest
	for _, req := range api.Requests() {
		// assert.False, not NotContains: the message must not print the body.
		assert.False(t, strings.Contains(string(req.Body), pasted), "the pasted token left the machine (%s); hook messages: %s", req.Method, scrub(msgs))
		assert.False(t, strings.Contains(string(req.Body), inFile), "the @file's key left the machine (%s)", req.Method)
		if req.Method == "streamGenerateContent" {
			streamed = append(streamed, req)
		}
	}
	require.Len(t, streamed, 3, "three model calls; output:\n%s", dump(r))

	first, err := streamed[0].Contents()
	require.NoError(t, err)
	all := ""
	for _, c := range first {
		for _, p := range c.Parts {
			if s, ok := p["text"].(string); ok {
				all += s
			}
		}
	}
	assertContains(t, all, "[REDACTED:github-pat]")
	assertContains(t, all, "[REDACTED:aws-access-token]")
	assertContains(t, all, "region = eu-west-1")

	last, err := streamed[2].Contents()
	require.NoError(t, err)
	var seq []string
	for _, c := range last {
		for _, p := range c.Parts {
			if fc, ok := p["functionCall"].(map[string]any); ok {
				seq = append(seq, c.Role+" call "+fc["name"].(string))
				assert.NotEmpty(t, p["thoughtSignature"], "the function call keeps a thought signature")
			}
			if fr, ok := p["functionResponse"].(map[string]any); ok {
				seq = append(seq, c.Role+" response "+fr["name"].(string))
			}
		}
	}
	assert.Equal(t, []string{"model call list_directory", "user response list_directory", "model call read_file", "user response read_file"}, seq)
	assert.Equal(t, "user", last[0].Role)
	assert.Equal(t, "model", last[len(last)-2].Role, "the conversation ends with the read_file call and its result")
	assertContains(t, r.AssistantText(), "All done: the deploy config looks fine.")

	assertContains(t, msgs, "removed from the request to the model")
	assert.False(t, strings.Contains(msgs, pasted) || strings.Contains(msgs, inFile), "a hook message holds a secret")
	assert.Equal(t, 1, strings.Count(msgs, "github-pat `"), "told once per secret: %s", scrub(msgs))
}

// apiKeyAuth selects Gemini API key authentication in the session's user
// settings: with GOOGLE_GEMINI_BASE_URL set and nothing selected, 0.61
// picks the "gateway" method, which a headless run refuses.
func apiKeyAuth(t *testing.T, s *Session) {
	t.Helper()
	setUserSetting(t, s, "security", map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}})
}
