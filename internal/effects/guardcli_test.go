package effects

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// writesOf are the paths cmd's last command writes, run in /w.
func writesOf(cmd string) []string {
	res := shell.Analyze(cmd, shell.Options{Dir: "/w", Home: testHome})
	var out []string
	for _, e := range Of(res.Execs[len(res.Execs)-1], testHome) {
		if e.Kind == Write && !e.Generic {
			out = append(out, e.Path)
		}
	}
	return out
}

// TestMountAndGuardCLIWrites: a mount point is written, and so is agy's
// hooks.json by gemini-guard agy install and uninstall.
func TestMountAndGuardCLIWrites(t *testing.T) {
	for cmd, want := range map[string][]string{
		"mount --bind /tmp/x ~/.gemini":                   {testHome + "/.gemini"},
		"mount -o bind,ro /tmp/x /w/.gemini":              {"/w/.gemini"},
		"bindfs --perms=a+rwx /tmp/x ~/.gemini":           {testHome + "/.gemini"},
		"mount":                                           nil,
		"mount -t proc":                                   nil,
		"gemini-guard agy uninstall":                      {testHome + "/.gemini/config/hooks.json"},
		"gemini-guard agy install --bin ./fakebin":        {testHome + "/.gemini/config/hooks.json"},
		"gemini-guard agy install -workspace /p":          {"/p/.agents/hooks.json"},
		"gemini-guard agy uninstall --workspace=sub":      {"/w/sub/.agents/hooks.json"},
		"gemini-guard agy status":                         nil,
		"gemini-guard doctor":                             nil,
		"gemini-guard check --explain 'gemini-guard agy'": nil,
		"echo uninstall | xargs gemini-guard agy":         {testHome + "/.gemini/config/hooks.json"},
		`emacs --batch --eval '(with-temp-file "~/.gemini/settings.json" (insert "{}"))'`: {testHome + "/.gemini/settings.json"},
		`emacs --batch --eval '(message "see a/b")'`:                                      nil,
	} {
		assert.Equal(t, want, writesOf(cmd), cmd)
	}
}

// TestCodexGuardCLIWrites: gemini-guard codex install and uninstall write
// Codex's hooks.json and the config.toml that keeps the hooks' trust.
func TestCodexGuardCLIWrites(t *testing.T) {
	for cmd, want := range map[string][]string{
		"gemini-guard codex uninstall":               {testHome + "/.codex/hooks.json", testHome + "/.codex/config.toml"},
		"gemini-guard codex install --bin ./fakebin": {testHome + "/.codex/hooks.json", testHome + "/.codex/config.toml"},
		"gemini-guard codex install --project":       {"/w/.codex/hooks.json", testHome + "/.codex/config.toml"},
		"gemini-guard codex uninstall -project=true": {"/w/.codex/hooks.json", testHome + "/.codex/config.toml"},
		"gemini-guard codex status":                  nil,
		"echo uninstall | xargs gemini-guard codex":  {testHome + "/.codex/hooks.json", testHome + "/.codex/config.toml"},
		"gemini-guard check 'gemini-guard codex'":    nil,
	} {
		assert.Equal(t, want, writesOf(cmd), cmd)
	}
}
