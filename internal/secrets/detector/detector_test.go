package detector_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

func ghp(seed uint64) string { return secrettest.Token(seed, "ghp_", 36) }

// pemKey is an RSA-style private key block with random body lines.
func pemKey(seed uint64) string {
	return secrettest.PrivateKey(secrettest.NewRand(seed), "RSA", 6, 64)
}

// scanner is a detector for options without a user config (those build
// any number of times per process).
type scanner struct{ d *detector.Detector }

func (s scanner) Scan(text string) []secrets.Finding { return s.d.Scan(context.Background(), text) }
func (s scanner) RuleIDs() []string                  { return s.d.RuleIDs() }

func newScanner(t *testing.T, opts secrets.Options) scanner {
	t.Helper()
	require.Empty(t, opts.ConfigPath, "a user config loads once per process: use scanInChild")
	d, err := detector.New(opts)
	require.NoError(t, err)
	return scanner{d}
}

func TestScanRanges(t *testing.T) {
	s := newScanner(t, secrets.Options{})
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
	s := newScanner(t, secrets.Options{})
	text := "b=" + ghp(5) + "\n" + pemKey(6) + "\na=" + ghp(7) + "\n"
	got := s.Scan(text)
	require.Len(t, got, 3)
	for i := 1; i < len(got); i++ {
		assert.Less(t, got[i-1].Start, got[i].Start)
	}
}

func TestScanEmpty(t *testing.T) {
	s := newScanner(t, secrets.Options{})
	assert.Nil(t, s.Scan(""))
	assert.Nil(t, s.Scan("package main\n\nfunc main() {}\n"))
}

func TestAllowComment(t *testing.T) {
	text := "t = \"" + ghp(8) + "\" // gitleaks:allow\n"
	assert.Len(t, newScanner(t, secrets.Options{}).Scan(text), 1, "ignored by default")
	assert.Empty(t, newScanner(t, secrets.Options{TrustAllowComments: true}).Scan(text), "honoured when trusted")
}

func TestDisabledRules(t *testing.T) {
	text := "t = \"" + ghp(9) + "\"\n"
	s := newScanner(t, secrets.Options{DisabledRules: []string{"github-pat"}})
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
	acme := "acme_" + secrettest.NewRand(3).From(secrettest.LowerAlnum, 24)
	custom := `
[extend]
disabledRules = ["github-pat"]

[[rules]]
id = "acme-token"
description = "ACME internal token"
regex = '''acme_[a-z0-9]{24}'''
keywords = ["acme_"]

[[rules]]
id = "generic-api-key"
description = "merged into gitleaks' rule by [extend]"
[[rules.allowlists]]
regexes = ['''^ignored-by-user''']
`
	for name, body := range map[string]string{"extend absent": custom, "useDefault": "[extend]\nuseDefault = true\n" + strings.TrimPrefix(custom, "\n[extend]\n")} {
		t.Run(name, func(t *testing.T) {
			res := scanInChild(t, secrets.Options{ConfigPath: write(strings.ReplaceAll(name, " ", "_")+".toml", body)}, "x = "+acme+"\nt = \""+ghp(4)+"\"\n")
			require.Empty(t, res.Err)
			assert.Contains(t, res.RuleIDs, "acme-token")
			assert.Contains(t, res.RuleIDs, "private-key", "built-in rules stay")
			assert.Contains(t, res.RuleIDs, "docker-hub-pat", "gemini-guard's additions stay")
			assert.NotContains(t, res.RuleIDs, "github-pat")
			require.Len(t, res.Findings, 1)
			assert.Equal(t, "acme-token", res.Findings[0].RuleID)
			assert.Equal(t, "merged into gitleaks' rule by [extend]", res.Descriptions["generic-api-key"])
		})
	}

	for name, body := range map[string]string{
		"bad toml":         "[[rules]\n",
		"bad regex":        "[[rules]]\nid = \"x\"\nregex = '''(('''\nkeywords = [\"x\"]\n",
		"extend path":      "[extend]\npath = \"other.toml\"\n",
		"path and default": "[extend]\npath = \"other.toml\"\nuseDefault = true\n",
	} {
		t.Run(name, func(t *testing.T) {
			res := scanInChild(t, secrets.Options{ConfigPath: write(strings.ReplaceAll(name, " ", "_")+".toml", body)}, "x")
			assert.True(t, res.ConfigError, "%s", res.Err)
		})
	}
	t.Run("missing", func(t *testing.T) {
		res := scanInChild(t, secrets.Options{ConfigPath: filepath.Join(dir, "nope.toml")}, "x")
		assert.True(t, res.ConfigError, "%s", res.Err)
	})
	t.Run("second config in one process", func(t *testing.T) {
		res := scanInChild(t, secrets.Options{ConfigPath: write("twice.toml", custom)}, "x", "again")
		assert.True(t, res.ConfigError)
		assert.Contains(t, res.Err, "one extended config per process")
	})
}

// TestScanConcurrent: one detector, many goroutines (the scanner process
// serves clients concurrently); results equal a sequential scan.
func TestScanConcurrent(t *testing.T) {
	samples, _ := secrettest.RuleSamples()
	want := make([][]secrets.Finding, len(samples))
	seq := newScanner(t, secrets.Options{})
	for i, s := range samples {
		want[i] = seq.Scan(s.Text)
	}
	par := newScanner(t, secrets.Options{})
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

// TestGitleaksVersion: GitleaksVersion is the gitleaks release in go.mod.
func TestGitleaksVersion(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*github\.com/zricethezav/gitleaks/v8 (\S+)`).FindSubmatch(mod)
	require.NotNil(t, m, "gitleaks in go.mod")
	assert.Equal(t, string(m[1]), detector.GitleaksVersion)
}
