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

	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
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
	require.NoError(r.t, provenance.Touch(r.provDir(), r.session, r.dir, []string{r.path(rel)}))
	r.write(rel, content)
	require.NoError(r.t, provenance.Left(r.provDir(), r.session))
}

// shell asks the shell hook about command in the repository and returns
// its decision and reason; an allowed command is run (with bash) and
// AfterTool's hash taken, as Gemini CLI would.
func (r *ownRepo) shell(command string) (string, string) {
	r.t.Helper()
	in, _ := json.Marshal(map[string]any{
		"session_id": r.session, "cwd": r.dir, "hook_event_name": "BeforeTool",
		"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command},
	})
	var out bytes.Buffer
	assert.Zero(r.t, shellguard.Run(bytes.NewReader(in), &out, hookEnv(map[string]string{"XDG_STATE_HOME": r.state})))
	a := decode(r.t, out.Bytes())
	if a.Decision != "deny" {
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir = r.dir
		b, err := cmd.CombinedOutput()
		require.NoError(r.t, err, "%s: %s", command, b)
		require.NoError(r.t, provenance.Left(r.provDir(), r.session))
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
