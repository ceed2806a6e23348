package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// sharedQwen stages the extension for Qwen Code once per test binary.
var sharedQwen = sync.OnceValues(func() (*Session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := bundle.FindRoot(".")
	if err != nil {
		return nil, err
	}
	return NewQwen(ctx, root, filepath.Join(testDir, "qwen"))
})

// qwenSession is a fresh Qwen Code user with gemini-guard installed.
func qwenSession(t *testing.T) *Session {
	t.Helper()
	skipUnlessPinned(t)
	tmpl, err := sharedQwen()
	require.NoError(t, err, "the Qwen Code harness could not start the real Qwen Code")
	s, err := tmpl.Clone(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func runQwen(t *testing.T, s *Session, script ...Response) *QwenResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	r, err := s.RunQwen(ctx, "", script)
	require.NoError(t, err)
	return r
}

// qwenToolResults are the tool results of a run's -o json output, in order.
func qwenToolResults(t *testing.T, r *QwenResult) []qwenToolResult {
	t.Helper()
	var msgs []struct {
		Type    string `json:"type"`
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &msgs), "qwen -o json output: %s\nstderr: %s", scrub(r.Stdout), scrub(r.Stderr))
	var out []qwenToolResult
	for _, m := range msgs {
		if m.Type != "user" {
			continue
		}
		var parts []qwenToolResult
		if json.Unmarshal(m.Message.Content, &parts) != nil {
			continue
		}
		for _, p := range parts {
			if p.Type == "tool_result" {
				out = append(out, p)
			}
		}
	}
	return out
}

type qwenToolResult struct {
	Type    string `json:"type"`
	IsError bool   `json:"is_error"`
	Content string `json:"content"`
}

// assertQwenBlocked checks that the run's only tool call was refused by
// gemini-guard's rule.
func assertQwenBlocked(t *testing.T, r *QwenResult, rule string) {
	t.Helper()
	results := qwenToolResults(t, r)
	require.Len(t, results, 1, "one tool call; stderr: %s", scrub(r.Stderr))
	assert.True(t, results[0].IsError, "the call was not refused: %s", scrub(results[0].Content))
	assert.Contains(t, results[0].Content, "gemini-guard blocked "+rule)
}

func qwenEdit(text, path, oldString, newString string) Response {
	return Tool(text, "edit", map[string]any{"file_path": path, "old_string": oldString, "new_string": newString})
}

func qwenShell(text, command string) Response {
	return Tool(text, "run_shell_command", map[string]any{"command": command, "description": text, "is_background": false})
}

// warmScanner runs the session-start hook of the extension in extDir as
// the session's CLI would, and waits until the scanner daemon it starts
// listens (in the session's XDG_RUNTIME_DIR, its HOME).
func warmScanner(t *testing.T, s *Session, extDir string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(extDir, "bin", "gemini-guard"), "session-start")
	cmd.Dir = s.Workspace
	cmd.Env = s.env()
	cmd.Stdin = strings.NewReader(`{"session_id":"warm","cwd":` + strconv.Quote(s.Workspace) + `,"hook_event_name":"SessionStart","source":"startup"}`)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Eventually(t, func() bool {
		socks, _ := filepath.Glob(filepath.Join(s.Runtime, "gemini-guard", "scan-*.sock"))
		return len(socks) > 0
	}, 2*time.Minute, 20*time.Millisecond, "session-start started no scanner daemon")
}

// Qwen Code's tools want absolute paths.
func abs(s *Session, name string) string { return filepath.Join(s.Workspace, name) }

func TestQwenWriteFileWithTokenIsBlocked(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	token := GitHubToken(11)
	r := runQwen(t, s,
		WriteFile("I'll save the token in the config.", abs(s, "config.py"), "GITHUB_TOKEN = \""+token+"\"\n"),
		Say("I could not write the file."),
	)
	assertQwenBlocked(t, r, "github-pat")
	assertNotCreated(t, r, "config.py", "config.py was created")
	assert.NotContains(t, qwenToolResults(t, r)[0].Content, token, "the reason holds the secret")
}

func TestQwenEditAddingKeyIsBlocked(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	unchanged := workspaceFile(t, s, "settings.py", "AWS_REGION = \"eu-west-1\"\n")
	key := AWSAccessKeyID(12)
	r := runQwen(t, s,
		// Qwen Code reads a file before it edits it.
		Tool("Reading it first.", "read_file", map[string]any{"file_path": abs(s, "settings.py")}),
		qwenEdit("I'll add the access key.", abs(s, "settings.py"), `AWS_REGION = "eu-west-1"`,
			"AWS_REGION = \"eu-west-1\"\nAWS_ACCESS_KEY_ID = \""+key+"\""),
		Say("The edit was blocked."),
	)
	results := qwenToolResults(t, r)
	require.Len(t, results, 2, "stderr: %s", scrub(r.Stderr))
	assert.True(t, results[1].IsError)
	assert.Contains(t, results[1].Content, "gemini-guard blocked aws-access-token")
	unchanged(r)
}

func TestQwenGitResetHardIsBlocked(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	kept := uncommittedWork(t, s)
	r := runQwen(t, s,
		qwenShell("I'll discard the local changes.", "cd repo && git reset --hard"),
		Say("That was blocked."),
	)
	assertQwenBlocked(t, r, "git.reset-hard")
	kept(r)
}

func TestQwenHarmlessWorkRuns(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	writeWorkspaceFile(t, s, "main.go", helloGo)
	r := runQwen(t, s,
		WriteFile("Writing the notes.", abs(s, "NOTES.md"), "# Notes\n\nRun `go run .`.\n"),
		qwenShell("Listing the files.", "ls -1 > listing.txt"),
		Say("Done."),
	)
	results := qwenToolResults(t, r)
	require.Len(t, results, 2, "stderr: %s", scrub(r.Stderr))
	for _, res := range results {
		assert.False(t, res.IsError, "a harmless call was refused: %s", res.Content)
	}
	notes, ok := r.ReadFile("NOTES.md")
	assert.True(t, ok && strings.HasPrefix(notes, "# Notes"), "NOTES.md: %q", notes)
	listing, _ := r.ReadFile("listing.txt")
	assert.Contains(t, listing, "main.go")
}

func TestQwenTokenInToolOutputIsNotShownToTheModel(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	// The scripted model asks for the first tool call at once, so its
	// PostToolUse scan came while the daemon session start launched was
	// still starting: on a loaded machine (parallel tests each starting
	// their own) starting it, then a one-shot scan, ran past the hook's
	// deadline, and the output was withheld instead of redacted. A user's
	// first tool output comes seconds into a session; this test checks
	// redaction, so it starts with the daemon up.
	warmScanner(t, s, s.QwenExtensionDir())
	token := GitHubToken(13)
	writeWorkspaceFile(t, s, "deploy.log", "REGION=eu\nusing GITHUB_TOKEN="+token+"\n")
	r := runQwen(t, s,
		Tool("Reading the deploy settings.", "read_file", map[string]any{"file_path": abs(s, "deploy.log")}),
		qwenShell("And printing them.", "cat deploy.log"),
		Say("I read the settings."),
	)
	results := qwenToolResults(t, r)
	require.Len(t, results, 2, "stderr: %s", scrub(r.Stderr))
	for _, res := range results {
		assert.Contains(t, res.Content, "[REDACTED:github-pat]", "the result the model read")
		assert.Contains(t, res.Content, "REGION=eu", "the rest of the output is kept")
	}
	assert.NotContains(t, r.Sent, token, "the model was sent the token")
	assert.Contains(t, r.Sent, "[REDACTED:github-pat]")
}

func TestQwenSessionStartSaysWhatIsNotProtected(t *testing.T) {
	t.Parallel()
	s := qwenSession(t)
	r := runQwen(t, s, Say("Hello."))
	// Qwen Code hands SessionStart's additionalContext to the model.
	assert.Contains(t, r.Sent, "streamed answer is NOT redacted")
	assert.Contains(t, r.Sent, "no policy wall")
}
