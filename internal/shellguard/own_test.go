package shellguard_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// ownRepo is a git work tree with three committed files, the session's
// private state directory, and the agent's and the user's hands on it.
type ownRepo struct {
	t       *testing.T
	dir     string
	state   string
	session string
}

func newOwnRepo(t *testing.T) *ownRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &ownRepo{t: t, dir: t.TempDir(), state: t.TempDir(), session: "own-session"}
	r.write("notes.txt", "first line\n")
	r.write("main.go", "package main\n")
	r.write("lib/util.go", "package lib\n")
	r.git("init", "-q")
	r.git("add", ".")
	r.git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "start")
	return r
}

func (r *ownRepo) path(rel string) string { return filepath.Join(r.dir, rel) }

func (r *ownRepo) write(rel, content string) {
	r.t.Helper()
	require.NoError(r.t, os.MkdirAll(filepath.Dir(r.path(rel)), 0o755))
	require.NoError(r.t, os.WriteFile(r.path(rel), []byte(content), 0o644))
}

func (r *ownRepo) read(rel string) string {
	r.t.Helper()
	b, err := os.ReadFile(r.path(rel))
	require.NoError(r.t, err)
	return string(b)
}

func (r *ownRepo) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	require.NoError(r.t, err, "git %v: %s", args, out)
}

func (r *ownRepo) provDir() string { return filepath.Join(r.state, "gemini-guard", "provenance") }

// agentWrites is what write_file or replace does under the hooks: the
// secrets guard's BeforeTool touch, the write, AfterTool's hash.
func (r *ownRepo) agentWrites(rel, content string) {
	r.t.Helper()
	call := provenance.CallOf("write_file", []byte(`{"file_path":"`+rel+`"}`), r.dir)
	require.NoError(r.t, provenance.Touch(r.provDir(), r.session, r.dir, call, []string{r.path(rel)}))
	r.write(rel, content)
	require.NoError(r.t, provenance.Left(r.provDir(), r.session, call))
}

// shell asks the shell hook about command in the repository and returns
// its decision and reason; an allowed command is run (with bash) and
// AfterTool's hash taken, as Gemini CLI would.
func (r *ownRepo) shell(command string) (string, string) {
	r.t.Helper()
	toolInput, _ := json.Marshal(map[string]any{"command": command})
	in, _ := json.Marshal(map[string]any{
		"session_id": r.session, "cwd": r.dir, "hook_event_name": "BeforeTool",
		"tool_name": "run_shell_command", "tool_input": json.RawMessage(toolInput),
	})
	var out bytes.Buffer
	assert.Zero(r.t, shellguard.Run(bytes.NewReader(in), &out, hookEnv(map[string]string{"XDG_STATE_HOME": r.state})))
	a := decode(r.t, out.Bytes())
	if a.Decision != "deny" {
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir = r.dir
		b, err := cmd.CombinedOutput()
		require.NoError(r.t, err, "%s: %s", command, b)
		require.NoError(r.t, provenance.Left(r.provDir(), r.session, provenance.CallOf("run_shell_command", toolInput, r.dir)))
	}
	return a.Decision, a.Reason
}

func TestOwnDiscardForms(t *testing.T) {
	for _, command := range []string{
		`git checkout notes.txt`, `git checkout -- notes.txt`, `git checkout HEAD -- notes.txt`,
		`git restore notes.txt`, `git restore --worktree notes.txt`, `git restore --staged --worktree notes.txt`,
		`git restore --source=HEAD notes.txt`, `git checkout .`, `git checkout -- .`, `git restore .`,
		`git reset --hard`, `git reset --hard HEAD`, `cd lib && git checkout ../notes.txt`,
		`git status && git checkout notes.txt`,
	} {
		t.Run(command, func(t *testing.T) {
			r := newOwnRepo(t)
			r.agentWrites("notes.txt", "the agent's line\n")
			d, reason := r.shell(command)
			assert.NotEqual(t, "deny", d, reason)
			assert.Equal(t, "first line\n", r.read("notes.txt"))
		})
	}
}

func TestOwnDiscardShellEdit(t *testing.T) {
	r := newOwnRepo(t)
	d, reason := r.shell(`sed -i 's/first/second/' notes.txt`)
	require.NotEqual(t, "deny", d, reason)
	require.Equal(t, "second line\n", r.read("notes.txt"))
	d, reason = r.shell(`echo more >> lib/util.go`)
	require.NotEqual(t, "deny", d, reason)
	d, reason = r.shell(`git checkout -- notes.txt lib/util.go`)
	assert.NotEqual(t, "deny", d, reason)
	assert.Equal(t, "first line\n", r.read("notes.txt"))
	assert.Equal(t, "package lib\n", r.read("lib/util.go"))

	// A second round after the discard starts afresh.
	r.agentWrites("notes.txt", "again\n")
	d, reason = r.shell(`git restore notes.txt`)
	assert.NotEqual(t, "deny", d, reason)
}

func TestOwnDiscardDenied(t *testing.T) {
	cases := []struct {
		name, command, why string
		setup              func(r *ownRepo)
	}{
		{"no record", `git checkout notes.txt`, "holds changes the agent did not make", func(r *ownRepo) {
			r.agentWrites("main.go", "package main // agent\n")
			r.write("notes.txt", "the user's line\n")
		}},
		{"user edited first", `git checkout notes.txt`, "held uncommitted changes before the agent first touched it", func(r *ownRepo) {
			r.write("notes.txt", "the user's line\n")
			r.agentWrites("notes.txt", "the user's line\nand the agent's\n")
		}},
		{"user edited after", `git checkout notes.txt`, "changed by someone else after the agent last wrote it", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("notes.txt", "the agent's line\nthe user's line\n")
		}},
		{"user edited between two agent edits", `git checkout notes.txt`, "changed by someone else after the agent's edit", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("notes.txt", "the user's line\n")
			r.agentWrites("notes.txt", "the user's line\nthe agent's again\n")
		}},
		{"one of two files", `git checkout .`, "main.go holds changes the agent did not make", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("main.go", "package main // the user's\n")
		}},
		{"reset with another file", `git reset --hard`, "main.go", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("main.go", "package main // the user's\n")
		}},
		{"reset loses a file the user added", `git reset --hard`, "added.txt", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("added.txt", "the user's new file\n")
			r.git("add", "added.txt")
		}},
		{"staged before, checkout from HEAD", `git checkout HEAD -- notes.txt`, "held staged changes", func(r *ownRepo) {
			r.write("notes.txt", "staged by the user\n")
			r.git("add", "notes.txt")
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"damaged record", `git checkout notes.txt`, "notes.txt holds changes the agent did not make", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			entries, err := os.ReadDir(r.provDir())
			require.NoError(t, err)
			for _, e := range entries {
				if !strings.HasPrefix(e.Name(), ".") {
					require.NoError(t, os.WriteFile(filepath.Join(r.provDir(), e.Name()), []byte(`{"v":1,"files":{"notes.txt"`), 0o600))
				}
			}
		}},
		{"another session's record", `git checkout notes.txt`, "notes.txt holds changes the agent did not make", func(r *ownRepo) {
			r.session = "other-session"
			r.agentWrites("notes.txt", "the agent's line\n")
			r.session = "own-session"
		}},
		{"a write that never ran, then the user's edit", `git checkout notes.txt`, "last write is not known", func(r *ownRepo) {
			// The replace is recorded at BeforeTool but denied by another
			// hook (or declined); the user then edits the file; another
			// tool's AfterTool must not take the user's content for the
			// agent's.
			call := provenance.CallOf("replace", []byte(`{"file_path":"notes.txt"}`), r.dir)
			require.NoError(t, provenance.Touch(r.provDir(), r.session, r.dir, call, []string{r.path("notes.txt")}))
			r.write("notes.txt", "the user's line\n")
			require.NoError(t, provenance.Left(r.provDir(), r.session, provenance.CallOf("run_shell_command", []byte(`{"command":"ls"}`), r.dir)))
		}},
		{"no record, nothing changed", `git checkout .`, "", func(r *ownRepo) {}},
		{"outside the workspace", `git checkout ../elsewhere.txt`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"git pointed elsewhere", `git -C lib checkout util.go`, "", func(r *ownRepo) {
			r.agentWrites("lib/util.go", "package lib // agent\n")
		}},
		{"glob pathspec", `git checkout '*.txt'`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"stash pop first", `git stash pop && git checkout .`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"symlink", `git checkout link.txt`, "symbolic link", func(r *ownRepo) {
			require.NoError(t, os.Symlink("notes.txt", r.path("link.txt")))
			r.git("add", "link.txt")
			r.git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "link")
			require.NoError(t, os.Remove(r.path("link.txt")))
			require.NoError(t, os.Symlink("main.go", r.path("link.txt")))
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"submodule", `git checkout -- .`, "sub", func(r *ownRepo) {
			sub := newOwnRepo(t)
			r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "sub")
			r.git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "sub")
			require.NoError(t, os.WriteFile(filepath.Join(r.dir, "sub", "notes.txt"), []byte("the user's work in the submodule\n"), 0o644))
			r.agentWrites("notes.txt", "the agent's line\n")
		}},
		{"not created by the agent", `git clean -f scratch.txt`, "not created by the agent", func(r *ownRepo) {
			r.write("scratch.txt", "the user's scratch\n")
			r.agentWrites("scratch.txt", "the agent's line\n")
		}},
		{"created then changed by the user", `git clean -f new.txt`, "changed by someone else", func(r *ownRepo) {
			r.agentWrites("new.txt", "the agent's file\n")
			r.write("new.txt", "the user's now\n")
		}},
		{"clean of everything", `git clean -f`, "", func(r *ownRepo) {
			r.agentWrites("new.txt", "the agent's file\n")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newOwnRepo(t)
			c.setup(r)
			d, reason := r.shell(c.command)
			assert.Equal(t, "deny", d)
			assert.Contains(t, reason, c.why)
		})
	}
}

func TestOwnCreatedFilesDeleted(t *testing.T) {
	r := newOwnRepo(t)
	r.agentWrites("new.txt", "the agent's file\n")
	d, reason := r.shell(`echo scratch > lib/tmp.txt`)
	require.NotEqual(t, "deny", d, reason)
	d, reason = r.shell(`git clean -f new.txt lib/tmp.txt`)
	assert.NotEqual(t, "deny", d, reason)
	assert.NoFileExists(t, r.path("new.txt"))
	assert.NoFileExists(t, r.path("lib/tmp.txt"))
}

func TestOwnStashDrop(t *testing.T) {
	commit := func(r *ownRepo, args ...string) {
		r.git(append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
	}
	t.Run("the agent's own stash", func(t *testing.T) {
		r := newOwnRepo(t)
		r.agentWrites("notes.txt", "the agent's line\n")
		r.agentWrites("lib/util.go", "package lib // agent\n")
		commit(r, "stash", "-q")
		for _, command := range []string{`git stash drop`} {
			d, reason := r.shell(command)
			assert.NotEqual(t, "deny", d, reason)
		}
	})
	t.Run("a named entry", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("main.go", "package main // the user's\n")
		commit(r, "stash", "-q")
		r.agentWrites("notes.txt", "the agent's line\n")
		commit(r, "stash", "-q")
		d, reason := r.shell(`git stash drop stash@{1}`)
		assert.Equal(t, "deny", d)
		assert.Contains(t, reason, "main.go holds changes the agent did not make")
		d, reason = r.shell(`git stash drop -q stash@{0}`)
		assert.NotEqual(t, "deny", d, reason)
	})
	for _, c := range []struct {
		name, command, why string
		setup              func(r *ownRepo)
	}{
		{"the user's stash", `git stash drop`, "notes.txt holds changes the agent did not make", func(r *ownRepo) {
			r.write("notes.txt", "the user's line\n")
			commit(r, "stash", "-q")
		}},
		{"changed after the agent", `git stash drop`, "notes.txt was changed by someone else after the agent last wrote it", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("notes.txt", "the agent's line\nthe user's line\n")
			commit(r, "stash", "-q")
		}},
		{"untracked files in the stash", `git stash drop`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.write("scratch.txt", "the user's scratch\n")
			commit(r, "stash", "-q", "-u")
		}},
		{"staged changes in the stash", `git stash drop`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			r.git("add", "notes.txt")
			commit(r, "stash", "-q")
		}},
		{"clear", `git stash clear`, "", func(r *ownRepo) {
			r.agentWrites("notes.txt", "the agent's line\n")
			commit(r, "stash", "-q")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newOwnRepo(t)
			c.setup(r)
			d, reason := r.shell(c.command)
			assert.Equal(t, "deny", d)
			assert.Contains(t, reason, c.why)
		})
	}
}

// TestOwnDecidePure judges each command form with facts the input's
// OwnFacts gives when a discard rule asks, as the hook gathers them:
// Decide reads no file and runs no git itself, and judges once.
func TestOwnDecidePure(t *testing.T) {
	const ws = "/work/project"
	ownFile := policy.OwnFile{Recorded: true, Clean: true, Left: "h1", Now: "h1"}
	// facts answers every discard with notes.txt changed, as f says, and
	// the extra changes after it.
	facts := func(f policy.OwnFile, extra ...policy.Changed) func(policy.Discard) *policy.Own {
		return func(d policy.Discard) *policy.Own {
			own := &policy.Own{Scopes: map[string][]policy.Changed{}, Files: map[string]policy.OwnFile{}}
			c := policy.Changed{Path: ws + "/notes.txt", X: ' ', Y: 'M'}
			g := f
			if d.Untracked {
				c.X, c.Y = '?', '?'
				g.Created = true
			}
			own.Scopes[d.Key()] = append([]policy.Changed{c}, extra...)
			own.Files[c.Path] = g
			return own
		}
	}
	judged := []string{
		`git checkout notes.txt`, `git checkout -- notes.txt`, `git checkout HEAD -- notes.txt`, `git checkout main notes.txt`,
		`git checkout .`, `git restore notes.txt`, `git restore --worktree notes.txt`, `git restore -SW notes.txt`,
		`git restore --source=HEAD~1 notes.txt`, `git restore .`, `git reset --hard`, `git reset --hard HEAD`,
		`git stash drop`, `git stash drop stash@{2}`, `git stash drop 1`, `git clean -f notes.txt`, `git clean -fd notes.txt`,
		`cd lib && git checkout ../notes.txt`, `git status; git checkout notes.txt`, `GIT CHECKOUT -- notes.txt`,
	}
	for _, command := range judged {
		t.Run(command, func(t *testing.T) {
			in := shellguard.Input{Command: command, Cwd: ws}
			assert.Equal(t, verdict.Deny, shellguard.Decide(in).Action, "no facts: today's deny")
			asked := 0
			in.OwnFacts = func(policy.Discard) *policy.Own { asked++; return nil }
			assert.Equal(t, verdict.Deny, shellguard.Decide(in).Action, "nothing found out: today's deny")
			assert.NotZero(t, asked, "the rule asks for the discard's facts")
			in.OwnFacts = facts(ownFile)
			assert.Equal(t, verdict.Allow, shellguard.Decide(in).Action)
			for why, f := range map[string]policy.OwnFile{
				"holds changes the agent did not make":         {},
				"changed by someone else after the agent's":    {Recorded: true, Clean: true, Foreign: true, Left: "h1", Now: "h1"},
				"changed by someone else after the agent last": {Recorded: true, Clean: true, Left: "h1", Now: "h2"},
				"last write is not known":                      {Recorded: true, Clean: true, Now: "h1"},
				"is a symbolic link":                           {Unsafe: "is a symbolic link"},
			} {
				in.OwnFacts = facts(f)
				v := shellguard.Decide(in)
				assert.Equal(t, verdict.Deny, v.Action, why)
				assert.Contains(t, v.What, "; notes.txt ", why)
				assert.Contains(t, v.What, why)
			}
		})
	}
	notJudged := []string{
		`git checkout -f main`, `git checkout --ours notes.txt`, `git checkout -p notes.txt`, `git restore -p notes.txt`,
		`git restore --pathspec-from-file=list`, `git reset --hard HEAD~1`, `git reset --merge`, `git clean -f`, `git clean -fdx`,
		`git stash clear`, `git stash drop stash@{x}`, `git -C other checkout notes.txt`, `GIT_DIR=x git checkout notes.txt`,
		`git checkout '*.txt'`, `git checkout ':(glob)*.txt'`, `git checkout ../outside.txt`, `git checkout .git/config`,
		`git stash pop && git checkout .`, `sed -i s/a/b/ notes.txt; git checkout notes.txt`, `git checkout $F`,
		`git switch --discard-changes main`, `git rm -f notes.txt`,
	}
	for _, command := range notJudged {
		t.Run(command, func(t *testing.T) {
			in := shellguard.Input{Command: command, Cwd: ws}
			without := shellguard.Decide(in).Action
			in.OwnFacts = facts(ownFile)
			assert.Equal(t, without, shellguard.Decide(in).Action, "the agent's own facts do not make it pass")
		})
	}
	t.Run("staged before", func(t *testing.T) {
		f := ownFile
		f.Staged = true
		in := shellguard.Input{Command: `git checkout notes.txt`, Cwd: ws, OwnFacts: facts(f)}
		assert.Equal(t, verdict.Allow, shellguard.Decide(in).Action, "the index is kept")
		in = shellguard.Input{Command: `git checkout HEAD -- notes.txt`, Cwd: ws, OwnFacts: facts(f)}
		assert.Contains(t, shellguard.Decide(in).What, "held staged changes")
	})
	t.Run("untracked kept, staged kept", func(t *testing.T) {
		in := shellguard.Input{Command: `git checkout .`, Cwd: ws,
			OwnFacts: facts(ownFile, policy.Changed{Path: ws + "/user.txt", X: '?', Y: '?'}, policy.Changed{Path: ws + "/staged.txt", X: 'M', Y: ' '})}
		assert.Equal(t, verdict.Allow, shellguard.Decide(in).Action)
		in = shellguard.Input{Command: `git reset --hard`, Cwd: ws, OwnFacts: facts(ownFile, policy.Changed{Path: ws + "/staged.txt", X: 'M', Y: ' '})}
		assert.Contains(t, shellguard.Decide(in).What, "staged.txt holds changes the agent did not make")
	})
}
