package secretguard_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// TestBlind2FormatsDenied: credentials in formats the rules learnt from the
// second blind set (detector/blind2_test.go) are denied in write_file
// content, under their rule, and the reason never holds them.
func TestBlind2FormatsDenied(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	r := secrettest.NewRand(77)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	cases := []struct{ rule, secret, before, after string }{
		{"prefixed-api-key", "pdl_live_apikey_01" + lan(24) + "_" + an(22) + "_" + an(3), `paddle = Paddle("`, "\")\n"},
		{"cli-password-flag", "Qz" + an(10) + "4k", "mysql -h db.acme.io -u root -p", " app < dump.sql\n"},
		{"password-in-prose", "Vb" + an(7) + "%42q", "Log in as admin with the password ", " and change it.\n"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", ws+"/notes.txt", "content", c.before+c.secret+c.after))
			require.Equal(t, verdict.Deny, d.Verdict.Action)
			assert.Equal(t, c.rule, d.Verdict.RuleID)
			assert.NotContains(t, d.Verdict.Message(), c.secret)
		})
	}
}
