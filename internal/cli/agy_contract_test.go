package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// The agy contract harness: the built programs, registered by the built
// `gemini-guard agy install` in a hooks.json that holds other tools'
// hooks, are run as Antigravity CLI runs them (reference
// ../shared/reference/antigravity-hooks.md, not read by this test): the
// command line of each handler whose matcher selects the tool, by sh -c,
// from the directory of hooks.json, with one input on stdin. Every answer
// is checked against the contract: exit 0, nothing on stderr, no output
// or exactly one JSON object holding only the event's fields, never {}
// before a tool, never ask, a reason for every deny, no secret in it.
//
// testdata/agy holds one input per case, written from the shapes the
// contract describes (§3.4) with our own values: {{WS}}, {{HOME}},
// {{CONV}} and {{GHP}} (a generated GitHub token) are filled in here.

// agyCase is one input and what agy should end up doing with it.
type agyCase struct {
	file  string
	event string
	// want: "allow" (no handler denies), "deny <rule>" (one denies,
	// naming rule), "inject" (PreInvocation adds the notice), "quiet"
	// (PreInvocation adds nothing).
	want string
}

var agyCases = []agyCase{
	{"shell-reset-hard.json", "PreToolUse", "deny git.reset-hard"},
	{"shell-harmless.json", "PreToolUse", "allow"},
	{"shell-cat-env.json", "PreToolUse", "deny secrets.credential-file"},
	{"shell-secret-into-file.json", "PreToolUse", "deny github-pat"},
	{"shell-missing-command.json", "PreToolUse", "deny hook.bad-input"},
	{"edit-secret.json", "PreToolUse", "deny github-pat: replace_file_content would add"},
	{"edit-harmless.json", "PreToolUse", "allow"},
	{"write-secret.json", "PreToolUse", "deny github-pat"},
	{"write-harmless.json", "PreToolUse", "allow"},
	{"multi-secret.json", "PreToolUse", "deny github-pat"},
	{"multi-as-string.json", "PreToolUse", "allow"},
	{"view-env.json", "PreToolUse", "deny secrets.credential-file"},
	{"view-source.json", "PreToolUse", "allow"},
	{"view-targets.json", "PreToolUse", "deny secrets.credential-file"},
	{"outline-env.json", "PreToolUse", "deny secrets.credential-file"},
	{"url-secret.json", "PreToolUse", "deny github-pat"},
	{"url-plain.json", "PreToolUse", "allow"},
	{"search.json", "PreToolUse", "allow"},
	{"mcp-list.json", "PreToolUse", "allow"},
	{"mcp-shell.json", "PreToolUse", "deny fs."},
	{"mcp-secret.json", "PreToolUse", "deny github-pat"},
	{"mcp-args-string.json", "PreToolUse", "deny github-pat"},
	{"unknown-tool.json", "PreToolUse", "allow"},
	{"write-agy-hooks.json", "PreToolUse", "deny guard.protected-config"},
	{"input-secret.json", "PreToolUse", "deny github-pat"},
	{"sed-harmless.json", "PreToolUse", "allow"},
	{"shell-agy-hooks.json", "PreToolUse", "deny guard.tamper"},
	{"invocation-first.json", "PreInvocation", "inject"},
	{"invocation-first.json", "PreInvocation", "quiet"}, // the same conversation again
	{"invocation-later.json", "PreInvocation", "quiet"},
	{"invocation-headless.json", "PreInvocation", "inject"},
}

// agyHarness is one installed hooks.json and the places the cases use.
type agyHarness struct {
	t        *testing.T
	bin      string
	home     string
	ws       string
	hooksDir string
	token    string
	conv     string
	env      []string
	entry    agyEntry
}

func newAgyHarness(t *testing.T) *agyHarness {
	ext := realExtension(t)
	h := &agyHarness{t: t, bin: filepath.Join(ext, "bin"), home: t.TempDir(), ws: t.TempDir(),
		token: secrettest.Token(2801, "ghp_", 36), conv: fmt.Sprintf("0d7e-%d", time.Now().UnixNano())}
	h.hooksDir = filepath.Join(h.home, ".gemini", "config")
	h.env = []string{"HOME=" + h.home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + os.Getenv("XDG_RUNTIME_DIR"),
		"XDG_STATE_HOME=" + filepath.Join(h.home, "state"), "ANTIGRAVITY_CONVERSATION_ID=" + h.conv}
	require.NoError(t, os.MkdirAll(h.hooksDir, 0o755))
	seed, err := os.ReadFile(filepath.Join("testdata", "agy", "hooks-other.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(h.hooksDir, "hooks.json"), seed, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(h.ws, "settings.py"), []byte("DEBUG = False\nAPI_TOKEN = None\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(h.ws, ".env"), []byte("PLACEHOLDER=1\n"), 0o644))

	// Installed by the built program, as a user would.
	out, code := h.cli("agy", "install")
	require.Equal(t, 0, code, out)
	data, err := os.ReadFile(filepath.Join(h.hooksDir, "hooks.json"))
	require.NoError(t, err)
	ms, err := readMembers(data)
	require.NoError(t, err)
	for _, m := range ms {
		if m.Key == AgyHookName {
			require.NoError(t, json.Unmarshal(m.Value, &h.entry))
		}
	}
	require.NotEmpty(t, h.entry.PreToolUse)
	return h
}

// cli runs the built gemini-guard.
func (h *agyHarness) cli(args ...string) (string, int) {
	cmd := exec.Command(filepath.Join(h.bin, "gemini-guard"), args...)
	cmd.Env = h.env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return string(out), code
}

// input reads a case's input with its placeholders filled in.
func (h *agyHarness) input(file string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "agy", file))
	require.NoError(h.t, err)
	return []byte(strings.NewReplacer("{{WS}}", h.ws, "{{HOME}}", h.home, "{{CONV}}", h.conv, "{{GHP}}", h.token).Replace(string(data)))
}

// handlers are the commands agy would run for event and tool: for
// PreToolUse those whose matcher selects tool ("" selects every group, for
// inputs agy would never send).
func (h *agyHarness) handlers(event, tool string) []string {
	var out []string
	switch event {
	case "PreToolUse":
		for _, g := range h.entry.PreToolUse {
			if tool == "" || regexp.MustCompile(g.Matcher).MatchString(tool) {
				for _, c := range g.Hooks {
					out = append(out, c.Command)
				}
			}
		}
	case "PreInvocation":
		for _, c := range h.entry.PreInvocation {
			out = append(out, c.Command)
		}
	}
	return out
}

// agyAnswerOf is one handler's answer: nil for no output.
type agyAnswerOf map[string]any

// run runs command as agy does and checks the answer's form for event.
func (h *agyHarness) run(command, event string, input []byte) agyAnswerOf {
	t := h.t
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = h.hooksDir // agy runs a hook from the directory of its hooks.json
	cmd.Env = h.env
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "exit 0 (agy blocks on any other): %s", stderr.String())
	assert.Empty(t, stderr.String(), "nothing on stderr")
	out := stdout.Bytes()
	if len(out) == 0 {
		return nil
	}
	require.True(t, bytes.HasSuffix(out, []byte("\n")) && bytes.Count(out, []byte("\n")) == 1, "one line: %q", out)
	var ans agyAnswerOf
	dec := json.NewDecoder(bytes.NewReader(out))
	require.NoError(t, dec.Decode(&ans), "one JSON object: %q", out)
	require.False(t, dec.More(), "nothing after it: %q", out)
	assert.NotContains(t, string(out), h.token, "no answer repeats the secret")
	switch event {
	case "PreToolUse":
		assert.NotEmpty(t, ans, "{} before a tool is a deny in agy: %q", out)
		for k := range ans {
			assert.Contains(t, []string{"decision", "reason"}, k, "only PreToolUse's fields: %q", out)
		}
		assert.Contains(t, []any{"allow", "deny"}, ans["decision"], "never ask: %q", out)
		if ans["decision"] == "deny" {
			reason, _ := ans["reason"].(string)
			assert.Contains(t, reason, "gemini-guard blocked ", "a deny says what blocked it")
		}
	case "PreInvocation":
		require.Len(t, ans, 1, "only injectSteps: %q", out)
		steps, ok := ans["injectSteps"].([]any)
		require.True(t, ok, "injectSteps is a list: %q", out)
		for _, s := range steps {
			step, _ := s.(map[string]any)
			assert.Len(t, step, 1, "one ephemeralMessage per step (a toolCall step is fatal in agy): %q", out)
			assert.IsType(t, "", step["ephemeralMessage"])
		}
	default:
		assert.Equal(t, agyAnswerOf{}, ans, "%s accepts only {}", event)
	}
	return ans
}

// decide runs every handler agy would run for input and merges them: a
// deny from any is the outcome.
func (h *agyHarness) decide(event string, input []byte) (outcome string, answers []agyAnswerOf) {
	var call struct {
		ToolCall *struct {
			Name string `json:"name"`
		} `json:"toolCall"`
	}
	tool := ""
	if json.Unmarshal(input, &call) == nil && call.ToolCall != nil {
		tool = call.ToolCall.Name
	}
	cmds := h.handlers(event, tool)
	if event == "PreToolUse" && tool == "" {
		cmds = h.handlers(event, "") // agy would not call: each program must still answer
	}
	outcome = "allow"
	if event == "PreInvocation" {
		outcome = "quiet"
	}
	for _, c := range cmds {
		a := h.run(c, event, input)
		answers = append(answers, a)
		switch {
		case a["decision"] == "deny":
			reason, _ := a["reason"].(string)
			if !strings.HasPrefix(outcome, "deny") {
				outcome = "deny " + reason
			}
		case event == "PreInvocation":
			if steps, _ := a["injectSteps"].([]any); len(steps) > 0 {
				step, _ := steps[0].(map[string]any)
				msg, _ := step["ephemeralMessage"].(string)
				outcome = "inject " + msg
			}
		}
	}
	return outcome, answers
}

func TestAgyContract(t *testing.T) {
	h := newAgyHarness(t)
	for _, c := range agyCases {
		t.Run(c.file, func(t *testing.T) {
			h.t = t
			got, _ := h.decide(c.event, h.input(c.file))
			switch verb, rule, _ := strings.Cut(c.want, " "); verb {
			// rule may go on with the start of the reason's text.
			case "deny":
				assert.True(t, strings.HasPrefix(got, "deny gemini-guard blocked "+rule), "want %s, got %s", c.want, got)
				if !strings.HasPrefix(rule, "hook.") {
					assert.Contains(t, got, "Safer", "the reason keeps the safer way")
				}
			case "inject":
				assert.True(t, strings.HasPrefix(got, "inject "), got)
				assert.Contains(t, got, "gemini-guard is active")
				assert.Contains(t, got, "does NOT redact")
			default:
				assert.Equal(t, c.want, got)
			}
		})
	}
}

// Inputs agy should never send, and the events gemini-guard registers
// nothing for: every program still answers within the contract.
func TestAgyContractOddInputs(t *testing.T) {
	h := newAgyHarness(t)
	for _, file := range []string{"no-toolcall.json", "no-tool-name.json", "truncated.json", "garbage.txt"} {
		t.Run(file, func(t *testing.T) {
			h.t = t
			got, answers := h.decide("PreToolUse", h.input(file))
			assert.True(t, strings.HasPrefix(got, "deny gemini-guard blocked hook.bad-input"), got)
			assert.Len(t, answers, 2, "both PreToolUse programs ran")
			for _, a := range answers {
				assert.Equal(t, "deny", a["decision"], "what cannot be read is not let through")
			}
			got, _ = h.decide("PreInvocation", h.input(file))
			if file == "truncated.json" || file == "garbage.txt" {
				assert.Equal(t, "quiet", got)
			}
		})
	}
	t.Run("unknown tool, every program", func(t *testing.T) {
		h.t = t
		for _, c := range h.handlers("PreToolUse", "") {
			assert.Nil(t, h.run(c, "PreToolUse", h.input("unknown-tool.json")), "a tool gemini-guard does not judge: no output (agy's own permissions decide)")
		}
	})
	for _, ev := range []string{"PostToolUse", "PostInvocation", "Stop"} {
		t.Run(ev, func(t *testing.T) {
			h.t = t
			for _, file := range []string{"posttool.json", "posttool-null.json", "stop.json", "garbage.txt"} {
				for _, prog := range []string{"guard-shell", "guard-secrets", "gemini-guard session-start"} {
					ans := h.run(shellQuote(filepath.Join(h.bin, strings.Fields(prog)[0]))+" "+strings.Join(strings.Fields(prog)[1:], " ")+" --host agy "+ev, ev, h.input(file))
					assert.NotNil(t, ans, "%s wired to %s by hand answers its no-op", prog, ev)
				}
			}
		})
	}
}

// Huge payloads: several megabytes are judged (a file's text up to 4 MiB is
// scanned whole, a longer one denied as too large to scan), over the input
// limit is denied, never a crash.
func TestAgyContractHugePayloads(t *testing.T) {
	h := newAgyHarness(t)
	call := func(tool string, args map[string]any) []byte {
		b, err := json.Marshal(map[string]any{"conversationId": h.conv, "workspacePaths": []string{h.ws}, "stepIdx": 9,
			"toolCall": map[string]any{"name": tool, "args": args}})
		require.NoError(t, err)
		return b
	}
	filler := strings.Repeat("lorem ipsum dolor sit amet, line of ordinary text\n", 6<<20/50)
	cases := []struct {
		name  string
		input []byte
		want  string
	}{
		{"3 MB write", call("write_to_file", map[string]any{"TargetFile": filepath.Join(h.ws, "big.txt"), "CodeContent": filler[:3<<20]}), "allow"},
		{"3 MB write with a secret last", call("write_to_file", map[string]any{"TargetFile": filepath.Join(h.ws, "big.txt"), "CodeContent": filler[:3<<20] + "token: " + h.token + "\n"}), "deny gemini-guard blocked github-pat"},
		{"6 MB write", call("write_to_file", map[string]any{"TargetFile": filepath.Join(h.ws, "big.txt"), "CodeContent": filler}), "deny gemini-guard blocked secrets.too-large-to-scan"},
		{"6 MB write with a secret first", call("write_to_file", map[string]any{"TargetFile": filepath.Join(h.ws, "big.txt"), "CodeContent": "token: " + h.token + "\n" + filler}), "deny gemini-guard blocked secrets.too-large-to-scan"},
		{"2 MB command", call("run_command", map[string]any{"CommandLine": "echo " + strings.Repeat("a", 2<<20), "Cwd": h.ws}), "deny gemini-guard blocked shell.too-complex"},
		{"40 MB", call("write_to_file", map[string]any{"TargetFile": filepath.Join(h.ws, "big.txt"), "CodeContent": strings.Repeat(filler, 7)}), "deny gemini-guard blocked hook.input-too-large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.t = t
			got, _ := h.decide("PreToolUse", c.input)
			if c.want == "allow" {
				assert.Equal(t, "allow", got)
			} else {
				assert.True(t, strings.HasPrefix(got, c.want), "want %s, got %.300s", c.want, got)
			}
		})
	}
}

// The built install and uninstall on a hooks.json holding other tools'
// hooks and keys agy may add: idempotent, every other entry kept, and
// uninstall gives back the same hooks.
func TestAgyInstallRoundTripBuilt(t *testing.T) {
	h := newAgyHarness(t)
	path := filepath.Join(h.hooksDir, "hooks.json")
	seed, err := os.ReadFile(filepath.Join("testdata", "agy", "hooks-other.json"))
	require.NoError(t, err)
	installed, err := os.ReadFile(path)
	require.NoError(t, err)
	bak, err := os.ReadFile(path + ".bak")
	require.NoError(t, err)
	assert.Equal(t, string(seed), string(bak), "the previous file is kept")

	out, code := h.cli("agy", "install")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "already registered")
	again, _ := os.ReadFile(path)
	assert.Equal(t, string(installed), string(again), "a second install changes nothing")

	out, code = h.cli("agy", "status")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "other hooks: lint-on-save, session-logger")

	out, code = h.cli("agy", "uninstall")
	assert.Equal(t, 0, code, out)
	after, _ := os.ReadFile(path)
	a, _ := readMembers(seed)
	b, _ := readMembers(after)
	assert.True(t, sameMembers(a, b), "uninstall leaves exactly the other hooks: %s", after)

	out, code = h.cli("agy", "status")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "not registered")
}
