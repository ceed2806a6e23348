package redactguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	a, ok := loadClean(e, "s1", "fp")
	require.True(t, ok)
	b, _ := loadClean(e, "s2", "fp")
	assert.NotEqual(t, a.hash([]byte(`"x"`)), b.hash([]byte(`"x"`)), "each record has its own key")
	for i := range maxClean + 10 {
		a.add([]byte(strings.Repeat("y", i)))
	}
	a.save(e, "s1")
	again, _ := loadClean(e, "s1", "fp")
	assert.Len(t, again.hashes, maxClean)
	assert.True(t, again.known([]byte(strings.Repeat("y", maxClean+9))))
	assert.False(t, again.known([]byte(strings.Repeat("y", 3))), "the oldest are forgotten")
	other, _ := loadClean(e, "s1", "another fingerprint")
	assert.Empty(t, other.hashes)
}
