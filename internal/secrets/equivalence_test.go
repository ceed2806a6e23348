package secrets_test

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/keywords"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// gitleaksDetector is gitleaks' own detector for cfg, set up as the
// guard's engine runs: decoding depth 5, gitleaks:allow ignored unless
// trusted.
func gitleaksDetector(t testing.TB, cfg *secrets.Config, trust bool) *detect.Detector {
	t.Helper()
	logging.Logger = zerolog.Nop()
	data, err := toml.Marshal(cfg)
	require.NoError(t, err)
	var vc config.ViperConfig
	require.NoError(t, toml.Unmarshal(data, &vc))
	c, err := vc.Translate()
	require.NoError(t, err)
	d := detect.NewDetector(c)
	d.MaxDecodeDepth = secrets.MaxDecodeDepth
	d.IgnoreGitleaksAllow = !trust
	return d
}

func fromReport(fs []report.Finding) []secrets.GitleaksFinding {
	var out []secrets.GitleaksFinding
	for _, f := range fs {
		out = append(out, secrets.GitleaksFinding{
			RuleID: f.RuleID, StartLine: f.StartLine, EndLine: f.EndLine, StartColumn: f.StartColumn, EndColumn: f.EndColumn,
			Line: f.Line, Match: f.Match, Secret: f.Secret, Tags: f.Tags, Entropy: f.Entropy,
		})
	}
	return out
}

// canonical sorts findings into a comparable list (gitleaks returns them
// in map order).
func canonical(fs []secrets.GitleaksFinding) []string {
	var out []string
	for _, f := range fs {
		tags := slices.Clone(f.Tags)
		slices.Sort(tags)
		out = append(out, fmt.Sprintf("%s %d:%d-%d:%d entropy=%.4f tags=%v match=%q secret=%q line=%q",
			f.RuleID, f.StartLine, f.StartColumn, f.EndLine, f.EndColumn, f.Entropy, tags, f.Match, f.Secret, f.Line))
	}
	slices.Sort(out)
	return out
}

// corpus returns real text: Go standard library sources, gitleaks' rule
// generators and test data (full of sample secrets), and for every
// generated rule sample its plain, base64, hex, percent and line-wrapped
// forms. Files are capped in size to keep gitleaks' side fast.
func corpus(t testing.TB) map[string]string {
	t.Helper()
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
	gl := filepath.Join(gitleaksDir(t))
	walk(filepath.Join(gl, "cmd", "generate", "config", "rules"), 1, func(p string) bool { return strings.HasSuffix(p, ".go") })
	walk(filepath.Join(gl, "testdata"), 1, func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Size() < 1<<20 && !strings.Contains(p, "archives")
	})
	walk(filepath.Join(gl, "config"), 1, func(p string) bool { return strings.HasSuffix(p, ".toml") })
	samples, _ := secrettest.RuleSamples()
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

func gitleaksDir(t testing.TB) string {
	t.Helper()
	gomodcache, err := filepath.Abs(filepath.Join(os.Getenv("GOMODCACHE")))
	if os.Getenv("GOMODCACHE") == "" || err != nil {
		home, _ := os.UserHomeDir()
		gomodcache = filepath.Join(home, "go", "pkg", "mod")
	}
	return filepath.Join(gomodcache, "github.com", "zricethezav", "gitleaks", "v8@"+secrets.GitleaksVersion)
}

// TestEquivalence: on real source files and secret samples, the guard's
// engine reports exactly what gitleaks' detector reports, for gitleaks'
// default rules and for the built-in set (defaults plus rules.toml), with
// gitleaks:allow ignored and trusted.
func TestEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs gitleaks' detector on a corpus")
	}
	if _, err := os.Stat(gitleaksDir(t)); err != nil {
		t.Skipf("gitleaks sources not in the module cache (%v): run go mod download", err)
	}
	texts := corpus(t)
	require.Greater(t, len(texts), 1000)
	def, err := secrets.BuildBuiltin([]byte(config.DefaultConfig), []byte("[extend]\nuseDefault = true\n"))
	require.NoError(t, err)
	builtin, err := secrets.BuiltinConfig()
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		cfg   *secrets.Config
		trust bool
		// viper: gitleaks' own NewDetectorDefaultConfig instead of cfg
		// passed through go-toml.
		viper bool
	}{
		{"gitleaks default detector", def, false, true},
		{"gitleaks default rules", def, false, false},
		{"built-in rules", builtin, false, false},
		{"built-in rules trusting gitleaks:allow", builtin, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			gl := gitleaksDetector(t, c.cfg, c.trust)
			if c.viper {
				var err error
				gl, err = detect.NewDetectorDefaultConfig()
				require.NoError(t, err)
				gl.MaxDecodeDepth = secrets.MaxDecodeDepth
				gl.IgnoreGitleaksAllow = !c.trust
			}
			ours, err := secrets.NewScannerForConfig(c.cfg, c.trust)
			require.NoError(t, err)
			total, differ := 0, 0
			names := make([]string, 0, len(texts))
			for n := range texts {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, name := range names {
				text := texts[name]
				want := canonical(fromReport(gl.DetectString(text)))
				got := canonical(secrets.DetectGitleaks(ours, text))
				total += len(want)
				if !assert.Equal(t, want, got, "%s", name) {
					differ++
					if differ > 5 {
						t.Fatal("too many differences")
					}
				}
			}
			t.Logf("%d texts, %d gitleaks findings, all identical", len(texts), total)
			assert.Greater(t, total, 500)
		})
	}
}

// TestPrefilterConservativeOnCorpus: on every corpus text where the full
// scan finds something, the gitleaks-free prefilter says it may (and the
// scanner's own check agrees).
func TestPrefilterConservativeOnCorpus(t *testing.T) {
	if _, err := os.Stat(gitleaksDir(t)); err != nil {
		t.Skipf("gitleaks sources not in the module cache (%v): run go mod download", err)
	}
	s, err := secrets.NewScanner(secrets.Options{})
	require.NoError(t, err)
	withFindings, skipped := 0, 0
	for name, text := range corpus(t) {
		found := len(s.Scan(text)) > 0
		if found {
			withFindings++
			assert.True(t, keywords.MayContainSecret(text), "%s", name)
			assert.True(t, s.MayContainSecret(text), "%s", name)
		} else if !keywords.MayContainSecret(text) {
			skipped++
		}
	}
	t.Logf("%d texts with findings, all passed by the prefilter; %d texts without findings it rules out", withFindings, skipped)
	assert.Greater(t, withFindings, 500)
}

// TestEquivalenceRareFeatures: composite rules (required, withinLines),
// skipReport, AND allowlists with stopwords, targeted line allowlists and
// secret groups behave as in gitleaks. The default rules use none of them,
// so a user's config is the only way in.
func TestEquivalenceRareFeatures(t *testing.T) {
	cfg, err := secrets.ParseConfig([]byte(`
[[rules]]
id = "primary-token"
regex = '''prim_[a-z0-9]{16}'''
keywords = ["prim_"]
[[rules.required]]
id = "aux-id"
withinLines = 2
[[rules]]
id = "aux-id"
regex = '''auxid_[a-z0-9]{8}'''
keywords = ["auxid_"]
skipReport = true
[[rules]]
id = "and-allow"
regex = '''andtok_([a-z0-9]{12})'''
secretGroup = 1
keywords = ["andtok_"]
[[rules.allowlists]]
condition = "AND"
regexes = ['''^test''']
stopwords = ["fake"]
[[rules]]
id = "groups"
regex = '''grp(?:_(a[a-z]{6})|-(b[a-z]{6}))'''
keywords = ["grp"]
[[allowlists]]
targetRules = ["and-allow"]
regexTarget = "line"
regexes = ['''#\s*ignore-me''']
[[allowlists]]
regexTarget = "match"
regexes = ['''(?i)^grp_aexampl''']
`))
	require.NoError(t, err)
	gl := gitleaksDetector(t, cfg, false)
	ours, err := secrets.NewScannerForConfig(cfg, false)
	require.NoError(t, err)
	texts := []string{
		"prim_0123456789abcdef\nauxid_abcdefgh\n",
		"prim_0123456789abcdef\n\n\n\nauxid_abcdefgh\n",
		"auxid_abcdefgh only\n",
		"prim_0123456789abcdef alone\n",
		"andtok_testfake1234 here\n",
		"andtok_test00001234 here\n",
		"andtok_fake00001234 here\n",
		"andtok_zzzz00001234 # ignore-me\n",
		"grp_abcdefg grp-bcdefgh grp_aexampl\n",
		"x " + base64.StdEncoding.EncodeToString([]byte("prim_0123456789abcdef auxid_abcdefgh")) + "\n",
	}
	total := 0
	for _, text := range texts {
		want := canonical(fromReport(gl.DetectString(text)))
		total += len(want)
		assert.Equal(t, want, canonical(secrets.DetectGitleaks(ours, text)), "%q", text)
	}
	t.Logf("%d gitleaks findings", total)
	assert.GreaterOrEqual(t, total, 5)
}
