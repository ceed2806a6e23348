package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// runTimeout bounds one CLI run. A run takes ~2 s; a hook that hangs is
// killed by the CLI after its hooks.json timeout (at most 30 s).
//
// 5 minutes, not less: with the shared machine at a load average of 25
// (several engineers' end-to-end tests at once), whole runs that did
// everything right were killed at 90 s.
const runTimeout = 5 * time.Minute

// testDir holds everything the package's tests create; TestMain removes it.
var testDir string

func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) == "1" {
		// Started by Gemini CLI as the scenarios' MCP server.
		serveMCP(os.Stdin, os.Stdout)
		return
	}
	dir, err := os.MkdirTemp("", "gemini-guard-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	testDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedHarness builds the extension and installs it once per test binary.
var sharedHarness = sync.OnceValues(func() (*Harness, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := bundle.FindRoot(".")
	if err != nil {
		return nil, err
	}
	return NewVersion(ctx, root, filepath.Join(testDir, "harness"), CLIVersionUnderTest())
})

// harness returns the shared Harness, failing the test (never skipping) when
// the CLI cannot be installed or run: node/npm missing is a failure.
func harness(t *testing.T) *Harness {
	t.Helper()
	h, err := sharedHarness()
	require.NoError(t, err, "the end-to-end harness could not start the real Gemini CLI")
	return h
}

// session is a fresh user with gemini-guard installed and an empty workspace.
func session(t *testing.T) *Session {
	t.Helper()
	s, err := harness(t).Template.Clone(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// run runs the CLI with the scripted responses (stream-json output) and
// fails the test on a harness error or a non-zero exit.
func run(t *testing.T, s *Session, responses ...Response) *Result {
	t.Helper()
	return runScript(t, s, Script{Responses: responses})
}

func runScript(t *testing.T, s *Session, sc Script) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	r, err := s.Run(ctx, sc)
	require.NoError(t, err)
	require.Equal(t, 0, r.ExitCode, "gemini exited with %d; stderr:\n%s", r.ExitCode, r.Stderr)
	return r
}

// onlyCall returns the run's one tool call named tool.
func onlyCall(t *testing.T, r *Result, tool string) ToolCall {
	t.Helper()
	var found []ToolCall
	for _, c := range r.ToolCalls() {
		if c.Use.ToolName == tool {
			found = append(found, c)
		}
	}
	require.Len(t, found, 1, "want one %s call; output:\n%s", tool, dump(r))
	return found[0]
}

// assertBlocked checks that call was denied by gemini-guard under ruleID
// (any rule when ruleID is "").
func assertBlocked(t *testing.T, r *Result, call ToolCall, ruleID string) {
	t.Helper()
	if !assert.True(t, call.Blocked(), "the %s call was not blocked; result: %s\nstderr:\n%s", call.Use.ToolName, scrub(string(call.Result.Raw)), scrub(r.Stderr)) {
		return
	}
	assertContains(t, call.Reason(), "gemini-guard blocked")
	if ruleID != "" {
		assertContains(t, call.Reason(), ruleID)
	}
}

// assertContains is assert.Contains with the text scrubbed in the message.
func assertContains(t *testing.T, s, sub string) bool {
	t.Helper()
	return assert.True(t, strings.Contains(s, sub), "%q does not contain %q", scrub(s), sub)
}

// assertRan checks that call ran and succeeded.
func assertRan(t *testing.T, r *Result, call ToolCall) {
	t.Helper()
	assert.Equal(t, "success", call.Result.Status, "the %s call did not run; result: %s\nstderr:\n%s", call.Use.ToolName, scrub(string(call.Result.Raw)), scrub(r.Stderr))
}

// assertSecretNotShown checks that secret appears in no reason, message or
// tool result: not in stream-json (other than the model's own tool_use
// arguments), not in the transcript's stored tool results, not in the
// user's hook messages. It never prints the secret.
func assertSecretNotShown(t *testing.T, r *Result, secret string) {
	t.Helper()
	shown := map[string]int{}
	for _, e := range r.Events {
		if e.Type == "tool_use" {
			continue // what the model asked for; the guard cannot unsay it
		}
		if strings.Contains(string(e.Raw), secret) {
			shown["stream-json "+e.Type+" events"]++
		}
	}
	for _, s := range r.TranscriptToolResults() {
		if strings.Contains(s, secret) {
			shown["tool results stored in the transcript"]++
		}
	}
	for _, m := range r.HookMessages() {
		if strings.Contains(m, secret) {
			shown["hook messages to the user"]++
		}
	}
	if r.JSON != nil && strings.Contains(r.JSON.Response, secret) {
		shown["the -o json response"]++
	}
	for where, n := range shown {
		t.Errorf("the secret is shown in %d %s", n, where)
	}
}

// dump is the run's output and stderr for failure messages, scrubbed.
func dump(r *Result) string {
	return scrub("stdout:\n" + r.Stdout + "\nstderr:\n" + r.Stderr)
}

// fakeSecret matches the shapes GitHubToken and AWSAccessKeyID build.
var fakeSecret = regexp.MustCompile(`gh` + `p_[A-Za-z0-9]{36}|AK` + `IA[A-Z2-7]{16}`)

// scrub masks every fake secret in s: test output never shows one, even
// when a guard fails to.
func scrub(s string) string {
	return fakeSecret.ReplaceAllStringFunc(s, verdict.Mask)
}
