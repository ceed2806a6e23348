package redactguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// cleanRecord is the session's record of clean messages ("" when none).
func cleanRecord(t *testing.T, e Env, session string) string {
	t.Helper()
	st, err := state.Open(e.StateDir)
	require.NoError(t, err)
	b, err := st.Read(cleanKey(session))
	require.NoError(t, err)
	return string(b)
}

// A long session re-sends its history: messages found clean are
// remembered (by keyed hash, never their text) and not scanned again; a new
// message with a secret is still redacted, and so is one with a secret on
// every request.
func TestBeforeModelRemembersCleanMessages(t *testing.T) {
	e := testEnv(t, nil)
	token := secretsFor["github-pat"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("please review handler.go")}},
		{Role: "model", Parts: []cpart{text("It returns early on error."), call("read_file")}},
		{Role: "user", Parts: []cpart{response("read_file")}},
	}
	got, out := send(t, e, contents)
	assert.Equal(t, contents, got)
	assert.Empty(t, out.SystemMessage)
	rec := cleanRecord(t, e, "s1")
	assert.Equal(t, 3, strings.Count(rec, "\n")+1, "a header and both text messages: %q", rec)
	assert.NotContains(t, rec, "handler.go")

	// The next turn adds a secret: it is redacted, the clean history is
	// sent back as it was.
	contents = append(contents, content{Role: "model", Parts: []cpart{text("Done.")}},
		content{Role: "user", Parts: []cpart{text("now use " + token + " to push")}})
	got, out = send(t, e, contents)
	assert.NotContains(t, dump(got), token)
	assert.Contains(t, dump(got), "[REDACTED:github-pat]")
	assert.Equal(t, contents[:4], got[:4])
	assert.Equal(t, calls(contents), calls(got))
	assert.Contains(t, out.SystemMessage, "github-pat")
	assert.NotContains(t, cleanRecord(t, e, "s1"), token)

	// And again on the turn after: a message with a secret is never
	// remembered as clean.
	contents = append(contents, content{Role: "model", Parts: []cpart{text("Pushed.")}})
	got, _ = send(t, e, contents)
	assert.NotContains(t, dump(got), token)
	assert.Equal(t, contents[5:], got[5:])
}

// A message found clean under some rules is scanned again when the rules
// change: here a rule the user had disabled is turned back on.
func TestBeforeModelCleanRecordFollowsRules(t *testing.T) {
	token := secretsFor["github-pat"]
	contents := []content{{Role: "user", Parts: []cpart{text("token " + token)}}}
	off := testEnv(t, map[string]string{"GEMINI_GUARD_DISABLED_RULES": "github-pat"})
	got, _ := send(t, off, contents)
	require.Contains(t, dump(got), token, "the rule is off: nothing to redact")
	require.NotEmpty(t, cleanRecord(t, off, "s1"))

	on := off
	on.Getenv = func(k string) string {
		if k == "GEMINI_GUARD_DISABLED_RULES" {
			return ""
		}
		return off.Getenv(k)
	}
	got, _ = send(t, on, contents)
	assert.NotContains(t, dump(got), token)
}

// A damaged record reads as empty: everything is scanned.
func TestBeforeModelDamagedCleanRecord(t *testing.T) {
	e := testEnv(t, nil)
	token := secretsFor["github-pat"]
	contents := []content{{Role: "user", Parts: []cpart{text("token " + token)}}}
	st, err := state.Open(e.StateDir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(st.Dir(), cleanKey("s1")), []byte("clean-v1 x\n"+strings.Repeat("0", 32)+"\n\x00garbage"), 0o600))
	got, _ := send(t, e, contents)
	assert.NotContains(t, dump(got), token)
}

func TestCleanSetKeyedAndBounded(t *testing.T) {
	e := testEnv(t, nil)
	opts := secrets.Options{}
	a := loadClean(e, "s1", opts, "none")
	require.NotNil(t, a)
	b := loadClean(e, "s2", opts, "none")
	ha, _ := a.seen([]byte(`"x"`))
	hb, _ := b.seen([]byte(`"x"`))
	assert.NotEqual(t, ha, hb, "each record has its own key")
	for i := range maxClean + 10 {
		h, _ := a.seen([]byte(strings.Repeat("y", i+1)))
		a.add(h)
	}
	a.save(e, "s1")
	again := loadClean(e, "s1", opts, "none")
	assert.Len(t, again.hashes, maxClean)
	_, seen := again.seen([]byte(strings.Repeat("y", maxClean+10)))
	assert.True(t, seen)
	_, seen = again.seen([]byte(strings.Repeat("y", 3)))
	assert.False(t, seen, "the oldest are forgotten")
	other := loadClean(e, "s1", secrets.Options{DisabledRules: []string{"github-pat"}}, "none")
	assert.Empty(t, other.hashes, "another fingerprint starts again")

	var none *cleanSet // no state directory
	h, seen := none.seen([]byte(`"x"`))
	assert.Empty(t, h)
	assert.False(t, seen)
	none.add("0123")
	none.save(e, "s1")
}
