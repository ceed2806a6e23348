package hostcli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeCLI lays out Gemini CLI version v as npm does: the package with its
// script, and node_modules/.bin/gemini linking to the script.
func fakeCLI(t *testing.T, v string) (bin string) {
	t.Helper()
	root := t.TempDir()
	pkg := filepath.Join(root, "node_modules", "@google", "gemini-cli")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "bundle"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@google/gemini-cli","version":"`+v+`"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "bundle", "gemini.js"), []byte("//\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "node_modules", ".bin"), 0o755))
	bin = filepath.Join(root, "node_modules", ".bin", "gemini")
	require.NoError(t, os.Symlink("../@google/gemini-cli/bundle/gemini.js", bin))
	return bin
}

// A process whose arguments name Gemini CLI's script, by the .bin link or
// the script itself, runs that package's version; others run none.
func TestCLIVersionOfProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("read from /proc")
	}
	bin := fakeCLI(t, "0.30.0")
	script, err := filepath.EvalSymlinks(bin)
	require.NoError(t, err)
	for name, args := range map[string][]string{
		"bin link":      {"-c", "sleep 30; true", bin},
		"script":        {"-c", "sleep 30; true", script, "--yolo"},
		"not gemini":    {"-c", "sleep 30; true", "/usr/lib/node_modules/other/cli.js"},
		"no such thing": {"-c", "sleep 30; true", "/nonexistent/gemini.js"},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("bash", args...)
			require.NoError(t, cmd.Start())
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			// Start returns before the child's arguments are in place
			// (measured: /proc/<pid>/cmdline empty for a moment).
			require.Eventually(t, func() bool {
				data, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cmdline")
				return strings.Contains(string(data), "sleep 30")
			}, 10*time.Second, 5*time.Millisecond)
			want := ""
			if name == "bin link" || name == "script" {
				want = "0.30.0"
			}
			assert.Equal(t, want, cliVersionOfArgs(procfs{}.args(cmd.Process.Pid)))
			assert.Equal(t, os.Getpid(), procfs{}.parent(cmd.Process.Pid))
			// What macOS and the BSDs read, through ps.
			if _, err := exec.LookPath("ps"); err == nil {
				assert.Equal(t, want, versionUp(psTree{}, cmd.Process.Pid), "through ps")
				assert.Equal(t, os.Getpid(), psTree{}.parent(cmd.Process.Pid), "through ps")
			}
		})
	}
}

func TestBefore(t *testing.T) {
	for _, c := range []struct {
		v, min     string
		before, ok bool
	}{
		{"0.41.2", "0.42.0", true, true},
		{"0.42.0", "0.42.0", false, true},
		{"0.61.0", "0.42.0", false, true},
		{"0.9.9", "0.42.0", true, true},
		{"1.0.0", "0.42.0", false, true},
		{"0.42.0-preview.1", "0.42.0", false, true},
		{"0.41.0-nightly.20260401", "0.42.0", true, true},
		{"", "0.42.0", false, false},
		{"0.42", "0.42.0", false, false},
		{"x.y.z", "0.42.0", false, false},
		{"0.-1.0", "0.42.0", false, false},
	} {
		before, ok := Before(c.v, c.min)
		assert.Equal(t, c.before, before, c.v)
		assert.Equal(t, c.ok, ok, c.v)
	}
}
