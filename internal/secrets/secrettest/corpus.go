package secrettest

import (
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// Corpus returns real text: Go standard library sources, gitleaks' rule
// generators and test data (full of sample secrets), and for every
// generated rule sample its plain, base64, hex, percent and line-wrapped
// forms. Files are capped in size to keep gitleaks' side fast.
func Corpus() map[string]string {
	out := map[string]string{}
	add := func(name, text string) {
		if len(text) > 64<<10 {
			text = text[:64<<10]
		}
		out[name] = text
	}
	walk := func(root string, every int, ok func(string) bool) {
		n := 0
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !ok(p) {
				return nil
			}
			n++
			if n%every != 0 {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil {
				add(p, string(data))
			}
			return nil
		})
	}
	goroot := runtime.GOROOT()
	walk(filepath.Join(goroot, "src", "net"), 4, func(p string) bool { return strings.HasSuffix(p, ".go") })
	walk(filepath.Join(goroot, "src", "crypto"), 6, func(p string) bool { return strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".pem") })
	walk(filepath.Join(goroot, "src", "encoding"), 3, func(p string) bool { return strings.HasSuffix(p, ".go") })
	gl := GitleaksDir()
	walk(filepath.Join(gl, "cmd", "generate", "config", "rules"), 1, func(p string) bool { return strings.HasSuffix(p, ".go") })
	walk(filepath.Join(gl, "testdata"), 1, func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Size() < 1<<20 && !strings.Contains(p, "archives")
	})
	walk(filepath.Join(gl, "config"), 1, func(p string) bool { return strings.HasSuffix(p, ".toml") })
	samples, _ := RuleSamples()
	for _, s := range samples {
		add("sample/"+s.RuleID, s.Text)
		add("sample-b64/"+s.RuleID, "v = "+base64.StdEncoding.EncodeToString([]byte(s.Text))+"\n")
		add("sample-hex/"+s.RuleID, "v = \""+hex.EncodeToString([]byte(s.Text))+"\"\n")
		add("sample-pct/"+s.RuleID, "u=https://x.example/?q="+url.QueryEscape(s.Text)+"\n")
		add("sample-ctx/"+s.RuleID, "line one\n\tprefix "+s.Text+"\n# gitleaks:allow "+s.Text+"\n\n"+s.Text)
		// Characters whose case folding or lowercase crosses into ASCII
		// (Kelvin sign, long s, dotted I), which the fast paths special-case.
		add("sample-fold/"+s.RuleID, strings.NewReplacer("k", "\u212a", "K", "\u212a", "s", "\u017f").Replace(s.Text)+"\n"+s.Text)
		add("sample-dotted/"+s.RuleID, "AP\u0130_KEY = "+s.Text+"\n\u0130 "+strings.ToUpper(s.Text))
	}
	return out
}

// GitleaksDir is gitleaks' source in the module cache (it may be absent:
// callers skip then).
func GitleaksDir() string {
	gomodcache, err := filepath.Abs(filepath.Join(os.Getenv("GOMODCACHE")))
	if os.Getenv("GOMODCACHE") == "" || err != nil {
		home, _ := os.UserHomeDir()
		gomodcache = filepath.Join(home, "go", "pkg", "mod")
	}
	return filepath.Join(gomodcache, "github.com", "zricethezav", "gitleaks", "v8@"+detector.GitleaksVersion)
}
