package secretguard_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

// TestHookRecordsTouch: a write_file or replace that will run is recorded
// as the agent's touch (internal/provenance); one that is denied is not.
func TestHookRecordsTouch(t *testing.T) {
	ws, home := testdirs.CommittedRepo(t, map[string]string{"app.py": "x = 1\n"}), t.TempDir()
	env := map[string]string{"HOME": home}
	run := func(tool string, in map[string]any) string {
		call, err := json.Marshal(map[string]any{"session_id": "rec", "cwd": ws, "hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": in})
		require.NoError(t, err)
		var out bytes.Buffer
		runHook(t, bytes.NewReader(call), &out, func(k string) string { return env[k] })
		var a struct{ Decision string }
		require.NoError(t, json.Unmarshal(out.Bytes(), &a))
		return a.Decision
	}
	assert.NotEqual(t, "deny", run("replace", map[string]any{"file_path": "app.py", "old_string": "x = 1", "new_string": "x = 2"}))
	assert.NotEqual(t, "deny", run("write_file", map[string]any{"file_path": filepath.Join(ws, "new.py"), "content": "y = 1\n"}))
	assert.Equal(t, "deny", run("write_file", map[string]any{"file_path": "leak.py", "content": "token = 'ghp_" + "0123456789abcdefghijABCDEFGHIJ012345'\n"}))

	rec, ok := provenance.Load(provenance.Dir(func(k string) string { return env[k] }), "rec")
	require.True(t, ok)
	// AfterTool names the same call from the same input.
	replaceCall := provenance.CallOf("replace", []byte(`{"file_path":"app.py","old_string":"x = 1"}`), ws)
	writeCall := provenance.CallOf("write_file", []byte(`{"file_path":"`+filepath.Join(ws, "new.py")+`"}`), ws)
	assert.Equal(t, provenance.Entry{Clean: true, Pending: true, Call: replaceCall}, *rec.Files[filepath.Join(ws, "app.py")])
	assert.Equal(t, provenance.Entry{Created: true, Pending: true, Call: writeCall}, *rec.Files[filepath.Join(ws, "new.py")])
	assert.NotContains(t, rec.Files, filepath.Join(ws, "leak.py"), "a denied write is not the agent's touch")
}
