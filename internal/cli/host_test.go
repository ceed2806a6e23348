package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBelowFloorSaysWhatIsNotProtected(t *testing.T) {
	cases := []struct {
		out  string
		want string // "" when nothing is missing
	}{
		{"0.61.0", ""},
		{"0.32.1\n", ""},
		{"1.0.0", ""},
		{"0.31.0", "no policy wall"},
		{"0.28.2", "no policy wall"},
		{"0.25.0", "hooks are off by default"},
		{"0.22.4", "NOT hidden from the model"},
		{"0.20.2", "NOTHING is protected"},
	}
	for _, c := range cases {
		major, minor, ok := parseCLIVersion(c.out)
		assert.True(t, ok, c.out)
		got := belowFloor(major, minor)
		if c.want == "" {
			assert.Empty(t, got, c.out)
		} else {
			assert.Contains(t, got, c.want, c.out)
		}
	}
	_, _, ok := parseCLIVersion("command not found")
	assert.False(t, ok)
}

func TestDoctorTellsHooksSwitchedOff(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".gemini")
	assert.NoError(t, os.MkdirAll(dir, 0o755))
	assert.NoError(t, os.WriteFile(filepath.Join(dir, "settings.json"),
		[]byte(`{"hooksConfig":{"enabled":false,"disabled":["gemini-guard-shell","someone-else"]}}`), 0o644))
	d := &doctorRun{getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	d.checkHooksEnabled()
	if assert.Len(t, d.checks, 1) {
		c := d.checks[0]
		assert.Equal(t, statusWarn, c.Status)
		assert.Contains(t, c.Detail, "NOTHING is checked")
		assert.Contains(t, c.Detail, "gemini-guard-shell")
		assert.NotContains(t, c.Detail, "someone-else")
	}

	d = &doctorRun{getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}}
	d.checkHooksEnabled()
	assert.Equal(t, statusOK, d.checks[0].Status)
}
