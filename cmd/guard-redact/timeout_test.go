package main

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	scan "github.com/gemini-guard/gemini-guard/internal/scanner"
)

// TestScanTimeoutFitsTheHook: a scan ends before Gemini CLI gives up on the
// AfterModel hook (which would show the chunk unredacted), and leaves room
// to wait for a new daemon.
func TestScanTimeoutFitsTheHook(t *testing.T) {
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
	found := false
	for _, event := range []string{"AfterModel", "AfterTool", "BeforeModel"} {
		for _, m := range cfg.Hooks[event] {
			for _, h := range m.Hooks {
				found = true
				assert.Less(t, scanTimeout+500*time.Millisecond, time.Duration(h.Timeout)*time.Millisecond, h.Name)
			}
		}
	}
	assert.True(t, found)
	assert.Greater(t, scanTimeout, scan.StartTimeout)
}
