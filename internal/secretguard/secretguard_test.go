package secretguard_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func testEnv(t *testing.T, s settings.Settings, home string) secretguard.Env {
	t.Helper()
	return secretguard.Env{Settings: s, Home: home, Scanner: secrettest.CachedScanner}
}

func input(t *testing.T, kv ...any) json.RawMessage {
	t.Helper()
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

func ghp(seed uint64) string { return secrettest.Token(seed, "ghp_", 36) }

func check(t *testing.T, env secretguard.Env, ws, tool string, in json.RawMessage) secretguard.Decision {
	t.Helper()
	d, err := secretguard.Check(secretguard.Call{Tool: tool, Input: in, Cwd: ws}, env)
	require.NoError(t, err)
	return d
}

func TestNewSecretsOnly(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok := ghp(1)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "cfg.py"), []byte("A = 1\nTOKEN = \""+tok+"\"\nB = 2\n"), 0o644))

	t.Run("unrelated replace in a file holding a secret", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "cfg.py", "old_string", "B = 2", "new_string", "B = 3"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
	})
	t.Run("overwrite keeping the secret", func(t *testing.T) {
		d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "cfg.py", "content", "TOKEN = \""+tok+"\"\nC = 4\n"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
	})
	t.Run("moving the secret within the file", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "cfg.py", "old_string", "A = 1", "new_string", "A = 1\nCOPY = \""+tok+"\""))
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
	})
	t.Run("a second, new secret", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "cfg.py", "old_string", "B = 2", "new_string", "B = \""+ghp(2)+"\""))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
		assert.Equal(t, []string{"github-pat"}, d.Rules)
		assert.Contains(t, d.Verdict.What, "line 3")
	})
}

func TestSecretAcrossEditBoundary(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok := ghp(3)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n\nconst t = \""+tok[:20]+"PLACEHOLDER\"\n"), 0o644))
	d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "a.go", "old_string", "PLACEHOLDER", "new_string", tok[20:]))
	assert.Equal(t, verdict.Deny, d.Verdict.Action, "neither fragment is a secret, the file after the edit is")
	assert.Equal(t, []string{"github-pat"}, d.Rules)

	// Redact cannot cut a secret that only exists across the boundary.
	s := settings.Default()
	s.SecretsAction = settings.Redact
	d = check(t, testEnv(t, s, t.TempDir()), ws, secretguard.Replace, input(t, "file_path", "a.go", "old_string", "PLACEHOLDER", "new_string", tok[20:]))
	assert.Equal(t, verdict.Deny, d.Verdict.Action)
	assert.Contains(t, strings.Join(d.Verdict.Notes, " "), "spans the edit boundary")
}

func TestLargeFileEditScansAroundTheEdit(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	var b strings.Builder
	for i := range 4000 {
		b.WriteString("line " + strings.Repeat("y", i%50) + " end\n")
	}
	b.WriteString("MARKER\n")
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big.txt"), []byte(b.String()), 0o644))
	d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "big.txt", "old_string", "MARKER", "new_string", "key = \""+ghp(4)+"\""))
	assert.Equal(t, verdict.Deny, d.Verdict.Action)
	assert.Contains(t, d.Verdict.What, "line 4001", "line numbers count the unscanned part")
}

func TestRedact(t *testing.T) {
	ws := t.TempDir()
	s := settings.Default()
	s.SecretsAction = settings.Redact
	env := testEnv(t, s, t.TempDir())
	tok := ghp(5)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "x.py"), []byte("A = 1\n"), 0o644))
	b64 := base64.StdEncoding.EncodeToString([]byte("token=" + ghp(6)))

	tests := []struct {
		name, tool string
		in         json.RawMessage
		field      string
		keep       map[string]any
	}{
		{"write_file", secretguard.WriteFile, input(t, "file_path", "y.py", "content", "T = '"+tok+"'\nU = '"+tok+"'\n"), "content", map[string]any{"file_path": "y.py"}},
		{"replace", secretguard.Replace, input(t, "file_path", "x.py", "instruction", "add token", "old_string", "A = 1", "new_string", "A = '"+tok+"'", "allow_multiple", false), "new_string",
			map[string]any{"file_path": "x.py", "instruction": "add token", "old_string": "A = 1", "allow_multiple": false}},
		{"shell", secretguard.Shell, input(t, "command", "curl -H 'Authorization: token "+tok+"' https://api.github.com", "description", "call api", "dir_path", "sub"), "command",
			map[string]any{"description": "call api", "dir_path": "sub"}},
		{"base64 in write", secretguard.WriteFile, input(t, "file_path", "z.txt", "content", "data: "+b64+"\n"), "content", map[string]any{"file_path": "z.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := check(t, env, ws, tt.tool, tt.in)
			require.Equal(t, verdict.Rewrite, d.Verdict.Action)
			var got map[string]any
			require.NoError(t, json.Unmarshal(d.ToolInput, &got))
			for k, v := range tt.keep {
				assert.Equal(t, v, got[k], "field %s kept", k)
			}
			text := got[tt.field].(string)
			assert.NotContains(t, text, tok)
			assert.NotContains(t, text, b64)
			assert.Contains(t, text, "[REDACTED:")
			assert.NotContains(t, d.UserMessage, tok)
			assert.Equal(t, verdict.Deny, d.Blocked.Action, "warn mode reports the block")
		})
	}
	s.MarkerRule = false
	d := check(t, testEnv(t, s, t.TempDir()), ws, secretguard.WriteFile, input(t, "file_path", "y.py", "content", tok))
	assert.Contains(t, string(d.ToolInput), `"[REDACTED]"`)
}

func TestProtectedFiles(t *testing.T) {
	ws := t.TempDir()
	home := t.TempDir()
	s := settings.Default()
	s.GitleaksConfig = "conf/leaks.toml"
	env := testEnv(t, s, home)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "real.toml"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(ws, ".gitleaks.toml"), filepath.Join(ws, "innocent.txt")))

	tests := []struct {
		name, path, content string
		denied              bool
	}{
		{"workspace gitleaks config", ".gitleaks.toml", "[allowlist]\nregexes=['.*']\n", true},
		{"nested gitleaks config", "sub/.gitleaks.toml", "x", true},
		{"gitleaks ignore", ".gitleaksignore", "x", true},
		{"case-insensitive", ".GitLeaks.TOML", "x", true},
		{"configured gitleaks config", "conf/leaks.toml", "x", true},
		{"symlink to protected file", "innocent.txt", "x", true},
		{"user settings", filepath.Join(home, ".gemini", "settings.json"), "{}", true},
		{"extension dir", filepath.Join(home, ".gemini", "extensions", "gemini-guard", ".env"), "GEMINI_GUARD_MODE=warn\n", true},
		{"extension manifest", filepath.Join(home, ".gemini", "extensions", "gemini-guard", "hooks", "hooks.json"), "{}", true},
		{"workspace settings", ".gemini/settings.json", "{}", true},
		{"policies", ".gemini/policies/allow.toml", "x", true},
		{"workspace .env setting the guard", ".env", "DEBUG=1\nGEMINI_GUARD_SECRETS_ACTION=redact\n", true},
		{"export in .gemini/.env", ".gemini/.env", "export GEMINI_GUARD_MODE=warn\n", true},
		{"tighten-only project file", ".gemini/gemini-guard.toml", "mode = \"strict\"\n", false},
		{"plain .env", ".env", "DEBUG=1\n", false},
		{".env.example mentioning the guard", ".env.example", "GEMINI_GUARD_MODE=warn\n", false},
		{"ordinary file", "main.go", "package main\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", tt.path, "content", tt.content))
			if tt.denied {
				assert.Equal(t, verdict.Deny, d.Verdict.Action)
				assert.Equal(t, secretguard.RuleProtectedConfig, d.Verdict.RuleID)
			} else {
				assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.Message())
			}
		})
	}
}

func TestProtectedCommands(t *testing.T) {
	env := testEnv(t, settings.Default(), t.TempDir())
	ws := t.TempDir()
	tests := []struct {
		command string
		denied  bool
	}{
		{"echo '[allowlist]' > .gitleaks.toml", true},
		{"printf 'x' >>.gitleaksignore", true},
		{"rm -f .gitleaks.toml", true},
		{"sed -i 's/a/b/' ~/.gemini/settings.json", true},
		{"cp /tmp/x.json $HOME/.gemini/settings.json", true},
		{"echo GEMINI_GUARD_MODE=warn >> .env", true},
		{"gemini extensions disable gemini-guard", true},
		{"gemini extensions uninstall gemini-guard", true},
		{"cat .gitleaks.toml", false},
		{"grep -n rule .gitleaks.toml 2>/dev/null", false},
		{"ls ~/.gemini/extensions", false},
		{"echo GEMINI_GUARD_MODE is documented in README", false},
		{"gemini extensions list", false},
		{"go test ./...", false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			d := check(t, env, ws, secretguard.Shell, input(t, "command", tt.command))
			if tt.denied {
				assert.Equal(t, secretguard.RuleProtectedConfig, d.Verdict.RuleID)
			} else {
				assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.Message())
			}
		})
	}
}

func TestSkipPaths(t *testing.T) {
	ws := t.TempDir()
	s := settings.Default()
	s.SecretsSkipPaths = []string{"testdata/**", "*.golden", "fixtures/*.json"}
	env := testEnv(t, s, t.TempDir())
	tok := ghp(7)
	tests := []struct {
		path    string
		skipped bool
	}{
		{"testdata/a.txt", true},
		{"testdata/deep/b/c.txt", true},
		{"pkg/out.golden", true},
		{"fixtures/x.json", true},
		{"fixtures/sub/x.json", false},
		{"src/testdata.go", false},
		{"main.go", false},
		{"testdata/.gitleaks.toml", false}, // protected files are never skipped
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", tt.path, "content", "t = '"+tok+"'"))
			if tt.skipped {
				assert.Equal(t, verdict.Allow, d.Verdict.Action)
			} else {
				assert.Equal(t, verdict.Deny, d.Verdict.Action)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok := ghp(8)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "bin.dat"), []byte("\xff\xfe\x00\x01binary\x00\xc3(MARK\x80\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(ws, "dir"), 0o755))

	t.Run("replace in a non-UTF-8 file", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "bin.dat", "old_string", "MARK", "new_string", tok))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
	})
	t.Run("binary content", func(t *testing.T) {
		d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "b.bin", "content", "\x00\x01\x02 "+tok+" \x00"))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
	})
	t.Run("replace on a missing file scans new_string", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "nope.py", "old_string", "a", "new_string", tok))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
		assert.Contains(t, strings.Join(d.Verdict.Notes, " "), "file missing")
		d = check(t, env, ws, secretguard.Replace, input(t, "file_path", "nope.py", "old_string", "a", "new_string", "harmless"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
		assert.Contains(t, strings.Join(d.Verdict.Notes, " "), "scanned new_string alone")
	})
	t.Run("old_string not found scans new_string", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "bin.dat", "old_string", "ZZZ", "new_string", tok))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
		assert.Contains(t, strings.Join(d.Verdict.Notes, " "), "old_string not found")
	})
	t.Run("content over MaxScan is denied, never allowed with its tail unscanned", func(t *testing.T) {
		pad := strings.Repeat("a quiet line of text\n", secretguard.MaxScan/21+1)
		for _, content := range []string{pad + tok, tok + "\n" + pad, pad} {
			d := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "huge.txt", "content", content))
			assert.Equal(t, verdict.Deny, d.Verdict.Action)
			assert.Equal(t, secretguard.RuleTooLarge, d.Verdict.RuleID)
			assert.Contains(t, d.Verdict.Message(), "more than the 4 MiB gemini-guard scans")
			assert.NotContains(t, d.Verdict.Message(), tok)
		}
		// A command and an outbound call too.
		d := check(t, env, ws, secretguard.Shell, input(t, "command", "echo "+pad))
		assert.Equal(t, secretguard.RuleTooLarge, d.Verdict.RuleID)
		d = check(t, env, ws, "web_fetch", input(t, "prompt", pad+tok))
		assert.Equal(t, secretguard.RuleTooLarge, d.Verdict.RuleID)
		// Up to MaxScan the content is scanned whole, its end too.
		d = check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "big.txt", "content", pad[:secretguard.MaxScan-len(tok)-1]+" "+tok))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
		assert.NotEqual(t, secretguard.RuleTooLarge, d.Verdict.RuleID)
	})
	for name, in := range map[string]json.RawMessage{
		"no file_path":     input(t, "content", tok),
		"not an object":    json.RawMessage(`"text"`),
		"wrong type":       input(t, "file_path", 3, "content", "x"),
		"missing":          nil,
		"directory target": input(t, "file_path", "dir", "content", "x"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := secretguard.Check(secretguard.Call{Tool: secretguard.WriteFile, Input: in, Cwd: ws}, env)
			assert.Error(t, err)
		})
	}
	t.Run("other tools pass", func(t *testing.T) {
		d, err := secretguard.Check(secretguard.Call{Tool: "read_file", Input: input(t, "file_path", "x")}, env)
		require.NoError(t, err)
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
	})
}

func TestWorkspaceGitleaksConfig(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	acme := "acme_" + secrettest.NewRand(9).From(secrettest.LowerAlnum, 24)
	in := input(t, "file_path", "a.txt", "content", "k = "+acme)
	assert.Equal(t, verdict.Allow, check(t, env, ws, secretguard.WriteFile, in).Verdict.Action)
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".gitleaks.toml"), []byte("[[rules]]\nid = \"acme\"\nregex = '''acme_[a-z0-9]{24}'''\nkeywords = [\"acme_\"]\n"), 0o644))
	d := check(t, env, ws, secretguard.WriteFile, in)
	assert.Equal(t, verdict.Deny, d.Verdict.Action)
	assert.Equal(t, "acme", d.Verdict.RuleID)
	// Built-in rules still apply on top of the workspace config.
	assert.Equal(t, verdict.Deny, check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "b.txt", "content", ghp(10))).Verdict.Action)

	broken := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(broken, ".gitleaks.toml"), []byte("[[rules]\n"), 0o644))
	d = check(t, env, broken, secretguard.WriteFile, input(t, "file_path", "b.txt", "content", ghp(10)))
	assert.Equal(t, verdict.Deny, d.Verdict.Action, "a broken config falls back to the built-in rules")
	assert.Contains(t, strings.Join(d.Verdict.Notes, " "), "could not load the gitleaks config")
}

// countingScanner counts the scans that reach the scanner. It scans with
// the built-in rules whatever the options: gitleaks loads one user config
// per process, and the tests here only need to see whether a scan happens.
type countingScanner struct {
	n  *int
	sc secrets.Scanner
}

func (c countingScanner) Scan(text string) ([]secrets.Finding, error) {
	*c.n++
	return c.sc.Scan(text)
}

// TestShellScanOnlyWhenARuleMayMatch: a command in which no rule can match
// is decided without the scanner (mayFind); anything a rule may match,
// including decoded text and the rules of a user's config, still reaches it.
func TestShellScanOnlyWhenARuleMayMatch(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "acme.toml"), []byte("[[rules]]\nid = \"acme-key\"\nregex = '''acme_[a-z0-9]{20}'''\nkeywords = [\"acme_\"]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "broken.toml"), []byte("[[rules]\n"), 0o644))
	tok := ghp(7)
	for _, tc := range []struct {
		name, command, config string
		scans                 int
		action                verdict.Action
	}{
		{"plain command", "git status && ls -la", "", 0, verdict.Allow},
		{"a keyword without a secret", "grep -rn token src/", "", 0, verdict.Allow},
		{"a token", "curl -H 'Authorization: token " + tok + "' https://api.github.com", "", 1, verdict.Deny},
		{"a base64 token", "echo " + base64.StdEncoding.EncodeToString([]byte("GITHUB_TOKEN="+tok)) + " | base64 -d > deploy.conf", "", 1, verdict.Deny},
		{"a user rule", "export ACME=acme_0123456789abcdefghij", "acme.toml", 1, verdict.Allow},
		{"a user rule, no keyword", "git status", "acme.toml", 0, verdict.Allow},
		{"a broken config", "git status", "broken.toml", 1, verdict.Allow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := settings.Default()
			s.GitleaksConfig = tc.config
			n := 0
			env := secretguard.Env{Settings: s, Home: t.TempDir(), Scanner: func(o secrets.Options) secrets.Scanner {
				return countingScanner{&n, secrettest.Builtin()}
			}}
			d := check(t, env, ws, secretguard.Shell, input(t, "command", tc.command))
			assert.Equal(t, tc.action, d.Verdict.Action)
			assert.Equal(t, tc.scans, n, "scans")
		})
	}
}

// TestReplaceAsApplied: the file is judged as Gemini CLI's edit tool will
// write it (issue 17 evasion): a value written first and given a keyword
// later, a secret completed through the tool's whitespace-flexible match,
// and a CRLF file.
func TestReplaceAsApplied(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	value := secrettest.Token(21, "", 32)
	tok := ghp(22)
	files := map[string]string{
		"later.py": "import os\nvalue = \"" + value + "\"\n",
		"flex.py":  "def f():\n    TOKEN = \"ghp_------------------" + tok[22:] + "\"\n    x = 1\n",
		"crlf.txt": "a\r\nTOKEN = PLACEHOLDER\r\nb\r\n",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644))
	}
	t.Run("value first, keyword later", func(t *testing.T) {
		before := check(t, env, ws, secretguard.WriteFile, input(t, "file_path", "fresh.py", "content", files["later.py"]))
		require.Equal(t, verdict.Allow, before.Verdict.Action, "the value alone is not a finding")
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "later.py", "old_string", "value =", "new_string", "api_key ="))
		assert.Equal(t, verdict.Deny, d.Verdict.Action, d.Verdict.Message())
	})
	t.Run("unrelated edit next to an existing finding", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(ws, "has.py"), []byte("api_key = \""+value+"\"\nx = 1\n"), 0o644))
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "has.py", "old_string", "x = 1", "new_string", "x = 2"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.Message())
	})
	t.Run("whitespace-tolerant match completes a token", func(t *testing.T) {
		// old_string differs from the file in spacing only: the tool's regex
		// strategy applies it, and the half of the token in new_string meets
		// the half already in the line.
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "flex.py",
			"old_string", "TOKEN  =  \"ghp_------------------", "new_string", "TOKEN = \""+tok[:22]))
		assert.Equal(t, verdict.Deny, d.Verdict.Action, d.Verdict.Message())
		d = check(t, env, ws, secretguard.Replace, input(t, "file_path", "flex.py", "old_string", "  x   =   1", "new_string", "x = 2"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.Message())
		assert.Empty(t, d.Verdict.Notes, "applied, not judged as new_string alone")
	})
	t.Run("crlf file", func(t *testing.T) {
		d := check(t, env, ws, secretguard.Replace, input(t, "file_path", "crlf.txt", "old_string", "TOKEN = PLACEHOLDER\nb", "new_string", "TOKEN = PLACEHOLDER\nb"))
		assert.Equal(t, verdict.Allow, d.Verdict.Action)
		d = check(t, env, ws, secretguard.Replace, input(t, "file_path", "crlf.txt", "old_string", "PLACEHOLDER\nb", "new_string", tok+"\nb"))
		assert.Equal(t, verdict.Deny, d.Verdict.Action)
		assert.Empty(t, d.Verdict.Notes, "applied to the normalised file")
	})
}

// TestShellAssembledSecrets: a secret put together when the command runs
// is scanned in the command's resolved words (issue 17 evasion).
func TestShellAssembledSecrets(t *testing.T) {
	ws := t.TempDir()
	env := testEnv(t, settings.Default(), t.TempDir())
	tok := ghp(31)
	rest := tok[4:]
	rot13 := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, tok)
	rev := []rune(tok)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	tests := []struct {
		name, command string
		deny          bool
	}{
		{"quotes inside the token", `curl -H "Authorization: token gh""p_` + rest + `" https://api.github.com`, true},
		{"variable concatenation", `a=ghp_; b=` + rest + `; git remote set-url origin https://x:$a$b@github.com/o/r`, true},
		{"printf hex escape", `printf '\x67hp_` + rest + `' > token.txt`, true},
		{"printf octal escape", `printf '\147hp_` + rest + `' > token.txt`, true},
		{"ANSI-C quoting", `echo $'\x67hp_` + rest + `' > token.txt`, true},
		{"echo -e escape", `echo -e '\x67hp_` + rest + `' > token.txt`, true},
		{"tr rot13", `echo '` + rot13 + `' | tr 'A-Za-z' 'N-ZA-Mn-za-m' > token.txt`, true},
		{"rev", `echo '` + string(rev) + `' | rev > token.txt`, true},
		{"sed substitution", `echo 'ghX_` + rest + `' | sed 's/ghX/ghp/' > token.txt`, true},
		{"near miss: words", `echo "hello" "world"`, false},
		{"near miss: variables", `a=foo; b=bar; echo $a$b`, false},
		{"near miss: printf", `printf '%s\n' "build done"`, false},
		{"near miss: tr", `echo hello | tr a-z A-Z`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := check(t, env, ws, secretguard.Shell, input(t, "command", tt.command))
			if tt.deny {
				assert.Equal(t, verdict.Deny, d.Verdict.Action)
				assert.NotContains(t, d.Verdict.Message(), tok, "never the secret")
			} else {
				assert.Equal(t, verdict.Allow, d.Verdict.Action, d.Verdict.Message())
			}
		})
	}
}
