package redact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLargeAndOddChunks: a chunk far larger than Gemini streams, control
// characters, replacement characters and a long base64 run all come out
// whole, with the secret hidden (a hang would hit the test timeout).
func TestLargeAndOddChunks(t *testing.T) {
	r := newRealRedactor(t)
	token := fuzzSecret(0, 77)
	cases := map[string]string{
		"1 MB of keyword-dense prose": strings.Repeat("The API key and the token: access granted, auth=ok; ", 20000) + token + " end",
		"control characters":          "a\x00b\x01\x1b[31mred\x1b[0m " + token + " \x7f",
		"replacement characters":      "\ufffd\ufffd " + token + " \ufffd",
		"endless base64":              strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", 4000) + " " + token + " done",
		"only newlines":               strings.Repeat("\n", 5000) + token,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			shown, whole := stream(t, r, cut(rand.New(rand.NewPCG(1, 2)), text, 7))
			assert.NotContains(t, whole, token)
			require.NotEmpty(t, shown)
			assert.Equal(t, strings.Count(text, "\n"), strings.Count(whole, "\n"), "every line kept")
		})
	}
}
