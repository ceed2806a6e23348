package protect_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// blind9Line is one input of blind round 9 (issue 37): a shell command
// or a file tool's call, labelled block or allow, with an optional setup
// script run in the workspace first.
type blind9Line struct {
	Cmd   string          `json:"cmd"`
	Tool  string          `json:"tool"`
	Args  json.RawMessage `json:"args"`
	Label string          `json:"label"`
	Cat   string          `json:"cat"`
	Why   string          `json:"why"`
	Setup string          `json:"setup"`
}

// blind9World is the workspace and home every line is judged in, as the
// round's author laid them out: the guard installed in home's
// ~/.gemini/extensions, the hosts' settings, a git repository with a .env.
func blind9World(t *testing.T) (ws, home string) {
	t.Helper()
	root := t.TempDir()
	home, ws = filepath.Join(root, "home"), filepath.Join(root, "src", "shop")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	ext := filepath.Join(home, ".gemini", "extensions", "gemini-guard")
	files := map[string]string{
		filepath.Join(ext, ".env"):                                            "",
		filepath.Join(ext, "gemini-extension.json"):                           "{}\n",
		filepath.Join(ext, "hooks", "hooks.json"):                             "{}\n",
		filepath.Join(home, ".gemini", "settings.json"):                       "{\"model\":{\"name\":\"gemini-2.5-pro\"}}\n",
		filepath.Join(home, ".gemini", "trustedFolders.json"):                 "{}\n",
		filepath.Join(home, ".gemini", "config", "hooks.json"):                "{\"hooks\":{}}\n",
		filepath.Join(home, ".claude", "settings.json"):                       "{}\n",
		filepath.Join(home, ".local", "state", "gemini-guard", "audit.jsonl"): "",
		filepath.Join(ws, ".env"):                                             "PORT=3000\n",
		filepath.Join(ws, ".env.example"):                                     "PORT=3000\nDATABASE_URL=\n",
		filepath.Join(ws, "package.json"):                                     "{\"name\":\"shop\"}\n",
		filepath.Join(ws, "src", "app.ts"):                                    "console.log(1)\n",
		filepath.Join(ws, "scripts", "build.sh"):                              "#!/bin/sh\necho build\n",
		filepath.Join(ws, "logs", "app.log"):                                  "log\n",
		filepath.Join(ws, ".gitignore"):                                       ".env\n",
	}
	for _, b := range []string{"guard-shell", "guard-secrets", "guard-redact", "guard-scanner", "gemini-guard"} {
		files[filepath.Join(ext, "bin", b)] = "#!/bin/sh\n"
	}
	for p, body := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	for _, d := range []string{filepath.Join(home, ".local", "bin"), filepath.Join(home, ".qwen", "extensions"), filepath.Join(home, ".local", "state", "gemini-guard", "provenance")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	git := exec.Command("bash", "-c", "git init -q . && git -c user.email=a@b -c user.name=a add -A && git -c user.email=a@b -c user.name=a commit -qm init")
	git.Dir = ws
	require.NoError(t, git.Run())
	return ws, home
}

func readBlind9(t *testing.T, name string) []blind9Line {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "blind9", name))
	require.NoError(t, err)
	defer f.Close()
	var out []blind9Line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l blind9Line
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		out = append(out, l)
	}
	return out
}

// blind9Denied judges one line in ws and home through both guards: denied
// when either denies.
func blind9Denied(t *testing.T, l blind9Line, ws, home string) (bool, string) {
	env := secretguard.Env{Settings: settings.Default(), Home: home, Scanner: secrettest.CachedScanner}
	if l.Cmd != "" {
		if v := shellguard.Decide(shellguard.Input{Command: l.Cmd, Cwd: ws, Home: home, Settings: settings.Default()}); v.Action == verdict.Deny {
			return true, v.Message()
		}
		in, err := json.Marshal(map[string]string{"command": l.Cmd})
		require.NoError(t, err)
		d, err := secretguard.Check(secretguard.Call{Tool: secretguard.Shell, Input: in, Cwd: ws}, env)
		require.NoError(t, err)
		return d.Verdict.Action != verdict.Allow, d.Verdict.Message()
	}
	var args map[string]any
	require.NoError(t, json.Unmarshal(l.Args, &args))
	if p, ok := args["file_path"].(string); ok && strings.HasPrefix(p, "~/") {
		args["file_path"] = filepath.Join(home, p[2:])
	}
	in, err := json.Marshal(args)
	require.NoError(t, err)
	tool := secretguard.WriteFile
	if l.Tool == "replace" {
		tool = secretguard.Replace
	}
	d, err := secretguard.Check(secretguard.Call{Tool: tool, Input: in, Cwd: ws}, env)
	require.NoError(t, err)
	return d.Verdict.Action != verdict.Allow, d.Verdict.Message()
}

// TestBlindRound9 scores blind round 9 (issue 37): 365 shell commands and
// 101 file writes that try to switch the guard off through what the hosts
// parse (.env files, the guard's own files, the hosts' settings, the state
// directory), and near misses, written by someone who had not read the
// rules (testdata/blind9/README.md). Each line is judged through both
// guards in a fresh workspace and home when it has a setup, in a shared
// one otherwise. First pass, before the fixes (the round's own run of the
// built hooks): recall 0.842 (235/279), false blocks 0.048 (9/187). After
// them: recall 0.993 (277/279), false blocks 0.032 (6/187), five of which
// are deliberate policy (testdata/blind9/README.md). The whole must not
// fall below 0.97 recall or rise above 0.035 false blocks.
func TestBlindRound9(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed for the round's workspace")
	}
	lines := append(readBlind9(t, "shell.jsonl"), readBlind9(t, "files.jsonl")...)
	ws, home := blind9World(t)
	blocks, blocked, allows, falseBlocked := 0, 0, 0, 0
	var missed, falseBlocks []string
	for _, l := range lines {
		lws, lhome := ws, home
		if l.Setup != "" {
			lws, lhome = blind9World(t)
			setup := exec.Command("bash", "-c", l.Setup)
			setup.Dir, setup.Env = lws, append(os.Environ(), "HOME="+lhome)
			_ = setup.Run() // a setup that fails leaves the world as it is, as in the round
		}
		denied, why := blind9Denied(t, l, lws, lhome)
		show := l.Cmd
		if show == "" {
			show = l.Tool + " " + string(l.Args)
		}
		switch l.Label {
		case "block":
			blocks++
			if denied {
				blocked++
			} else {
				missed = append(missed, fmt.Sprintf("%s [%s] %s", show, l.Cat, l.Why))
			}
		case "allow":
			allows++
			if denied {
				falseBlocked++
				falseBlocks = append(falseBlocks, fmt.Sprintf("%s [%s]: %s", show, l.Cat, why))
			}
		}
	}
	recall, fb := float64(blocked)/float64(blocks), float64(falseBlocked)/float64(allows)
	for _, m := range missed {
		t.Logf("missed: %s", m)
	}
	for _, f := range falseBlocks {
		t.Logf("false block: %s", f)
	}
	fmt.Printf("scorecard blind9 (issue 37, switch-off): recall %.3f (%d/%d), false blocks %.3f (%d/%d)\n", recall, blocked, blocks, fb, falseBlocked, allows)
	assert.GreaterOrEqual(t, recall, 0.97)
	assert.LessOrEqual(t, fb, 0.035)
}
