package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hostcli"
)

// TestModelRequestHoldsNoSecret runs the real CLI against a fake Gemini API
// on 127.0.0.1 that records every request as it leaves the machine: a
// secret pasted in the prompt and one in an @file include must not be in
// any request (from hostcli.MergesRewrittenRequest on; before it the request is passed
// unchanged and the user told why), while every function call and function response (with
// thought parts, thought signatures and an empty text part on the way)
// stays in place and the answer still works (the empty text part only
// from emptyTextPartKept on).
func TestModelRequestHoldsNoSecret(t *testing.T) {
	s := session(t)
	apiKeyAuth(t, s)
	pasted, inFile := GitHubToken(41), AWSAccessKeyID(42)
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "deploy.conf"), []byte("region = eu-west-1\naccess_key = "+inFile+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "notes.txt"), []byte("deploy on Fridays\n"), 0o644))

	// A thought, then an empty text part with a thought signature beside a
	// function call: a content whose text joins to "".
	call := Chunk{{"text": "", "thoughtSignature": "c2lnLTE="}, {"functionCall": map[string]any{"name": "list_directory", "args": map[string]any{"dir_path": "."}}, "thoughtSignature": "c2lnLTI="}}
	if versionBefore(CLIVersionUnderTest(), emptyTextPartKept) {
		call = call[1:]
	}
	api, err := StartFakeAPI(
		Response{
			{Part{"text": "The user wants a deploy; list the files first.", "thought": true}},
			call,
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
	// Before hostcli.MergesRewrittenRequest the CLI would drop every function call and response
	// from a rewritten request: the hook passes it unchanged and says so.
	rewrites := !versionBefore(CLIVersionUnderTest(), hostcli.MergesRewrittenRequest)
	var streamed []APIRequest
	for _, req := range api.Requests() {
		// assert.Equal on booleans, not NotContains: the message must not
		// print the body.
		assert.Equal(t, !rewrites, strings.Contains(string(req.Body), pasted), "the pasted token left the machine: %v (%s); hook messages: %s", !rewrites, req.Method, scrub(msgs))
		assert.Equal(t, !rewrites, strings.Contains(string(req.Body), inFile), "the @file's key left the machine: %v (%s)", !rewrites, req.Method)
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
	if rewrites {
		assertContains(t, all, "[REDACTED:github-pat]")
		assertContains(t, all, "[REDACTED:aws-access-token]")
	}
	assertContains(t, all, "region = eu-west-1")

	last, err := streamed[2].Contents()
	require.NoError(t, err)
	var seq []string
	for _, c := range last {
		for _, p := range c.Parts {
			if fc, ok := p["functionCall"].(map[string]any); ok {
				seq = append(seq, c.Role+" call "+fc["name"].(string))
				if !versionBefore(CLIVersionUnderTest(), gemini2Signatures) {
					assert.NotEmpty(t, p["thoughtSignature"], "the function call keeps a thought signature")
				}
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

	assert.False(t, strings.Contains(msgs, pasted) || strings.Contains(msgs, inFile), "a hook message holds a secret")
	if !rewrites {
		assert.Equal(t, 1, strings.Count(msgs, "did NOT remove them: Gemini CLI "+CLIVersionUnderTest()+" drops every tool call"), "told once per session: %s", scrub(msgs))
		assert.NotContains(t, msgs, "removed from the request to the model")
		return
	}
	assertContains(t, msgs, "removed from the request to the model")
	assert.Equal(t, 1, strings.Count(msgs, "github-pat `"), "told once per secret: %s", scrub(msgs))
}

// gemini2Signatures is the first Gemini CLI that sends thought signatures to
// a Gemini 2 model (the fake API's gemini-2.5-flash): before it the CLI
// sends such a model its history without them, hook or no hook (read in
// the bundles: contentsForPreviewModel only for supportsModernFeatures).
const gemini2Signatures = "0.54.0"

// emptyTextPartKept is the first Gemini CLI that keeps a streamed chunk
// holding an empty text part beside other parts. Before it, the CLI's own
// isValidContent rejects such a chunk whole: its function call still runs,
// but the call is left out of the model's turn in the history and the
// stream counts as thinking only and is retried, so the next request holds
// a function response without its call. Measured on 0.56.0 with the
// BeforeModel hook switched off: the same history as with it on. The hook
// rewrites nothing there; on those versions the test leaves the empty part
// out and still checks that the rewrite keeps every call in place.
const emptyTextPartKept = "0.57.0"

// apiKeyAuth selects Gemini API key authentication in the session's user
// settings: with GOOGLE_GEMINI_BASE_URL set and nothing selected, 0.61
// picks the "gateway" method, which a headless run refuses.
func apiKeyAuth(t *testing.T, s *Session) {
	t.Helper()
	setUserSetting(t, s, "security", map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}})
}
