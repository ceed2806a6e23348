package redactguard

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// Outputs over MaxToolOutput (issue #25): what the model would get is what
// is scanned, and what could not be scanned is withheld.

// filler is n bytes of ordinary output lines, nothing key-shaped.
func filler(n int) string {
	line := "building package ok 0123 done\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// toolCall is an AfterTool input for tool whose llmContent is content.
func toolCall(t *testing.T, cwd, tool string, content any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
		"hook_event_name": "AfterTool", "timestamp": "2025-06-01T12:00:00Z",
		"tool_name": tool, "tool_input": map[string]any{},
		"tool_response": map[string]any{"llmContent": content, "returnDisplay": "", "error": nil},
	})
	require.NoError(t, err)
	return string(b)
}

// knownScanner finds the test secrets by plain search: megabytes of output
// scan in milliseconds, so these tests check which text is scanned, not
// the rules (which the golden tests and the scanner's own tests do).
type knownScanner struct{}

func (knownScanner) Scan(text string) ([]secrets.Finding, error) {
	var out []secrets.Finding
	for id, s := range secretsFor {
		for off := 0; ; {
			i := strings.Index(text[off:], s)
			if i < 0 {
				break
			}
			out = append(out, secrets.Finding{RuleID: id, Start: off + i, End: off + i + len(s), Secret: s})
			off += i + len(s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out, nil
}

// sizeEnv is testEnv with knownScanner.
func sizeEnv(t *testing.T) Env {
	e := testEnv(t, nil)
	e.Scanner = func(secrets.Options) secrets.Scanner { return knownScanner{} }
	return e
}

func afterToolOut(t *testing.T, e Env, in string) hook.Output {
	t.Helper()
	var out hook.Output
	require.NoError(t, json.Unmarshal([]byte(runHook(t, e, "after-tool", in)), &out))
	return out
}

// formatTruncated is Gemini CLI 0.61's formatTruncatedToolOutput at its
// default threshold (ASCII text: characters are bytes): what the model
// gets of a passed-on shell output longer than 40,000 characters.
func formatTruncated(s string) string {
	const threshold = 40_000
	head := threshold / 5
	return s[:head] + "\n\n... [omitted] ...\n\n" + s[len(s)-(threshold-head):]
}

func TestAfterToolTruncatedShellOutput(t *testing.T) {
	token := secretsFor["github-pat"]
	big := MaxToolOutput + 1<<20
	cases := []struct {
		name   string
		text   string
		redact bool
	}{
		// The CLI keeps the last 32,000 characters: a token there reaches
		// the model unless it is redacted.
		{"token in the tail", filler(big) + "\nGITHUB_TOKEN=" + token + "\n" + filler(1000), true},
		{"token in the head", "GITHUB_TOKEN=" + token + "\n" + filler(big), true},
		// In the middle the CLI cuts it out: passed on, the CLI drops it.
		{"token in the middle", filler(MaxToolOutput) + "GITHUB_TOKEN=" + token + "\n" + filler(MaxToolOutput), false},
		{"clean", filler(big), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := sizeEnv(t)
			out := afterToolOut(t, e, toolCall(t, t.TempDir(), "run_shell_command", c.text))
			if !c.redact {
				assert.True(t, out == hook.Output{}, "passed on: %.300s", out.Reason)
				assert.False(t, strings.Contains(formatTruncated(c.text), token[4:]), "the model gets no secret of a passed-on output")
				return
			}
			assert.Equal(t, "deny", out.Decision)
			assert.False(t, strings.Contains(out.Reason, token[4:]))
			assert.True(t, strings.Contains(out.Reason, "[REDACTED"), "[REDACTED")
			assert.True(t, strings.Contains(out.Reason, "Showing the first 8000 and the last 32000 characters"), "Showing the first 8000 and the last 32000 characters")
			assert.Less(t, len(out.Reason), 50_000, "the head and tail the CLI would keep, not 8 MiB")
		})
	}
}

func TestAfterToolTruncatedMCPOutput(t *testing.T) {
	token := secretsFor["slack"]
	text := filler(MaxToolOutput+1<<20) + "\nSLACK=" + token + "\n"
	e := sizeEnv(t)
	out := afterToolOut(t, e, toolCall(t, t.TempDir(), "mcp_logs_tail", []any{map[string]any{"text": text}}))
	assert.Equal(t, "deny", out.Decision)
	assert.False(t, strings.Contains(out.Reason, token[5:]))
	assert.True(t, strings.Contains(out.Reason, "[REDACTED"), "[REDACTED")
}

// Output the CLI hands over whole (read_many_files, several MCP parts) is
// scanned up to MaxToolOutput; the rest is withheld, secret or not.
func TestAfterToolWithholdsWhatItCannotScan(t *testing.T) {
	token := secretsFor["github-pat"]
	for _, c := range []struct {
		name, tool string
		content    any
	}{
		{"read_many_files", "read_many_files", []any{
			map[string]any{"text": "--- a.log ---\n" + filler(MaxToolOutput)},
			map[string]any{"text": "--- b.env ---\nGITHUB_TOKEN=" + token + "\n"},
		}},
		{"multi-part MCP", "mcp_fs_read", []any{
			map[string]any{"text": filler(MaxToolOutput - 10)},
			map[string]any{"text": "TOKEN=" + token},
		}},
		{"clean read_file", "read_file", filler(MaxToolOutput + 100)},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := sizeEnv(t)
			out := afterToolOut(t, e, toolCall(t, t.TempDir(), c.tool, c.content))
			assert.Equal(t, "deny", out.Decision)
			assert.True(t, strings.Contains(out.Reason, "hook.output-too-large"), "hook.output-too-large")
			assert.True(t, strings.Contains(out.Reason, "bytes not scanned]"), "bytes not scanned]")
			assert.False(t, strings.Contains(out.Reason, "withheld the rest of this output: 0 bytes"))
			assert.False(t, strings.Contains(out.Reason, token[4:]))
			assert.LessOrEqual(t, len(out.Reason), MaxToolOutput+2000)
		})
	}
}

// Settings under which Gemini CLI does not cut long output to a head and
// tail the windows cover: the whole output is then judged as untruncated.
func TestAfterToolTruncationSettings(t *testing.T) {
	token := secretsFor["github-pat"]
	text := filler(MaxToolOutput) + "GITHUB_TOKEN=" + token + "\n" + filler(MaxToolOutput)
	for name, settings := range map[string]string{
		"truncation off":          `{"tools": {"truncateToolOutputThreshold": 0}}`,
		"threshold above cover":   `{"tools": {"truncateToolOutputThreshold": 5000000}}`,
		"context management on":   `{"contextManagement": {"enabled": true}}`,
		"settings not plain JSON": "{ // a comment\n}",
	} {
		t.Run(name, func(t *testing.T) {
			e := sizeEnv(t)
			cwd := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(cwd, ".gemini"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(cwd, ".gemini", "settings.json"), []byte(settings), 0o644))
			out := afterToolOut(t, e, toolCall(t, cwd, "run_shell_command", text))
			assert.Equal(t, "deny", out.Decision)
			assert.True(t, strings.Contains(out.Reason, "hook.output-too-large"), "hook.output-too-large")
			assert.False(t, strings.Contains(out.Reason, token[4:]))
		})
	}
	t.Run("default threshold set explicitly", func(t *testing.T) {
		e := sizeEnv(t)
		cwd := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(cwd, ".gemini"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(cwd, ".gemini", "settings.json"), []byte(`{"tools": {"truncateToolOutputThreshold": 40000}}`), 0o644))
		out := afterToolOut(t, e, toolCall(t, cwd, "run_shell_command", text))
		assert.True(t, out == hook.Output{}, "the token is in the middle the CLI cuts out: %.300s", out.Reason)
	})
}

func TestRuneCuts(t *testing.T) {
	s := "aé€😀b"
	for n := 0; n <= len(s)+1; n++ {
		assert.True(t, strings.HasPrefix(s, runeCut(s, n)))
		assert.LessOrEqual(t, len(runeCut(s, n)), n)
		assert.True(t, strings.HasSuffix(s, runeTail(s, n)))
		assert.LessOrEqual(t, len(runeTail(s, n)), n)
	}
	assert.Equal(t, "aé", firstRunes(s, 2))
	assert.Equal(t, "😀b", lastRunes(s, 2))
	assert.Equal(t, s, lastRunes(s, 99))
}

// A token coloured by grep --color=always is redacted: the escapes are
// taken out before the scan.
func TestAfterToolANSIInsideToken(t *testing.T) {
	token := secretsFor["github-pat"]
	coloured := "config.env:3:GITHUB_TOKEN=" + token[:10] + "\x1b[01;31m\x1b[K" + token[10:20] + "\x1b[m\x1b[K" + token[20:] + "\n\x1b]8;;file:///x\x07link\x1b]8;;\x07\n"
	e := testEnv(t, nil)
	out := afterToolOut(t, e, toolCall(t, t.TempDir(), "run_shell_command", coloured))
	assert.Equal(t, "deny", out.Decision)
	assert.True(t, strings.Contains(out.Reason, "GITHUB_TOKEN=[REDACTED"), out.Reason)
	for _, part := range []string{token[4:10], token[10:20], token[20:]} {
		assert.False(t, strings.Contains(out.Reason, part), "a piece of the token shows")
	}
	assert.Equal(t, "plain text, ok", withoutANSI("\x1b[1mplain\x1b[0m text, \x1b]0;title\x1b\\ok"))
}

// An MCP result whose text comes as inline data (a resource read as
// text/plain, base64 in the part) is scanned as the text it is; an image
// is left out as before.
func TestAfterToolInlineTextData(t *testing.T) {
	token := secretsFor["github-pat"]
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, mime := range []string{"text/plain", "application/json", "application/octet-stream"} {
		e := testEnv(t, nil)
		content := []map[string]any{
			{"text": "Resource follows."},
			{"inlineData": map[string]any{"mimeType": mime, "data": enc("GITHUB_TOKEN=" + token + "\n")}},
		}
		out := afterToolOut(t, e, toolCall(t, t.TempDir(), "mcp_files_read_resource", content))
		assert.Equal(t, "deny", out.Decision, mime)
		assert.Contains(t, out.Reason, "GITHUB_TOKEN=[REDACTED", mime)
		assert.NotContains(t, out.Reason, token[4:], mime)
	}
	png := []map[string]any{{"inlineData": map[string]any{"mimeType": "image/png", "data": "iVBORw0KGgo="}}}
	assert.Empty(t, afterToolOut(t, testEnv(t, nil), toolCall(t, t.TempDir(), "mcp_img_render", png)).Decision)
	text, ok := inlineText("text/plain; charset=utf-8", enc("héllo"))
	assert.True(t, ok)
	assert.Equal(t, "héllo", text)
	_, ok = inlineText("image/png", "iVBORw0KGgo=")
	assert.False(t, ok)
}
