package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// runOnce runs Run and returns the decoded answer, checking that stdout holds
// exactly one JSON object and a newline.
func runOnce[In any](t *testing.T, ev Event, stdin io.Reader, decide func(In) (Output, error)) map[string]any {
	t.Helper()
	var out bytes.Buffer
	Run(ev, stdin, &out, decide)
	require.True(t, strings.HasSuffix(out.String(), "\n"), "answer ends with a newline")
	require.Equal(t, 1, strings.Count(out.String(), "\n"), "one line: %q", out.String())
	var got map[string]any
	dec := json.NewDecoder(&out)
	require.NoError(t, dec.Decode(&got), "answer is one JSON object: %q", out.String())
	require.False(t, dec.More(), "nothing after the object")
	return got
}

func allowAll(BeforeToolInput) (Output, error) { return Output{}, nil }

func TestRunDecodesBeforeTool(t *testing.T) {
	in := `{"session_id":"s1","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"new_field":1}`
	var seen BeforeToolInput
	got := runOnce(t, BeforeTool, strings.NewReader(in), func(i BeforeToolInput) (Output, error) {
		seen = i
		return Deny("no", ""), nil
	})
	assert.Equal(t, "s1", seen.SessionID)
	assert.Equal(t, "/w", seen.Cwd)
	assert.Equal(t, "run_shell_command", seen.ToolName)
	assert.JSONEq(t, `{"command":"ls"}`, string(seen.ToolInput))
	assert.Equal(t, map[string]any{"decision": "deny", "reason": "no"}, got)
}

func TestRunAllowIsEmptyObject(t *testing.T) {
	var out bytes.Buffer
	Run(BeforeTool, strings.NewReader(`{}`), &out, allowAll)
	assert.Equal(t, "{}\n", out.String())
}

func TestRunBadInput(t *testing.T) {
	cases := map[string]string{
		"empty":        "",
		"blank":        " \n\t",
		"not json":     "rm -rf /",
		"array":        `[1,2]`,
		"truncated":    `{"tool_name":"write_file","tool_input":{"content":"x`,
		"wrong type":   `{"tool_name":5,"content":7}`,
		"two objects":  `{} {}`,
		"binary":       "\x00\xff\xfe{",
		"string value": `"hello"`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got := runOnce(t, BeforeTool, strings.NewReader(in), allowAll)
			assert.Equal(t, "deny", got["decision"])
			assert.Contains(t, got["reason"], "hook.bad-input")

			got = runOnce(t, AfterModel, strings.NewReader(in), func(AfterModelInput) (Output, error) {
				return Deny("decide must not answer bad input", ""), nil
			})
			assertWithheld(t, got, in)

			got = runOnce(t, AfterTool, strings.NewReader(in), func(AfterToolInput) (Output, error) { return Output{}, nil })
			assert.Equal(t, "deny", got["decision"], "AfterTool withholds output it could not scan")
			assert.Contains(t, got["reason"], "hook.output-unscanned")
			assert.Contains(t, got["systemMessage"], "could not scan")
		})
	}
}

func TestRunTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"tool_input":{"content":"`), strings.NewReader(strings.Repeat("a", MaxInput)), strings.NewReader(`"}}`))
	got := runOnce(t, BeforeTool, big, allowAll)
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.input-too-large")

	big = io.MultiReader(strings.NewReader(`{"content":"`), strings.NewReader(strings.Repeat("a", MaxInput)), strings.NewReader(`"}`))
	got = runOnce(t, AfterModel, big, func(AfterModelInput) (Output, error) { return Output{}, nil })
	assertWithheld(t, got, "aaaa")

	// A request to the model too large to read is refused, never sent
	// unchecked.
	big = io.MultiReader(strings.NewReader(`{"hook_event_name":"BeforeModel","llm_request":{"messages":[{"role":"user","content":"`), strings.NewReader(strings.Repeat("a", MaxInput)), strings.NewReader(`"}]}}`))
	got = runOnce(t, BeforeModel, big, func(AfterModelInput) (Output, error) { return Output{}, nil })
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.request-unscanned")
}

func TestRunRecoversPanicsAndErrors(t *testing.T) {
	got := runOnce(t, BeforeTool, strings.NewReader(`{}`), func(BeforeToolInput) (Output, error) {
		var m map[string]int
		m["x"] = 1 //nolint:staticcheck // the nil map write panics on purpose
		return Output{}, nil
	})
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "guard.internal-error")
	assert.Contains(t, got["reason"], "gemini-guard doctor")

	got = runOnce(t, BeforeTool, strings.NewReader(`{}`), func(BeforeToolInput) (Output, error) {
		return Output{}, errors.New("boom")
	})
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "boom")

	got = runOnce(t, AfterModel, strings.NewReader(`{}`), func(AfterModelInput) (Output, error) { panic("x") })
	assertWithheld(t, got, "")
}

// assertWithheld checks an AfterModel answer that withholds a chunk the
// hook could not read: the chunk replaced by the notice in both shapes,
// never a deny (which prints the chunk), never the input's own text.
func assertWithheld(t *testing.T, got map[string]any, raw string) {
	t.Helper()
	assert.NotEqual(t, "deny", got["decision"], "a deny prints the chunk")
	assert.Equal(t, withheldNotice, got["content"])
	spec, _ := got["hookSpecificOutput"].(map[string]any)
	require.NotNil(t, spec, "the chunk is replaced")
	resp, _ := spec["llm_response"].(map[string]any)
	require.NotNil(t, resp)
	assert.Equal(t, withheldNotice, resp["text"])
	cands, _ := resp["candidates"].([]any)
	require.Len(t, cands, 1)
	content := cands[0].(map[string]any)["content"].(map[string]any)
	assert.Equal(t, []any{withheldNotice}, content["parts"])
	assert.NotEmpty(t, got["systemMessage"])
	if raw = strings.TrimSpace(raw); len(raw) > 3 {
		b, _ := json.Marshal(got)
		assert.NotContains(t, string(b), raw, "the raw input is never shown")
	}
}

func TestRunKeepsShellTextReadable(t *testing.T) {
	var out bytes.Buffer
	Run(BeforeTool, strings.NewReader(`{}`), &out, func(BeforeToolInput) (Output, error) {
		return Deny("a && b > c", ""), nil
	})
	assert.Equal(t, `{"decision":"deny","reason":"a && b > c"}`+"\n", out.String())
}

func TestOutputBuilders(t *testing.T) {
	b, err := marshal(ReplaceToolInput(json.RawMessage(`{"content":"x"}`), "m"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"systemMessage":"m","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"content":"x"}}}`, string(b))
	b, err = marshal(ReplaceChunk(json.RawMessage(`{"text":"x"}`), ""))
	require.NoError(t, err)
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"AfterModel","llm_response":{"text":"x"}}}`, string(b))
	s := "redacted"
	b, err = marshal(Output{Decision: "allow", Content: &s})
	require.NoError(t, err)
	assert.JSONEq(t, `{"decision":"allow","content":"redacted"}`, string(b))
	// The empty answer is written without the encoder; it is what the
	// encoder writes.
	b, err = marshal(Output{})
	require.NoError(t, err)
	want, err := json.Marshal(Output{})
	require.NoError(t, err)
	assert.Equal(t, string(want), string(b))
	empty := ""
	b, err = marshal(Output{Content: &empty})
	require.NoError(t, err)
	assert.Equal(t, `{"content":""}`, string(b), "an empty replacement is not the empty answer")
}

func FuzzHookInput(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"tool_name":"write_file","tool_input":{"content":"x"}}`, `[`, "\xff", `{"llm_response":{"text":"hi"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ev := range []Event{BeforeTool, AfterTool, AfterModel} {
			var out bytes.Buffer
			switch ev {
			case BeforeTool:
				Run(ev, bytes.NewReader(data), &out, allowAll)
			case AfterTool:
				Run(ev, bytes.NewReader(data), &out, func(AfterToolInput) (Output, error) { return Output{}, nil })
			case AfterModel:
				Run(ev, bytes.NewReader(data), &out, func(AfterModelInput) (Output, error) { return Output{}, nil })
			}
			if out.Len() == 0 {
				if _, host, err := normalise(bytes.TrimSpace(data), ev); host == Agy && err == nil {
					continue // an agy call (no event name, agy's fields): an allow is no output
				}
			}
			var v map[string]any
			dec := json.NewDecoder(&out)
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: not one JSON object: %q", ev, out.String())
			}
			if dec.More() {
				t.Fatalf("%s: more than one object", ev)
			}
		}
	})
}

func TestFromVerdict(t *testing.T) {
	v := verdict.Verdict{Action: verdict.Deny, RuleID: "git.reset-hard", What: "discards uncommitted work", Safer: "git stash", Notes: []string{"note"}}
	out := FromVerdict(v, false)
	assert.Equal(t, "deny", out.Decision)
	assert.Equal(t, v.Message(), out.Reason)
	assert.Equal(t, "gemini-guard blocked git.reset-hard: discards uncommitted work\nnote", out.SystemMessage)

	out = FromVerdict(v, true)
	assert.Equal(t, "", out.Decision)
	assert.Equal(t, "", out.Reason)
	assert.Equal(t, "gemini-guard would have blocked (warn mode) git.reset-hard: discards uncommitted work\nnote", out.SystemMessage)

	assert.Equal(t, Output{}, FromVerdict(verdict.Verdict{}, false))
	assert.Equal(t, Allow("n"), FromVerdict(verdict.Verdict{Notes: []string{"n"}}, false))
}
