package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

func compareConfigPath(t *testing.T) {
	ws := t.TempDir()
	empty := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".gitleaks.toml"), nil, 0o600))
	cases := []struct {
		name, setting, cwd string
	}{
		{"workspace file", "", ws},
		{"no file", "", empty},
		{"no cwd", "", ""},
		{"relative setting", "conf/gl.toml", ws},
		{"absolute setting", "/etc/gl.toml", ws},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := settings.Default()
			s.GitleaksConfig = c.setting
			assert.Equal(t, secretguard.ConfigPath(s, c.cwd), configPath(s, c.cwd))
		})
	}
}
