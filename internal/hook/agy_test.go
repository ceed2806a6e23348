package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agyCall is an agy PreToolUse input with the common fields (reference
// §3.1) around one tool call.
func agyCall(tool, args string) string {
	return `{"conversationId":"5b0c6e2a-1f3d-4c8e-9a7b-2d4f6e8a0c1e","modelName":"some-model","stepIdx":2,` +
		`"transcriptPath":"/home/dev/.gemini/antigravity-cli/brain/5b0c/.system_generated/logs/transcript_full.jsonl",` +
		`"artifactDirectoryPath":"/home/dev/.gemini/antigravity-cli/brain/5b0c","workspacePaths":["/home/dev/shop"],` +
		`"toolCall":{"name":"` + tool + `","args":` + args + `}}`
}

// runAgy runs Run as agy's PreToolUse would and returns stdout raw.
func runAgy(t *testing.T, ev Event, stdin string, args []string, decide func(BeforeToolInput) (Output, error)) string {
	t.Helper()
	var out bytes.Buffer
	Run(ev, strings.NewReader(stdin), &out, decide, FromArgs(args))
	return out.String()
}

var agyArgs = []string{"--host", "agy", "PreToolUse"}

func TestAgyToolsAreSeenAsGeminiTools(t *testing.T) {
	cases := []struct {
		tool, args string
		want       string
		wantInput  string
	}{
		{"run_command", `{"CommandLine":"make test","Cwd":"/home/dev/shop/api","WaitMsBeforeAsync":500,"toolAction":"Running"}`,
			"run_shell_command", `{"command":"make test","dir_path":"/home/dev/shop/api"}`},
		{"write_to_file", `{"TargetFile":"/home/dev/shop/a.txt","CodeContent":"hello","Overwrite":true}`,
			"write_file", `{"file_path":"/home/dev/shop/a.txt","content":"hello"}`},
		{"replace_file_content", `{"TargetFile":"/home/dev/shop/b.py","TargetContent":"x = 1","ReplacementContent":"x = 2","StartLine":"3","EndLine":"3","AllowMultiple":"true"}`,
			"replace", `{"file_path":"/home/dev/shop/b.py","old_string":"x = 1","new_string":"x = 2","allow_multiple":true}`},
		{"multi_replace_file_content", `{"TargetFile":"/home/dev/shop/c.go","ReplacementChunks":[{"TargetContent":"a","ReplacementContent":"b","AllowMultiple":false},{"TargetContent":"c","ReplacementContent":"d"}]}`,
			MultiReplace, `{"file_path":"/home/dev/shop/c.go","edits":[{"old_string":"a","new_string":"b","allow_multiple":false},{"old_string":"c","new_string":"d"}]}`},
		{"multi_replace_file_content", `{"TargetFile":"/home/dev/shop/c.go","ReplacementChunks":"[{\"TargetContent\":\"a\",\"ReplacementContent\":\"b\"}]"}`,
			MultiReplace, `{"file_path":"/home/dev/shop/c.go","edits":[{"old_string":"a","new_string":"b"}]}`},
		{"view_file", `{"AbsolutePath":"/home/dev/shop/README.md","StartLine":"1"}`,
			"read_file", `{"file_path":"/home/dev/shop/README.md"}`},
		{"view_file", `{"targets":[{"AbsolutePath":"/home/dev/shop/x"},{"AbsolutePath":"/home/dev/shop/y"}]}`,
			"read_file", `{"file_paths":["/home/dev/shop/x","/home/dev/shop/y"]}`},
		{"read_url_content", `{"Url":"https://example.org/docs"}`, "web_fetch", `{"Url":"https://example.org/docs"}`},
		{"search_web", `{"query":"golang fuzzing"}`, "google_web_search", `{"query":"golang fuzzing"}`},
		{"call_mcp_tool", `{"ServerName":"tickets","ToolName":"run_command","Arguments":{"command":"ls"}}`,
			"mcp_tickets_run_command", `{"command":"ls"}`},
		{"call_mcp_tool", `{"ServerName":"tickets","ToolName":"create","Arguments":"{\"title\":\"t\"}"}`,
			"mcp_tickets_create", `{"title":"t"}`},
		{"browser_click", `{"Selector":"#go"}`, "browser_click", `{"Selector":"#go"}`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			var seen BeforeToolInput
			out := runAgy(t, BeforeTool, agyCall(c.tool, c.args), agyArgs, func(in BeforeToolInput) (Output, error) {
				seen = in
				return Output{}, nil
			})
			assert.Empty(t, out, "an allow is no output")
			assert.Equal(t, Agy, seen.Host)
			assert.Equal(t, "BeforeTool", seen.HookEventName)
			assert.Equal(t, "/home/dev/shop", seen.Cwd, "the workspace is workspacePaths[0], never the command's Cwd")
			assert.Equal(t, "5b0c6e2a-1f3d-4c8e-9a7b-2d4f6e8a0c1e", seen.SessionID)
			assert.Equal(t, c.want, seen.ToolName)
			assert.JSONEq(t, c.wantInput, string(seen.ToolInput))
			if c.want != c.tool {
				assert.Equal(t, c.tool, seen.HostToolName, "reasons name the tool as agy does")
			} else {
				assert.Empty(t, seen.HostToolName)
			}
		})
	}
}

func TestAgyDenyHoldsOnlyDecisionAndReason(t *testing.T) {
	out := runAgy(t, BeforeTool, agyCall("run_command", `{"CommandLine":"x"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		return Output{Decision: "deny", Reason: "gemini-guard blocked r: why. Safer: this.", SystemMessage: "for the user",
			Specific: &Specific{AdditionalContext: "x"}}, nil
	})
	assert.Equal(t, `{"decision":"deny","reason":"gemini-guard blocked r: why. Safer: this."}`+"\n", out)
}

func TestAgyRewriteBecomesTheDenial(t *testing.T) {
	out := runAgy(t, BeforeTool, agyCall("write_to_file", `{"TargetFile":"/a","CodeContent":"c"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		return ReplaceToolInputOrDeny(json.RawMessage(`{"file_path":"/a"}`), "redacted", Deny("blocked github-pat", "u")), nil
	})
	assert.Equal(t, `{"decision":"deny","reason":"blocked github-pat"}`+"\n", out)
	out = runAgy(t, BeforeTool, agyCall("write_to_file", `{"TargetFile":"/a","CodeContent":"c"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		return ReplaceToolInput(json.RawMessage(`{"file_path":"/a"}`), "redacted"), nil
	})
	assert.Contains(t, out, `"decision":"deny"`)
}

func TestAgyWarnAndNotesAreNoOutput(t *testing.T) {
	out := runAgy(t, BeforeTool, agyCall("run_command", `{"CommandLine":"x"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		return Allow("gemini-guard would have blocked (warn mode) x"), nil
	})
	assert.Empty(t, out, "agy has no field for a message to the user: an allow stays silent")
}

// TestAgyBadInputDenies: what cannot be read is denied with a reason, in
// agy's form (never {}, never a crash).
func TestAgyBadInputDenies(t *testing.T) {
	cases := map[string]string{
		"empty":            "",
		"garbage":          "rm -rf /",
		"array":            `[1]`,
		"no toolCall":      `{"conversationId":"c","workspacePaths":["/w"]}`,
		"null toolCall":    `{"conversationId":"c","toolCall":null}`,
		"no name":          `{"conversationId":"c","toolCall":{"args":{}}}`,
		"args not object":  agyCall("run_command", `"make"`),
		"workspace string": `{"conversationId":"c","workspacePaths":"/w","toolCall":{"name":"run_command","args":{}}}`,
		"truncated":        agyCall("run_command", `{"CommandLine":"ls"`)[:60],
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			out := runAgy(t, BeforeTool, in, agyArgs, func(BeforeToolInput) (Output, error) {
				t.Fatal("decide must not run")
				return Output{}, nil
			})
			var got map[string]string
			require.NoError(t, json.Unmarshal([]byte(out), &got), out)
			assert.Equal(t, "deny", got["decision"])
			assert.Contains(t, got["reason"], "hook.bad-input")
			assert.Len(t, got, 2)
		})
	}
}

func TestAgyTooLargeDenies(t *testing.T) {
	big := agyCall("write_to_file", `{"TargetFile":"/a","CodeContent":"`+strings.Repeat("a", MaxInput)+`"}`)
	out := runAgy(t, BeforeTool, big, agyArgs, allowAll)
	assert.Contains(t, out, `"decision":"deny"`)
	assert.Contains(t, out, "hook.input-too-large")
}

func TestAgyPanicAndErrorDeny(t *testing.T) {
	out := runAgy(t, BeforeTool, agyCall("run_command", `{"CommandLine":"ls"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		panic("boom")
	})
	assert.Contains(t, out, `"decision":"deny"`)
	assert.Contains(t, out, "guard.internal-error")
	out = runAgy(t, BeforeTool, agyCall("run_command", `{"CommandLine":"ls"}`), agyArgs, func(BeforeToolInput) (Output, error) {
		return Output{}, errors.New("scanner gone")
	})
	assert.Contains(t, out, `"decision":"deny"`)
}

func TestAgyArgs(t *testing.T) {
	in := agyCall("run_command", `{"CommandLine":"ls"}`)
	for _, args := range [][]string{
		{"--host", "agy", "UserPromptSubmit"},
		{"--host", "agy", "PreInvocation"}, // not this program's event
		{"--host", "agy"},
		{"agy"},
		{"--host", "agy", "PreToolUse", "extra"},
	} {
		out := runAgy(t, BeforeTool, in, args, func(BeforeToolInput) (Output, error) {
			t.Fatal("decide must not run")
			return Output{}, nil
		})
		assert.Contains(t, out, `{"decision":"deny","reason":"gemini-guard blocked hook.bad-input`, args)
	}
	// An agy event gemini-guard registers nothing for gets its no-op,
	// whatever the program and the input.
	for ev, want := range map[string]string{"PostToolUse": "{}\n", "PostInvocation": "{}\n", "Stop": "{}\n", "SessionStart": ""} {
		out := runAgy(t, BeforeTool, "garbage", []string{"--host", "agy", ev}, func(BeforeToolInput) (Output, error) {
			t.Fatal("decide must not run")
			return Output{}, nil
		})
		assert.Equal(t, want, out, ev)
	}
	// No arguments: agy's input is recognised by its fields.
	var seen BeforeToolInput
	out := runAgy(t, BeforeTool, in, nil, func(i BeforeToolInput) (Output, error) { seen = i; return Output{}, nil })
	assert.Empty(t, out)
	assert.Equal(t, Agy, seen.Host)
	assert.Equal(t, "run_shell_command", seen.ToolName)
}

func TestAgyPreInvocation(t *testing.T) {
	args := []string{"--host", "agy", "PreInvocation"}
	run := func(in string, msg string) (string, SessionStartInput) {
		var seen SessionStartInput
		var out bytes.Buffer
		Run(SessionStart, strings.NewReader(in), &out, func(i SessionStartInput) (Output, error) {
			seen = i
			return Allow(msg), nil
		}, FromArgs(args))
		return out.String(), seen
	}
	out, seen := run(`{"conversationId":"c9","workspacePaths":["/w"],"invocationNum":0,"initialNumSteps":1}`, "gemini-guard is active")
	assert.Equal(t, `{"injectSteps":[{"ephemeralMessage":"gemini-guard is active"}]}`+"\n", out)
	assert.Equal(t, "startup", seen.Source)
	assert.Equal(t, "c9", seen.SessionID)
	assert.Equal(t, "/w", seen.Cwd)

	_, seen = run(`{"conversationId":"c9","invocationNum":"2"}`, "")
	assert.Equal(t, "invocation", seen.Source)
	_, seen = run(`{"conversationId":"c9"}`, "")
	assert.Equal(t, "startup", seen.Source, "protojson may leave a 0 out")

	out, _ = run(`{"conversationId":"c9","invocationNum":1}`, "")
	assert.Equal(t, `{"injectSteps":[]}`+"\n", out, "nothing to inject is said as such, not {}")
	out, _ = run(`not json`, "x")
	assert.Equal(t, `{"injectSteps":[]}`+"\n", out)
}

// FuzzAgyInput: whatever agy sends, each program answers as agy reads it:
// no output, or one JSON object holding only its event's fields, and
// before a tool never {}.
func FuzzAgyInput(f *testing.F) {
	for _, s := range []string{``, `{}`, `[`, "\xff", `{"toolCall":null}`, agyCall("run_command", `{"CommandLine":"ls"}`),
		agyCall("multi_replace_file_content", `{"ReplacementChunks":"[{}]"}`), agyCall("call_mcp_tool", `{"Arguments":"7"}`),
		agyCall("view_file", `{"targets":[{"AbsolutePath":1}]}`), `{"conversationId":"c","invocationNum":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		Run(BeforeTool, bytes.NewReader(data), &out, func(in BeforeToolInput) (Output, error) {
			if len(in.ToolInput) > 0 && !json.Valid(in.ToolInput) {
				t.Fatalf("tool_input is not JSON: %q", in.ToolInput)
			}
			return Output{}, nil
		}, FromArgs(agyArgs))
		if out.Len() > 0 {
			var v map[string]string
			require.NoError(t, json.Unmarshal(out.Bytes(), &v), "%q", out.String())
			require.Equal(t, "deny", v["decision"])
			require.NotEmpty(t, v["reason"])
			require.Len(t, v, 2)
		}
		out.Reset()
		Run(SessionStart, bytes.NewReader(data), &out, func(SessionStartInput) (Output, error) { return Allow("m"), nil },
			FromArgs([]string{"--host", "agy", "PreInvocation"}))
		var v map[string][]map[string]string
		require.NoError(t, json.Unmarshal(out.Bytes(), &v), "%q", out.String())
		require.Len(t, v, 1)
	})
}
