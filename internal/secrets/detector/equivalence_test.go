package detector_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// canonical sorts findings into a comparable list (gitleaks returns them
// in map order).
func canonical(fs []report.Finding) []string {
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

// viperDetector loads a gitleaks config from TOML text exactly as the
// gitleaks command does (viper, Translate), set up as the guard runs it.
func viperDetector(t testing.TB, text string, trust bool) *detect.Detector {
	t.Helper()
	v := viper.New()
	v.SetConfigType("toml")
	require.NoError(t, v.ReadConfig(strings.NewReader(text)))
	var vc config.ViperConfig
	require.NoError(t, v.Unmarshal(&vc))
	cfg, err := vc.Translate()
	require.NoError(t, err)
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = secrets.MaxDecodeDepth
	d.IgnoreGitleaksAllow = !trust
	return d
}

// TestEquivalence: on real source files and secret samples, the detector
// reports what gitleaks reports when gitleaks loads the rules itself: the
// default rules (gitleaks' NewDetectorDefaultConfig, viper), and the
// built-in set (rules.toml through gitleaks' own [extend] useDefault), with
// gitleaks:allow ignored and trusted. What this guards is the loading: the
// built-in set reaches gitleaks through secrets.Config and go-toml, and a
// field lost on the way would change findings.
func TestEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs gitleaks' detector on a corpus")
	}
	if _, err := os.Stat(secrettest.GitleaksDir()); err != nil {
		t.Skipf("gitleaks sources not in the module cache (%v): run go mod download", err)
	}
	texts := secrettest.Corpus()
	require.Greater(t, len(texts), 1000)
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	slices.Sort(names)

	defaults, err := secrets.ParseConfig([]byte(config.DefaultConfig))
	require.NoError(t, err)
	// The guard's detectors are built before gitleaks loads the additions
	// by [extend]: that load leaves gitleaks' global extend depth at 1, and
	// every later Translate skips [[allowlists]] with targetRules.
	builtin := builtinDetector(secrets.Options{})(t)
	builtinTrust := builtinDetector(secrets.Options{TrustAllowComments: true})(t)
	// gitleaks' own [extend] useDefault: loadable once per process.
	additions := filepath.Join(t.TempDir(), "additions.toml")
	require.NoError(t, os.WriteFile(additions, []byte(detector.Additions), 0o600))
	v := viper.New()
	v.SetConfigFile(additions)
	require.NoError(t, v.ReadInConfig())
	var vc config.ViperConfig
	require.NoError(t, v.Unmarshal(&vc))
	extended, err := vc.Translate()
	require.NoError(t, err)

	for _, c := range []struct {
		name  string
		trust bool
		ours  func(t *testing.T) *detector.Detector
		ref   func(t *testing.T) *detect.Detector
	}{
		{"gitleaks default rules", false,
			func(t *testing.T) *detector.Detector {
				d, err := detector.NewFromConfig(defaults, false)
				require.NoError(t, err)
				return d
			},
			func(t *testing.T) *detect.Detector {
				d, err := detect.NewDetectorDefaultConfig()
				require.NoError(t, err)
				d.MaxDecodeDepth, d.IgnoreGitleaksAllow = secrets.MaxDecodeDepth, true
				return d
			}},
		{"built-in rules", false, func(*testing.T) *detector.Detector { return builtin }, extendedDetector(extended, false)},
		{"built-in rules trusting gitleaks:allow", true, func(*testing.T) *detector.Detector { return builtinTrust }, extendedDetector(extended, true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ours, ref := c.ours(t), c.ref(t)
			total, differ := 0, 0
			for _, name := range names {
				text := texts[name]
				want := canonical(ref.DetectString(text))
				got := canonical(ours.Raw(text))
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

func builtinDetector(opts secrets.Options) func(t *testing.T) *detector.Detector {
	return func(t *testing.T) *detector.Detector {
		d, err := detector.New(opts)
		require.NoError(t, err)
		return d
	}
}

func extendedDetector(cfg config.Config, trust bool) func(t *testing.T) *detect.Detector {
	return func(t *testing.T) *detect.Detector {
		d := detect.NewDetector(cfg)
		d.MaxDecodeDepth, d.IgnoreGitleaksAllow = secrets.MaxDecodeDepth, !trust
		return d
	}
}

// TestRanges: every finding on the corpus has a byte range inside the text;
// for one found as written, the range holds exactly the secret.
func TestRanges(t *testing.T) {
	if _, err := os.Stat(secrettest.GitleaksDir()); err != nil {
		t.Skipf("gitleaks sources not in the module cache (%v): run go mod download", err)
	}
	s := newScanner(t, secrets.Options{})
	n := 0
	for name, text := range secrettest.Corpus() {
		for _, f := range s.Scan(text) {
			n++
			require.True(t, 0 <= f.Start && f.Start < f.End && f.End <= len(text), "%s %s %d-%d", name, f.RuleID, f.Start, f.End)
			if !f.Decoded && f.Secret != "" {
				assert.Equal(t, f.Secret, text[f.Start:f.End], "%s %s", name, f.RuleID)
			}
		}
	}
	assert.Greater(t, n, 500)
}

// TestEquivalenceRareFeatures: composite rules (required, withinLines),
// skipReport, AND allowlists with stopwords, targeted line allowlists and
// secret groups survive the way a config reaches gitleaks (secrets.Config,
// go-toml). The default rules use none of them, so a user's config is the
// only way in.
func TestEquivalenceRareFeatures(t *testing.T) {
	text := `
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
`
	cfg, err := secrets.ParseConfig([]byte(text))
	require.NoError(t, err)
	gl := viperDetector(t, text, false)
	ours, err := detector.NewFromConfig(cfg, false)
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
		want := canonical(gl.DetectString(text))
		total += len(want)
		assert.Equal(t, want, canonical(ours.Raw(text)), "%q", text)
	}
	t.Logf("%d gitleaks findings", total)
	assert.GreaterOrEqual(t, total, 5)
}
