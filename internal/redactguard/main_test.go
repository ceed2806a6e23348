package redactguard

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

var update = flag.Bool("update", false, "rewrite the golden .out.json files")

// bin holds guard-redact built for the tests.
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "guard-redact-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = dir
	code := 2
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, "building the hook binaries:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// build builds the hook and, beside it where the hook looks for it, the
// scanner process it asks (as the release builds it).
func build(dir string) error {
	for _, b := range []struct{ name, pkg string }{{"guard-redact", "../../cmd/guard-redact"}, {"guard-scanner", "../../cmd/guard-scanner"}} {
		cmd := exec.Command("go", "build", "-tags", bundle.BuildTags, "-trimpath", "-o", filepath.Join(dir, b.name+exe()), b.pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return err
		}
	}
	return nil
}

// secretsFor are the test secrets, made at run time so that the repository
// holds none. Golden inputs refer to them as ${SECRET:name}.
var secretsFor = map[string]string{
	"github-pat":  secrettest.Token(11, "ghp_", 36),
	"aws":         "AKIA" + secrettest.NewRand(12).From("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
	"generic":     secrettest.NewRand(13).From(secrettest.Alnum, 32),
	"slack":       "xoxb-" + secrettest.NewRand(14).From("0123456789", 11) + "-" + secrettest.NewRand(15).From("0123456789", 12) + "-" + secrettest.NewRand(16).From(secrettest.Alnum, 24),
	"private-key": privateKey(17),
}

func privateKey(seed uint64) string {
	return secrettest.PrivateKey(secrettest.NewRand(seed), "RSA", 8, 64)
}

// secretRef is ${SECRET:name} or ${SECRET:name:from:to} (a byte slice of
// the secret, to split one across chunks).
var secretRef = regexp.MustCompile(`\$\{SECRET:([a-z-]+)(?::(\d+):(\d+))?\}`)

// expand replaces secret references with the test secrets (JSON-escaped).
func expand(t testing.TB, s string) string {
	return secretRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := secretRef.FindStringSubmatch(ref)
		v, ok := secretsFor[m[1]]
		require.True(t, ok, "unknown secret %q", m[1])
		if m[2] != "" {
			from, _ := strconv.Atoi(m[2])
			to, _ := strconv.Atoi(m[3])
			v = v[from:to]
		}
		q, err := json.Marshal(v)
		require.NoError(t, err)
		return string(q[1 : len(q)-1])
	})
}

// testEnv is an environment with a private state directory and a fixed
// clock; vars are the GEMINI_GUARD_* settings.
func testEnv(t testing.TB, vars map[string]string) Env {
	home := t.TempDir()
	get := func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		if k == "HOME" {
			return home
		}
		return ""
	}
	return Env{
		Getenv:   get,
		Now:      func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
		StateDir: state.Dir(get),
		Scanner:  secrettest.CachedScanner,
		// A CLI that merges a rewritten request back (hostcli.MergesRewrittenRequest).
		CLIVersion: func() string { return "0.61.0" },
	}
}

func runHook(t testing.TB, e Env, event, input string) string {
	t.Helper()
	var out bytes.Buffer
	code := Run([]string{event}, strings.NewReader(input), &out, e)
	require.Equal(t, 0, code)
	require.Equal(t, 1, strings.Count(out.String(), "\n"), "one line: %q", out.String())
	var v map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &v), "one JSON object: %q", out.String())
	return out.String()
}

// TestGolden runs every testdata/<event>/<case>.in.json through the hook
// and compares the answer with <case>.out.json.
// A case may be a JSON array of inputs: they are one session's chunks in
// order, and the golden file holds one answer per line. Settings for a case
// go in <case>.env (KEY=value lines).
func TestGolden(t *testing.T) {
	for _, dir := range []string{"AfterModel", "AfterTool"} {
		event := map[string]string{"AfterModel": "after-model", "AfterTool": "after-tool"}[dir]
		ins, err := filepath.Glob(filepath.Join("testdata", dir, "*.in.json"))
		require.NoError(t, err)
		require.NotEmpty(t, ins)
		for _, in := range ins {
			name := strings.TrimSuffix(filepath.Base(in), ".in.json")
			t.Run(dir+"/"+name, func(t *testing.T) {
				raw, err := os.ReadFile(in)
				require.NoError(t, err)
				vars := map[string]string{}
				if envFile, err := os.ReadFile(strings.TrimSuffix(in, ".in.json") + ".env"); err == nil {
					for _, line := range strings.Split(strings.TrimSpace(string(envFile)), "\n") {
						k, v, _ := strings.Cut(line, "=")
						vars[k] = v
					}
				}
				e := testEnv(t, vars)
				var inputs []json.RawMessage
				if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
					require.NoError(t, json.Unmarshal(raw, &inputs))
				} else {
					inputs = []json.RawMessage{raw}
				}
				var got strings.Builder
				for _, input := range inputs {
					got.WriteString(runHook(t, e, event, expand(t, string(input))))
				}
				for _, v := range secretsFor {
					require.NotContains(t, got.String(), v, "an answer shows a secret")
				}
				golden := strings.TrimSuffix(in, ".in.json") + ".out.json"
				if *update {
					require.NoError(t, os.WriteFile(golden, []byte(got.String()), 0o644))
					return
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "run with -update to create it")
				assert.Equal(t, string(want), got.String())
			})
		}
	}
}

func TestNoStateDirectory(t *testing.T) {
	e := testEnv(t, nil)
	e.StateDir = ""
	// Without state a token split across chunks would show in pieces: every
	// chunk's text is withheld, and the user told at the end of the answer.
	tok := secretsFor["github-pat"]
	var shown strings.Builder
	for _, c := range []struct{ text, finish string }{{"your token " + tok[:20], ""}, {tok[20:] + " ok", ""}, {"bye", "STOP"}} {
		out := runHook(t, e, "after-model", chunkInput("s1", "req", c.text, c.finish))
		shown.WriteString(displayed(t, out, c.text))
		if c.finish != "" {
			assert.Contains(t, out, "withheld the model's answer: it cannot keep its streaming state")
		}
	}
	assert.Empty(t, shown.String())
	// A chunk without text (a function call) is passed on: replacing it
	// would drop the call.
	assert.JSONEq(t, `{}`, runHook(t, e, "after-model", chunkInput("s1", "req", "", "")))
}

// The state directory's parent swapped for a file (a write_file can do
// that): the store cannot be opened, and the answer is withheld.
func TestStateParentSwappedForAFile(t *testing.T) {
	e := testEnv(t, nil)
	parent := filepath.Join(t.TempDir(), "gemini-guard")
	require.NoError(t, os.WriteFile(parent, []byte("not a directory"), 0o600))
	e.StateDir = filepath.Join(parent, "sessions")
	tok := secretsFor["slack"]
	first := runHook(t, e, "after-model", chunkInput("s1", "req", "the hook: "+tok[:15], ""))
	last := runHook(t, e, "after-model", chunkInput("s1", "req", tok[15:]+" done", "STOP"))
	assert.Empty(t, displayed(t, first, "the hook: "+tok[:15])+displayed(t, last, tok[15:]+" done"))
	assert.Contains(t, last, "cannot keep its streaming state")
}

// chunkInput is an AfterModel input of Gemini CLI 0.61.
func chunkInput(session, request, text, finish string) string {
	resp := map[string]any{
		"text": text,
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []string{text}},
			"index":   0,
		}},
	}
	if text == "" {
		resp["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"] = []string{}
	}
	if finish != "" {
		resp["candidates"].([]any)[0].(map[string]any)["finishReason"] = finish
	}
	in := map[string]any{
		"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
		"hook_event_name": "AfterModel", "timestamp": "2025-06-01T12:00:00Z",
		"llm_request":  map[string]any{"model": "gemini-2.5-flash", "messages": []any{map[string]any{"role": "user", "content": request}}},
		"llm_response": resp,
	}
	b, _ := json.Marshal(in)
	return string(b)
}

func toolInput(tool, llmContent string) string {
	return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"AfterTool","tool_name":"` + tool + `","tool_input":{},"tool_response":{"llmContent":` + llmContent + `,"returnDisplay":"x"}}`
}

func exe() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
