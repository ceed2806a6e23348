package verdict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMessage(t *testing.T) {
	v := Verdict{
		Action:   Deny,
		RuleID:   "git.reset-hard",
		What:     "git reset --hard discards uncommitted work.",
		Safer:    "git stash, then git reset",
		Fragment: "git reset\n  --hard HEAD",
	}
	assert.Equal(t,
		"gemini-guard blocked git.reset-hard: git reset --hard discards uncommitted work (`git reset --hard HEAD`). "+
			"Safer: git stash, then git reset. "+Closing,
		v.Message())
	assert.Equal(t, "", Verdict{}.Message())
}

func TestMessageTruncatesFragment(t *testing.T) {
	v := Verdict{RuleID: "x.y", What: "w", Fragment: strings.Repeat("é", 500)}
	msg := v.Message()
	assert.Contains(t, msg, strings.Repeat("é", MaxFragment-1)+"…")
	assert.NotContains(t, msg, strings.Repeat("é", MaxFragment))
}

func TestTruncate(t *testing.T) {
	assert.Equal(t, "abc", Truncate("abc", 3))
	assert.Equal(t, "ab…", Truncate("abcd", 3))
	assert.Equal(t, "", Truncate("abcd", 0))
	assert.Equal(t, "日本…", Truncate("日本語です", 3))
}

func TestMask(t *testing.T) {
	cases := map[string]string{
		"":                             "…(0 chars)",
		"short":                        "…(5 chars)",
		"0123456789":                   "0…(10 chars)",
		"ghp_0123456789abcdefghijklmn": "gh…(28 chars)",
		"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB": "ghp_…(42 chars)",
	}
	for in, want := range cases {
		assert.Equal(t, want, Mask(in), in)
	}
	// The preview never holds more than a tenth of the secret.
	for n := 0; n < 200; n++ {
		s := strings.Repeat("x", n)
		shown := strings.Count(strings.SplitN(Mask(s), "…", 2)[0], "x")
		assert.LessOrEqual(t, shown*10, n, "length %d", n)
	}
}
