package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue #25's sizes, end to end against a fake Gemini API that records
// every request as it leaves the machine: what the model gets of a large
// tool output or request never holds a secret the hooks could not scan.

// logLines is n bytes of ordinary build-log lines.
func logLines(n int) string {
	line := "compiling module 0042 ... ok\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// TestLargeShellOutputTail: a shell output over 8 MiB whose token sits in
// the last lines, which Gemini CLI keeps (its last 32,000 characters):
// the token never reaches the model.
func TestLargeShellOutputTail(t *testing.T) {
	s := session(t)
	apiKeyAuth(t, s)
	token := GitHubToken(251)
	log := logLines(9<<20) + "deploy token: " + token + "\n" + logLines(2000)
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "build.log"), []byte(log), 0o644))
	api, err := StartFakeAPI(Shell("I'll read the build log.", "cat build.log"), Say("The build finished."))
	require.NoError(t, err)
	defer api.Close()

	r := runScript(t, s, Script{Prompt: "what does build.log say?", API: api})
	for _, req := range api.Requests() {
		assert.False(t, strings.Contains(string(req.Body), token), "the token left the machine (%s)", req.Method)
	}
	msgs := strings.Join(r.HookMessages(), "\n")
	assertContains(t, msgs, "gemini-guard hid 1 secret(s) (github-pat)")
	assert.False(t, strings.Contains(msgs, token), "a hook message holds the token")
}

// TestKeyDenseRequest: a request of ~2 MB dense with keys (an @file
// include), which used to outrun BeforeModel's scan and go out unchanged:
// whatever the hook manages in its 12 s, no key leaves the machine, and
// it answers well within its 30 s timeout.
func TestKeyDenseRequest(t *testing.T) {
	s := session(t)
	apiKeyAuth(t, s)
	var b strings.Builder
	var tokens []string
	for i := 0; b.Len() < 2<<20; i++ {
		tok := GitHubToken(uint64(10_000 + i))
		tokens = append(tokens, tok)
		fmt.Fprintf(&b, "service_%d token=%s\n", i, tok)
	}
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "tokens.txt"), []byte(b.String()), 0o644))
	api, err := StartFakeAPI(Say("I have looked at the file."))
	require.NoError(t, err)
	defer api.Close()

	start := time.Now()
	r := runScript(t, s, Script{Prompt: "Check @tokens.txt please.", API: api})
	took := time.Since(start)
	t.Logf("%d keys, %d bytes; the run took %v", len(tokens), b.Len(), took.Round(time.Millisecond))
	msgs := strings.Join(r.HookMessages(), "\n")
	t.Logf("hook messages: %.400s", scrub(msgs))
	sent := 0
	for _, req := range api.Requests() {
		sent++
		body := string(req.Body)
		leaked := 0
		for _, tok := range tokens {
			if strings.Contains(body, tok) {
				leaked++
			}
		}
		assert.Zero(t, leaked, "keys left the machine (%s); hook messages: %.2000s", req.Method, scrub(msgs))
	}
	// Withheld (the scan ran out of time), or every key removed (it did
	// not): either way the user is told.
	assert.True(t, strings.Contains(msgs, "withheld the text of") || strings.Contains(msgs, "removed from the request to the model") ||
		strings.Contains(msgs, "did not send the request"), "told: %.2000s", scrub(msgs))
	assert.Less(t, took, 2*time.Minute)
}
