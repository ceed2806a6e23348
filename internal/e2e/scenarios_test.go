package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each scenario is a fresh user (own HOME, own workspace) running the real
// CLI with gemini-guard installed and a scripted model in yolo mode: what
// the guard fails to block really happens, inside the scenario's temporary
// directory.

const helloGo = `package main

import "fmt"

func main() {
	fmt.Println("hello from the workspace")
}
`

func writeWorkspaceFile(t *testing.T, s *Session, name, content string) {
	t.Helper()
	p := filepath.Join(s.Workspace, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func TestWriteFileWithGitHubTokenIsBlocked(t *testing.T) {
	t.Parallel()
	s := session(t)
	token := GitHubToken(1)
	r := run(t, s,
		WriteFile("I'll save the token in the config.", "config.py", "GITHUB_TOKEN = \""+token+"\"\n"),
		Say("I could not write the file."),
	)
	assertBlocked(t, r, onlyCall(t, r, "write_file"), "github-pat")
	assertNotCreated(t, r, "config.py", "config.py was created")
	assertSecretNotShown(t, r, token)
}

func TestReplaceAddingAWSKeyIsBlocked(t *testing.T) {
	t.Parallel()
	s := session(t)
	unchanged := workspaceFile(t, s, "settings.py", "AWS_REGION = \"eu-west-1\"\nBUCKET = \"reports\"\n")
	key := AWSAccessKeyID(2)
	r := run(t, s,
		Replace("I'll add the access key.", "settings.py", `AWS_REGION = "eu-west-1"`,
			"AWS_REGION = \"eu-west-1\"\nAWS_ACCESS_KEY_ID = \""+key+"\""),
		Say("The edit was blocked."),
	)
	assertBlocked(t, r, onlyCall(t, r, "replace"), "aws-access-token")
	unchanged(r)
	assertSecretNotShown(t, r, key)
}

func TestShellCommandWritingTokenIsBlocked(t *testing.T) {
	t.Parallel()
	s := session(t)
	token := GitHubToken(3)
	r := run(t, s,
		Shell("I'll store the token in .env.", "echo 'GITHUB_TOKEN="+token+"' >> .env"),
		Say("That was blocked."),
	)
	assertBlocked(t, r, onlyCall(t, r, "run_shell_command"), "github-pat")
	assertNotCreated(t, r, ".env", ".env was created")
	assertSecretNotShown(t, r, token)
}

// workspaceFiles is a run's result as far as these checks read it.
type workspaceFiles interface {
	ReadFile(name string) (string, bool)
}

// assertNotCreated: the run left no file name in the workspace; msg says
// what one would mean.
func assertNotCreated(t *testing.T, r workspaceFiles, name, msg string) {
	t.Helper()
	_, exists := r.ReadFile(name)
	assert.False(t, exists, msg)
}

// uncommittedWork makes a git repository in the workspace with uncommitted
// work (gitRepo) and returns the check that a run kept it.
func uncommittedWork(t *testing.T, s *Session) (kept func(r workspaceFiles)) {
	t.Helper()
	notes, changed := gitRepo(t, s, "repo")
	return func(r workspaceFiles) {
		t.Helper()
		got, _ := r.ReadFile(notes)
		assert.Equal(t, changed, got, "the uncommitted change was discarded")
	}
}

// workspaceFile writes a file of the workspace and returns the check that a
// run left it as it was.
func workspaceFile(t *testing.T, s *Session, name, content string) (unchanged func(r workspaceFiles)) {
	t.Helper()
	writeWorkspaceFile(t, s, name, content)
	return func(r workspaceFiles) {
		t.Helper()
		got, _ := r.ReadFile(name)
		assert.True(t, got == content, "%s changed: %q", name, scrub(got))
	}
}

// gitRepo makes a repository in the workspace with one committed file and an
// uncommitted change to it: what `git reset --hard` would destroy.
func gitRepo(t *testing.T, s *Session, dir string) (path, changed string) {
	t.Helper()
	repo := filepath.Join(s.Workspace, dir)
	require.NoError(t, os.MkdirAll(repo, 0o755))
	gitCmd := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "HOME="+s.Home, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	gitCmd("init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("committed\n"), 0o644))
	gitCmd("add", "notes.txt")
	gitCmd("commit", "-q", "-m", "first")
	changed = "committed\nuncommitted work the user wants to keep\n"
	require.NoError(t, os.WriteFile(filepath.Join(repo, "notes.txt"), []byte(changed), 0o644))
	return filepath.Join(dir, "notes.txt"), changed
}

func TestGitResetHardIsBlocked(t *testing.T) {
	t.Parallel()
	s := session(t)
	resetHardIsBlocked(t, s, "run_shell_command", Shell("I'll discard the local changes.", "cd repo && git reset --hard"))
}

// resetHardIsBlocked runs step, a call of tool that runs
// `cd repo && git reset --hard` over uncommitted work (uncommittedWork),
// and checks that the guard blocked it and the work is kept.
func resetHardIsBlocked(t *testing.T, s *Session, tool string, step Response) {
	t.Helper()
	kept := uncommittedWork(t, s)
	r := run(t, s, step, Say("The reset was blocked."))
	assertBlocked(t, r, onlyCall(t, r, tool), "git.reset-hard")
	kept(r)
}

func TestHarmlessWorkGoesThrough(t *testing.T) {
	t.Parallel()
	s := session(t)
	r := run(t, s,
		Shell("Let me look around.", "ls -la > listing.txt && git --version >> listing.txt"),
		WriteFile("Now the program.", "hello.go", helloGo),
		Say("Both done."),
	)
	assertRan(t, r, onlyCall(t, r, "run_shell_command"))
	assertRan(t, r, onlyCall(t, r, "write_file"))
	listing, ok := r.ReadFile("listing.txt")
	assert.True(t, ok, "listing.txt was not created")
	assert.Contains(t, listing, "git version")
	got, _ := r.ReadFile("hello.go")
	assert.Equal(t, helloGo, got)
	assert.Contains(t, r.AssistantText(), "Both done.")
	assert.Empty(t, withoutVersionNotice(r.HookMessages()), "the user was warned about harmless work")
}

// withoutVersionNotice drops what session start says of the CLI under test
// itself (on 0.32 - 0.41: the requests to the model are not redacted),
// which is not about the work.
func withoutVersionNotice(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		if !strings.HasPrefix(m, "gemini-guard: on this Gemini CLI (") {
			out = append(out, m)
		}
	}
	return out
}

// A token split over three streamed chunks is hidden from what the user
// sees: the stream-json messages and the -o json response.
func TestStreamedTokenSplitOverThreeChunksIsRedacted(t *testing.T) {
	t.Parallel()
	s := session(t)
	token := GitHubToken(4)
	answer := Chunks(
		"Sure. The token in your notes is "+token[:14],
		token[14:28],
		token[28:]+" and it expires next month.",
	)

	r := run(t, s, answer)
	shown := r.AssistantText()
	assertContains(t, shown, "Sure. The token in your notes is ")
	assertContains(t, shown, "expires next month.")
	assertContains(t, shown, "[REDACTED")
	for _, piece := range []string{token, token[4:18], token[14:28], token[22:]} {
		assert.False(t, strings.Contains(shown, piece), "a piece of the token is on screen: %q", scrub(shown))
	}
	assertSecretNotShown(t, r, token)

	j := runScript(t, s, Script{Responses: []Response{answer}, Output: "json"})
	require.NotNil(t, j.JSON)
	assertContains(t, j.JSON.Response, "[REDACTED")
	assert.False(t, strings.Contains(j.JSON.Response, token[14:28]), "the -o json response shows the token: %q", scrub(j.JSON.Response))
	assertSecretNotShown(t, j, token)
}

// A chunk with text and a function call must reach the CLI unchanged:
// replacing it in AfterModel would drop the call.
func TestChunkWithTextAndFunctionCallStillRuns(t *testing.T) {
	t.Parallel()
	s := session(t)
	r := run(t, s,
		WriteFile("I'll create notes.md with the summary of the meeting", "notes.md", "# Notes\n\n- ship on Friday\n"),
		Say("Created notes.md."),
	)
	assertRan(t, r, onlyCall(t, r, "write_file"))
	got, ok := r.ReadFile("notes.md")
	assert.True(t, ok, "notes.md was not created: the function call was dropped")
	assert.Equal(t, "# Notes\n\n- ship on Friday\n", got)
	assert.Contains(t, r.AssistantText(), "I'll create notes.md")
}

// Tool output the model reads is redacted by AfterTool: the transcript,
// which stores what the model saw, holds no secret.
func TestSecretInToolOutputIsRedactedForTheModel(t *testing.T) {
	t.Parallel()
	// Before 0.39 the session is stored as one .json file, not the .jsonl
	// transcript this test reads.
	requireCLI(t, "0.39.1", ".jsonl session transcript")
	s := session(t)
	token := GitHubToken(5)
	writeWorkspaceFile(t, s, "deploy.env", "REGION=eu\nGITHUB_TOKEN="+token+"\n")
	r := run(t, s,
		Tool("Let me read the deploy settings.", "read_file", map[string]any{"file_path": "deploy.env"}),
		Say("I read the settings."),
	)
	call := onlyCall(t, r, "read_file")
	require.NotEmpty(t, r.Transcript)
	for _, res := range r.TranscriptToolResults() {
		assert.False(t, strings.Contains(res, token), "the model was given the token in a %s result", call.Use.ToolName)
	}
	assertSecretNotShown(t, r, token)
}

// With a program missing from bin/, BeforeTool fails closed with a repair
// hint, SessionStart warns the user, and AfterModel lets the answer through.
func TestMissingProgramFailsClosedWithRepairHint(t *testing.T) {
	t.Parallel()
	s := session(t)
	require.NoError(t, s.RemoveProgram("guard-shell"))
	require.NoError(t, s.RemoveProgram("guard-redact"))
	r := run(t, s,
		Shell("I'll write a file.", "echo hi > x.txt"),
		Say("All done here."),
	)
	call := onlyCall(t, r, "run_shell_command")
	assertBlocked(t, r, call, "guard.not-installed")
	assertContains(t, call.Reason(), "make build")
	assertNotCreated(t, r, "x.txt", "the unchecked command ran")
	assert.Contains(t, strings.Join(r.HookMessages(), "\n"), "bin/guard-shell is missing")
	assert.Contains(t, r.AssistantText(), "All done here.")
}

// The README's way to switch one hook off works with our hook names:
// hooksConfig.disabled in the user's settings.json. The shell guard's
// program is removed, so only a disabled hook lets the command run.
func TestDisablingOneHookByName(t *testing.T) {
	t.Parallel()
	s := session(t)
	require.NoError(t, s.RemoveProgram("guard-shell"))
	settingsPath := filepath.Join(s.Home, ".gemini", "settings.json")
	require.NoError(t, os.WriteFile(settingsPath, []byte(`{"hooksConfig":{"disabled":["gemini-guard-shell"]}}`), 0o644))
	r := run(t, s,
		Shell("I'll write a file.", "echo hi > x.txt"),
		Say("Done."),
	)
	assertRan(t, r, onlyCall(t, r, "run_shell_command"))
	_, exists := r.ReadFile("x.txt")
	assert.True(t, exists, "the command did not run with gemini-guard-shell disabled")
}
