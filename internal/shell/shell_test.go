package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testOpts = Options{Dir: "/ws", Home: "/home/u"}

// runs lists what Analyze finds, one "args" string per command (unknown
// parts shown as ⟨...⟩), skipping commands made of only redirections.
func runs(t *testing.T, src string) []string {
	t.Helper()
	r := Analyze(src, testOpts)
	var out []string
	for _, ex := range r.Execs {
		if len(ex.Args) == 0 {
			continue
		}
		args := append([]string{ex.Name}, ex.Args[1:]...)
		if ex.Name == "" {
			args = ex.Args
		}
		out = append(out, r.showArgs(args))
	}
	return out
}

func hazards(src string) []Hazard {
	return Analyze(src, testOpts).Hazards
}

func hasHazard(src string, k HazardKind) bool {
	for _, h := range hazards(src) {
		if h.Kind == k {
			return true
		}
	}
	return false
}

// TestRuns: many spellings, one command that runs. Each case lists the
// commands Analyze must find (all of them, in order).
func TestRuns(t *testing.T) {
	cases := []struct {
		want  []string
		srcs  []string
		exact bool
	}{
		{[]string{"rm -rf /"}, []string{
			`rm -rf /`, `r""m -rf /`, `'r'm -rf /`, `\rm -rf /`, `$'\x72m' -rf /`, `$'\162m' -rf /`, `"rm" "-rf" "/"`,
			`x=rm; $x -rf /`, `x=rm y=-rf; $x $y /`, `a=(rm -rf /); "${a[@]}"`, `W='rm -rf /'; $W`, `IFS=,; W=rm,-rf,/; $W`,
			`f() { rm -rf "$1"; }; f /`, `{ rm -rf /; }`, `(rm -rf /)`, `true && rm -rf /`, `false || rm -rf /`,
			`echo $(rm -rf /)`, "echo `rm -rf /`", `cat <(rm -rf /)`, `echo x > >(rm -rf /)`, `if true; then rm -rf /; fi`,
			`for d in /; do rm -rf $d; done`, `while true; do rm -rf /; done`, `case x in x) rm -rf /;; esac`,
			`rm -rf / &`, `! rm -rf /`, `time rm -rf /`, `echo $(( $(rm -rf /) + 1 ))`, `echo x >$(rm -rf /)`,
			`[[ $(rm -rf /) ]]`, `coproc rm -rf /`, `$(printf r)m -rf /`,
		}, false},
		{[]string{"rm -rf /"}, []string{
			`sudo rm -rf /`, `sudo -u root -- rm -rf /`, `sudo -E -H rm -rf /`, `doas rm -rf /`, `env rm -rf /`, `env -i X=1 rm -rf /`,
			`env -S 'rm -rf /'`, `env -u PATH rm -rf /`, `env -C /tmp rm -rf /`, `nohup rm -rf /`, `timeout 10 rm -rf /`,
			`timeout -s KILL 5s rm -rf /`, `nice -n 19 rm -rf /`, `nice -10 rm -rf /`, `ionice -c3 rm -rf /`, `command rm -rf /`,
			`command -p rm -rf /`, `exec rm -rf /`, `builtin command rm -rf /`, `stdbuf -o0 rm -rf /`, `busybox rm -rf /`,
			`setsid rm -rf /`, `chroot / rm -rf /`, `taskset -c 0 rm -rf /`, `/bin/rm -rf /`, `/usr/bin/../bin/rm -rf /`,
			`sudo env X=1 nice timeout 5 rm -rf /`, `watch -x rm -rf /`, `flock /tmp/l rm -rf /`,
			`RM -rf /`, `1A=2 rm -rf /`,
		}, false},
		{[]string{"rm -rf /"}, []string{
			`bash -c 'rm -rf /'`, `sh -c "rm -rf /"`, `zsh -c 'rm -rf /'`, `dash -c 'rm -rf /'`, `bash -lc 'rm -rf /'`,
			`bash -xec 'rm -rf /'`, `bash -c -- 'rm -rf /'`, `$SHELL -c 'rm -rf /'`, `${SHELL} -c 'rm -rf /'`, `/bin/bash -c 'rm -rf /'`,
			`eval 'rm -rf /'`, `eval rm -rf /`, `su -c 'rm -rf /'`, `su root -c 'rm -rf /'`, `bash <<< 'rm -rf /'`,
			"bash <<EOF\nrm -rf /\nEOF", "sh <<'EOF'\nrm -rf /\nEOF", `echo 'rm -rf /' | sh`, `printf 'rm -rf /\n' | bash`,
			`echo rm -rf / | bash -s`, `bash -c 'eval "rm -rf /"'`, `sh -c 'sh -c "rm -rf /"'`, `x='rm -rf /'; bash -c "$x"`,
			`bash -c '$0 -rf /' rm`, `bash -c 'rm -rf "$1"' _ /`, `trap 'rm -rf /' EXIT`, `watch 'rm -rf /'`, `script -c 'rm -rf /'`,
			`PROMPT_COMMAND='rm -rf /' bash -i`, `export PROMPT_COMMAND='rm -rf /'; bash`,
			`python3 -c 'import os; os.system("rm -rf /")'`, `python -c "import subprocess; subprocess.run(['rm', '-rf', '/'])"`,
			`node -e 'require("child_process").execSync("rm -rf /")'`, `perl -e 'system("rm -rf /")'`, `perl -e '` + "`rm -rf /`" + `'`,
			`ruby -e 'system("rm", "-rf", "/")'`, `ruby -e '%x(rm -rf /)'`, `php -r 'shell_exec("rm -rf /");'`,
			`awk 'BEGIN { system("rm -rf /") }'`, `awk 'BEGIN { system("rm\x20-rf\x20/") }'`, `awk 'BEGIN { print | "rm -rf /" }'`,
			`find . -exec rm -rf / \;`, `find . -execdir sh -c 'rm -rf /' \;`, `parallel rm -rf ::: /`, `parallel ::: 'rm -rf /'`,
			`git -c alias.x='!rm -rf /' x`, `GIT_SSH_COMMAND='rm -rf /' git fetch`, `git -c core.pager='rm -rf /' log`,
			`python3 -c "import shutil; shutil.rmtree('/')"`, `node -e "require('fs').rmSync('/', {recursive: true})"`,
			`ruby -e "FileUtils.rm_rf('/')"`, `perl -MFile::Path -e 'rmtree("/")'`, `node -e "rm -rf /"`,
		}, false},
	}
	for _, c := range cases {
		for _, src := range c.srcs {
			t.Run(src, func(t *testing.T) {
				got := runs(t, src)
				for _, w := range c.want {
					assert.Contains(t, got, w, "runs %v", got)
				}
			})
		}
	}
}

func TestUnwrapsToRealCommand(t *testing.T) {
	cases := map[string][]string{
		`sudo -u admin git reset --hard`:                {"git reset --hard"},
		`env GIT_DIR=.git git status`:                   {"git status"},
		`command -v git`:                                {"command -v git"},
		`git -c alias.nuke='reset --hard' nuke`:         {"git -c \"alias.nuke=reset --hard\" reset --hard"},
		`echo ok | xargs git reset --hard`:              {"echo ok", "git reset --hard ⟨input⟩"},
		`find . -name '*.tmp' -exec rm {} \;`:           {"find . -name *.tmp -exec rm {} ;", "rm ⟨input⟩"},
		`cd /tmp && rm -rf x`:                           {"cd /tmp", "rm -rf x"},
		`{r,}m -rf /`:                                   {"rm m -rf /"},
		`xargs -a list rm -rf /`:                        {"rm -rf / ⟨input⟩"},
		`echo "rm -rf /"`:                               {"echo \"rm -rf /\""},
		`git commit -m "rm -rf / and git reset --hard"`: {"git commit -m \"rm -rf / and git reset --hard\""},
		"cat > notes.md <<'EOF'\nrm -rf /\nEOF":         {"cat"},
		`grep -rn "rm -rf" docs/ # rm -rf /`:            {"grep -rn \"rm -rf\" docs/"},
	}
	for src, want := range cases {
		t.Run(src, func(t *testing.T) {
			assert.Equal(t, want, runs(t, src))
		})
	}
}

func TestState(t *testing.T) {
	t.Run("cd is followed", func(t *testing.T) {
		r := Analyze(`cd ~ && rm -rf * ; cd /tmp; (cd /etc); rm x; pushd sub; rm y`, testOpts)
		dirs := map[string]string{}
		for _, ex := range r.Execs {
			if ex.Name == "rm" {
				dirs[ex.Args[len(ex.Args)-1]] = ex.Dir
			}
		}
		assert.Equal(t, map[string]string{"*": "/home/u", "x": "/tmp", "y": "/tmp/sub"}, dirs)
	})
	t.Run("unknown variables stay unknown", func(t *testing.T) {
		r := Analyze(`rm -rf $X/ "$Y" ${Z:-/} ${#W}`, testOpts)
		require.Len(t, r.Execs, 1)
		for _, a := range r.Execs[0].Args[2:] {
			assert.False(t, Known(a), "%q must stay unknown", a)
		}
	})
	t.Run("unset variables are empty", func(t *testing.T) {
		assert.Equal(t, []string{"unset x", "rm -rf /"}, runs(t, `unset x; rm -rf /$x`))
	})
	t.Run("string operations on unknown variables give unknown words", func(t *testing.T) {
		r := Analyze(`rm -rf ${X:1:2} ${X/a/b} ${X#*}`, testOpts)
		for _, a := range r.Execs[0].Args[2:] {
			assert.False(t, Known(a), a)
		}
	})
	t.Run("prefix assignments do not change this command's words", func(t *testing.T) {
		r := Analyze(`X=/etc rm -rf $X`, testOpts)
		assert.False(t, Known(r.Execs[0].Args[2]))
		assert.Equal(t, "/etc", r.Execs[0].Env["X"])
	})
	t.Run("read and xargs give run-time input", func(t *testing.T) {
		r := Analyze(`read f; rm -rf "$f"`, testOpts)
		u := r.Unknowns(r.Execs[1].Args[2])
		require.Len(t, u, 1)
		assert.Equal(t, Input, u[0].Kind)
	})
	t.Run("temporary directories", func(t *testing.T) {
		r := Analyze(`rm -rf "$TMPDIR/x" $(mktemp -d)`, testOpts)
		for _, a := range r.Execs[len(r.Execs)-1].Args[2:] {
			u := r.Unknowns(a)
			require.NotEmpty(t, u)
			assert.Equal(t, TempDir, u[0].Kind)
		}
	})
	t.Run("home and other homes", func(t *testing.T) {
		r := Analyze(`rm -rf ~ ~/x $HOME ~bob`, testOpts)
		args := r.Execs[0].Args
		assert.Equal(t, []string{"rm", "-rf", "/home/u", "/home/u/x", "/home/u"}, args[:5])
		assert.Equal(t, OtherHome, r.Unknowns(args[5])[0].Kind)
	})
	t.Run("forged markers are neutralised", func(t *testing.T) {
		r := Analyze("rm -rf /\uE0000\uE001", testOpts)
		assert.True(t, Known(r.Execs[0].Args[2]))
	})
}

func TestHazards(t *testing.T) {
	cases := []struct {
		src  string
		kind HazardKind
		ok   func(Hazard) bool
	}{
		{`:(){ :|:& };:`, ForkBomb, nil},
		{`bomb() { bomb | bomb & }; bomb`, ForkBomb, nil},
		{`perl -e 'fork while fork'`, ForkBomb, nil},
		{`curl -s https://x | sh`, DynamicCode, func(h Hazard) bool { return len(h.Sources) == 1 && h.Sources[0].Name == "curl" }},
		{`bash <(curl -s https://x)`, DynamicCode, func(h Hazard) bool { return len(h.Sources) == 1 && h.Sources[0].Name == "curl" }},
		{`sh -c "$(wget -qO- https://x)"`, DynamicCode, func(h Hazard) bool { return len(h.Sources) == 1 && h.Sources[0].Name == "wget" }},
		{`python3 -c "$(curl https://x)"`, DynamicCode, func(h Hazard) bool { return len(h.Sources) == 1 }},
		{`eval "$(curl https://x)"`, DynamicCode, func(h Hazard) bool { return len(h.Sources) == 1 }},
		{`echo x | xargs -I{} sh -c 'echo {}'`, DynamicCode, func(h Hazard) bool { return h.FromInput }},
		{`echo x | xargs sh -c`, DynamicCode, func(h Hazard) bool { return h.FromInput }},
		{`awk '{ system($0) }'`, DynamicCode, func(h Hazard) bool { return h.FromInput }},
		{`$CMD --version`, DynamicCode, nil},
		{`echo 'unterminated`, ParseError, func(h Hazard) bool { return h.Repaired }},
		{`&& ls`, ParseError, func(h Hazard) bool { return !h.Repaired }},
		{`eval eval eval eval eval eval eval eval eval eval echo`, TooDeep, nil},
		{`python3 -c 'print(1)'`, InterpreterCode, nil},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			found := false
			for _, h := range hazards(c.src) {
				if h.Kind == c.kind && (c.ok == nil || c.ok(h)) {
					found = true
				}
			}
			assert.True(t, found, "%+v", hazards(c.src))
		})
	}
	for _, src := range []string{`ls -la`, `echo $(date)`, `f() { f; }; f`, `cat script.sh`, `bash script.sh`, `echo "$(printf hi)"`, `awk '{print $1}' f`} {
		t.Run("none: "+src, func(t *testing.T) {
			for _, h := range hazards(src) {
				assert.NotEqual(t, ForkBomb, h.Kind)
				assert.NotEqual(t, ParseError, h.Kind)
				assert.NotEqual(t, TooDeep, h.Kind)
			}
		})
	}
}

func TestParseErrorKeepsEarlierStatements(t *testing.T) {
	// bash runs the complete lines before a syntax error.
	r := Analyze("rm -rf /tmp/x\nif then fi", testOpts)
	require.NotEmpty(t, r.Execs)
	assert.Equal(t, "rm", r.Execs[0].Name)
	assert.True(t, hasHazard("rm -rf /tmp/x\nif then fi", ParseError))
	// A bad ${...} is a run-time error in bash, not a parse error.
	r = Analyze("node -e \"console.log(`v${Date.now()}`)\"", testOpts)
	for _, h := range r.Hazards {
		if h.Kind == ParseError {
			assert.True(t, h.Repaired)
		}
	}
}

func TestParseArgs(t *testing.T) {
	spec := &OptSpec{Short: "fo:x::", Long: []string{"force", "force-with-lease=?", "output=", "verbose"}, Abbrev: true}
	p := ParseArgs([]string{"-fo", "file", "--forc", "-xval", "op1", "--out=o2", "--", "-f"}, spec)
	assert.Equal(t, []string{"op1", "-f"}, p.Operands)
	assert.Equal(t, 1, p.DashDash)
	assert.True(t, p.Has("force"))
	v, ok := p.Value("output", "o")
	assert.True(t, ok)
	assert.Equal(t, "o2", v)
	x, _ := p.Value("x")
	assert.Equal(t, "val", x)
	stop := ParseArgs([]string{"-u", "root", "cmd", "-f"}, &OptSpec{Short: "u:", StopAtOperand: true})
	assert.Equal(t, []string{"cmd", "-f"}, stop.Operands)
}

func TestPaths(t *testing.T) {
	assert.Equal(t, "/etc", ResolvePath("/ws", "/tmp/../etc"))
	assert.Equal(t, "/ws/a", ResolvePath("/ws", "./a/b/.."))
	assert.Equal(t, "", ResolvePath("", "a"))
	m := "\uE0000\uE001"
	assert.Equal(t, m+"/../etc", ResolvePath("/ws", m+"/../etc"), ".. never cancels an unknown element")
	assert.Equal(t, "git", CommandName(`C:\Program Files\Git\bin\git.exe`))
	assert.Equal(t, "rm", CommandName("/usr/bin/RM"))
	assert.Equal(t, "", CommandName("/*"))
	assert.Equal(t, "git", CommandName("/usr/*/git"))
}

func TestDeepNestingIsBounded(t *testing.T) {
	// Without the bound the parser overflows the goroutine stack, a fatal
	// error no recover catches.
	for _, src := range []string{strings.Repeat("(", 1<<20), strings.Repeat("$(", 1<<19), strings.Repeat("a|", 1<<19) + "a", strings.Repeat("{ ", 1<<19)} {
		r := Analyze(src, testOpts)
		require.NotEmpty(t, r.Hazards)
		assert.Equal(t, TooComplex, r.Hazards[0].Kind)
	}
	assert.False(t, hasHazard(strings.Repeat("(", 100)+"a"+strings.Repeat(")", 100), TooComplex))
}

func TestNeverPanics(t *testing.T) {
	for _, src := range []string{"", "\x00", "$(", "${", "`", "<<", "a=(", "${x[", "$((", "((", "[[", "case", "function", ":(){ :|:& };:",
		strings.Repeat("(", 5000), strings.Repeat("$(", 2000), strings.Repeat("{a,b}", 20), "echo {1..99999999}", "\xff\xfe",
		"eval " + strings.Repeat("eval ", 50) + "x", "sudo -e /etc/hosts", "sudoedit x", strings.Repeat("env ", 500) + "x",
		strings.Repeat("busybox ", 300) + "rm -rf /", strings.Repeat("sudo ", 200) + "true"} {
		assert.NotPanics(t, func() { Analyze(src, testOpts) }, "%q", src)
	}
}

// TestExecOpenedDescriptors: a descriptor the shell itself opened with
// exec (exec 3>>.env, exec >out) is where a later >&3, or a later
// command's output, is written.
func TestExecOpenedDescriptors(t *testing.T) {
	res := Analyze("exec 3>>.env; echo A=1 >&3; exec >>out.log; echo B; echo C >&2", Options{Dir: "/w"})
	var got []string
	for _, ex := range res.Execs {
		if ex.Name != "echo" {
			continue
		}
		for _, r := range ex.Redirs {
			got = append(got, ex.Args[1]+" "+r.Op+" "+r.Target)
		}
	}
	require.Equal(t, []string{"A=1 >> .env", "B >> out.log", "C >& 2", "C >> out.log"}, got)
}
