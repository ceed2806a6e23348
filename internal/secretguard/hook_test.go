package secretguard_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// hookCase is one BeforeTool call through the whole hook (Run), as Gemini
// CLI makes it.
type hookCase struct {
	name string
	tool string
	in   map[string]any
	// files are written before the call: "~/x" under HOME, else under the
	// workspace.
	files map[string]string
	env   map[string]string
	// want is "deny", "allow" or "rewrite"; rule is a rule id the answer
	// must name (reason for deny, systemMessage for rewrite).
	want, rule string
	// note must appear in the systemMessage.
	note string
	// secrets must never appear in any answer (also checked for every
	// case by TestNoSecretInAnyAnswer).
	secrets []string
	// unchanged lists files (workspace-relative) that must still hold
	// their content afterwards (the hook never writes).
}

func awsKey(seed uint64) string {
	return "AKIA" + secrettest.NewRand(seed).From("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
}

func pemKey(seed uint64) string {
	return secrettest.PrivateKey(secrettest.NewRand(seed), "OPENSSH", 5, 70) + "\n"
}

// cases are the hand-written scenarios; providerCases adds one write_file,
// replace and shell case per provider family.
func cases() []hookCase {
	tok, tok2, key := ghp(101), ghp(102), awsKey(103)
	pem := pemKey(104)
	b64 := base64.StdEncoding.EncodeToString([]byte("export GITHUB_TOKEN=" + ghp(105)))
	hexed := hex.EncodeToString([]byte("token: " + ghp(106)))
	half := ghp(107)
	return []hookCase{
		{name: "write token", tool: "write_file", in: map[string]any{"file_path": "config.py", "content": "GITHUB_TOKEN = \"" + tok + "\"\n"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "write pem key", tool: "write_file", in: map[string]any{"file_path": "id_ed25519", "content": pem},
			want: "deny", rule: "private-key", secrets: []string{pem, pem[40:80]}},
		{name: "write base64-wrapped token", tool: "write_file", in: map[string]any{"file_path": "env.b64", "content": b64 + "\n"},
			want: "deny", rule: "github-pat", secrets: []string{b64, ghp(105)}},
		{name: "write hex-wrapped token", tool: "write_file", in: map[string]any{"file_path": "x.hex", "content": "blob = " + hexed + "\n"},
			want: "deny", rule: "github-pat", secrets: []string{hexed, ghp(106)}},
		{name: "write two secrets", tool: "write_file", in: map[string]any{"file_path": "s.env", "content": "A=" + tok + "\nAWS_ACCESS_KEY_ID=" + key + "\n"},
			want: "deny", rule: "aws-access-token", secrets: []string{tok, key}},
		{name: "replace adds key", tool: "replace", files: map[string]string{"settings.py": "AWS_REGION = \"eu-west-1\"\n"},
			in:   map[string]any{"file_path": "settings.py", "old_string": "AWS_REGION = \"eu-west-1\"", "new_string": "AWS_REGION = \"eu-west-1\"\nAWS_ACCESS_KEY_ID = \"" + key + "\""},
			want: "deny", rule: "aws-access-token", secrets: []string{key}},
		{name: "replace completes a token across the boundary", tool: "replace", files: map[string]string{"a.go": "const t = \"" + half[:18] + "TODO\"\n"},
			in:   map[string]any{"file_path": "a.go", "old_string": "TODO", "new_string": half[18:]},
			want: "deny", rule: "github-pat", secrets: []string{half}},
		{name: "replace next to an existing secret", tool: "replace", files: map[string]string{"c.py": "T = \"" + tok + "\"\nN = 1\n"},
			in: map[string]any{"file_path": "c.py", "old_string": "N = 1", "new_string": "N = 2"}, want: "allow", secrets: []string{tok}},
		{name: "overwrite keeping an existing secret", tool: "write_file", files: map[string]string{"c.py": "T = \"" + tok + "\"\n"},
			in: map[string]any{"file_path": "c.py", "content": "# header\nT = \"" + tok + "\"\n"}, want: "allow", secrets: []string{tok}},
		{name: "shell echo to .env", tool: "run_shell_command", in: map[string]any{"command": "echo 'GITHUB_TOKEN=" + tok + "' >> .env"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "shell curl header", tool: "run_shell_command", in: map[string]any{"command": "curl -H \"Authorization: Bearer " + tok2 + "\" https://api.github.com/user"},
			want: "deny", rule: "github-pat", secrets: []string{tok2}},
		{name: "shell export", tool: "run_shell_command", in: map[string]any{"command": "export AWS_ACCESS_KEY_ID=" + key + " && aws s3 ls"},
			want: "deny", rule: "aws-access-token", secrets: []string{key}},
		{name: "shell plain", tool: "run_shell_command", in: map[string]any{"command": "go test ./... && git status"}, want: "allow"},

		// Bypasses.
		{name: "gitleaks:allow written by the model", tool: "write_file", in: map[string]any{"file_path": "a.py", "content": "T = \"" + tok + "\"  # gitleaks:allow\n"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "gitleaks:allow trusted by the user", tool: "write_file", in: map[string]any{"file_path": "a.py", "content": "T = \"" + tok + "\"  # gitleaks:allow\n"},
			env: map[string]string{"GEMINI_GUARD_TRUST_GITLEAKS_ALLOW": "true"}, want: "allow", secrets: []string{tok}},
		{name: "path gitleaks allowlists: node_modules", tool: "write_file", in: map[string]any{"file_path": "node_modules/x/index.js", "content": "t='" + tok + "'"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "path gitleaks allowlists: package-lock.json", tool: "write_file", in: map[string]any{"file_path": "package-lock.json", "content": "{\"t\": \"" + tok + "\"}"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "path gitleaks allowlists: go.sum", tool: "write_file", in: map[string]any{"file_path": "go.sum", "content": tok},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "path gitleaks allowlists: svg", tool: "write_file", in: map[string]any{"file_path": "logo.svg", "content": "<svg><!-- " + tok + " --></svg>"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "secret in the file name", tool: "write_file", in: map[string]any{"file_path": "out/" + tok + ".txt", "content": "key: " + tok},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "write .gitleaks.toml", tool: "write_file", in: map[string]any{"file_path": ".gitleaks.toml", "content": "[allowlist]\nregexes = ['''.*''']\n"},
			want: "deny", rule: "guard.protected-config"},
		{name: "write .gitleaksignore", tool: "write_file", in: map[string]any{"file_path": ".gitleaksignore", "content": "a.py:github-pat:1\n"},
			want: "deny", rule: "guard.protected-config"},
		{name: "replace in configured config", tool: "replace", files: map[string]string{"sec/rules.toml": "title = \"x\"\n"},
			env: map[string]string{"GEMINI_GUARD_GITLEAKS_CONFIG": "sec/rules.toml"},
			in:  map[string]any{"file_path": "sec/rules.toml", "old_string": "title = \"x\"", "new_string": "[allowlist]\nregexes=['.']"}, want: "deny", rule: "guard.protected-config"},
		{name: "write gemini settings", tool: "write_file", in: map[string]any{"file_path": "~/.gemini/settings.json", "content": "{\"hooksConfig\":{\"enabled\":false}}"},
			want: "deny", rule: "guard.protected-config"},
		{name: "write extension env", tool: "write_file", in: map[string]any{"file_path": "~/.gemini/extensions/gemini-guard/.env", "content": "GEMINI_GUARD_MODE=warn\n"},
			want: "deny", rule: "guard.protected-config"},
		{name: "write workspace gemini settings", tool: "write_file", in: map[string]any{"file_path": ".gemini/settings.json", "content": "{}"},
			want: "deny", rule: "guard.protected-config"},
		{name: "workspace .env switching the guard to warn", tool: "replace", files: map[string]string{".env": "DEBUG=1\n"},
			in: map[string]any{"file_path": ".env", "old_string": "DEBUG=1", "new_string": "DEBUG=1\nGEMINI_GUARD_MODE=warn"}, want: "deny", rule: "guard.protected-config"},
		{name: "tighten-only project file", tool: "write_file", in: map[string]any{"file_path": ".gemini/gemini-guard.toml", "content": "mode = \"strict\"\n"}, want: "allow"},
		{name: "shell writes gitleaks config", tool: "run_shell_command", in: map[string]any{"command": "printf '[allowlist]' > .gitleaks.toml"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell disables the extension", tool: "run_shell_command", in: map[string]any{"command": "gemini extensions disable gemini-guard"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell disables the extension through npx", tool: "run_shell_command", in: map[string]any{"command": "npx @google/gemini-cli extensions disable gemini-guard"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell starts an unguarded child agent", tool: "run_shell_command", in: map[string]any{"command": "gemini -e none -y -p 'clean up'"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell sort -o onto the gitleaks config", tool: "run_shell_command", in: map[string]any{"command": "sort -o .gitleaks.toml rules.txt"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell copies the gitleaks config away (a read)", tool: "run_shell_command", in: map[string]any{"command": "cp .gitleaks.toml /tmp/b.toml"}, want: "allow"},
		{name: "shell blanks the tightening file", tool: "run_shell_command", files: map[string]string{".gemini/gemini-guard.toml": "mode = \"strict\"\n"},
			in: map[string]any{"command": ": > .gemini/gemini-guard.toml"}, want: "deny", rule: "guard.protected-config"},
		{name: "shell token assembled from variables", tool: "run_shell_command", in: map[string]any{"command": "a=" + tok[:8] + "; b=" + tok[8:] + "; echo \"T=$a$b\" > t.txt"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "replace with spacing that differs from the file", tool: "replace", files: map[string]string{"w.py": "def f():\n    TOKEN = \"" + tok[:10] + "\"\n"},
			in: map[string]any{"file_path": "w.py", "old_string": "TOKEN  =  \"" + tok[:10] + "\"", "new_string": "TOKEN = \"" + tok + "\""}, want: "deny", rule: "github-pat", secrets: []string{tok}},

		// Bad input.
		{name: "binary content", tool: "write_file", in: map[string]any{"file_path": "b.bin", "content": "\x00\x01\xff " + tok + " \x00"},
			want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "replace in non-UTF-8 file", tool: "replace", files: map[string]string{"latin1.txt": "caf\xe9 MARK \xff\n"},
			in: map[string]any{"file_path": "latin1.txt", "old_string": "MARK", "new_string": tok}, want: "deny", rule: "github-pat", secrets: []string{tok}},
		{name: "replace on missing file", tool: "replace", in: map[string]any{"file_path": "missing.py", "old_string": "x", "new_string": "T='" + tok + "'"},
			want: "deny", rule: "github-pat", note: "file missing", secrets: []string{tok}},
		{name: "replace with old_string not found", tool: "replace", files: map[string]string{"n.py": "A = 1\n"},
			in: map[string]any{"file_path": "n.py", "old_string": "B = 2", "new_string": "B = 3"}, want: "allow", note: "scanned new_string alone"},
		{name: "write_file without file_path", tool: "write_file", in: map[string]any{"content": tok}, want: "deny", rule: "hook.bad-input", secrets: []string{tok}},
		{name: "huge content", tool: "write_file", in: map[string]any{"file_path": "huge.txt", "content": strings.Repeat("plain text line\n", 300_000) + tok},
			want: "deny", rule: "secrets.too-large-to-scan", secrets: []string{tok}},

		// Actions and modes.
		{name: "redact write", tool: "write_file", in: map[string]any{"file_path": "r.py", "content": "T = \"" + tok + "\"\n"},
			env: map[string]string{"GEMINI_GUARD_SECRETS_ACTION": "redact"}, want: "rewrite", rule: "github-pat", secrets: []string{tok}},
		{name: "redact replace", tool: "replace", files: map[string]string{"r2.py": "A = 1\n"},
			in:  map[string]any{"file_path": "r2.py", "instruction": "add", "old_string": "A = 1", "new_string": "A = \"" + key + "\""},
			env: map[string]string{"GEMINI_GUARD_SECRETS_ACTION": "redact"}, want: "rewrite", rule: "aws-access-token", secrets: []string{key}},
		{name: "redact shell", tool: "run_shell_command", in: map[string]any{"command": "git push https://x:" + tok + "@github.com/o/r", "description": "push"},
			env: map[string]string{"GEMINI_GUARD_SECRETS_ACTION": "redact"}, want: "rewrite", rule: "github-pat", secrets: []string{tok}},
		{name: "warn mode", tool: "write_file", in: map[string]any{"file_path": "w.py", "content": tok},
			env: map[string]string{"GEMINI_GUARD_MODE": "warn"}, want: "allow", note: "would have blocked", secrets: []string{tok}},
		{name: "disabled rule", tool: "write_file", in: map[string]any{"file_path": "d.py", "content": "x " + tok + " y"},
			env: map[string]string{"GEMINI_GUARD_DISABLED_RULES": "github-pat"}, want: "allow", secrets: []string{tok}},
		{name: "skip path", tool: "write_file", in: map[string]any{"file_path": "testdata/fixture.txt", "content": tok},
			env: map[string]string{"GEMINI_GUARD_SECRETS_SKIP_PATHS": "testdata/**"}, want: "allow", secrets: []string{tok}},
	}
}

// providerCases writes, replaces and runs the generated sample of every
// content rule of the built-in set.
func providerCases() []hookCase {
	samples, _ := secrettest.RuleSamples()
	var out []hookCase
	for _, s := range samples {
		secrets := findSecrets(s.Text)
		out = append(out,
			hookCase{name: "write " + s.RuleID, tool: "write_file", in: map[string]any{"file_path": "p/" + s.RuleID + ".txt", "content": s.Text},
				want: "deny", rule: s.RuleID, secrets: secrets},
			hookCase{name: "replace " + s.RuleID, tool: "replace", files: map[string]string{"p/r.txt": "header\nPLACEHOLDER\nfooter\n"},
				in: map[string]any{"file_path": "p/r.txt", "old_string": "PLACEHOLDER", "new_string": s.Text}, want: "deny", rule: s.RuleID, secrets: secrets},
			hookCase{name: "shell " + s.RuleID, tool: "run_shell_command", in: map[string]any{"command": "cat >> notes.txt <<'EOF'\n" + s.Text + "EOF\n"},
				want: "deny", rule: s.RuleID, secrets: secrets},
		)
	}
	return out
}

// findSecrets returns the secrets the built-in scanner finds in text.
func findSecrets(text string) []string {
	var out []string
	for _, f := range secrettest.Builtin().MustScan(text) {
		out = append(out, f.Secret, text[f.Start:f.End])
	}
	return out
}

// runHook runs the hook on stdin with the environment getenv and the
// built-in rules' scanner.
func runHook(t testing.TB, stdin io.Reader, stdout io.Writer, getenv func(string) string) {
	t.Helper()
	assert.Zero(t, secretguard.Run(stdin, stdout, secretguard.HookEnv{Getenv: getenv, Scanner: secrettest.CachedScanner}))
}

// runCase runs c in fresh directories and returns the raw answer.
func runCase(t *testing.T, c hookCase) (string, hook.Output) {
	t.Helper()
	ws, home := t.TempDir(), t.TempDir()
	expand := func(p string) string {
		if strings.HasPrefix(p, "~/") {
			return filepath.Join(home, p[2:])
		}
		return p
	}
	for name, body := range c.files {
		p := expand(name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, p)
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	in := map[string]any{}
	for k, v := range c.in {
		if s, ok := v.(string); ok && k == "file_path" {
			v = expand(s)
		}
		in[k] = v
	}
	call, err := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": ws, "hook_event_name": "BeforeTool", "tool_name": c.tool, "tool_input": in,
	})
	require.NoError(t, err)
	env := map[string]string{"HOME": home}
	for k, v := range c.env {
		env[k] = v
	}
	var stdout bytes.Buffer
	runHook(t, bytes.NewReader(call), &stdout, func(k string) string { return env[k] })
	raw := stdout.String()
	var out hook.Output
	require.NoError(t, json.Unmarshal([]byte(raw), &out), raw)
	assert.Equal(t, 1, strings.Count(raw, "\n"), "one JSON object, one line")
	for name, body := range c.files {
		p := expand(name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, p)
		}
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, body, string(got), "the hook never writes %s", name)
	}
	return raw, out
}

func TestHookDecisions(t *testing.T) {
	for _, c := range append(cases(), providerCases()...) {
		t.Run(c.name, func(t *testing.T) {
			_, out := runCase(t, c)
			switch c.want {
			case "deny":
				assert.Equal(t, "deny", out.Decision)
				assertNamesRuleThatFound(t, c, out.Reason)
				if !strings.HasPrefix(c.rule, "hook.") {
					assert.Contains(t, out.Reason, "Safer:")
				}
			case "allow":
				assert.Empty(t, out.Decision, out.Reason)
				assert.Nil(t, out.Specific)
			case "rewrite":
				require.NotNil(t, out.Specific)
				assert.Empty(t, out.Decision)
				assert.Contains(t, out.SystemMessage, c.rule)
				var got map[string]any
				require.NoError(t, json.Unmarshal(out.Specific.ToolInput, &got))
				for k := range c.in {
					assert.Contains(t, got, k, "complete tool_input")
				}
				assert.Contains(t, string(out.Specific.ToolInput), "[REDACTED:")
			default:
				t.Fatalf("bad want %q", c.want)
			}
			if c.note != "" {
				assert.Contains(t, out.SystemMessage, c.note)
			}
		})
	}
}

// TestNoSecretInAnyAnswer: across every case, no answer (reason,
// systemMessage, rewritten input) contains a secret, its encoded form, or a
// long enough piece of one to rebuild it.
func TestNoSecretInAnyAnswer(t *testing.T) {
	all := append(cases(), providerCases()...)
	require.Greater(t, len(all), 600)
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			raw, _ := runCase(t, c)
			var answer strings.Builder
			answer.WriteString(raw)
			// JSON escapes some characters; compare against the decoded
			// strings too.
			var generic map[string]any
			require.NoError(t, json.Unmarshal([]byte(raw), &generic))
			collect(&answer, generic)
			text := answer.String()
			for _, p := range public() {
				text = strings.ReplaceAll(text, p, "")
			}
			for _, s := range c.secrets {
				assert.NotContains(t, text, s, "secret shown")
				if piece := leakedPiece(text, s); piece != "" {
					t.Errorf("answer shows %d characters of a secret", len(piece))
				}
			}
		})
	}
}

// public are the rule ids and descriptions of the built-in rules, which
// answers name and which may share a prefix with a secret
// (rubygems-api-token and rubygems_...): not a leak.
var public = sync.OnceValue(func() []string {
	cfg, err := detector.Builtin()
	if err != nil {
		panic(err)
	}
	var out []string
	for _, r := range cfg.Rules {
		out = append(out, r.ID, r.Description)
	}
	return out
})

func collect(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString("\n" + v)
	case map[string]any:
		for _, x := range v {
			collect(b, x)
		}
	case []any:
		for _, x := range v {
			collect(b, x)
		}
	}
}

// leakedPiece returns a piece of secret longer than a mask shows (a tenth
// of it, at least 8 characters) that text contains, or "". Well-known
// prefixes (ghp_, AKIA, -----BEGIN) are shorter than that.
func leakedPiece(text, secret string) string {
	n := max(8, len(secret)/10+1)
	for i := 0; i+n <= len(secret); i++ {
		p := secret[i : i+n]
		if strings.TrimSpace(p) != p || strings.Count(p, p[:1]) == len(p) {
			continue // whitespace-edged or repetitive: not identifying
		}
		if strings.Contains(text, p) {
			return p
		}
	}
	return ""
}

// assertNamesRuleThatFound: the reason names the case's rule or, when
// another rule found the same secret and was preferred (two vendor rules
// of one shape, such as Bittrex's access and secret keys, or two generic
// rules), a rule that the scanner also reports for the case's text, beside
// the case's own rule.
func assertNamesRuleThatFound(t *testing.T, c hookCase, reason string) {
	t.Helper()
	if strings.Contains(reason, c.rule) {
		return
	}
	named, _, _ := strings.Cut(strings.TrimPrefix(reason, "gemini-guard blocked "), ":")
	var text strings.Builder
	for _, k := range []string{"content", "new_string", "command"} {
		if s, ok := c.in[k].(string); ok {
			text.WriteString(s + "\n")
		}
	}
	found, err := secrettest.CachedScanner(secrets.Options{}).Scan(text.String())
	require.NoError(t, err)
	var ids []string
	for _, f := range found {
		ids = append(ids, f.RuleID)
	}
	assert.Contains(t, ids, c.rule, "the case's own rule finds its secret")
	assert.Contains(t, ids, named, "the reason names a rule that found the secret: %s", reason)
}
