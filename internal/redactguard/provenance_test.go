package redactguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

// TestAfterToolRecordsWhatTheAgentLeft: the AfterTool hook hashes the
// files the finished call touched (internal/provenance), and only that
// call's: another tool's AfterTool leaves them pending.
func TestAfterToolRecordsWhatTheAgentLeft(t *testing.T) {
	ws := testdirs.CommittedRepo(t, map[string]string{"a.txt": "start\n"})
	e := testEnv(t, nil)
	e.StateDir = filepath.Join(t.TempDir(), "gemini-guard", "sessions")
	dir := provenance.DirBeside(e.StateDir)
	toolInput := json.RawMessage(`{"file_path":"a.txt","old_string":"start","new_string":"edited"}`)
	call := provenance.CallOf("replace", toolInput, ws)
	require.NoError(t, provenance.Touch(dir, "s1", ws, call, []string{filepath.Join(ws, "a.txt")}))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("edited\n"), 0o644))

	after := func(tool string, input json.RawMessage) {
		in, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": ws, "hook_event_name": "AfterTool", "tool_name": tool,
			"tool_input": input, "tool_response": map[string]any{"llmContent": "ok", "returnDisplay": "ok"}})
		require.NoError(t, err)
		runHook(t, e, "after-tool", string(in))
	}
	after("read_file", json.RawMessage(`{"file_path":"a.txt"}`))
	rec, ok := provenance.Load(dir, "s1")
	require.True(t, ok)
	assert.True(t, rec.Files[filepath.Join(ws, "a.txt")].Pending, "another tool's AfterTool leaves it pending")

	after("replace", toolInput)
	rec, _ = provenance.Load(dir, "s1")
	assert.False(t, rec.Files[filepath.Join(ws, "a.txt")].Pending)
	assert.Equal(t, provenance.HashBytes([]byte("edited\n")), rec.Files[filepath.Join(ws, "a.txt")].Left)
}
