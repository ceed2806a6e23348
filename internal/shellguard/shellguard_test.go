package shellguard

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func TestSettings(t *testing.T) {
	workspace, home := testDirs(t)
	decide := func(cmd string, mod func(*settings.Settings)) verdict.Verdict {
		s := settings.Default()
		if mod != nil {
			mod(&s)
		}
		return Decide(Input{Command: cmd, Cwd: workspace, Home: home, Settings: s})
	}
	t.Run("strict denies what cannot be known", func(t *testing.T) {
		for _, cmd := range []string{`rm -rf "$X"`, `$(cat cmd) --help`, `eval "$CMD"`, `rm -r /data/old`, `echo 'unterminated`, `python3 -c 'print(1)'`} {
			assert.Equal(t, verdict.Allow, decide(cmd, nil).Action, "standard: %s", cmd)
			assert.Equal(t, verdict.Deny, decide(cmd, func(s *settings.Settings) { s.Mode = settings.Strict }).Action, "strict: %s", cmd)
		}
	})
	t.Run("warn mode decides like standard", func(t *testing.T) {
		v := decide(`git reset --hard`, func(s *settings.Settings) { s.Mode = settings.WarnOnly })
		assert.Equal(t, verdict.Deny, v.Action)
		assert.Equal(t, verdict.Allow, decide(`rm -rf "$X"`, func(s *settings.Settings) { s.Mode = settings.WarnOnly }).Action)
	})
	t.Run("disabled rules", func(t *testing.T) {
		v := decide(`git push --force`, func(s *settings.Settings) { s.DisabledRules = []string{"git.push-force"} })
		assert.Equal(t, verdict.Allow, v.Action)
		v = decide(`git push --force && git reset --hard`, func(s *settings.Settings) { s.DisabledRules = []string{"git.push-force"} })
		assert.Equal(t, "git.reset-hard", v.RuleID)
	})
	t.Run("protected paths", func(t *testing.T) {
		mod := func(s *settings.Settings) { s.ProtectedPaths = []string{"data", "~/keep", "/srv/www"} }
		for _, cmd := range []string{`rm -rf data`, `rm -rf data/x`, `rm -rf ~/keep`, `rm -rf /srv/www/site`, `chmod -R 777 data`} {
			v := decide(cmd, mod)
			assert.Equal(t, verdict.Deny, v.Action, cmd)
		}
		assert.Equal(t, verdict.Allow, decide(`rm -rf build`, mod).Action)
	})
	t.Run("trusted delete roots", func(t *testing.T) {
		mod := func(s *settings.Settings) { s.TrustedDeleteRoots = []string{"~/.cache", "/data/scratch", "/"} }
		assert.Equal(t, verdict.Allow, decide(`rm -rf ~/.cache/pip`, mod).Action)
		assert.Equal(t, verdict.Allow, decide(`rm -rf /data/scratch/run-1`, mod).Action)
		assert.Equal(t, verdict.Deny, decide(`rm -rf ~/.cache/pip`, nil).Action)
		assert.Equal(t, verdict.Deny, decide(`rm -rf /data/other`, mod).Action, `"/" is never a trusted root`)
	})
	t.Run("dir_path", func(t *testing.T) {
		in := Input{Command: `rm -rf ..`, Dir: "sub", Cwd: workspace, Home: home}
		assert.Equal(t, verdict.Deny, Decide(in).Action, "deletes the workspace")
		in = Input{Command: `rm -rf *`, Dir: filepath.Join(workspace, "build"), Cwd: workspace, Home: home}
		assert.Equal(t, verdict.Allow, Decide(in).Action)
		in = Input{Command: `rm -rf *`, Dir: "~", Cwd: workspace, Home: home}
		assert.Equal(t, "fs.rm-home", Decide(in).RuleID)
	})
	t.Run("unknown workspace fails closed", func(t *testing.T) {
		v := Decide(Input{Command: `rm -rf build`, Home: home})
		assert.Equal(t, verdict.Allow, v.Action, "relative to an unknown directory: cannot be placed, strict only")
		v = Decide(Input{Command: `rm -rf /data/x`, Home: home})
		assert.Equal(t, verdict.Deny, v.Action)
	})
	t.Run("oversized command", func(t *testing.T) {
		v := decide(strings.Repeat("echo hi; ", MaxCommand/8), nil)
		assert.Equal(t, "shell.too-complex", v.RuleID)
	})
}

func TestExplain(t *testing.T) {
	workspace, home := testDirs(t)
	v, lines := Explain(Input{Command: `sudo env X=1 bash -c 'cd ~ && r""m -rf *'; echo "$(rm -rf $Y)"`, Cwd: workspace, Home: home})
	require.Equal(t, verdict.Deny, v.Action)
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"nested bash -c: cd ~ && r\"\"m -rf *",
		"run: rm -rf *   (via sudo > env > bash -c)   in " + home,
		"run: rm -rf ⟨$Y⟩",
		"deny fs.rm-home",
		"allowed in standard mode, denied in strict mode: fs.rm-outside-workspace",
		"decision: deny (fs.rm-home)",
	} {
		assert.Contains(t, text, want)
	}
	_, lines = Explain(Input{Command: `ls`, Cwd: workspace, Home: home})
	assert.Equal(t, "decision: allow", lines[len(lines)-1])
}

func TestMask(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Ab1x", 9)
	aws := "AKIA" + strings.Repeat("Q7", 8)
	long := strings.Repeat("aZ9", 12)
	for _, s := range []string{tok, aws, long} {
		got := Mask("curl -H 'x: " + s + "' https://x")
		assert.NotContains(t, got, s)
		assert.Contains(t, got, "chars)")
	}
	pw := "hunter2hunter2"
	assert.NotContains(t, Mask("mysql --password="+pw+" db"), pw)
	assert.NotContains(t, Mask("curl -H 'Authorization: Bearer "+pw+"'"), pw)
	plain := "rm -rf /home/user/projects/some-long-directory-name/build"
	assert.Equal(t, plain, Mask(plain))
}

// testDirs makes a fresh workspace and a separate home.
func testDirs(t testing.TB) (workspace, home string) { return testdirs.New(t) }
