package redactguard

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known/knowntest"
)

// Values of custom formats that no rule recognises, made for these tests.
const (
	knownEnvToken = "ktk7-Rw2pZx9QmV4nLc8Jd3"
	knownEnvPass  = "Bq9-tramway-Hx47!"
)

// knownEnv is testEnv with a secret-named variable in the environment, a
// workspace whose .env holds a password, and the audit log on.
func knownEnv(t *testing.T) (Env, string) {
	e := testEnv(t, map[string]string{"GEMINI_GUARD_AUDIT_LOG": "on"})
	e.Environ = func() []string { return []string{"PATH=/usr/bin", "INTERNAL_API_TOKEN=" + knownEnvToken} }
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("DB_HOST=db\nDB_PASSWORD="+knownEnvPass+"\n"), 0o600))
	return e, ws
}

func toolInputIn(ws, session, tool, llmContent string) string {
	return `{"session_id":"` + session + `","cwd":"` + ws + `","hook_event_name":"AfterTool","tool_name":"` + tool + `","tool_input":{},"tool_response":{"llmContent":` + llmContent + `,"returnDisplay":"x"}}`
}

func TestKnownValuesRedactedFromToolOutput(t *testing.T) {
	e, ws := knownEnv(t)
	out := runHook(t, e, "after-tool", toolInputIn(ws, "k1", "run_shell_command", quoteJSON("DB_HOST=db\nDB_PASSWORD="+knownEnvPass+"\ntoken: "+knownEnvToken+"\n")))
	assert.NotContains(t, out, knownEnvPass)
	assert.NotContains(t, out, knownEnvToken)
	assert.Contains(t, out, "known-value: $INTERNAL_API_TOKEN")
	assert.Contains(t, out, "DB_HOST=db")
	// An encoded copy too.
	out = runHook(t, e, "after-tool", toolInputIn(ws, "k1", "web_fetch", quoteJSON("b64: "+base64.StdEncoding.EncodeToString([]byte(knownEnvToken)))))
	assert.Contains(t, out, "[REDACTED:known-value]")
	assertNoKnownValue(t, e, knownEnvToken, knownEnvPass)
}

func TestKnownValuesRedactedAcrossChunks(t *testing.T) {
	e, ws := knownEnv(t)
	for _, v := range []string{knownEnvToken, knownEnvPass} {
		for cut := 1; cut < len(v); cut += 5 {
			session := "chunks-" + v[:3] + string(rune('a'+cut))
			chunks := []string{"The value is " + v[:cut], v[cut:] + ", keep it safe."}
			var shown strings.Builder
			for j, chunk := range chunks {
				finish := ""
				if j == len(chunks)-1 {
					finish = "STOP"
				}
				in := strings.Replace(chunkInput(session, "q", chunk, finish), `"cwd":"/tmp"`, `"cwd":"`+ws+`"`, 1)
				shown.WriteString(displayed(t, runHook(t, e, "after-model", in), chunk))
			}
			in := strings.Replace(chunkInput(session, "q2", "OK.", "STOP"), `"cwd":"/tmp"`, `"cwd":"`+ws+`"`, 1)
			shown.WriteString(displayed(t, runHook(t, e, "after-model", in), "OK."))
			require.NotContains(t, shown.String(), v[:max(cut, 4)], "cut at %d", cut)
			require.NotContains(t, shown.String(), v[min(cut, len(v)-4):], "cut at %d", cut)
			assert.Contains(t, shown.String(), "The value is [REDACTED")
			assert.Contains(t, shown.String(), "keep it safe.")
		}
	}
	assertNoKnownValue(t, e, knownEnvToken, knownEnvPass)
}

func TestKnownValueLearntFromToolOutput(t *testing.T) {
	e := testEnv(t, nil)
	// A generic rule finds it next to its keyword; bare, later, no rule would.
	secret := "Zr8q-Kp3m-Wx7v-Ln2c"
	out := runHook(t, e, "after-tool", toolInput("read_file", quoteJSON("password = \""+secret+"\"\n")))
	require.NotContains(t, out, secret)
	out = runHook(t, e, "after-tool", toolInput("run_shell_command", quoteJSON("the field was "+secret+" then")))
	assert.NotContains(t, out, secret, "a value found once is known afterwards")
	assert.Contains(t, out, "known-value: read_file output (")
	// Re-encoded, too.
	out = runHook(t, e, "after-tool", toolInput("run_shell_command", quoteJSON(base64.StdEncoding.EncodeToString([]byte(secret)))))
	assert.Contains(t, out, "[REDACTED:known-value]")
	assertNoKnownValue(t, e, secret)
}

func TestKnownValuesRemovedFromModelRequest(t *testing.T) {
	e, ws := knownEnv(t)
	in := hookInput(t, "BeforeModel", toHook([]content{{Role: "user", Parts: []cpart{text("please use " + knownEnvToken + " and " + knownEnvPass)}}}), map[string]any{"cwd": ws})
	out := runHook(t, e, "before-model", in)
	assert.NotContains(t, out, knownEnvToken)
	assert.NotContains(t, out, knownEnvPass)
	assert.Contains(t, out, "please use [REDACTED:known-value] and [REDACTED:known-value]")
	assertNoKnownValue(t, e, knownEnvToken, knownEnvPass)
}

func TestKnownValueByNameIsOrdinary(t *testing.T) {
	e, ws := knownEnv(t)
	out := runHook(t, e, "after-tool", toolInputIn(ws, "k2", "run_shell_command", quoteJSON("export INTERNAL_API_TOKEN\necho $INTERNAL_API_TOKEN | wc -c\n24\nDB_PASSWORD is set\n")))
	assert.Equal(t, "{}\n", out)
}

// assertNoKnownValue fails when a value, or a form of it, is in any file
// of the state directory (the audit log included).
func assertNoKnownValue(t *testing.T, e Env, values ...string) {
	t.Helper()
	dir := filepath.Dir(e.StateDir)
	require.NoError(t, filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, v := range values {
			for _, f := range known.Forms(v) {
				assert.NotContains(t, string(data), f, path)
			}
		}
		return nil
	}))
}

// TestKnownValuesSpeltOutRedactedFromToolOutput: issue 38's spellings of
// the two values (upper-cased, reversed, rot13, every character escaped,
// lists of codes, characters apart) in a tool's output are redacted.
func TestKnownValuesSpeltOutRedactedFromToolOutput(t *testing.T) {
	e, ws := knownEnv(t)
	for _, v := range []struct{ source, text string }{{"$INTERNAL_API_TOKEN", knownEnvToken}, {".env (DB_PASSWORD)", knownEnvPass}} {
		for name, sp := range knowntest.Spellings(v.text) {
			out := runHook(t, e, "after-tool", toolInputIn(ws, "spelt", "run_shell_command", quoteJSON("line one\nvalue: "+sp+"\nline three\n")))
			require.Contains(t, out, "known-value: "+v.source, "%s of %s: %s", name, v.source, sp)
			assert.NotContains(t, out, mustQuote(sp), "%s of %s", name, v.source)
			assert.Contains(t, out, "line three", name)
		}
	}
	assertNoKnownValue(t, e, knownEnvToken, knownEnvPass)
}

// mustQuote is the middle third of s as it appears inside a JSON string
// (without HTML escapes, as the hook writes it).
func mustQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s[len(s)/3 : 2*len(s)/3])
	q := strings.TrimSpace(b.String())
	return q[1 : len(q)-1]
}

// TestKnownValuePiecesRedactedFromToolOutput: issue 38's pieces, the two
// halves of a value on two lines of a tool's output, are both redacted
// and named by the source; neither is kept in the state directory.
func TestKnownValuePiecesRedactedFromToolOutput(t *testing.T) {
	e, ws := knownEnv(t)
	half := len(knownEnvToken) / 2
	out := runHook(t, e, "after-tool", toolInputIn(ws, "p1", "run_shell_command",
		quoteJSON("first: "+knownEnvToken[:half]+"\nsecond: "+knownEnvToken[half:]+"\nline three\n")))
	assert.Contains(t, out, "known-value: $INTERNAL_API_TOKEN")
	assert.NotContains(t, out, knownEnvToken[:half])
	assert.NotContains(t, out, knownEnvToken[half:])
	assert.Contains(t, out, "line three")
	assertNoKnownValue(t, e, knownEnvToken, knownEnvToken[:half], knownEnvToken[half:])
}
