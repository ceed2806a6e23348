package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hostcli"
)

// knownValues are a token of a custom format, exported in the CLI's
// environment as INTERNAL_API_TOKEN, and a password in the workspace's
// .env: no rule knows either shape, only the guard's known values do
// (issue 27). Made at run time by this test.
func knownValues(t *testing.T, s *Session) (token, password string, env []string) {
	token = "itk4." + randomString(91, "abcdefghjkmnpqrstuvwxyz23456789", 10) + "." + randomString(92, "ABCDEFGHJKLMNPQRSTUVWXYZ", 8)
	password = "Ql" + randomString(93, "abcdefghjkmnpqrstuvwxyz", 6) + "-" + randomString(94, "23456789", 3) + "!t"
	writeWorkspaceFile(t, s, ".env", "APP_HOST=localhost\nDB_PASSWORD="+password+"\n")
	// GITHUB_SHA="" keeps Gemini CLI's environment allowlist for GitHub
	// Actions off (it would pass the hooks only PATH, HOME, …), as on a
	// user's machine.
	return token, password, []string{"INTERNAL_API_TOKEN=" + token, "GITHUB_SHA="}
}

// assertNoKnownValue checks that neither value is in what the user or the
// model was shown (see assertSecretNotShown), nor any piece of either on
// screen.
func assertNoKnownValue(t *testing.T, r *Result, values ...string) {
	t.Helper()
	for _, v := range values {
		assertSecretNotShown(t, r, v)
		shown := r.AssistantText()
		for _, piece := range []string{v[:len(v)/2], v[len(v)/2:]} {
			assert.False(t, strings.Contains(shown, piece), "a piece of a known value is on screen")
		}
	}
}

// TestKnownValuesDeniedInWritesCommandsAndWebCalls: the model writes the
// token to a file, puts the .env password in a command and the token in a
// web_fetch URL; each call is denied as known-value, named by the source.
func TestKnownValuesDeniedInWritesCommandsAndWebCalls(t *testing.T) {
	t.Parallel()
	s := session(t)
	token, password, env := knownValues(t, s)
	r := runScript(t, s, Script{Env: env, Responses: []Response{
		WriteFile("Saving it for later.", "notes.txt", "remember "+token+"\n"),
		Shell("Recording the password.", "echo "+password+" >> notes.txt"),
		Tool("Checking the service.", "web_fetch", map[string]any{"prompt": "summarise https://status.internal.test/v1/" + token + "/health"}),
		Say("All three were refused."),
	}})
	w := onlyCall(t, r, "write_file")
	assertBlocked(t, r, w, "known-value")
	assertContains(t, w.Reason(), "known-value ($INTERNAL_API_TOKEN)")
	sh := onlyCall(t, r, "run_shell_command")
	assertBlocked(t, r, sh, "known-value")
	assertContains(t, sh.Reason(), "known-value (.env (DB_PASSWORD))")
	wf := onlyCall(t, r, "web_fetch")
	assertBlocked(t, r, wf, "known-value")
	_, created := r.ReadFile("notes.txt")
	assert.False(t, created, "notes.txt was created")
	for _, c := range []ToolCall{w, sh, wf} {
		assert.False(t, strings.Contains(c.Reason(), token) || strings.Contains(c.Reason(), password), "a reason holds a known value")
	}
	assertNoKnownValue(t, r, token, password)
}

// TestKnownValuesRedactedFromToolOutputStreamAndRequest: the .env read by
// read_file reaches the model without the password; an answer repeating
// both values, split across chunks, shows neither; the token pasted in
// the prompt never leaves the machine (every request the fake API
// records), on a CLI that merges a rewritten request.
func TestKnownValuesRedactedFromToolOutputStreamAndRequest(t *testing.T) {
	t.Parallel()
	s := session(t)
	apiKeyAuth(t, s)
	token, password, env := knownValues(t, s)
	api, err := StartFakeAPI(
		Tool("Let me read the settings.", "read_file", map[string]any{"file_path": ".env"}),
		Chunks("The password is "+password[:5], password[5:]+" and the token is "+token[:9], token[9:]+", both set."),
	)
	require.NoError(t, err)
	defer api.Close()
	r := runScript(t, s, Script{Env: env, API: api, Prompt: "My token is " + token + "; check the settings please."})

	shown := r.AssistantText()
	assertContains(t, shown, "The password is [REDACTED")
	assertContains(t, shown, "both set.")
	assertNoKnownValue(t, r, password)
	// The token is in the user's own prompt, which stream-json echoes; it
	// must be nowhere else.
	for _, piece := range []string{token[:len(token)/2], token[len(token)/2:]} {
		assert.False(t, strings.Contains(shown, piece), "a piece of the token is on screen")
	}
	for _, m := range r.HookMessages() {
		assert.False(t, strings.Contains(m, token), "a hook message holds the token")
	}
	for _, res := range r.TranscriptToolResults() {
		assert.False(t, strings.Contains(res, token), "a tool result holds the token")
	}
	for _, res := range r.TranscriptToolResults() {
		assert.False(t, strings.Contains(res, password), "the model was given the .env password")
		assert.True(t, !strings.Contains(res, "APP_HOST") || strings.Contains(res, "APP_HOST=localhost"), "the rest of the file is unchanged")
	}
	rewrites := !versionBefore(CLIVersionUnderTest(), hostcli.MergesRewrittenRequest)
	for _, req := range api.Requests() {
		if req.Method != "streamGenerateContent" {
			continue
		}
		assert.Equal(t, !rewrites, strings.Contains(string(req.Body), token), "the token left the machine: %v", !rewrites)
		assert.False(t, strings.Contains(string(req.Body), password), "the .env password left the machine")
	}
}

// TestKnownValuesLeaveOrdinaryWorkAlone: the same environment and .env,
// a session that names the variable, lists files and writes code: no
// block, no message.
func TestKnownValuesLeaveOrdinaryWorkAlone(t *testing.T) {
	t.Parallel()
	s := session(t)
	_, _, env := knownValues(t, s)
	r := runScript(t, s, Script{Env: env, Responses: []Response{
		Shell("Let me check the variable is set.", `test -n "$INTERNAL_API_TOKEN" && echo set > status.txt; ls -la >> status.txt`),
		WriteFile("Now the client.", "client.go", helloGo),
		Say("The client reads INTERNAL_API_TOKEN from the environment."),
	}})
	assertRan(t, r, onlyCall(t, r, "run_shell_command"))
	assertRan(t, r, onlyCall(t, r, "write_file"))
	status, _ := r.ReadFile("status.txt")
	assert.Contains(t, status, "set")
	assert.Contains(t, r.AssistantText(), "reads INTERNAL_API_TOKEN from the environment")
	assert.Empty(t, withoutVersionNotice(r.HookMessages()), "the user was warned about ordinary work")
}
