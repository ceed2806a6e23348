package secrets_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/keywords"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

func ghp(seed uint64) string { return secrettest.Token(seed, "ghp_", 36) }

// pemKey is an RSA-style private key block with random body lines.
func pemKey(seed uint64) string {
	return secrettest.PrivateKey(secrettest.NewRand(seed), "RSA", 6, 64)
}

func scanner(t *testing.T, opts secrets.Options) *secrets.Scanner {
	t.Helper()
	s, err := secrets.NewScanner(opts)
	require.NoError(t, err)
	return s
}

func TestScanRanges(t *testing.T) {
	s := scanner(t, secrets.Options{})
	tok := ghp(1)
	key := pemKey(2)
	b64 := base64.StdEncoding.EncodeToString([]byte("token=" + ghp(3)))
	tests := []struct {
		name     string
		text     string
		rule     string
		span     string // text[Start:End]
		line     int
		decoded  bool
		multiple int // findings of rule expected (default 1)
	}{
		{name: "first line", text: tok, rule: "github-pat", span: tok, line: 1},
		{name: "later line", text: "a\nb\nconst t = \"" + tok + "\"\n", rule: "github-pat", span: tok, line: 3},
		{name: "after multibyte", text: "héllo wörld\n// ✓\nx = \"" + tok + "\"", rule: "github-pat", span: tok, line: 3},
		{name: "crlf", text: "a\r\nb\r\nx=" + tok + "\r\n", rule: "github-pat", span: tok, line: 3},
		{name: "pem key spans lines", text: "cfg:\n" + key + "\n", rule: "private-key", span: key, line: 2},
		{name: "base64 wrapped token", text: "x\ndata: " + b64 + "\n", rule: "github-pat", span: b64, line: 2, decoded: true},
		{name: "every occurrence", text: "a=" + tok + "\nb=" + tok + "\n", rule: "github-pat", span: tok, line: 1, multiple: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []secrets.Finding
			for _, f := range s.Scan(tt.text) {
				if f.RuleID == tt.rule {
					got = append(got, f)
				}
			}
			want := max(tt.multiple, 1)
			require.Len(t, got, want)
			f := got[0]
			assert.Equal(t, tt.span, tt.text[f.Start:f.End], "range")
			assert.Equal(t, tt.line, f.Line)
			assert.Equal(t, tt.decoded, f.Decoded)
			for _, g := range got {
				assert.Equal(t, tt.span, tt.text[g.Start:g.End])
			}
		})
	}
}

func TestScanSorted(t *testing.T) {
	s := scanner(t, secrets.Options{})
	text := "b=" + ghp(5) + "\n" + pemKey(6) + "\na=" + ghp(7) + "\n"
	got := s.Scan(text)
	require.Len(t, got, 3)
	for i := 1; i < len(got); i++ {
		assert.Less(t, got[i-1].Start, got[i].Start)
	}
}

func TestScanEmpty(t *testing.T) {
	s := scanner(t, secrets.Options{})
	assert.Nil(t, s.Scan(""))
	assert.Nil(t, s.Scan("package main\n\nfunc main() {}\n"))
}

func TestAllowComment(t *testing.T) {
	text := "t = \"" + ghp(8) + "\" // gitleaks:allow\n"
	assert.Len(t, scanner(t, secrets.Options{}).Scan(text), 1, "ignored by default")
	assert.Empty(t, scanner(t, secrets.Options{TrustAllowComments: true}).Scan(text), "honoured when trusted")
}

func TestDisabledRules(t *testing.T) {
	text := "t = \"" + ghp(9) + "\"\n"
	s := scanner(t, secrets.Options{DisabledRules: []string{"github-pat"}})
	assert.NotContains(t, s.RuleIDs(), "github-pat")
	for _, f := range s.Scan(text) {
		assert.NotEqual(t, "github-pat", f.RuleID)
	}
}

func TestUserConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	custom := write("custom.toml", `
[extend]
disabledRules = ["github-pat"]

[[rules]]
id = "acme-token"
description = "ACME internal token"
regex = '''acme_[a-z0-9]{24}'''
keywords = ["acme_"]
`)
	s := scanner(t, secrets.Options{ConfigPath: custom})
	ids := s.RuleIDs()
	assert.Contains(t, ids, "acme-token")
	assert.Contains(t, ids, "private-key", "built-in rules stay")
	assert.NotContains(t, ids, "github-pat")
	acme := "acme_" + secrettest.NewRand(3).From(secrettest.LowerAlnum, 24)
	got := s.Scan("x = " + acme)
	require.Len(t, got, 1)
	assert.Equal(t, "acme-token", got[0].RuleID)

	for name, body := range map[string]string{
		"bad toml":  "[[rules]\n",
		"bad regex": "[[rules]]\nid = \"x\"\nregex = '''(('''\nkeywords = [\"x\"]\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := secrets.NewScanner(secrets.Options{ConfigPath: write(strings.ReplaceAll(name, " ", "_")+".toml", body)})
			assert.Error(t, err)
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, err := secrets.NewScanner(secrets.Options{ConfigPath: filepath.Join(dir, "nope.toml")})
		assert.Error(t, err)
	})
}

// TestPrefilterConservative: wherever the full scan finds something, the
// gitleaks-free prefilter says it may.
func TestPrefilterConservative(t *testing.T) {
	samples, _ := secrettest.RuleSamples()
	require.NotEmpty(t, samples)
	s := scanner(t, secrets.Options{})
	for _, smp := range samples {
		assert.True(t, keywords.MayContainSecret(smp.Text), "rule %s", smp.RuleID)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte("token=" + ghp(11)))
	for _, text := range []string{b64, "x=" + pemKey(12)} {
		require.NotEmpty(t, s.Scan(text))
		assert.True(t, keywords.MayContainSecret(text))
	}
	assert.False(t, keywords.MayContainSecret("hello world, nothing to see"))
}

// TestScanConcurrent: one scanner, many goroutines (rules compile lazily
// under sync.Once); results equal a sequential scan. Run with -race.
func TestScanConcurrent(t *testing.T) {
	samples, _ := secrettest.RuleSamples()
	want := make([][]secrets.Finding, len(samples))
	seq := scanner(t, secrets.Options{DisabledRules: []string{"none"}})
	for i, s := range samples {
		want[i] = seq.Scan(s.Text)
	}
	par := scanner(t, secrets.Options{DisabledRules: []string{"none"}}) // a fresh engine: nothing compiled
	got := make([][]secrets.Finding, len(samples))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(samples); i += 4 {
				got[i] = par.Scan(samples[i].Text)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, want, got)
}
