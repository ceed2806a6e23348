package redactguard

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	scan "github.com/gemini-guard/gemini-guard/internal/scanner"
)

// TestDeadlinesFitTheHooks: each redaction hook answers (its deadline) well
// before Gemini CLI gives up on it (which would pass the text on
// unredacted), and its scans end before its deadline.
func TestDeadlinesFitTheHooks(t *testing.T) {
	data, err := os.ReadFile("../../hooks/hooks.json")
	require.NoError(t, err)
	f, err := bundle.ParseHooks(data)
	require.NoError(t, err)
	timeouts := f.Timeouts()
	for name, l := range map[string]struct{ deadline, scan time.Duration }{
		"gemini-guard-redact-stream":        {hook.AfterModelDeadline, afterModelScanTimeout},
		"gemini-guard-redact-tool-output":   {hook.AfterToolDeadline, afterToolScanTimeout},
		"gemini-guard-redact-model-request": {hook.BeforeModelDeadline, beforeModelScanTimeout},
	} {
		timeout, ok := timeouts[name]
		require.True(t, ok, name)
		assert.LessOrEqual(t, l.deadline, timeout*2/5, name)
		assert.Less(t, l.scan+200*time.Millisecond, l.deadline, name)
	}
	// BeforeModel's scans leave room to wait for a new daemon.
	assert.Greater(t, beforeModelScanTimeout, scan.StartTimeout)
}
