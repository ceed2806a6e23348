package redactguard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hostcli"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// The tests below run the hook between Go copies of Gemini CLI 0.61's
// toHookLLMRequest and fromHookLLMRequest (packages/core/src/hooks/
// hookTranslator.ts, read in the installed bundle), so that what is checked
// is the request the model would really get.

type cpart = map[string]any
type content struct {
	Role  string  `json:"role"`
	Parts []cpart `json:"parts"`
}

func hasText(p cpart) bool { _, ok := p["text"].(string); return ok }

// toHook is toHookLLMRequest: one message per content whose text parts
// (thoughts included) join to a non-empty string.
func toHook(contents []content) []message {
	var out []message
	for _, c := range contents {
		var b strings.Builder
		for _, p := range c.Parts {
			if hasText(p) {
				b.WriteString(p["text"].(string))
			}
		}
		if b.Len() == 0 {
			continue
		}
		role := "user"
		if c.Role == "model" || c.Role == "system" {
			role = c.Role
		}
		out = append(out, message{Role: role, Content: b.String()})
	}
	return out
}

// fromHook is fromHookLLMRequest: every content with a text cpart takes the
// next message (its text first, then its non-text parts); the rest stay.
func fromHook(msgs []message, base []content) []content {
	var out []content
	i := 0
	for _, c := range base {
		any := false
		for _, p := range c.Parts {
			any = any || hasText(p)
		}
		if !any || i >= len(msgs) {
			out = append(out, c)
			continue
		}
		m := msgs[i]
		i++
		text, _ := m.text()
		parts := []cpart{{"text": text}}
		for _, p := range c.Parts {
			if !hasText(p) {
				parts = append(parts, p)
			}
		}
		out = append(out, content{Role: m.Role, Parts: parts})
	}
	for ; i < len(msgs); i++ {
		text, _ := msgs[i].text()
		out = append(out, content{Role: msgs[i].Role, Parts: []cpart{{"text": text}}})
	}
	return out
}

func hookInput(t *testing.T, event string, msgs []message, extra map[string]any) string {
	t.Helper()
	in := map[string]any{
		"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": t.TempDir(),
		"hook_event_name": event, "timestamp": "2025-06-01T12:00:00Z",
		"llm_request": map[string]any{"model": "gemini-2.5-flash", "messages": msgs, "config": map[string]any{"temperature": 1}},
	}
	for k, v := range extra {
		in[k] = v
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	return string(b)
}

// send runs the BeforeModel hook on contents and returns what the model
// would get and the hook's answer.
func send(t *testing.T, e Env, contents []content) ([]content, hook.Output) {
	t.Helper()
	raw := runHook(t, e, "before-model", hookInput(t, "BeforeModel", toHook(contents), nil))
	var out hook.Output
	require.NoError(t, json.Unmarshal([]byte(raw), &out))
	if out.Specific == nil || len(out.Specific.LLMRequest) == 0 {
		return contents, out
	}
	var req map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(out.Specific.LLMRequest, &req))
	assert.NotContains(t, req, "config", "a returned config would replace the request's whole config")
	assert.NotContains(t, req, "model")
	var msgs []message
	require.NoError(t, json.Unmarshal(req["messages"], &msgs))
	return fromHook(msgs, contents), out
}

// streamed tells the AfterModel hook that the answer to contents streamed a
// chunk with only an empty text cpart (as a function call beside an empty
// text cpart with a thought signature does).
func streamed(t *testing.T, e Env, contents []content, text string) {
	t.Helper()
	resp := map[string]any{"text": text, "candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []string{text}}, "index": 0,
	}}}
	runHook(t, e, "after-model", hookInput(t, "AfterModel", toHook(contents), map[string]any{"llm_response": resp}))
}

// calls lists the function calls and responses in order, with their roles.
func calls(cs []content) []string {
	var out []string
	for _, c := range cs {
		for _, p := range c.Parts {
			for _, k := range []string{"functionCall", "functionResponse", "inlineData"} {
				if v, ok := p[k]; ok {
					b, _ := json.Marshal(v)
					out = append(out, c.Role+" "+k+" "+string(b))
				}
			}
		}
	}
	return out
}

func dump(cs []content) string { b, _ := json.Marshal(cs); return string(b) }

func text(s string) cpart { return cpart{"text": s} }
func call(name string) cpart {
	return cpart{"functionCall": map[string]any{"name": name, "args": map[string]any{"file_path": name + ".txt"}}, "thoughtSignature": "sig-" + name}
}
func response(name string) cpart {
	return cpart{"functionResponse": map[string]any{"name": name, "response": map[string]any{"output": "ok " + name}}}
}

func TestBeforeModelRedactsPromptAndFile(t *testing.T) {
	e := testEnv(t, nil)
	token := secretsFor["github-pat"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("This is the Gemini CLI. Context follows."), text("Use this token: " + token + " to list my repos."),
			text("\n--- Content from referenced files ---\n"), text("Content from @config.env:\nAWS_KEY=" + secretsFor["aws"] + "\n")}},
		{Role: "model", Parts: []cpart{text("I'll read the file."), call("read_file")}},
		{Role: "user", Parts: []cpart{response("read_file")}},
		{Role: "model", Parts: []cpart{call("list_directory")}},
		{Role: "user", Parts: []cpart{response("list_directory")}},
	}
	got, out := send(t, e, contents)
	all := dump(got)
	assert.NotContains(t, all, token)
	assert.NotContains(t, all, secretsFor["aws"])
	assert.Contains(t, all, "[REDACTED:github-pat]")
	assert.Equal(t, calls(contents), calls(got), "every function call and response, in order")
	// Only the changed message and those before it are sent back: the
	// model turn after it is kept as it was, text cpart and signature.
	assert.Equal(t, contents[1:], got[1:])
	assert.Contains(t, out.SystemMessage, "github-pat `ghp_…(40 chars)`")
	assert.NotContains(t, out.SystemMessage, token)

	// The same secret in the next request: redacted, not announced again.
	contents = append(contents, content{Role: "model", Parts: []cpart{text("Done.")}}, content{Role: "user", Parts: []cpart{text("thanks")}})
	got, out = send(t, e, contents)
	assert.NotContains(t, dump(got), token)
	assert.Empty(t, out.SystemMessage)
}

func TestBeforeModelRedactsEarlierAnswer(t *testing.T) {
	e := testEnv(t, nil)
	token := secretsFor["slack"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("what is in .env?")}},
		{Role: "model", Parts: []cpart{call("read_file")}},
		{Role: "user", Parts: []cpart{response("read_file")}},
		{Role: "model", Parts: []cpart{text("It sets SLACK_TOKEN=" + token + ".")}},
		{Role: "user", Parts: []cpart{text("ok, now run the tests")}},
		{Role: "model", Parts: []cpart{text("Running them."), call("run_shell_command")}},
		{Role: "user", Parts: []cpart{response("run_shell_command")}},
	}
	got, _ := send(t, e, contents)
	assert.NotContains(t, dump(got), token)
	assert.Equal(t, calls(contents), calls(got))
	assert.Equal(t, contents[4:], got[4:])
	assert.Equal(t, []string{"user", "model", "user", "model", "user", "model", "user"}, roles(got))
}

func roles(cs []content) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Role)
	}
	return out
}

func TestBeforeModelNothingToRedact(t *testing.T) {
	e := testEnv(t, nil)
	contents := []content{{Role: "user", Parts: []cpart{text("hello")}}, {Role: "model", Parts: []cpart{text("hi"), call("x")}}}
	raw := runHook(t, e, "before-model", hookInput(t, "BeforeModel", toHook(contents), nil))
	assert.JSONEq(t, `{}`, raw)
}

func TestBeforeModelDisabled(t *testing.T) {
	e := testEnv(t, map[string]string{"GEMINI_GUARD_REDACT_MODEL_REQUEST": "false"})
	contents := []content{{Role: "user", Parts: []cpart{text("token " + secretsFor["github-pat"])}}}
	raw := runHook(t, e, "before-model", hookInput(t, "BeforeModel", toHook(contents), nil))
	assert.JSONEq(t, `{}`, raw)
}

// A Gemini CLI before hostcli.MergesRewrittenRequest replaces the request's contents with the
// returned messages, text only; one whose version cannot be told may be
// such a CLI. The request goes out unchanged there, and the user is told
// once per session why its secrets were not removed.
func TestBeforeModelOnlyRewritesForAMergingCLI(t *testing.T) {
	token := secretsFor["github-pat"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("Use this token: " + token)}},
		{Role: "model", Parts: []cpart{call("read_file")}},
		{Role: "user", Parts: []cpart{response("read_file")}},
	}
	for _, c := range []struct{ version, says string }{
		{"0.41.2", "Gemini CLI 0.41.2 drops every tool call"},
		{"0.36.0", "Gemini CLI 0.36.0 drops every tool call"},
		{"", "cannot tell which Gemini CLI runs it"},
		{"unknown", "cannot tell which Gemini CLI runs it"},
	} {
		t.Run(c.version, func(t *testing.T) {
			e := testEnv(t, nil)
			e.CLIVersion = func() string { return c.version }
			raw := runHook(t, e, "before-model", hookInput(t, "BeforeModel", toHook(contents), nil))
			var out hook.Output
			require.NoError(t, json.Unmarshal([]byte(raw), &out))
			assert.Nil(t, out.Specific, "the request is passed unchanged")
			assert.Contains(t, out.SystemMessage, c.says)
			assert.Contains(t, out.SystemMessage, "did NOT remove")
			assert.Contains(t, out.SystemMessage, "github-pat")
			assert.Contains(t, out.SystemMessage, hostcli.MergesRewrittenRequest)
			assert.NotContains(t, out.SystemMessage, token)

			// The next request of the session: unchanged, nothing said.
			raw = runHook(t, e, "before-model", hookInput(t, "BeforeModel", toHook(contents), nil))
			assert.JSONEq(t, `{}`, raw)
		})
	}
	e := testEnv(t, nil)
	e.CLIVersion = nil
	_, out := send(t, e, contents)
	assert.Nil(t, out.Specific, "no way to tell the version: unchanged")

	for _, v := range []string{hostcli.MergesRewrittenRequest, "0.56.0", "0.61.0", "1.2.0"} {
		e := testEnv(t, nil)
		e.CLIVersion = func() string { return v }
		got, out := send(t, e, contents)
		assert.NotNil(t, out.Specific, v)
		assert.NotContains(t, dump(got), token, v)
		assert.Equal(t, calls(contents), calls(got), v)
	}
}

func TestBeforeModelBadInputPassesUnchanged(t *testing.T) {
	e := testEnv(t, nil)
	for _, in := range []string{``, `[]`, `{"llm_request": 3}`, `{"llm_request": {"messages": "x"}}`, `{"llm_request": {"messages": [{"role": "user", "content": {"a": 1}}]}}`} {
		assert.JSONEq(t, `{}`, runHook(t, e, "before-model", in), in)
	}
}

// A content whose text parts join to "" (an empty text cpart beside a
// function call) is skipped by toHookLLMRequest but takes a message in
// fromHookLLMRequest. Past it the hook must not rewrite: the request goes
// out unchanged and the user is told. Before it, rewriting is safe.
func TestBeforeModelEmptyTextPart(t *testing.T) {
	token := secretsFor["github-pat"]
	prompt := content{Role: "user", Parts: []cpart{text("please read a.txt")}}
	empty := content{Role: "model", Parts: []cpart{{"text": "", "thoughtSignature": "sig"}, call("read_file")}}
	answered := []content{prompt, empty, {Role: "user", Parts: []cpart{response("read_file")}}}

	t.Run("secret after it: sent unchanged, user told", func(t *testing.T) {
		e := testEnv(t, nil)
		streamed(t, e, answered[:1], "")
		got, _ := send(t, e, answered) // returns the function result: checks the note
		assert.Equal(t, answered, got)
		contents := append(append([]content{}, answered...),
			content{Role: "model", Parts: []cpart{text("It holds a token.")}},
			content{Role: "user", Parts: []cpart{text("use " + token)}})
		got, out := send(t, e, contents)
		assert.Equal(t, contents, got, "unchanged, not scrambled")
		assert.Contains(t, out.SystemMessage, "could not remove them safely")
		assert.NotContains(t, out.SystemMessage, token)

		// Without the AfterModel note the same reply would have scrambled
		// the conversation: this is what the note prevents.
		msgs := toHook(contents)
		msgs[2].Content = "use [REDACTED:github-pat]"
		scrambled := fromHook(msgs, contents)
		assert.Contains(t, dump(scrambled), token)
	})

	t.Run("secret before it: redacted, the rest kept", func(t *testing.T) {
		e := testEnv(t, nil)
		first := content{Role: "user", Parts: []cpart{text("my token is " + token + ", read a.txt")}}
		streamed(t, e, []content{first}, "")
		contents := []content{first, empty, {Role: "user", Parts: []cpart{response("read_file")}}, {Role: "model", Parts: []cpart{text("Done.")}}}
		got, _ := send(t, e, contents)
		assert.NotContains(t, dump(got), token)
		assert.Equal(t, contents[1:], got[1:])
	})

	t.Run("answer had text after all: rewriting goes on", func(t *testing.T) {
		e := testEnv(t, nil)
		streamed(t, e, []content{prompt}, "")
		reading := content{Role: "model", Parts: []cpart{text("Reading it."), {"text": "", "thoughtSignature": "sig"}, call("read_file")}}
		send(t, e, []content{prompt, reading, {Role: "user", Parts: []cpart{response("read_file")}}})
		contents := []content{prompt, reading,
			{Role: "user", Parts: []cpart{response("read_file")}},
			{Role: "model", Parts: []cpart{text("It holds " + token)}},
			{Role: "user", Parts: []cpart{text("thanks")}}}
		got, out := send(t, e, contents)
		assert.NotContains(t, dump(got), token)
		assert.Equal(t, calls(contents), calls(got))
		assert.Equal(t, contents[4:], got[4:])
		assert.NotContains(t, out.SystemMessage, "could not")
	})
}

// Thought parts: Gemini CLI keeps them out of the history, but a content
// that has one and comes after the last redacted message stays as it was.
func TestBeforeModelKeepsLaterThoughts(t *testing.T) {
	e := testEnv(t, nil)
	token := secretsFor["github-pat"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("token " + token)}},
		{Role: "model", Parts: []cpart{{"text": "Thinking about it", "thought": true}, text("Noted.")}},
	}
	got, _ := send(t, e, contents)
	assert.NotContains(t, dump(got), token)
	assert.Equal(t, contents[1], got[1])
}

func TestMergeBackShapes(t *testing.T) {
	m := func(role, s string) message { return message{Role: role, Content: s} }
	msgs := []message{m("user", "a"), m("model", "b"), m("user", "c")}
	out, err := mergeBack(msgs, []string{"", "B", ""}, 3)
	require.NoError(t, err)
	assert.Equal(t, []message{m("user", "a"), m("model", "B")}, out)

	_, err = mergeBack(msgs, []string{"", "", "C"}, 2)
	assert.Error(t, err, "past the safe limit")

	_, err = mergeBack(msgs, []string{"", "", ""}, 3)
	assert.Error(t, err)

	bad := append([]message{{Role: "user", Content: map[string]any{"x": 1}}}, msgs...)
	_, err = mergeBack(bad, []string{"", "", "B", ""}, 4)
	assert.Error(t, err, "a message that is not a string cannot be echoed")
}

func TestApplyAnchors(t *testing.T) {
	m := func(role, s string) message { return message{Role: role, Content: s} }
	msgs := []message{m("user", "p1"), m("model", "done"), m("user", "p2"), m("model", "answer")}
	for _, tc := range []struct {
		name   string
		anchor anchor
		limit  int
		kept   bool
	}{
		{"answer had text: dropped", anchor{Hash: messageHash(msgs[2])}, 4, false},
		{"no message after: checked", anchor{Hash: messageHash(msgs[3])}, 4, true},
		{"more than the answer after: unsafe", anchor{Hash: messageHash(msgs[0])}, 1, true},
		{"checked before: limit", anchor{Hash: messageHash(msgs[2]), Checked: true}, 3, true},
		{"other chat: ignored", anchor{Hash: "nope"}, 4, true},
		{"before every message", anchor{Hash: ""}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := shapeRecord{Anchors: []anchor{tc.anchor}}
			assert.Equal(t, tc.limit, applyAnchors(&rec, msgs, len(msgs)))
			assert.Equal(t, tc.kept, len(rec.Anchors) == 1, fmt.Sprint(rec.Anchors))
		})
	}
}

// failingScanner stands for a scan that did not finish in time.
type failingScanner struct{}

func (failingScanner) Scan(string) ([]secrets.Finding, error) {
	return nil, errors.New("the scan did not finish within its time limit")
}

// A message that could not be scanned is never sent as it was (issue #25):
// on a Gemini CLI that merges a rewritten request back its text is
// withheld; where a rewrite is not safe the request is refused.
func TestBeforeModelNeverSendsUnscanned(t *testing.T) {
	token := secretsFor["github-pat"]
	contents := []content{
		{Role: "user", Parts: []cpart{text("Here is the dump: " + token + " and more.")}},
		{Role: "model", Parts: []cpart{text("I'll read the file."), call("read_file")}},
		{Role: "user", Parts: []cpart{response("read_file")}},
	}
	t.Run("withheld", func(t *testing.T) {
		e := testEnv(t, nil)
		e.Scanner = func(secrets.Options) secrets.Scanner { return failingScanner{} }
		got, out := send(t, e, contents)
		assert.NotContains(t, dump(got), token)
		assert.Contains(t, dump(got), "gemini-guard withheld this message")
		assert.Equal(t, calls(contents), calls(got))
		assert.Contains(t, out.SystemMessage, "withheld the text of 1 message(s)")
		assert.Empty(t, out.Decision)
	})
	for _, v := range []string{"0.41.2", ""} {
		t.Run("refused on CLI "+v, func(t *testing.T) {
			e := testEnv(t, nil)
			e.CLIVersion = func() string { return v }
			e.Scanner = func(secrets.Options) secrets.Scanner { return failingScanner{} }
			_, out := send(t, e, contents)
			assert.Equal(t, "deny", out.Decision)
			assert.Contains(t, out.Reason, "hook.request-unscanned")
			assert.Contains(t, out.SystemMessage, "did not send the request")
			assert.NotContains(t, out.Reason+out.SystemMessage, token)
		})
	}
	t.Run("warn mode withholds too", func(t *testing.T) {
		e := testEnv(t, map[string]string{"GEMINI_GUARD_MODE": "warn"})
		e.Scanner = func(secrets.Options) secrets.Scanner { return failingScanner{} }
		got, _ := send(t, e, contents)
		assert.NotContains(t, dump(got), token)
	})
}
