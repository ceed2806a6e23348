package redactguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// blind2Secrets are credentials in formats the rules learnt from the
// second blind set (detector/blind2_test.go), each in the sentence a tool
// or a model would print it in, and the rule that must name it.
func blind2Secrets() []struct{ rule, before, secret, after string } {
	r := secrettest.NewRand(78)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	return []struct{ rule, before, secret, after string }{
		{"prefixed-api-key", "Use the key ", "pdl_live_apikey_01" + lan(24) + "_" + an(22) + "_" + an(3), " for Paddle."},
		{"password-in-prose", "Log in as admin with the password ", "Vb" + an(7) + "%42q", " and change it."},
		{"loggly-input-url", "Logs go to https://logs-01.loggly.com/inputs/", r.From(secrettest.Hex, 8) + "-1234-4abc-8def-" + r.From(secrettest.Hex, 12), "/tag/http now."},
	}
}

// TestBlind2FormatsRedactedInToolOutput: the AfterTool hook redacts them
// from what a tool printed.
func TestBlind2FormatsRedactedInToolOutput(t *testing.T) {
	e := testEnv(t, nil)
	for _, c := range blind2Secrets() {
		out := runHook(t, e, "after-tool", toolInput("run_shell_command", quoteJSON(c.before+c.secret+c.after)))
		assert.NotContains(t, out, c.secret)
		assert.Contains(t, out, "[REDACTED:"+c.rule+"]")
	}
}

// TestBlind2FormatsRedactedAcrossChunks: the AfterModel hook redacts them
// from a streamed answer when the secret is split across two chunks.
func TestBlind2FormatsRedactedAcrossChunks(t *testing.T) {
	e := testEnv(t, nil)
	for i, c := range blind2Secrets() {
		session := "blind2-" + string(rune('a'+i))
		half := len(c.secret) / 2
		chunks := []string{c.before + c.secret[:half], c.secret[half:] + c.after}
		var shown strings.Builder
		for j, chunk := range chunks {
			finish := ""
			if j == len(chunks)-1 {
				finish = "STOP"
			}
			shown.WriteString(displayed(t, runHook(t, e, "after-model", chunkInput(session, "q", chunk, finish)), chunk))
		}
		// Text held back at the end of an answer shows with the next one.
		shown.WriteString(displayed(t, runHook(t, e, "after-model", chunkInput(session, "q2", "OK.", "STOP")), "OK."))
		require.NotContains(t, shown.String(), c.secret[:half], c.rule)
		require.NotContains(t, shown.String(), c.secret[half:], c.rule)
		assert.Contains(t, shown.String(), "[REDACTED:"+c.rule+"]")
		assert.Contains(t, shown.String(), strings.TrimSpace(c.before))
	}
}
