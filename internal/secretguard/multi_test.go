package secretguard_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// Antigravity CLI's multi_replace_file_content, as internal/hook hands it
// over: edits applied in order, only new secrets denied.
func TestMultiReplace(t *testing.T) {
	require.Equal(t, hook.MultiReplace, secretguard.MultiReplace, "the name hook translates to is the one Check judges")
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	old := ghp(11)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "app.cfg"), []byte("name = shop\nport = 80\ntoken = \""+old+"\"\n"), 0o644))
	edits := func(pairs ...string) []map[string]any {
		var out []map[string]any
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, map[string]any{"old_string": pairs[i], "new_string": pairs[i+1]})
		}
		return out
	}
	multi := func(e []map[string]any) secretguard.Decision {
		return check(t, env, ws, secretguard.MultiReplace, input(t, "file_path", filepath.Join(ws, "app.cfg"), "edits", e))
	}

	assert.Equal(t, verdict.Allow, multi(edits("name = shop", "name = store", "port = 80", "port = 8080")).Verdict.Action)
	assert.Equal(t, verdict.Allow, multi(edits("port = 80", "port = 81\nsecond = \""+old+"\"")).Verdict.Action, "a secret already in the file")
	d := multi(edits("name = shop", "name = store", "port = 80", "port = 80\nkey = \""+ghp(12)+"\""))
	assert.Equal(t, verdict.Deny, d.Verdict.Action, "a new secret in the second edit")
	assert.Equal(t, []string{"github-pat"}, d.Rules)
	d = multi(edits("port = 80", "port = 81", "not in the file", "x = \""+ghp(13)+"\""))
	assert.Equal(t, verdict.Deny, d.Verdict.Action, "an edit that does not apply: every new_string is judged")
	// The second edit only applies to what the first left.
	d = multi(edits("port = 80", "port = PLACE", "PLACE", ghp(14)[:30]+ghp(14)[30:]))
	assert.Equal(t, verdict.Deny, d.Verdict.Action)

	_, err := secretguard.Check(secretguard.Call{Tool: secretguard.MultiReplace, Input: input(t, "edits", edits("a", "b")), Cwd: ws}, env)
	var ie *secretguard.InputError
	assert.ErrorAs(t, err, &ie, "no TargetFile")
}

// agy's writers whose arguments no capture shows: every string is scanned.
func TestOpaqueToolsAreScannedWhole(t *testing.T) {
	env := testEnv(t, settings.Default(), t.TempDir())
	ws := t.TempDir()
	for _, tool := range []string{"sed_file", "notebook_edit", "send_command_input"} {
		d := check(t, env, ws, tool, input(t, "Whatever", map[string]any{"deep": []any{"key " + ghp(21)}}))
		assert.Equal(t, verdict.Deny, d.Verdict.Action, tool)
		assert.Contains(t, d.Verdict.What, "the arguments of "+tool)
		assert.NotContains(t, d.Verdict.Message(), ghp(21))
		assert.Equal(t, verdict.Allow, check(t, env, ws, tool, input(t, "Input", "ls -la\n")).Verdict.Action)
	}
}
