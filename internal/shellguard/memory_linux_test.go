//go:build linux

package shellguard_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// expansionBombs are short commands whose expansion squares at each step
// (issue #25: 330 bytes took the shell hook to 1.8 GB and the secrets
// hook to 6 GB, both 1-6 s past their deadlines). a stays within what a
// variable may hold (64 KiB); the next step would be gigabytes. Those that
// pass the analysis' budgets are denied as too complex; the others it
// reads within them (a loop is followed once, ${!n//...} is not expanded).
var expansionBombs = map[string]struct {
	command string
	denied  bool
}{
	"squared": {`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; w=${z//?/$z}; v=${w//?/$w}; echo $v $v $v`, true},
	"squared past the value limit": {`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; b=${a//?/$a}; c=${b//?/$b}; echo "$b$c" > out.txt; cat <<EOF
$b $c
EOF`, true},
	"many copies":           {`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; for i in {1..4000}; do echo $a$a$a$a$a$a$a$a$a$a$a$a$a$a; done`, false},
	"indirect":              {`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; n=a; b=${!n//?/${!n}}; echo $b`, false},
	"copies in one command": {`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; echo ` + strings.Repeat("$a$a$a$a$a$a$a$a$a$a$a$a$a$a ", 200), true},
}

// peakRSSCeiling is the most a hook process may hold on an expansion bomb:
// the analysis stops at its budgets (internal/shell/budget.go) long before
// the watchdog's hook.MemoryCeiling.
const peakRSSCeiling = 64 << 20

// TestExpansionBombsAsProcesses runs guard-shell and guard-secrets as
// Gemini CLI does on each bomb: each answers within its deadline, the
// shell guard denies, and neither holds more than peakRSSCeiling.
func TestExpansionBombsAsProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	dir := t.TempDir()
	for name, pkg := range map[string]string{"guard-shell": "../../cmd/guard-shell", "guard-secrets": "../../cmd/guard-secrets", "rss": "../../tools/bench/rss"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	home := filepath.Join(dir, "home")
	require.NoError(t, os.MkdirAll(home, 0o700))
	for name, bomb := range expansionBombs {
		bomb := bomb
		for _, c := range []struct {
			bin      string
			deadline time.Duration
		}{{"guard-shell", hook.ShellDeadline}, {"guard-secrets", hook.SecretsDeadline}} {
			t.Run(name+"/"+c.bin, func(t *testing.T) {
				// Started by the small rss program, which reports the
				// peak: Go starts children with vfork, and Linux counts
				// the parent's memory in the child's ru_maxrss up to
				// exec, so measured from here every hook showed this
				// test process's size (65.6 MiB in CI, over the ceiling).
				cmd := exec.Command(filepath.Join(dir, "rss"), "bash", "-c", "'"+filepath.Join(dir, c.bin)+"'")
				cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + home}
				cmd.Stdin = bytes.NewReader(call(bomb.command, nil))
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				kill := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
				defer kill.Stop()
				start := time.Now()
				require.NoError(t, cmd.Run(), "exit 0; stderr: %s", stderr.String())
				took := time.Since(start)
				a := decode(t, stdout.Bytes())
				peak := maxRSS(t, stderr.String())
				t.Logf("%s: %q in %v, peak RSS %.1f MiB", c.bin, a.Decision, took.Round(time.Millisecond), float64(peak)/(1<<20))
				assert.Less(t, took, c.deadline, "answered within its deadline")
				assert.Less(t, peak, int64(peakRSSCeiling), "peak RSS")
				if c.bin == "guard-shell" && bomb.denied {
					assert.Equal(t, "deny", a.Decision)
					assert.Contains(t, a.Reason, "shell.too-complex")
				}
				assert.NotEqual(t, "ask", a.Decision)
			})
		}
	}
}

// maxRSS is the peak resident size, in bytes, that tools/bench/rss printed
// as the last line of stderr ("maxrss_kb=<n>").
func maxRSS(t *testing.T, stderr string) int64 {
	t.Helper()
	i := strings.LastIndex(stderr, "maxrss_kb=")
	require.GreaterOrEqual(t, i, 0, "no maxrss_kb line in stderr: %s", stderr)
	kb, err := strconv.ParseInt(strings.TrimSpace(stderr[i+len("maxrss_kb="):]), 10, 64)
	require.NoError(t, err)
	return kb << 10
}
