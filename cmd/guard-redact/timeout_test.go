package main

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// TestDeadlinesFitTheHooks: each redaction hook answers (its deadline) well
// before Gemini CLI gives up on it (which would pass the text on
// unredacted), and its scans end before its deadline.
func TestDeadlinesFitTheHooks(t *testing.T) {
	data, err := os.ReadFile("../../hooks/hooks.json")
	require.NoError(t, err)
	var cfg struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Name    string `json:"name"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(data, &cfg))
	limits := map[string]struct{ deadline, scan time.Duration }{
		"AfterModel": {hook.AfterModelDeadline, afterModelScanTimeout},
		"AfterTool":  {hook.AfterToolDeadline, afterToolScanTimeout},
	}
	found := 0
	for event, l := range limits {
		for _, m := range cfg.Hooks[event] {
			for _, h := range m.Hooks {
				found++
				timeout := time.Duration(h.Timeout) * time.Millisecond
				assert.LessOrEqual(t, l.deadline, timeout*2/5, h.Name)
				assert.Less(t, l.scan+200*time.Millisecond, l.deadline, h.Name)
			}
		}
	}
	assert.Equal(t, 2, found)
}
